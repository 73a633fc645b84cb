"""A tiny training run of both stages, offline, on CPU: the recipe works end to end and the
exported models load in the reader. (The quality of the shipped model is tested elsewhere.)"""

import json
import os
import socket

import numpy as np
import pytest

from datasets.decks import procedural_deck


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory):
    import datasets.build as build

    out = tmp_path_factory.mktemp("tiny")
    build._STATE.clear()
    summary = build.build(out, 12, seed=5, size=160, workers=1, decks=[], procedural=1, height=120, progress=False)
    assert summary["images"] == 12
    return out


def test_the_crops_say_which_way_their_indices_face(tiny_data):
    from models.classifier import load_crops

    x, y, up = load_crops(tiny_data / "crops", "train", way_up=True)
    assert len(up) == len(y) == len(x) and np.all((up >= 0) & (up < 360))
    assert (up[y < 52] != 0).any()  # cards lie every way in the photos


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a network connection fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args[:1]}")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    yield


@pytest.mark.slow
def test_tiny_training_run_offline(tiny_data, tmp_path, no_network):
    import models.train as train

    shipped = (train.WEIGHTS / "history.json").read_bytes()
    weights = tmp_path / "weights"  # not the shipped folder: everything goes where it is told
    entry = train.train_classifier_run(tiny_data / "crops", epochs=1, threads=1, weights=weights)
    assert entry["model"] == "classifier" and 0 <= entry["synthetic_val_top1"] <= 1
    entry = train.train_detector(tiny_data / "data.yaml", epochs=1, imgsz=64, batch=4, threads=1,
                                 project=tmp_path / "runs", export_imgsz=160, weights=weights)
    assert entry["model"] == "detector"
    for name in ("detector.onnx", "detector.pt", "classifier.onnx", "history.json"):
        assert (tmp_path / "weights" / name).exists(), name
    history = json.loads((tmp_path / "weights" / "history.json").read_text())
    assert [h["model"] for h in history] == ["classifier", "detector"]
    assert (train.WEIGHTS / "history.json").read_bytes() == shipped

    import shutil

    from vision import Reader

    shutil.copy(train.WEIGHTS / "way_up.onnx", weights)  # the way-up reader is trained apart (models/way_up.py)
    reader = Reader(tmp_path / "weights", threads=1)
    image = next((tiny_data / "images" / "val").glob("*.jpg"))
    reading = reader.read(image)
    assert reading.width == 160 and reading.ms > 0
    assert os.environ.get("YOLO_OFFLINE") == "1"


def test_dataset_labels_are_yolo_and_reproducible(tiny_data, tmp_path):
    import datasets.build as build

    lines = [ln for f in sorted((tiny_data / "labels").rglob("*.txt")) for ln in f.read_text().splitlines()]
    assert lines
    for ln in lines:
        cls, *vals = ln.split()
        assert 0 <= int(cls) < 52 and len(vals) == 4
        assert all(0 <= float(v) <= 1 for v in vals)
    build._STATE.clear()
    again = tmp_path / "again"
    build.build(again, 12, seed=5, size=160, workers=1, decks=[], procedural=1, height=120, progress=False)
    for f in sorted((tiny_data / "labels").rglob("*.txt")):
        assert (again / f.relative_to(tiny_data)).read_text() == f.read_text()
    a = np.load(next((tiny_data / "crops").glob("train-*.npz")))
    assert a["x"].shape[1:] == (32, 32, 3) and a["y"].max() <= 52  # colour crops


def test_procedural_deck_is_used(tiny_data):
    deck = procedural_deck(0, height=120)
    assert len(deck.faces) == 52


def test_another_crop_side_gives_the_same_photos_and_boxes(tiny_data, tmp_path):
    # With the same seed, --crop changes the crops' resolution and nothing else: a classifier of
    # another side is compared on the same photos and the same boxes.
    import cv2

    import datasets.build as build

    build._STATE.clear()
    again = tmp_path / "again48"
    summary = build.build(again, 12, seed=5, size=160, workers=1, decks=[], procedural=1, height=120,
                          progress=False, crop=48)
    assert summary["crop"] == 48
    for f in sorted((tiny_data / "images").rglob("*.jpg")) + sorted((tiny_data / "labels").rglob("*.txt")):
        assert (again / f.relative_to(tiny_data)).read_bytes() == f.read_bytes(), f.name
    for shard in sorted((tiny_data / "crops").glob("*.npz")):
        small, big = np.load(shard), np.load(again / "crops" / shard.name)
        assert big["x"].shape[1:] == (48, 48, 3) and (small["y"] == big["y"]).all()
        shrunk = np.stack([cv2.resize(p, (32, 32), interpolation=cv2.INTER_AREA) for p in big["x"]])
        assert np.abs(shrunk.astype(int) - small["x"].astype(int)).mean() < 12  # the same boxes


def test_a_crop_side_out_of_range_is_refused(tmp_path):
    import datasets.build as build

    with pytest.raises(ValueError, match="crop side"):
        build.build(tmp_path / "x", 2, seed=0, crop=4, progress=False)


def test_val_only_writes_the_same_validation_photos_and_no_training_ones(tiny_data, tmp_path):
    import datasets.build as build

    build._STATE.clear()
    val = tmp_path / "val-only"
    summary = build.build(val, 12, seed=5, size=160, workers=1, decks=[], procedural=1, height=120,
                          progress=False, val_only=True)
    assert summary["images"] == summary["val"] == 1
    assert not list((val / "images" / "train").iterdir()) and not list((val / "crops").glob("train-*"))
    shipped = sorted((tiny_data / "images" / "val").glob("*.jpg")) + sorted((tiny_data / "labels" / "val").glob("*.txt"))
    assert shipped
    for f in shipped:
        assert (val / f.relative_to(tiny_data)).read_bytes() == f.read_bytes(), f.name


def test_kinds_make_a_set_of_those_scenes_only(tmp_path):
    import datasets.build as build

    build._STATE.clear()
    summary = build.build(tmp_path / "single", 8, seed=3, size=160, workers=1, decks=[], procedural=1, height=120,
                          progress=False, crops=False, kinds=["single"])
    assert summary["kinds"] == ["single"]
    counts = [len(f.read_text().splitlines()) for f in (tmp_path / "single" / "labels").rglob("*.txt")]
    assert len(counts) == 8 and max(counts) <= 2 and sum(counts) > 0  # one card: at most its two indices
    with pytest.raises(ValueError, match="unknown scene kind"):
        build.build(tmp_path / "x", 2, seed=0, progress=False, kinds=["juggling"])


def test_procedural_from_draws_the_procedural_decks_from_that_seed(tmp_path, monkeypatch):
    import datasets.build as build

    drawn = []
    real = build.procedural_deck
    monkeypatch.setattr(build, "procedural_deck", lambda seed, height: drawn.append(seed) or real(seed, height=height))
    build._STATE.clear()
    summary = build.build(tmp_path / "unseen", 2, seed=3, size=160, workers=1, decks=[], procedural=2, height=120,
                          progress=False, crops=False, procedural_from=200)
    assert drawn == [200, 201] and summary["procedural_from"] == 200 and summary["decks"] == []
    build._STATE.clear()
    assert "procedural_from" not in build.build(tmp_path / "first", 2, seed=3, size=160, workers=1, decks=[],
                                                procedural=1, height=120, progress=False, crops=False)
    assert drawn[-1] == 0  # by default from seed 0, as every set before
    with pytest.raises(ValueError, match="no decks to draw"):
        build.build(tmp_path / "x", 2, seed=0, progress=False, decks=[], procedural=0)
