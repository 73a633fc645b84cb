"""A black number card's suit checked by its pips (vision.pips, Reader.check_pips): the pip
region lies to the right of and below the index as its top faces; blobs of a pip's size there
are read, and a card read as one black suit whose pips say the other is read so."""

import numpy as np
import pytest

from vision.pips import SIDE, pip_crops, pip_votes
from vision.reader import Reader, Settings
from vision.types import CardRead

BOX = (100.0, 100.0, 120.0, 140.0)  # an upright index, 40 px long, centre (110, 120)
UP = (0.0, -1.0)


def card(pips=((150, 160), (150, 220)), radius=12) -> np.ndarray:
    img = np.full((400, 400, 3), 60, np.uint8)  # a dark table
    img[90:330, 90:240] = 235  # the card's face
    for x, y in pips:
        yy, xx = np.mgrid[:400, :400]
        img[(xx - x) ** 2 + (yy - y) ** 2 <= radius ** 2] = 20
    return img


def test_the_pips_right_of_and_below_an_upright_index_are_cut():
    crops = pip_crops(card(), BOX, UP)
    assert crops.shape == (2, SIDE, SIDE, 3)
    assert crops[:, SIDE // 2, SIDE // 2].max() < 80  # each centred on its dark blob


def test_an_index_facing_down_looks_the_other_way():
    assert len(pip_crops(card(), BOX, (0.0, 1.0))) == 0  # its card lies left of and above it
    turned = card(pips=((70, 80), (70, 20)))
    turned[:] = np.rot90(card(), 2)
    box = (400 - BOX[2], 400 - BOX[3], 400 - BOX[0], 400 - BOX[1])
    assert len(pip_crops(turned, box, (0.0, 1.0))) == 2


@pytest.mark.parametrize("radius", [3, 30])
def test_blobs_too_small_or_too_big_for_a_pip_are_not_cut(radius):
    assert len(pip_crops(card(radius=radius), BOX, UP)) == 0


def test_a_blob_in_a_detected_index_or_cut_by_the_regions_edge_is_not_cut():
    assert len(pip_crops(card(), BOX, UP, others=[BOX, (135, 205, 165, 235)])) == 1
    # the region ends 2.8 index lengths right of the index's centre: x 222
    assert len(pip_crops(card(pips=((150, 160), (222, 220))), BOX, UP)) == 1


def test_what_lies_beyond_another_cards_index_is_that_cards():
    # a row laid down: the next card's index 1.5 index lengths to the right, level with this one
    assert len(pip_crops(card(pips=((150, 160), (200, 220))), BOX, UP, others=[BOX, (160, 100, 180, 140)])) == 0
    # ...and 2.5 to the right: this card's pips left of its corner are still its own
    assert len(pip_crops(card(pips=((150, 160), (150, 220))), BOX, UP, others=[BOX, (200, 100, 220, 140)])) == 2


class _Pips:
    """A stand-in pip reader: every blob read with these probabilities (spade, club, other)."""

    def __init__(self, p):
        self.p = np.asarray(p, np.float32)

    def __call__(self, crops):
        return np.tile(self.p, (len(crops), 1))


def test_votes_count_only_sure_answers():
    assert pip_votes(_Pips([0.02, 0.95, 0.03]), card(), BOX, UP) == (0, 2)
    assert pip_votes(_Pips([0.3, 0.6, 0.1]), card(), BOX, UP) == (0, 0)


class _WayUp:
    size = 32

    def __call__(self, crops):
        return np.tile(np.float32(UP), (len(crops), 1))


def _reader(p, **settings):
    reader = Reader.__new__(Reader)
    reader.settings = Settings(**{"pip_suit": 2, **settings})
    reader.pips, reader.way_up = _Pips(p), _WayUp()
    return reader


def _card(code, boxes=(BOX,), uncertain=True):
    return CardRead(code, 0.8, tuple(boxes), uncertain)


def test_a_spade_whose_pips_are_clubs_is_read_a_club_and_flagged():
    (c,) = _reader([0.02, 0.95, 0.03]).check_pips(card(), [_card("7S")])
    assert (c.card, c.confidence, c.boxes, c.uncertain) == ("7C", 0.8, (BOX,), True)


def test_the_pips_found_from_each_of_a_cards_indices_count_together():
    # one pip seen from each index: two in all
    img = card(pips=((150, 160),))
    img[295:380, 295:380] = 235  # a second card's face, where this one's other index is
    far = (300.0, 300.0, 320.0, 340.0)
    img[340:352, 340:352] = 20  # a pip right of and below that index (facing up too, here)
    assert _reader([0.02, 0.95, 0.03]).check_pips(img, [_card("7S")])[0].card == "7S"
    assert _reader([0.02, 0.95, 0.03]).check_pips(img, [_card("7S", (BOX, far))])[0].card == "7C"


def test_too_few_pips_or_any_of_its_own_suit_leave_it_as_read():
    assert _reader([0.02, 0.95, 0.03], pip_suit=3).check_pips(card(), [_card("7S")])[0].card == "7S"
    assert _reader([0.95, 0.02, 0.03]).check_pips(card(), [_card("7S")])[0].card == "7S"


def test_a_card_is_not_read_as_a_code_another_card_of_the_photo_has():
    other = _card("7C", ((300.0, 20.0, 320.0, 60.0),))
    assert [c.card for c in _reader([0.02, 0.95, 0.03]).check_pips(card(), [_card("7S"), other])] == ["7S", "7C"]


def test_with_pip_unsure_only_a_card_the_reader_is_sure_of_is_not_asked():
    sure = _card("7S", uncertain=False)
    assert _reader([0.02, 0.95, 0.03]).check_pips(card(), [sure])[0].card == "7S"
    assert _reader([0.02, 0.95, 0.03], pip_unsure_only=False).check_pips(card(), [sure])[0].card == "7C"


@pytest.mark.parametrize("code", ["AS", "KS", "7H"])
def test_aces_face_cards_and_red_cards_are_not_asked(code):
    assert _reader([0.95, 0.95, 0.0]).check_pips(card(), [_card(code)])[0].card == code
