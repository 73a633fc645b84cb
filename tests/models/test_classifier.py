"""The classifier's data handling (no training here: see test_train_smoke)."""

import numpy as np
import pytest

from models.classifier import CHANNELS, augment, load_crops


def _write(folder, x):
    np.savez_compressed(folder / "train-0000.npz", x=x, y=np.zeros(len(x), np.int16))


def test_grey_crops_of_an_old_data_set_are_refused_by_name(tmp_path):
    _write(tmp_path, np.zeros((5, 32, 32), np.uint8))
    with pytest.raises(ValueError, match="write the data set again"):
        load_crops(tmp_path, "train")


def test_colour_crops_load(tmp_path):
    _write(tmp_path, np.zeros((5, 32, 32, CHANNELS), np.uint8))
    x, y = load_crops(tmp_path, "train")
    assert x.shape == (5, 32, 32, CHANNELS) and y.dtype == np.int64


def test_augment_keeps_shape_and_does_not_invert():
    rng = np.random.default_rng(0)
    batch = np.full((64, 32, 32, 3), 230, np.uint8)  # a white card face
    batch[:, 10:20, 10:20] = (20, 20, 200)  # with a red glyph
    out = augment(rng, batch)
    assert out.shape == batch.shape and out.dtype == np.uint8
    # The face stays the lighter part in every crop: no polarity flip.
    assert (out[:, 2:6, 2:6].mean((1, 2, 3)) > out[:, 12:18, 12:18].mean((1, 2, 3))).all()
