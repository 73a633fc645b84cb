"""A weights folder the reader cannot use is named at once, with what is wrong in it.

``reader.json`` overrides the reader's settings: a misspelt key, a value of the wrong kind or a
file that is not JSON would otherwise be ignored or fail deep inside a read; a damaged network
file would fail with onnxruntime's own trace. Each is a :class:`vision.WeightsError` naming
the file."""

import json
import shutil

import pytest

from vision import WeightsError
from vision.reader import DEFAULT_WEIGHTS, Reader, Settings


def settings_from(tmp_path, text: str) -> Settings:
    (tmp_path / "reader.json").write_text(text)
    return Settings.load(tmp_path)


def test_a_folder_without_reader_json_has_the_default_settings(tmp_path):
    assert Settings.load(tmp_path) == Settings()


def test_known_settings_are_taken_lists_as_tuples_whole_numbers_as_floats(tmp_path):
    s = settings_from(tmp_path, json.dumps({"min_card": 1, "aspects": [1.78, 0.5], "det_turns": [0, 1],
                                            "one_deck": False, "aspect_when_empty": "off", "det_members": 2}))
    assert (s.min_card, s.aspects, s.det_turns, s.one_deck, s.aspect_when_empty, s.det_members) == (
        1.0, (1.78, 0.5), (0, 1), False, "off", 2)
    assert isinstance(s.min_card, float) and isinstance(s.aspects, tuple)


def test_a_misspelt_setting_is_named_with_the_one_meant(tmp_path):
    with pytest.raises(WeightsError, match=r"reader\.json: unknown setting 'min_crad' \(min_card\?\)"):
        settings_from(tmp_path, '{"min_crad": 0.5}')
    with pytest.raises(WeightsError, match=r"unknown setting 'colour'$"):
        settings_from(tmp_path, '{"colour": "red"}')


@pytest.mark.parametrize("text, what", [
    ("garbage", "not JSON"),
    ("", "not JSON"),
    ("[0.5]", "a JSON object"),
    ('{"min_card": "high"}', "min_card must be a number, not 'high'"),
    ('{"min_card": true}', "min_card must be a number, not True"),
    ('{"min_card": NaN}', "min_card must be a number, not nan"),  # Python's json reads NaN
    ('{"aspects": [1.78, Infinity]}', r"aspects must be a list of numbers, not \[1\.78, inf\]"),
    ('{"det_members": 1.5}', "det_members must be a whole number, not 1.5"),
    ('{"one_deck": 1}', "one_deck must be true or false, not 1"),
    ('{"aspects": 1.78}', r"aspects must be a list of numbers, not 1\.78"),
    ('{"aspects": [1.78, "wide"]}', r"aspects must be a list of numbers, not \[1\.78, 'wide'\]"),
    ('{"det_turns": [0, 1.5]}', r"det_turns must be a list of whole numbers, not \[0, 1\.5\]"),
    ('{"aspect_when_empty": 1}', "aspect_when_empty must be a string, not 1"),
    ('{"aspect_when_empty": "always"}', "unknown aspect_when_empty 'always'"),  # Settings' own check
])
def test_a_reader_json_the_reader_cannot_use_is_named(tmp_path, text, what):
    with pytest.raises(WeightsError, match=what) as caught:
        settings_from(tmp_path, text)
    assert str(tmp_path / "reader.json") in str(caught.value)


def test_a_reader_json_that_cannot_be_read_is_named(tmp_path):
    (tmp_path / "reader.json").mkdir()
    with pytest.raises(WeightsError, match=r"reader\.json: cannot be read"):
        Settings.load(tmp_path)


def test_a_damaged_network_is_named_not_traced(tmp_path):
    for f in DEFAULT_WEIGHTS.glob("*.onnx"):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "classifier.onnx").write_bytes(b"not a network")
    with pytest.raises(WeightsError, match=r"classifier\.onnx: not a network the reader can load"):
        Reader(tmp_path)


def test_weights_errors_are_value_errors_and_missing_files_stay_file_not_found(tmp_path):
    assert issubclass(WeightsError, ValueError)
    with pytest.raises(FileNotFoundError, match="model file missing"):
        Reader(tmp_path)


def test_every_setting_written_out_as_json_loads_back_the_same(tmp_path):
    """Each setting's kind is read from its annotation (Settings.load): a setting added with a
    kind the check does not know would fail here, not in a user's reader.json."""
    import dataclasses

    (tmp_path / "reader.json").write_text(json.dumps(dataclasses.asdict(Settings())))
    assert Settings.load(tmp_path) == Settings()
