"""The classifier reads crops turned upright first (as ``ginsight train`` trains it): trained on
crops turned upright by the way their index faces, as the reader gives them (the reader's side
of it: tests/vision/test_reader.py, test_classify_detect.py)."""

import shutil

import numpy as np
import pytest

from tests.models.test_way_up import bar_above_ink, tee


def _tee_crops(folder, n=64, seed=0, up=True):
    """Crops of upside-down Ts, recorded so (``up`` 180), of random cards; and
    false alarms (class 52) in a file that records no way up, as ``datasets.mix`` links them."""
    rng = np.random.default_rng(seed)
    for split in ("train", "val"):
        x = np.stack([tee(32, 180.0)] * n)
        y = rng.integers(0, 52, n).astype(np.int16)
        np.savez_compressed(folder / f"{split}-0000.npz", x=x, y=y,
                            **({"up": np.full(n, 180.0, np.float32)} if up else {}))
        np.savez_compressed(folder / f"{split}-neg-0000.npz", x=x[:8], y=np.full(8, 52, np.int16))


def test_the_training_crops_are_turned_upright_by_their_recorded_way(tmp_path):
    from models.classifier import _training_crops

    _tee_crops(tmp_path)
    x, y, x_val, y_val = _training_crops(tmp_path)
    cards, alarms = x[y < 52], x[y == 52]
    assert len(cards) == 64 and all(bar_above_ink(c) for c in cards)
    assert len(alarms) == 8 and not all(bar_above_ink(c) for c in alarms)  # turned any way
    assert len(x_val) == 72 and all(bar_above_ink(c) for c in x_val[y_val < 52])
    for f in tmp_path.glob("*.npz"):
        f.unlink()
    _tee_crops(tmp_path, up=False)  # cards that do not say which way they face
    with pytest.raises(ValueError, match="which way its indices face"):
        _training_crops(tmp_path)


def test_a_classifier_says_in_its_files_that_it_reads_upright_crops(tmp_path):
    import torch

    from models.classifier import train_classifier
    from models.train import export_classifier
    from vision.networks import IndexClassifier

    _tee_crops(tmp_path)
    train_classifier(tmp_path, tmp_path / "w", epochs=1, batch=32, threads=1, log=lambda _: None)
    assert torch.load(tmp_path / "w" / "classifier.pt", map_location="cpu")["upright"]
    assert IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1).upright
    (tmp_path / "w" / "classifier.onnx").unlink()
    export_classifier(tmp_path / "w" / "classifier.pt", weights=tmp_path / "w")  # ginsight train --export
    assert IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1).upright


def test_going_on_from_a_classifier_of_crops_at_any_turn_trains_it_upright_and_says_so(tmp_path):
    import torch

    from models.classifier import build_model, train_classifier
    from models.train import export_classifier
    from vision.networks import IndexClassifier

    _tee_crops(tmp_path)
    torch.save({"model": build_model().state_dict(), "history": []}, tmp_path / "old.pt")
    export_classifier(tmp_path / "old.pt", weights=tmp_path / "old")
    assert not IndexClassifier(tmp_path / "old" / "classifier.onnx", threads=1).upright  # exported as trained
    logs = []
    train_classifier(tmp_path, tmp_path / "w", epochs=1, batch=32, threads=1, resume=tmp_path / "old.pt",
                     log=logs.append)
    assert any("at any turn; it goes on with crops turned upright" in line for line in logs)
    assert IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1).upright


def test_the_training_batches_turn_upright_crops_only_a_little():
    # as training (and weight averaging, taking its batch norms again) makes them: no quarter
    # turns, so that every crop's bar stays above its stem
    from models.classifier import _Batches

    x = np.stack([tee(32, 0.0)] * 64)
    batches = _Batches(x, np.zeros(64, np.int64), np.arange(64), 16, seed=3)
    crops = np.concatenate([batches[i][0] for i in range(len(batches))])
    assert len(crops) == 64 and all(bar_above_ink(c.transpose(1, 2, 0)) for c in crops)


def test_a_weights_folder_with_a_new_upright_classifier_reads_a_photo(tmp_path):
    from pathlib import Path

    from models.classifier import build_model, export_onnx
    from vision.reader import DEFAULT_WEIGHTS, Reader

    for name in ("detector.onnx", "way_up.onnx"):
        shutil.copy(DEFAULT_WEIGHTS / name, tmp_path / name)
    export_onnx(build_model(), tmp_path / "classifier.onnx", metadata={"upright": "true"})
    reader = Reader(tmp_path)
    assert reader.networks.classifier.upright and reader.networks.suit is None
    photo = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "real-dev" / "images").glob("*.jpg"))[0]
    asked = []
    cos_sin = reader.networks.way_up.cos_sin
    reader.networks.way_up.cos_sin = lambda patches: asked.append(len(patches)) or cos_sin(patches)
    assert reader.read(str(photo)).width > 0 and asked  # read end to end, the way-up reader asked
