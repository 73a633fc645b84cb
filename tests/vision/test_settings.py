"""The reader's settings (vision.settings) and a weights folder the reader cannot use: each
named at once, with what is wrong.

``reader.json`` overrides the settings a group at a time: a misspelt name, a value of the wrong
kind or out of its range, or a file that is not JSON would otherwise be ignored or fail deep
inside a read; a damaged network file would fail with onnxruntime's own trace. Each is a
:class:`vision.WeightsError` naming the file."""

import dataclasses
import json
import shutil

import pytest

from models.classifier import build_model, export_onnx
from vision import WeightsError
from vision.reader import DEFAULT_WEIGHTS, Reader
from vision.settings import Classification, Detection, Grouping, Looks, Settings, Suits


def settings_from(tmp_path, text: str) -> Settings:
    (tmp_path / "reader.json").write_text(text)
    return Settings.load(tmp_path)


def test_the_shipped_settings():
    s = Settings()
    assert (s.detection.conf, s.detection.iou, s.detection.scales) == (0.15, 0.5, (1.0, 0.5))
    assert (s.detection.small_side, s.detection.small_scales) == (30.0, (1.25,))
    assert (s.classification.margins, s.classification.tilts, s.classification.min_index) == (
        (1.0, 1.15, 1.3), (-6.0, 0.0, 6.0), 0.35)
    assert s.suits.black
    assert (s.grouping.min_card, s.grouping.uncertain_below) == (0.64, 0.8)
    assert (s.looks.aspects, s.looks.aspect_probe) == ((1.78, 0.75, 0.5625), 0.03)
    assert (s.looks.mirror, s.looks.mirror_strong, s.looks.mirror_least) == (True, 0.4, 0.3)


def test_a_folder_without_reader_json_has_the_default_settings(tmp_path):
    assert Settings.load(tmp_path) == Settings()
    assert Settings.load(DEFAULT_WEIGHTS) == Settings()  # the shipped folder carries none


def test_known_settings_are_taken_a_group_at_a_time_lists_as_tuples_whole_numbers_as_floats(tmp_path):
    s = settings_from(tmp_path, json.dumps({"grouping": {"min_card": 1, "one_deck": False},
                                            "looks": {"aspects": [1.78, 0.5]}, "detection": {"small_scales": []}}))
    assert (s.grouping.min_card, s.grouping.one_deck, s.looks.aspects, s.detection.small_scales) == (
        1.0, False, (1.78, 0.5), ())
    assert isinstance(s.grouping.min_card, float) and isinstance(s.looks.aspects, tuple)
    # the rest as shipped
    assert s.grouping.far_apart == 9.0 and s.looks.mirror and s.classification == Classification()
    assert settings_from(tmp_path, "{}") == Settings() == settings_from(tmp_path, '{"looks": {}}')


@pytest.mark.parametrize("text, what", [
    ('{"grouping": {"min_crad": 0.5}}', r"unknown setting grouping\.min_crad \(min_card\?\)"),
    ('{"grouping": {"colour": "red"}}', r"unknown setting grouping\.colour$"),
    ('{"grouping": {"mirror": false}}', r"unknown setting grouping\.mirror"),  # a setting of another group
    ('{"groupng": {"min_card": 0.5}}', r"unknown setting group 'groupng' \(grouping\?\)"),
    ('{"colours": {}}', r"unknown setting group 'colours'$"),
    ('{"min_card": 0.5}', r"unknown setting group 'min_card'"),  # the settings are grouped
])
def test_a_misspelt_setting_or_group_is_named_with_the_one_meant(tmp_path, text, what):
    with pytest.raises(WeightsError, match=what):
        settings_from(tmp_path, text)


@pytest.mark.parametrize("text, what", [
    ("garbage", "not JSON"),
    ("", "not JSON"),
    ("[0.5]", "must be a JSON object of setting groups, not list"),
    ('{"grouping": 0.5}', "grouping must be an object of settings, not 0.5"),
    ('{"grouping": {"min_card": "high"}}', "grouping.min_card must be a number, not 'high'"),
    ('{"grouping": {"min_card": true}}', "grouping.min_card must be a number, not True"),
    ('{"grouping": {"min_card": NaN}}', "grouping.min_card must be a number, not nan"),  # Python's json reads NaN
    ('{"grouping": {"min_card": null}}', "grouping.min_card must be a number, not None"),
    ('{"looks": {"aspects": [1.78, Infinity]}}', r"looks\.aspects must be a list of numbers, not \[1\.78, inf\]"),
    ('{"looks": {"aspects": 1.78}}', r"looks\.aspects must be a list of numbers, not 1\.78"),
    ('{"looks": {"aspects": [1.78, "wide"]}}', r"looks\.aspects must be a list of numbers, not \[1\.78, 'wide'\]"),
    ('{"looks": {"mirror": 1}}', "looks.mirror must be true or false, not 1"),
    ('{"suits": {"black": "no"}}', "suits.black must be true or false, not 'no'"),
    # the values' ranges: the settings' own checks
    ('{"grouping": {"min_card": 1.5}}', r"grouping\.min_card must be in \[0, 1\], not 1\.5"),
    ('{"detection": {"conf": 0}}', r"detection\.conf must be a score in \(0, 1\]"),
    ('{"detection": {"scales": []}}', "detection.scales must hold at least one scale"),
    ('{"detection": {"small_scales": [0]}}', "detection.small_scales must be scales above 0"),
    ('{"detection": {"small_side": -1}}', "detection.small_side must be 0"),
    ('{"classification": {"margins": []}}', "classification.margins must be one or more sizes above 0"),
    ('{"classification": {"tilts": []}}', "classification.tilts must hold at least one angle"),
    ('{"classification": {"min_index": -0.1}}', "classification.min_index must be in"),
    ('{"grouping": {"pair_along": [1.5]}}', "grouping.pair_along must be two index sizes"),
    ('{"grouping": {"pair_across": [4, 0]}}', "grouping.pair_across must be two index sizes, the least then the most"),
    ('{"looks": {"aspects": [0]}}', "looks.aspects must be stretches above 0"),
])
def test_a_reader_json_the_reader_cannot_use_is_named(tmp_path, text, what):
    with pytest.raises(WeightsError, match=what) as caught:
        settings_from(tmp_path, text)
    assert str(tmp_path / "reader.json") in str(caught.value)


