"""The mask solver's recorded choices: one best arrangement read off them is the one a fresh
search picks (the first meld through the lowest card that still reaches the best value,
longest runs first, then sets; else that card as deadwood), whatever the memo holds."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import masks
from engine.cards import cards_to_mask
from tests.hands import GENERATORS


def searched_best_melds(hand: int) -> tuple[int, ...]:
    """The choice made by searching again at every step (the solver before it recorded)."""
    melds = []
    mask = masks.meldable_mask(hand)
    while mask:
        plain = masks._plain_melds(mask)
        if plain is not None:
            melds += plain
            break
        target = masks._max_melded(mask)
        for meld in masks._melds_through_lowest(mask):
            rest = masks.meldable_mask(mask ^ meld)
            if masks.mask_value(meld) + masks._max_melded(rest) == target:
                melds.append(meld)
                mask = rest
                break
        else:
            mask = masks.meldable_mask(mask ^ (mask & -mask))
    return tuple(melds)


hands = st.one_of(
    st.lists(st.sampled_from(range(52)), unique=True, min_size=3, max_size=14),
    st.tuples(st.sampled_from(list(GENERATORS.values())), st.sampled_from([10, 11]), st.integers(0, 2**32))
    .map(lambda t: t[0](random.Random(t[2]), t[1])),
)


@settings(max_examples=400)
@given(hands, st.booleans())
def test_recorded_choice_is_the_searched_one(cards, fresh):
    if fresh:
        masks.clear_memo()
    hand = cards_to_mask(cards)
    assert masks.best_melds_mask(hand) == searched_best_melds(hand)


def test_a_memo_cleared_from_outside_is_searched_again():
    hand = cards_to_mask(GENERATORS["mixed_dense"](random.Random(3), 10))
    first = masks.best_melds_mask(hand)
    masks._CHOICE.clear()  # as if another caller had cleared it alone
    assert masks.best_melds_mask(hand) == first == searched_best_melds(hand)
