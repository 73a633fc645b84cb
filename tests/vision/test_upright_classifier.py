"""A classifier of crops turned upright first (``ginsight train --cls-upright``): trained on
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
    x, y, x_val, y_val = _training_crops(tmp_path, upright=True)
    cards, alarms = x[y < 52], x[y == 52]
    assert len(cards) == 64 and all(bar_above_ink(c) for c in cards)
    assert len(alarms) == 8 and not all(bar_above_ink(c) for c in alarms)  # turned any way
    assert len(x_val) == 72 and all(bar_above_ink(c) for c in x_val[y_val < 52])
    x, _, _, _ = _training_crops(tmp_path, upright=False)
    assert not any(bar_above_ink(c) for c in x)  # as written
    for f in tmp_path.glob("*.npz"):
        f.unlink()
    _tee_crops(tmp_path, up=False)  # cards that do not say which way they face
    with pytest.raises(ValueError, match="which way its indices face"):
        _training_crops(tmp_path, upright=True)


def test_an_upright_classifier_trains_resumes_and_says_so_in_its_files(tmp_path):
    import torch

    from models.classifier import train_classifier
    from models.train import export_classifier
    from vision.networks import IndexClassifier

    _tee_crops(tmp_path)
    logs = []
    metrics = train_classifier(tmp_path, tmp_path / "w", epochs=1, batch=32, threads=1, upright=True, log=logs.append)
    state = torch.load(tmp_path / "w" / "classifier.pt", map_location="cpu")
    assert state["upright"] and metrics["upright"] and metrics["history"][-1]["upright"]
    assert IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1).upright
    (tmp_path / "w" / "classifier.onnx").unlink()
    export_classifier(tmp_path / "w" / "classifier.pt", weights=tmp_path / "w")  # ginsight train --export
    assert IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1).upright
    train_classifier(tmp_path, tmp_path / "p", epochs=1, batch=32, threads=1, export=False,
                     resume=tmp_path / "w" / "classifier.pt", log=logs.append)  # back to crops at any turn
    assert not torch.load(tmp_path / "p" / "classifier.pt", map_location="cpu")["upright"]
    assert any("goes on with crops at any turn" in line for line in logs)


def test_an_upright_classifier_with_weight_averaging_takes_its_batch_norms_over_upright_batches(tmp_path, monkeypatch):
    # --cls-swa --cls-upright: the averaged network's batch norms are taken again over batches
    # made as its training made them (turned a little), not turned any way
    import models.classifier as classifier

    made = []

    class Spy(classifier._Batches):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self.upright)

    monkeypatch.setattr(classifier, "_Batches", Spy)
    _tee_crops(tmp_path)
    classifier.train_classifier(tmp_path, tmp_path / "w", epochs=2, batch=32, threads=1, swa=True, upright=True,
                                export=False, log=lambda _: None)
    assert made == [True, True, True]  # two epochs' batches, then the batch norms'


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