def test_a_reader_json_that_cannot_be_read_is_named(tmp_path):
    (tmp_path / "reader.json").mkdir()
    with pytest.raises(WeightsError, match=r"reader\.json: cannot be read"):
        Settings.load(tmp_path)
    (tmp_path / "reader.json").rmdir()
    (tmp_path / "reader.json").write_bytes(b"\xff\xfe{")
    with pytest.raises(WeightsError, match=r"reader\.json: not JSON"):
        Settings.load(tmp_path)


def test_every_setting_written_out_as_json_loads_back_the_same(tmp_path):
    """Each setting's kind is read from its annotation (Settings.load): a setting added with a
    kind the check does not know would fail here, not in a user's reader.json."""
    (tmp_path / "reader.json").write_text(json.dumps(dataclasses.asdict(Settings())))
    assert Settings.load(tmp_path) == Settings()


@pytest.mark.parametrize("group", [Detection, Classification, Suits, Grouping, Looks])
def test_every_setting_is_a_number_a_flag_or_a_list_of_numbers(group):
    for f in dataclasses.fields(group):
        assert str(f.type) in ("float", "bool", "tuple[float, ...]"), (group.__name__, f.name, f.type)


@pytest.mark.parametrize("bad, what", [
    ({"grouping.min_card": -0.1}, "grouping.min_card"),
    ({"grouping.uncertain_below": 2.0}, "grouping.uncertain_below"),
    ({"grouping.pair_share": 1.5}, "grouping.pair_share"),
    ({"detection.iou": 0.0}, "detection.iou"),
    ({"detection.small_scales": (2.0, -1.0)}, "detection.small_scales"),
    ({"classification.margins": (1.15, 0.0)}, "classification.margins"),
])
def test_settings_out_of_range_are_refused_when_made(bad, what):
    with pytest.raises(ValueError, match=what):
        Settings().changed(**bad)


def test_changed_gives_new_settings_by_dotted_or_double_underscore_names():
    base = Settings()
    s = base.changed(**{"grouping.min_card": 0.6, "looks.mirror": False}, detection__scales=(1.0,))
    assert (s.grouping.min_card, s.looks.mirror, s.detection.scales) == (0.6, False, (1.0,))
    assert s.grouping.far_apart == base.grouping.far_apart and s.classification is base.classification
    assert base == Settings() and base.grouping.min_card == 0.64  # the settings it came from stay
    assert base.changed() == base
    for name in ("grouping.min_crad", "grouping", "colours.min_card", "min_card", "looks.min_card"):
        with pytest.raises(ValueError, match=f"unknown setting '{name}'"):
            base.changed(**{name: 0.5})
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.grouping.min_card = 0.5  # type: ignore[misc]


# --- the networks of a weights folder ---------------------------------------------------------


def test_a_damaged_network_is_named_not_traced(tmp_path):
    for f in DEFAULT_WEIGHTS.glob("*.onnx"):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "classifier.onnx").write_bytes(b"not a network")
    with pytest.raises(WeightsError, match=r"classifier\.onnx: not a network the reader can load"):
        Reader(tmp_path)


def test_weights_errors_are_value_errors_and_missing_networks_stay_file_not_found(tmp_path):
    assert issubclass(WeightsError, ValueError)
    with pytest.raises(FileNotFoundError, match=r"model file missing: .*detector\.onnx"):
        Reader(tmp_path)
    for name in ("detector.onnx", "classifier.onnx"):  # the way-up reader is one of the three it needs
        shutil.copy(DEFAULT_WEIGHTS / name, tmp_path / name)
    with pytest.raises(FileNotFoundError, match=r"model file missing: .*way_up\.onnx"):
        Reader(tmp_path)


def test_a_bad_reader_json_stops_the_reader_at_once(tmp_path):
    for name in ("detector.onnx", "classifier.onnx", "way_up.onnx"):
        shutil.copy(DEFAULT_WEIGHTS / name, tmp_path / name)
    (tmp_path / "reader.json").write_text('{"grouping": {"min_crad": 0.5}}')
    with pytest.raises(WeightsError, match="min_crad"):
        Reader(tmp_path)
    (tmp_path / "reader.json").write_text('{"grouping": {"min_card": 0.5}}')
    assert Reader(tmp_path).settings.grouping.min_card == 0.5


@pytest.mark.parametrize("name", ["classifier", "suit"])
def test_a_network_that_learnt_crops_at_any_turn_is_refused(tmp_path, name):
    # every network the reader reads crops with reads them turned upright by the way-up reader
    for f in ("detector.onnx", "classifier.onnx", "way_up.onnx"):
        shutil.copy(DEFAULT_WEIGHTS / f, tmp_path / f)
    export_onnx(build_model(), tmp_path / f"{name}.onnx")  # no "upright" in its metadata
    with pytest.raises(WeightsError, match=rf"{name}\.onnx: the reader reads crops turned upright.*train it again"):
        Reader(tmp_path)
    export_onnx(build_model(), tmp_path / f"{name}.onnx", metadata={"upright": "true"})
    assert Reader(tmp_path).networks.classifier.upright
