"""The cards read, drawn on the photo: as players write them, in their suit's colour, labels
sized to the photo and never on top of each other."""

from dataclasses import dataclass

import numpy as np
import pytest

from ui.draw import BLACK, RED, annotate, label_height, place_labels


@dataclass(frozen=True)
class Read:
    card: str
    boxes: tuple
    uncertain: bool = False


@dataclass(frozen=True)
class Reading:
    cards: tuple


def colour_count(image: np.ndarray, colour) -> int:
    return int(np.all(image == np.array(colour, np.uint8), axis=2).sum())


def test_labels_grow_with_the_photo():
    assert label_height(640, 480) == 20 and label_height(4000, 3000) == 125 and label_height(100, 80) == 18


def test_busy_photo_labels_do_not_overlap():
    anchors = [(100 + 3 * i, 100 + 2 * i, 130 + 3 * i, 140 + 2 * i) for i in range(12)]  # twelve boxes in a heap
    rects = place_labels(anchors, [(40, 20)] * 12, 640, 480)
    for i, a in enumerate(rects):
        assert min(a[0], a[1]) >= 0 and a[2] <= 640 and a[3] <= 480
        for b in rects[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


@pytest.mark.parametrize(("code", "colour", "other"), [("TH", RED, BLACK), ("KS", BLACK, RED), ("2D", RED, BLACK)])
def test_a_card_in_its_suit_colour(code, colour, other):
    photo = np.full((480, 640, 3), 128, np.uint8)
    drawn = annotate(photo, Reading((Read(code, ((200, 200, 240, 260),)),)))
    assert colour_count(drawn, colour) > 100 and colour_count(drawn, other) == 0
    assert colour_count(photo, colour) == 0  # a copy: the photo is left as it was
