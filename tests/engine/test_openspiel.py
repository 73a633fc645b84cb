"""Differential test against OpenSpiel's C++ gin rummy utilities (pyspiel).

OpenSpiel orders suits s c d h; ours are S H D C. Its own 11-card min_deadwood is greedy
and wrong on some hands, so 11-card hands are compared discard by discard on 10 cards.
"""

import random

import pyspiel  # a test extra: missing, this module fails rather than skips
import pytest

from engine.cards import cards_to_mask, parse_cards
from engine.deals import GENERATORS
from engine.masks import discard_deadwoods_mask, min_deadwood

_SUIT_TO_OS = {0: 0, 1: 3, 2: 2, 3: 1}  # S H D C -> s c d h


def to_os(cards):
    return [_SUIT_TO_OS[c // 13] * 13 + c % 13 for c in cards]


@pytest.fixture(scope="module")
def utils():
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def test_card_mapping(utils):
    assert utils.card_strings_to_card_ints(["As", "Kh", "Tc", "2d"]) == to_os([0, 25, 48, 27])


@pytest.mark.parametrize("kind", list(GENERATORS))
def test_ten_card_min_deadwood(utils, kind):
    rng = random.Random(f"ten-{kind}")
    gen = GENERATORS[kind]
    for _ in range(1500):  # 6,000 hands in all
        hand = gen(rng)
        assert min_deadwood(hand) == utils.min_deadwood(to_os(hand)), hand


@pytest.mark.parametrize("kind", list(GENERATORS))
def test_eleven_card_every_discard(utils, kind):
    rng = random.Random(f"eleven-{kind}")
    gen = GENERATORS[kind]
    for _ in range(300):
        hand = gen(rng, 11)
        ours = discard_deadwoods_mask(cards_to_mask(hand))
        for card in hand:
            rest = [c for c in hand if c != card]
            assert ours[card] == utils.min_deadwood(to_os(rest)), (hand, card)


def test_openspiel_greedy_eleven_card_check_is_wrong_where_we_are_right(utils):
    hand = parse_cards("4C 5C 6S 6D 2S 4D 5D 6C 3D 3S 5H")
    assert utils.min_deadwood(to_os(hand), None) == 12  # theirs, greedy
    assert min(discard_deadwoods_mask(cards_to_mask(hand)).values()) == 10
