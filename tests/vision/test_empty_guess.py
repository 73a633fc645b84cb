"""A photo that reads no card is guessed at with the bars lowered (Settings.empty_min_card,
empty_det_conf): the surest card alone, flagged uncertain; never on a photo that reads a card,
nor on the live video's frames (empty_looks=False)."""

import numpy as np
import pytest

from engine.cards import CODES
from vision.reader import Reader, Settings


class _Detector:
    """Two boxes, scored 0.1 (the left, dark one) and 0.3 (the right, light one): found only
    when asked for scores that low."""

    BOXES = np.array([[10, 10, 30, 40], [70, 10, 90, 40]], np.float32)
    SCORES = np.array([0.1, 0.3], np.float32)

    def __init__(self):
        self.confs = []

    def __call__(self, img, conf, scales, turns=(0,), fuse=False, iou=0.5):
        self.confs.append(conf)
        keep = conf <= self.SCORES
        return self.BOXES[keep], self.SCORES[keep]


class _Classifier:
    """AS for a dark crop, KH for a light one, each surely."""

    size, upright = 32, False

    def __call__(self, crops, turns):
        probs = np.zeros((len(crops), 53), np.float32)
        light = crops.reshape(len(crops), -1).mean(1) > 128
        probs[~light, CODES.index("AS")] = 1.0
        probs[light, CODES.index("KH")] = 1.0
        return probs


def _reader(**settings):
    reader = Reader.__new__(Reader)
    reader.detector, reader.classifier = _Detector(), _Classifier()
    reader.settings = Settings(aspects=(), **settings)
    return reader


IMG = np.full((60, 100, 3), 30, np.uint8)
IMG[:, 50:] = 220


def test_off_by_default_a_photo_of_weak_boxes_reads_nothing():
    assert Settings().empty_min_card == 0
    reader = _reader()
    assert reader.read(IMG).cards == ()
    assert min(reader.detector.confs) == Settings().det_conf


def test_a_photo_that_reads_nothing_reports_the_surest_card_under_the_lowered_bars_flagged():
    reader = _reader(empty_min_card=0.3, empty_det_conf=0.05)
    reading = reader.read(IMG)
    (card,) = reading.cards  # the surest only: KH at sqrt(0.3), not AS at sqrt(0.1) as well
    assert card.card == "KH" and card.uncertain
    assert card.confidence == pytest.approx(np.sqrt(0.3), abs=1e-3)
    assert card.boxes == (tuple(float(v) for v in _Detector.BOXES[1]),)
    assert [r.card for r in reading.indices] == ["KH"] and reading.indices[0].box == card.boxes[0]
    assert 0.05 in reader.detector.confs


def test_the_guess_keeps_its_bars_a_card_under_empty_min_card_is_not_guessed():
    assert _reader(empty_min_card=0.6, empty_det_conf=0.05).read(IMG).cards == ()
    assert _reader(empty_min_card=0.3, empty_det_conf=0.2).read(IMG).codes() == ["KH"]  # the 0.1 box unseen
    assert _reader(empty_min_card=0.3, empty_det_conf=0.35, det_conf=0.35).read(IMG).cards == ()  # neither box
    # a guess never raises a bar: empty_det_conf over det_conf guesses at det_conf
    assert _reader(empty_min_card=0.3, empty_det_conf=0.35).read(IMG).codes() == ["KH"]


def test_no_guess_on_the_live_videos_frames():
    reader = _reader(empty_min_card=0.3, empty_det_conf=0.05)
    assert reader.read(IMG, empty_looks=False).cards == ()
    assert 0.05 not in reader.detector.confs


def test_no_guess_where_a_card_reads_at_the_usual_bars():
    reader = _reader(empty_min_card=0.3, empty_det_conf=0.05, det_conf=0.2, min_card=0.5)
    reading = reader.read(IMG)
    assert reading.codes() == ["KH"]
    assert 0.05 not in reader.detector.confs  # read once, at its own bars


def test_the_guess_leaves_the_readers_own_settings_and_reuses_its_view():
    reader = _reader(empty_min_card=0.3, empty_det_conf=0.05)
    reader.read(IMG)
    view = reader._guess_view
    assert reader.settings.det_conf == Settings().det_conf and reader.settings.empty_min_card == 0.3
    assert view.settings.det_conf == 0.05 and view.settings.min_card == 0.3 and view.settings.empty_min_card == 0
    assert view.detector is reader.detector  # the networks shared, not loaded again
    reader.read(IMG)
    assert reader._guess_view is view


@pytest.mark.parametrize("bad", [{"empty_min_card": -0.1}, {"empty_min_card": 1.5},
                                 {"empty_det_conf": 0.0}, {"empty_det_conf": 2.0}])
def test_settings_refuse_guess_bars_out_of_range(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        Settings(**bad)
