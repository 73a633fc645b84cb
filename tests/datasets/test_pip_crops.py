"""The pip reader's training crops (datasets.pips): a black number card's pips and its
indices' suit symbols are its suit, its rank glyphs and every red card's blobs are "other",
and a black face card's picture is left out."""

import numpy as np
import pytest

from datasets.decks import procedural_deck
from datasets.pips import _shard, blobs_of
from vision.pips import SIDE

DECK = procedural_deck(13000)


@pytest.mark.parametrize("code, pips", [("2S", 2), ("7C", 7), ("9S", 9), ("TC", 10)])
def test_a_black_number_cards_pips_and_index_suits_are_its_suit(code, pips):
    labels = [label for _, label in blobs_of(DECK.faces[code], DECK.index_boxes[code], code)]
    suit = "SC".index(code[1])
    assert labels.count(suit) == pips + 2  # its pips, and the suit symbol of each index
    assert set(labels) <= {suit, 2}  # the rest (rank glyphs) "other"


@pytest.mark.parametrize("code", ["5H", "8D", "KH"])
def test_a_red_cards_blobs_are_other(code):
    labels = [label for _, label in blobs_of(DECK.faces[code], DECK.index_boxes[code], code)]
    assert labels and set(labels) == {2}


def test_a_black_face_card_gives_only_its_index_suits_and_ranks():
    found = blobs_of(DECK.faces["KS"], DECK.index_boxes["KS"], "KS")
    assert [label for _, label in found].count(0) == 2
    for box, _ in found:  # every blob lies in an index box: the picture is left out
        assert any(b[0] - 2 <= box[0] and box[2] <= b[2] + 2 and b[1] - 2 <= box[1] and box[3] <= b[3] + 2
                   for b in DECK.index_boxes["KS"])


def test_a_shard_is_balanced_sized_and_reproducible():
    x, y = _shard((["procedural-13000"], 60, 7))
    assert x.shape == (60, SIDE, SIDE, 3) and x.dtype == np.uint8
    assert set(np.unique(y)) == {0, 1, 2}
    x2, y2 = _shard((["procedural-13000"], 60, 7))
    assert np.array_equal(x, x2) and np.array_equal(y, y2)
