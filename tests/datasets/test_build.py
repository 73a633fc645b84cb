"""Writing a data set with the room-lit webcam look: off, it writes the seed's photos as before;
on, only the photos that draw it change; its chance is checked and recorded."""

import json

import numpy as np
import pytest

from datasets.build import ROOM_STREAM, build

ARGS = {"size": 256, "workers": 1, "decks": [], "procedural": 1, "crops": False, "progress": False,
        "kinds": ["single", "fan"], "val_fraction": 0.25}


def _photos(out) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("images/*/*.jpg"))}


def test_the_room_lit_look_changes_only_the_photos_that_draw_it(tmp_path):
    seed, n = 4, 8
    build(tmp_path / "before", n, seed, **ARGS)  # as sets were written before the look
    build(tmp_path / "off", n, seed, room_webcam=0.0, **ARGS)
    build(tmp_path / "half", n, seed, room_webcam=0.5, **ARGS)
    before, off, half = (_photos(tmp_path / d) for d in ("before", "off", "half"))
    assert len(before) == n and off == before
    drawn = [np.random.default_rng([seed, i, ROOM_STREAM]).random() < 0.5 for i in range(n)]
    assert 0 < sum(drawn) < n  # the seed gives both, or the test would show nothing
    for i, looks in enumerate(drawn):
        name = f"{i:06d}.jpg"
        assert (half[name] != before[name]) == looks, name
    assert json.loads((tmp_path / "half" / "summary.json").read_text())["room_webcam"] == 0.5
    assert json.loads((tmp_path / "before" / "summary.json").read_text())["room_webcam"] == 0.0


@pytest.mark.parametrize("chance", [-0.1, 1.5])
def test_a_room_lit_chance_out_of_range_is_refused_by_name(tmp_path, chance):
    with pytest.raises(ValueError, match=f"room-lit webcam's chance must lie between 0 and 1, not {chance}"):
        build(tmp_path, 2, 0, room_webcam=chance, **ARGS)
    assert not (tmp_path / "images").exists()
