"""The reader cuts each index at the side its classifier was trained on."""

import numpy as np

from vision.reader import Reader, Settings


class _Detector:
    def __call__(self, img, conf, scales, turns=(0,), fuse=False, iou=0.5):
        return np.array([[10, 10, 30, 40], [50, 20, 70, 50]], np.float32), np.array([0.9, 0.8], np.float32)


class _Classifier:
    upright = False  # reads crops at any turn

    def __init__(self, size):
        self.size, self.seen = size, []

    def __call__(self, crops, turns):
        self.seen.append(crops.shape)
        probs = np.zeros((len(crops), 53), np.float32)
        probs[:, 0] = 1.0  # every index read as the first card, AS
        return probs


def _reader(size):
    reader = Reader.__new__(Reader)
    # the photo read once (no stretched looks: their probe would cut more crops)
    reader.detector, reader.classifier, reader.settings = _Detector(), _Classifier(size), Settings(aspects=())
    return reader


def test_crops_are_cut_at_the_classifier_side():
    img = np.full((100, 120, 3), 200, np.uint8)
    for side in (32, 48):
        reader = _reader(side)
        reading = reader.read(img)
        assert reader.classifier.seen == [(2 * 3, side, side, 3)]  # each index cut at three margins (cls_margins)
        assert [c.card for c in reading.cards] == ["AS"]
