"""models.way_up: the way-up reader's data, the turns its training adds, and a tiny run, offline."""

import cv2
import numpy as np
import pytest

from engine.cards import CODES
from models import way_up
from models.classifier import augment_turned


def tee(side=32, degrees=0.0):
    """A BGR crop of a T (bar on top, stem down) on paper, turned ``degrees`` anticlockwise."""
    img = np.full((side, side, 3), 225, np.uint8)
    s = side / 32
    img[int(6 * s):int(11 * s), int(8 * s):int(24 * s)] = 25
    img[int(11 * s):int(26 * s), int(14 * s):int(18 * s)] = 25
    m = cv2.getRotationMatrix2D((side / 2 - 0.5, side / 2 - 0.5), degrees, 1.0)
    return cv2.warpAffine(img, m, (side, side), borderMode=cv2.BORDER_REPLICATE)


def bar_above_ink(crop) -> bool:
    grey = crop.astype(np.float32).mean(2)
    ink = grey < (grey.min() + grey.max()) / 2
    return int(ink.sum(1).argmax()) < np.nonzero(ink)[0].mean() - 1


def test_augment_turned_says_how_far_each_crop_was_turned():
    rng = np.random.default_rng(0)
    crops, turned = augment_turned(rng, np.stack([tee() for _ in range(24)]))
    assert turned.shape == (24,) and len({round(float(a)) % 360 for a in turned}) > 4
    for crop, a in zip(crops, turned, strict=True):
        back = cv2.warpAffine(crop, cv2.getRotationMatrix2D((15.5, 15.5), -float(a), 1.0), (32, 32),
                              borderMode=cv2.BORDER_REPLICATE)
        assert bar_above_ink(back)
    # the crops are augment's, draw for draw
    from models.classifier import augment

    again = augment(np.random.default_rng(0), np.stack([tee() for _ in range(24)]))
    assert np.array_equal(again, crops)


def test_unit_and_angle_error():
    assert np.allclose(way_up.unit([0, 90]), [[1, 0], [0, 1]], atol=1e-6)
    pred = way_up.unit([10, 350, 180])
    assert np.allclose(way_up.angle_error(pred, [0, 10, 0]), [10, 20, 180], atol=1e-4)


def _shards(folder, rng, with_up=True):
    folder.mkdir()
    for split, n in (("train", 96), ("val", 24)):
        up = rng.uniform(0, 360, n).astype(np.float32)
        x = np.stack([tee(degrees=float(a)) for a in up])
        y = np.array([CODES.index("7S")] * (n - 1) + [52], np.int16)  # and one joker's corner, dropped
        extra = {"up": up} if with_up else {}
        np.savez_compressed(folder / f"{split}-0000.npz", x=x, y=y, **extra)


def test_a_tiny_run_writes_weights_onnx_and_metrics(tmp_path):
    from vision.networks import WayUpReader

    _shards(tmp_path / "crops", np.random.default_rng(0))
    metrics = way_up.train([tmp_path / "crops"], tmp_path / "out", minutes=0.2, epochs=2, batch=16,
                           log=lambda *_: None)
    assert metrics["train_crops"] == {str(tmp_path / "crops"): 95}  # the joker's corner dropped
    row = metrics["history"][-1]
    assert 0 <= row["within_45_all"] <= 1 and set(row["val"][str(tmp_path / "crops")]) == {"within_45", "median_deg"}
    assert (tmp_path / "out" / "way_up.pt").exists()
    net = WayUpReader(tmp_path / "out" / "way_up.onnx")
    v = net(np.stack([tee()[..., 0], tee(degrees=180)[..., 0]]))
    assert v.shape == (2, 2) and np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-5)
    assert net(np.zeros((0, 32, 32), np.uint8)).shape == (0, 2)


def test_crops_that_do_not_say_their_way_up_are_refused(tmp_path):
    _shards(tmp_path / "crops", np.random.default_rng(0), with_up=False)
    with pytest.raises(ValueError, match="does not say which way"):
        way_up.train([tmp_path / "crops"], tmp_path / "out", minutes=0.1, log=lambda *_: None)


def test_a_shard_of_false_alarms_beside_the_crops_is_dropped_not_refused(tmp_path):
    # datasets.hard_negatives writes "no index" crops without a way up (a mixed crops folder has them)
    _shards(tmp_path / "crops", np.random.default_rng(0))
    np.savez_compressed(tmp_path / "crops" / "train-neg-0000.npz", x=np.zeros((5, 32, 32, 3), np.uint8),
                        y=np.full(5, 52, np.int16))
    x, up, counts = way_up.load([tmp_path / "crops"], "train")
    assert counts == [95] and len(x) == len(up) == 95
    # a shard of index crops without a way up is still an error
    np.savez_compressed(tmp_path / "crops" / "train-old-0000.npz", x=np.zeros((2, 32, 32, 3), np.uint8),
                        y=np.array([3, 52], np.int16))
    with pytest.raises(ValueError, match="does not say which way"):
        way_up.load([tmp_path / "crops"], "train")


class _Session:
    """An onnxruntime session stand-in answering each crop's (cos, sin) of ``degrees``."""

    def __init__(self, degrees):
        self.degrees = degrees

    def run(self, _, feed):
        return [way_up.unit(self.degrees[: len(next(iter(feed.values())))])]


def test_the_reader_turns_the_networks_angle_into_a_way_in_the_image():
    from vision.networks import WayUpReader

    net = WayUpReader.__new__(WayUpReader)
    net.session, net.input, net.size = _Session([0, 90, 180, 270]), "crops", 32
    v = net(np.zeros((4, 32, 32), np.uint8))
    # upright: up the image (y down); a quarter turn anticlockwise: to the left
    assert np.allclose(v, [[0, -1], [-1, 0], [0, 1], [1, 0]], atol=1e-6)


def test_degrees_is_the_networks_angle_the_way_index_crops_records_it():
    from vision.crops import turn_upright
    from vision.networks import WayUpReader

    net = WayUpReader.__new__(WayUpReader)
    net.session, net.input, net.size = _Session([0, 90, 180, 270, 30]), "crops", 32
    got = net.degrees(np.zeros((5, 32, 32), np.uint8))
    assert np.allclose((got - [0, 90, 180, 270, 30] + 180) % 360 - 180, 0, atol=1e-4)
    assert net.degrees(np.zeros((0, 32, 32), np.uint8)).shape == (0,)
    # and turned back by it, a crop facing that way stands upright
    crops = np.stack([tee(32, float(a)) for a in (0, 90, 180, 270, 30)])
    assert all(bar_above_ink(c) for c in turn_upright(crops, got))
