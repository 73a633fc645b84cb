"""Invariants of the rules core, by hypothesis, and a differential test against a brute
force reference written apart from the engine (tests/reference.py)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK, VALUES, parse_card, parse_cards
from engine.deals import GENERATORS
from engine.hand import discard_options
from engine.masks import min_deadwood
from engine.melds import Meld, all_best_arrangements, best_arrangement
from engine.showdown import best_defence, settle
from tests import reference
from tests.hands import knock_deal

cards_st = st.lists(st.sampled_from(range(52)), unique=True)
dense_st = st.sampled_from(list(GENERATORS.values())).flatmap(
    lambda gen: st.integers(0, 2**32).map(lambda seed: gen(random.Random(seed)))
)
ten = st.one_of(cards_st.filter(lambda c: len(c) == 10), dense_st, st.permutations(range(52)).map(lambda p: list(p[:10])))


@given(st.sampled_from(DECK))
def test_parse_format_round_trip(card):
    assert parse_card(card.code) == card
    assert parse_card(str(card)) == card


@settings(max_examples=300)
@given(ten)
def test_arrangement_is_valid(hand):
    a = best_arrangement(hand)
    used = [c for m in a.melds for c in m.cards] + list(a.deadwood_cards)
    assert sorted(used) == sorted(hand)  # every card once
    for m in a.melds:
        assert Meld.from_cards(m.cards) == m  # valid meld
    assert a.deadwood == sum(VALUES[c] for c in a.deadwood_cards)
    assert a.deadwood == min_deadwood(hand)


@settings(max_examples=300)
@given(ten)
def test_matches_brute_force(hand):
    assert min_deadwood(hand) == reference.min_deadwood(hand)


@settings(max_examples=150)
@given(ten)
def test_all_tied_arrangements_are_minimal_and_distinct(hand):
    tied = all_best_arrangements(hand)
    assert len({tuple(m.cards for m in a.melds) for a in tied}) == len(tied)
    assert {a.deadwood for a in tied} == {min_deadwood(hand)}


@settings(max_examples=200)
@given(st.permutations(range(52)).map(lambda p: list(p[:11])) | dense_st.map(lambda h: h))
def test_eleven_card_options_agree_with_ten_card_solver(hand):
    if len(hand) != 11:
        hand = [*hand, next(c for c in range(52) if c not in hand)]
    options = discard_options(hand)
    assert sorted(o.discard for o in options) == sorted(hand)
    for o in options:
        rest = [c for c in hand if c != o.discard]
        assert o.deadwood == min_deadwood(rest)
        assert sorted(o.arrangement.cards) == sorted(rest)
    assert [o.deadwood for o in options] == sorted(o.deadwood for o in options)


@settings(max_examples=200)
@given(st.integers(0, 2**32))
def test_layoffs_never_raise_the_count(seed):
    knocker, defender = knock_deal(random.Random(seed))
    r = settle(knocker, defender)
    assert r.defender.deadwood <= min_deadwood(defender)
    laid = [x.card for x in r.defender.layoffs]
    kept = [c for m in r.defender.arrangement.melds for c in m.cards] + list(r.defender.arrangement.deadwood_cards)
    assert sorted(laid + kept) == sorted(defender)


@pytest.mark.parametrize("seed", range(4))
def test_showdown_matches_brute_force(seed):
    rng = random.Random(1000 + seed)
    for _ in range(60):
        knocker, defender = knock_deal(rng)
        r = settle(knocker, defender)
        melds = [list(m.cards) for m in r.knocker.melds]
        expected = reference.defender_deadwood(melds, defender)
        gin = r.knocker.deadwood == 0
        assert r.defender.deadwood == (reference.min_deadwood(defender) if gin else expected)


def test_defender_breaks_the_eights_against_reference():
    knocker = parse_cards("5S 6S 7S 9C TC JC KS KC KD JD")
    melds = [parse_cards("5S 6S 7S"), parse_cards("9C TC JC"), parse_cards("KS KC KD")]
    assert reference.defender_deadwood(melds, parse_cards("2S 8S 9S AC 2C 7C 8C 2D 8D 2H")) == 9
    assert best_defence([Meld.from_cards(m) for m in melds], parse_cards("2S 8S 9S AC 2C 7C 8C 2D 8D 2H")).deadwood == 9
    assert reference.min_deadwood(knocker) == 10


@settings(max_examples=300)
@given(st.one_of(ten, st.permutations(range(52)).map(lambda p: list(p[:11]))))
def test_json_fast_paths_equal_the_object_path(hand):
    import json

    from engine.hand import analyse_hand, hand_json_text

    expected = analyse_hand(hand).to_json()
    assert hand_json_text(hand) == json.dumps(expected)
