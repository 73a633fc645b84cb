"""The reader's turned looks (Settings.det_turns): with ``turned_new_only`` the first turn's
boxes stay as they are and a later turn adds only indices none of them overlaps, kept from
``turned_min`` on."""

import numpy as np

from vision.reader import Reader, Settings

FIRST = [10, 10, 30, 40]
SHIFTED = [12, 10, 32, 40]  # the same index found a little off at another turn
OTHER = [60, 50, 80, 80]  # an index only the turned look finds


class _Detector:
    def __init__(self):
        self.asked = []

    def __call__(self, img, conf, scales, turns=(0,), fuse=False, iou=0.5):
        self.asked.append(tuple(turns))
        boxes, scores = [], []
        if 0 in turns:
            boxes.append(FIRST), scores.append(0.6)
        if any(t != 0 for t in turns):
            boxes += [SHIFTED, OTHER]
            scores += [0.9, 0.5]
        return np.array(boxes, np.float32).reshape(-1, 4), np.array(scores, np.float32)


class _Classifier:
    size, upright = 32, False

    def __call__(self, crops, turns):
        return np.zeros((len(crops), 53), np.float32)


def _reader(**settings):
    reader = Reader.__new__(Reader)
    reader.detector, reader.classifier = _Detector(), _Classifier()
    reader.settings = Settings(**settings)
    return reader


def _found(reader, monkeypatch):
    """The boxes read, the classifier reading the index left of x 50 as AS (0.9), the other as
    KH (0.6): with the detector's 0.5, that index's confidence is about 0.55."""
    def probs(img, boxes, crops, degrees=None):
        p = np.zeros((len(boxes), 53), np.float32)
        for row, box in enumerate(boxes):
            if box[0] < 50:
                p[row, 0] = 0.9  # AS
            else:
                p[row, 38] = 0.6  # KH
        return p, None  # the probabilities, and no look at the training margin kept apart

    monkeypatch.setattr(reader, "_margin_probs", probs)
    return sorted(tuple(float(v) for v in r.box) for r in reader.read_indices(np.full((100, 120, 3), 200, np.uint8),
                                                                                 zoom=False))


def test_without_new_only_every_turn_is_one_look(monkeypatch):
    reader = _reader(det_turns=(0, 1))
    # One detector call over both turns (its one NMS would choose between FIRST and SHIFTED;
    # this fake does none): every box it gives is read.
    assert _found(reader, monkeypatch) == [tuple(map(float, b)) for b in (FIRST, SHIFTED, OTHER)]
    assert reader.detector.asked == [(0, 1)]


def test_new_only_keeps_the_first_boxes_and_adds_what_they_miss(monkeypatch):
    reader = _reader(det_turns=(0, 1), turned_new_only=True)
    assert _found(reader, monkeypatch) == [tuple(map(float, FIRST)), tuple(map(float, OTHER))]
    assert reader.detector.asked == [(0,), (1,)]


def test_an_index_only_a_turn_finds_is_kept_from_turned_min_on(monkeypatch):
    kept = _reader(det_turns=(0, 1), turned_new_only=True, turned_min=0.5)
    assert _found(kept, monkeypatch) == [tuple(map(float, FIRST)), tuple(map(float, OTHER))]
    dropped = _reader(det_turns=(0, 1), turned_new_only=True, turned_min=0.6)
    assert _found(dropped, monkeypatch) == [tuple(map(float, FIRST))]


def test_one_turn_asks_the_detector_once_as_before(monkeypatch):
    reader = _reader(turned_new_only=True)
    assert _found(reader, monkeypatch) == [tuple(map(float, FIRST))]
    assert reader.detector.asked == [(0,)]


def test_det_fuse_asks_the_detector_to_fuse_and_only_then(monkeypatch):
    class Fusing(_Detector):
        def __call__(self, img, conf, scales, turns=(0,), fuse=False, iou=0.5):
            self.fused = fuse
            return super().__call__(img, conf, scales, turns)

    for on in (False, True):
        reader = _reader(det_fuse=on)
        reader.detector = Fusing()
        assert _found(reader, monkeypatch) == [tuple(map(float, FIRST))]
        assert reader.detector.fused is on


def test_the_detectors_input_is_the_photo_letterboxed_rgb_and_scaled_to_one():
    from pathlib import Path

    from vision.onnx import IndexDetector, letterbox

    det = IndexDetector(Path(__file__).resolve().parents[2] / "models" / "weights" / "detector.onnx")
    img = np.random.default_rng(0).integers(0, 255, (300, 400, 3), dtype=np.uint8)
    x, k, pad = det.tensor(img, 0.5)  # a dynamic network: 320 fits, a multiple of 32
    boxed, k0, pad0 = letterbox(img, 320, 320)
    assert x.shape == (1, 3, 320, 320) and x.dtype == np.float32 and (k, pad) == (k0, pad0)
    assert np.array_equal(x[0], boxed[:, :, ::-1].transpose(2, 0, 1) / np.float32(255))
