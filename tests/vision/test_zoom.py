"""The reader's closer look: a photo that reads no index is looked at again at the zoom scales,
and only then."""

import numpy as np

from vision.reader import Reader, Settings


class _Detector:
    """Finds one index only when asked for a scale in ``finds_at``."""

    def __init__(self, finds_at):
        self.finds_at, self.asked, self.turns = finds_at, [], []

    def __call__(self, img, conf, scales, turns=(0,), fuse=False, iou=0.5):
        self.asked.append(tuple(scales))
        self.turns.append(tuple(turns))
        if any(k in self.finds_at for k in scales):
            return np.array([[10, 10, 30, 40]], np.float32), np.array([0.9], np.float32)
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)


class _Classifier:
    size, upright = 32, False

    def __call__(self, crops, turns):
        probs = np.zeros((len(crops), 53), np.float32)
        probs[:, 0] = 1.0  # AS
        return probs


def _reader(finds_at, **settings):
    reader = Reader.__new__(Reader)
    reader.detector, reader.classifier = _Detector(finds_at), _Classifier()
    reader.settings = Settings(**settings)
    return reader


IMG = np.full((100, 120, 3), 200, np.uint8)


def test_a_photo_that_reads_nothing_is_looked_at_closer():
    reader = _reader(finds_at={2.0})
    assert reader.read(IMG).codes() == ["AS"]
    assert reader.detector.asked == [(1.0, 0.5), (2.0,)]


def test_the_closer_look_is_taken_at_the_zoom_turns_the_first_at_the_detector_turns():
    reader = _reader(finds_at={2.0}, zoom_turns=(0, 1, 2, 3))
    assert reader.read(IMG).codes() == ["AS"]
    assert reader.detector.turns == [(0,), (0, 1, 2, 3)]
    turned = _reader(finds_at={1.0}, det_turns=(0, 1))
    assert turned.read(IMG).codes() == ["AS"]
    assert turned.detector.turns == [(0, 1)]


def test_no_closer_look_when_the_first_reads_an_index():
    reader = _reader(finds_at={1.0})
    assert reader.read(IMG).codes() == ["AS"]
    assert reader.detector.asked == [(1.0, 0.5)]


def test_the_closer_look_can_be_skipped_or_turned_off():
    reader = _reader(finds_at={2.0}, aspect_when_empty="off")
    assert reader.read(IMG, zoom=False).codes() == []
    assert reader.detector.asked == [(1.0, 0.5)]
    off = _reader(finds_at={2.0}, zoom_scales=(), aspect_when_empty="off")
    assert off.read(IMG).codes() == []
    assert off.detector.asked == [(1.0, 0.5)]


def test_a_photo_that_reads_nothing_even_closer_is_read_at_each_aspect_without_a_closer_look():
    reader = _reader(finds_at={3.0})  # found nowhere: the shipped aspect_when_empty, "looks"
    assert reader.read(IMG).codes() == []
    assert reader.detector.asked == [(1.0, 0.5), (2.0,)] + [(1.0, 0.5)] * len(Settings().aspects)
    zoomed = _reader(finds_at={3.0}, aspect_when_empty="zoomed")
    zoomed.read(IMG)
    assert zoomed.detector.asked == [(1.0, 0.5), (2.0,)] * (1 + len(Settings().aspects))


def test_a_photo_of_small_indices_is_read_again_with_the_small_scales_too():
    reader = _reader(finds_at={1.0}, small_side=40)  # the index found is 30 px high
    assert reader.read(IMG).codes() == ["AS"]
    assert reader.detector.asked == [(1.0, 0.5), (1.0, 0.5, 1.25)]  # the shipped small_scales


def test_no_small_look_for_big_indices_without_zoom_or_when_off():
    for settings, zoom in (({"small_side": 25}, True), ({"small_side": 40}, False), ({}, True),
                           ({"small_side": 40, "small_scales": ()}, True)):
        reader = _reader(finds_at={1.0}, **settings)
        assert reader.read(IMG, zoom=zoom).codes() == ["AS"]
        assert reader.detector.asked == [(1.0, 0.5)], settings


class _TwoLooks(_Detector):
    """One index at the usual looks; with the 1.25x look, also a weak one elsewhere."""

    def __call__(self, img, conf, scales, turns=(0,), fuse=False, iou=0.5):
        self.asked.append(tuple(scales))
        boxes, scores = [[10, 10, 30, 40]], [0.9]
        if 1.25 in scales:
            boxes, scores = [[10, 10, 30, 40], [60, 50, 80, 80]], [0.9, 0.2]
        return np.array(boxes, np.float32), np.array(scores, np.float32)


def test_an_index_only_the_small_look_finds_is_kept_from_small_min_on():
    for small_min, kept in ((0.0, 2), (0.5, 1)):  # the weak one reads with sqrt(0.2 x 1) = 0.45
        reader = _reader(finds_at=set(), small_side=40, small_min=small_min)
        reader.detector = _TwoLooks(set())
        assert len(reader.read(IMG).indices) == kept, small_min
