"""The pip reader's training (models/pips.py): a short run on a few crops writes weights, an
ONNX file the reader loads as a 24-pixel, three-way reader, and its report."""

import json

import numpy as np

from datasets.pips import _shard
from models.pips import train
from vision.onnx import IndexClassifier
from vision.pips import LABELS, SIDE


def test_a_short_run_writes_a_reader_the_reader_loads(tmp_path):
    x, y = _shard((["procedural-13000"], 300, 5))
    data = tmp_path / "pips"
    data.mkdir()
    np.savez_compressed(data / "pips.npz", x=x, y=y)
    report = train(data, tmp_path / "run", minutes=0.05, batch=64)
    assert (tmp_path / "run" / "pips.pt").exists()
    assert json.loads((tmp_path / "run" / "pips.json").read_text())["labels"] == list(LABELS)
    assert report["validation"] == 15 and 0 <= report["val_accuracy"] <= 1
    net = IndexClassifier(tmp_path / "run" / "pips.onnx")
    assert (net.size, net.channels, net.classes) == (SIDE, 3, 3)
    p = net(x[:4])
    assert p.shape == (4, 3) and np.allclose(p.sum(1), 1, atol=1e-5)
