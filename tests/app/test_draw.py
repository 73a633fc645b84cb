"""The cards read, drawn on the photo: as players write them, in their suit's colour, labels
sized to the photo and never on top of each other; a card read unsure labelled "2♣?", an index
found but not read a grey dashed box labelled "?"."""

from dataclasses import dataclass

import numpy as np
import pytest

from ui.draw import BLACK, GREY, RED, UNSURE, annotate, label_height, place_labels


@dataclass(frozen=True)
class Read:
    card: str
    boxes: tuple
    uncertain: bool = False


@dataclass(frozen=True)
class Reading:
    cards: tuple


@dataclass(frozen=True)
class ReadingWithUnread:
    cards: tuple
    unread: tuple


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


def label_box(image: np.ndarray, near: tuple[int, int, int, int]) -> tuple[int, int]:
    """The (width, height) of the white tag drawn within ``near`` (x1 y1 x2 y2)."""
    x1, y1, x2, y2 = near
    ys, xs = np.nonzero(np.all(image[y1:y2, x1:x2] == 255, axis=2))
    return int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)


@pytest.mark.parametrize("code", ["2C", "TH"])
def test_a_card_read_unsure_is_labelled_with_a_question_mark(code):
    photo = np.full((480, 640, 3), 128, np.uint8)
    box = ((200, 200, 240, 260),)
    sure = annotate(photo, Reading((Read(code, box),)))
    unsure = annotate(photo, Reading((Read(code, box, uncertain=True),)))
    colour = RED if code == "TH" else BLACK
    (sure_w, sure_h), (unsure_w, unsure_h) = label_box(sure, (150, 150, 400, 200)), label_box(unsure, (150, 150, 400, 200))
    assert sure_h == unsure_h and unsure_w > sure_w + 5  # room for the "?" after the suit
    # the "?" in the card's colour, right of where the sure label ends
    right = (slice(150, 197), slice(200 + sure_w + 3, 200 + unsure_w))  # above the box
    assert colour_count(unsure[right], colour) > 10 and colour_count(sure[right], colour) == 0
    assert colour_count(unsure, UNSURE) > 100 and colour_count(sure, UNSURE) == 0


def test_index_boxes_not_read_are_grey_dashed_boxes_labelled_with_a_question_mark():
    photo = np.full((480, 640, 3), 128, np.uint8)
    drawn = annotate(photo, ReadingWithUnread((), ((300, 300, 340, 360), (400, 300, 440, 360))))
    assert colour_count(drawn, GREY) > 100 and colour_count(photo, GREY) == 0
    top = drawn[301, 320:341]  # dashes: grey and gaps along the top edge (right of the "?" tag)
    grey = np.all(top == np.array(GREY, np.uint8), axis=1)
    assert 5 < grey.sum() < 17 and np.count_nonzero(np.diff(grey.astype(int))) >= 3
    for x in (300, 400):  # a "?" tag above each box, in grey
        w, h = label_box(drawn, (x - 5, 270, x + 40, 300))
        assert 15 <= h <= 20 and w < 30  # a tag as high as a card's, only the "?" on it
        assert colour_count(drawn[280:300, x:x + w], GREY) > 10
    assert np.array_equal(annotate(photo, Reading(())), photo)  # a reading without unread boxes: nothing drawn
