"""Finding the indices (vision.detect) and reading each (vision.classify) on stand-in networks."""

import numpy as np
import pytest

from engine.cards import CODES
from tests.models.test_way_up import bar_above_ink, tee
from tests.vision.stubs import Classifier, Detector, WayUp, index, probs, sure
from vision.classify import NONE_CLASS, index_probs, top_prob, upright_probs, ways_up, with_suit_reader
from vision.crops import MARGIN, crop_square, crop_squares, turn_upright
from vision.detect import box_side, find_indices, median_side, takes_small_look
from vision.settings import Classification, Detection


def test_find_indices_asks_the_detector_at_the_settings_bars_and_scales():
    det = Detector(lambda img, scales: [((1, 2, 3, 4), 0.9), ((5, 6, 7, 8), 0.1)])
    found = find_indices(det, np.zeros((10, 10, 3), np.uint8), Detection(conf=0.2))
    assert found.boxes.tolist() == [[1, 2, 3, 4]] and found.scores.tolist() == pytest.approx([0.9])
    assert det.asked == [(1.0, 0.5)] and det.confs == [0.2]
    find_indices(det, np.zeros((10, 10, 3), np.uint8), Detection(), (2.0,))
    assert det.asked[-1] == (2.0,)


def test_an_index_is_measured_by_its_boxs_longer_side():
    assert box_side((0, 0, 6, 10)) == 10 and box_side((0, 0, 12, 10)) == 12 and box_side((0, 0, 0.2, 0.5)) == 1.0
    assert median_side([index("AS", 0, 0, size=10), index("AS", 0, 0, size=30), index("AS", 0, 0, size=40)]) == 30
    assert median_side([]) == 0.0


@pytest.mark.parametrize("sizes, settings, small", [
    ([20, 25, 40], Detection(), True),  # median 25 < 30
    ([20, 35, 40], Detection(), False),
    ([], Detection(), False),  # none read: the closer look's business
    ([20], Detection(small_side=0.0), False),  # off
    ([20], Detection(small_scales=()), False),
    ([30], Detection(), False),  # not under
])
def test_takes_small_look(sizes, settings, small):
    assert takes_small_look([index("AS", 0, 0, size=s) for s in sizes], settings) is small


def _tee_photo(degrees):
    """A 200 px photo with one 48 px T (bar on top) turned ``degrees`` anticlockwise at (76, 76)."""
    img = np.full((200, 200, 3), 225, np.uint8)
    img[76:124, 76:124] = tee(48, degrees)
    return img


BOX = np.array([[80.0, 80.0, 120.0, 120.0]], np.float32)


def test_ways_up_gives_the_angle_to_turn_by_and_the_way_the_index_faces():
    way_up = WayUp(lambda crop: 90.0)
    ways = ways_up(way_up, np.zeros((2, 32, 32, 3), np.uint8))
    assert ways.degrees.tolist() == pytest.approx([90, 90])
    assert np.allclose(ways.vectors, [[-1, 0], [-1, 0]], atol=1e-6)  # a quarter turn anticlockwise: facing left
    assert way_up.asked == [2]


def test_each_crop_is_read_turned_upright_at_each_tilt_in_one_batch_and_averaged():
    img = _tee_photo(180.0)  # upside down
    crops = crop_squares(img, BOX, 32)

    def dark_top(crop):  # its first card's probability: how dark the crop's top rows are
        dark = 1 - crop[:12].mean() / 255
        return np.concatenate([[dark, 1 - dark], np.zeros(51)])

    net = Classifier(read=dark_top)
    p = upright_probs(net, crops, np.array([180.0]), (-20.0, 0.0, 20.0))
    (seen,) = net.seen
    assert seen.shape == (3, 32, 32, 3) and bar_above_ink(seen[1])  # each tilt turned upright
    for k, t in enumerate((-20.0, 0.0, 20.0)):
        assert np.array_equal(seen[k], turn_upright(crops, np.array([180.0 + t]))[0])
    assert p[0, 0] == pytest.approx(np.mean([dark_top(c)[0] for c in seen]), abs=1e-6)
    assert upright_probs(net, crops, np.array([180.0]), (0.0,)).shape == (1, 53)


def test_index_probs_read_each_index_at_each_margin_and_keep_the_training_margins_top():
    img = np.full((200, 200, 3), 225, np.uint8)
    img[90:110, 94:106] = 30  # an index; a wider framing holds more paper

    def inked(crop):  # "AS" as sure as the crop is inked
        ink = float((crop.mean(2) < 128).mean())
        return probs(AS=ink, none=1 - ink)

    boxes = np.array([[94, 90, 106, 110], [94, 90, 106, 110]], np.float32)
    crops = crop_squares(img, boxes, 32)
    net = Classifier(read=inked)
    s = Classification(margins=(1.0, 1.15, 1.5), tilts=(0.0,))
    p, top = index_probs(net, img, boxes, crops, np.zeros(2), s)
    (seen,) = net.seen
    assert seen.shape == (6, 32, 32, 3) and np.array_equal(seen[2:4], crops)  # the training margin: the crops cut
    each = [inked(crop_square(img, tuple(boxes[0]), 32, m))[0] for m in s.margins]
    assert p[:, 0] == pytest.approx([np.mean(each)] * 2, abs=1e-6)
    assert top == pytest.approx([each[1]] * 2, abs=1e-6)  # at 1.15 alone
    # without the training margin among them, its top is read on its own
    net.seen.clear()
    _, top = index_probs(net, img, boxes, crops, np.zeros(2), Classification(margins=(1.0,), tilts=(0.0,)))
    assert top == pytest.approx([each[1]] * 2, abs=1e-6) and [len(c) for c in net.seen] == [2, 2]
    assert MARGIN == 1.15


def test_top_prob_is_the_mean_top_card_probability_at_the_training_margin():
    img = _tee_photo(0.0)
    net = Classifier(read=lambda crop: probs(AS=0.8) if crop.mean() < 200 else probs(KD=0.4))
    way_up = WayUp()
    assert top_prob(net, way_up, img, np.concatenate([BOX, [[0, 0, 20, 20]]]), (0.0,)) == pytest.approx(0.6)
    assert way_up.asked == [] and len(net.seen) == 1  # the way-up reader's angles alone: degrees


def test_a_suit_reader_reads_only_the_black_indices_crops_turned_upright_at_its_side():
    img = _tee_photo(180.0)
    boxes = np.concatenate([BOX, BOX])
    p = np.stack([probs(**{"8S": 0.6, "8C": 0.3}), sure("8H")])
    suit = Classifier(read=lambda crop: np.array([0.1, 0.9]) if bar_above_ink(crop) else np.array([0.9, 0.1]),
                      size=48)
    out = with_suit_reader(p, suit, img, boxes, np.array([180.0, 180.0]))
    (seen,) = suit.seen
    assert seen.shape == (1, 48, 48, 3) and bar_above_ink(seen[0])  # the spade's crop alone, turned upright
    assert out[0, CODES.index("8S")] < out[0, CODES.index("8C")] and np.array_equal(out[1], p[1])  # the heart as read
    assert out[0].sum() == pytest.approx(1.0) and out[0, NONE_CLASS] == pytest.approx(p[0, NONE_CLASS])
