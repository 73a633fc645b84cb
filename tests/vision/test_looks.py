"""The extra looks' pure parts (vision.looks): boxes found stretched or flipped given back in the
photo's own pixels, and the odds that ask for a flipped read."""

import numpy as np
import pytest

from tests.vision.stubs import Classifier, index, probs
from vision.image import stretch
from vision.looks import (
    cards_score,
    looks_mirrored,
    mirror_confidences,
    mirror_means,
    mirrored_box,
    mirrored_card,
    mirrored_index,
    stretch_scale,
    unstretch_box,
    unstretch_card,
    unstretch_index,
)
from vision.types import CardRead, IndexRead, Reading


def test_cards_score_sums_the_cards_confidences():
    cards = [CardRead("7C", 0.9, (), False), CardRead("8H", 0.5, (), True)]
    assert cards_score(cards) == pytest.approx(1.4) and cards_score([]) == 0.0


def test_the_stretch_scale_is_the_photos_true_sides_not_the_nominal_factor():
    img = np.zeros((640, 640, 3), np.uint8)
    assert stretch_scale(img, stretch(img, 1.78)) == (1139 / 640, 1.0)
    assert stretch_scale(img, stretch(img, 0.75)) == (1.0, 853 / 640)
    assert stretch_scale(img, stretch(img, 1.0)) == (1.0, 1.0)


def test_boxes_and_ways_found_stretched_are_given_back_in_the_photos_pixels():
    assert unstretch_box((20, 10, 40, 30), (2.0, 1.0)) == (10, 10, 20, 30)
    assert unstretch_box((20, 10, 40, 30), (1.0, 2.0)) == (20, 5, 40, 15)
    read = unstretch_index(index("AS", 20, 10, up=(0.6, 0.8)), (2.0, 1.0))
    assert read.box == (10, 10, 16, 30) and read.card == "AS"
    assert read.up == pytest.approx(np.array([0.3, 0.8]) / np.hypot(0.3, 0.8))
    assert unstretch_index(index("AS", 20, 10), (2.0, 1.0)).up is None
    card = unstretch_card(CardRead("AS", 0.9, ((20, 10, 40, 30), (60, 10, 80, 30)), False), (2.0, 1.0))
    assert card.boxes == ((10, 10, 20, 30), (30, 10, 40, 30)) and card.confidence == 0.9


def test_a_box_mirrored_and_back():
    assert mirrored_box((10, 20, 30, 40), 100) == (70.0, 20.0, 90.0, 40.0)
    assert mirrored_box(mirrored_box((10.5, 2, 31, 4), 64), 64) == (10.5, 2.0, 31.0, 4.0)
    card = mirrored_card(CardRead("2H", 0.9, ((10, 20, 30, 40),), True), 100)
    assert card.boxes == ((70.0, 20.0, 90.0, 40.0),) and card.uncertain


def test_a_mirrored_index_faces_back():
    read = IndexRead((10.0, 20.0, 30.0, 40.0), "2H", 0.9, np.zeros(53, np.float32), np.array([0.6, -0.8], np.float32))
    back = mirrored_index(read, 100)
    assert back.box == (70.0, 20.0, 90.0, 40.0) and back.up.tolist() == pytest.approx([-0.6, -0.8])
    assert mirrored_index(IndexRead((0, 0, 1, 1), "2H", 0.9, np.zeros(53, np.float32)), 10).up is None


def test_json_names_mirrored_only_when_it_is():
    card = CardRead("2H", 0.9, ((1.0, 2.0, 3.0, 4.0),), False)
    plain = Reading((card,), 12.0, 64, 48).to_json("a.jpg")
    assert set(plain) == {"image", "cards", "ms"}  # the contract's keys
    assert Reading((card,), 12.0, 64, 48, mirrored=True).to_json("a.jpg")["mirrored"] is True


def test_mirror_means_leave_out_the_boxes_weak_both_ways():
    as_is = np.array([0.9, 0.1, 0.2, 0.35])
    mirrored = np.array([0.5, 0.15, 0.1, 0.45])
    assert mirror_means(as_is, mirrored, 0.0) == pytest.approx((0.3875, 0.3))  # every box
    # at 0.4 the two weak boxes (0.1 / 0.15, 0.2 / 0.1) are left out; 0.35 / 0.45 counts (its mirrored read)
    assert mirror_means(as_is, mirrored, 0.4) == pytest.approx((0.625, 0.475))
    assert mirror_means(as_is, mirrored, 0.95) == (0.0, 0.0)  # none left: as for no box
    assert mirror_means(np.zeros(0), np.zeros(0), 0.4) == (0.0, 0.0)


@pytest.mark.parametrize("odds, flipped", [((0.5, 0.6), True), ((0.6, 0.6), False), ((0.6, 0.58), False),
                                           ((0.1, 0.25), False), ((0.0, 0.3), True), ((0.0, 0.0), False)])
def test_the_odds_ask_for_a_flipped_read_when_surer_mirrored_and_at_least_mirror_least(odds, flipped):
    assert looks_mirrored(odds, 0.3) is flipped


def test_mirror_confidences_read_each_crop_and_its_mirror_image_in_one_batch():
    crops = np.full((2, 32, 32, 3), 230, np.uint8)
    crops[:, :, :8] = 30  # dark on the left

    def read(crop):
        return probs(AS=0.9) if crop[:, :16].mean() < crop[:, 16:].mean() else probs(AS=0.4)

    net = Classifier(read=read)
    as_is, mirrored = mirror_confidences(net, np.array([0.9, 0.4]), crops)
    assert as_is == pytest.approx(np.sqrt([0.81, 0.36])) and mirrored == pytest.approx(np.sqrt([0.36, 0.16]))
    assert [len(c) for c in net.seen] == [4]
    assert [len(v) for v in mirror_confidences(net, np.zeros(0), crops[:0])] == [0, 0]
