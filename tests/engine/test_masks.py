"""The mask solver's recorded choices: one best arrangement read off them is the one a fresh
search picks (the first meld through the lowest card that still reaches the best value,
longest runs first, then sets; else that card as deadwood), whatever the memo holds."""

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import masks
from engine.cards import cards_to_mask
from engine.deals import GENERATORS


def melds_through_lowest(mask: int) -> list[int]:
    """Every meld inside ``mask`` that holds its lowest card, in the order they are tried:
    runs from it, longest first; then the set of four; then sets of three."""
    low = (mask & -mask).bit_length() - 1
    suit, rank = divmod(low, 13)
    runs = []
    run = 1 << low
    for r in range(rank + 1, 13):
        if not mask >> (13 * suit + r) & 1:
            break
        run |= 1 << (13 * suit + r)
        if r - rank >= 2:
            runs.append(run)
    others = [1 << (13 * s + rank) for s in range(suit + 1, 4) if mask >> (13 * s + rank) & 1]
    sets = [(1 << low) | sum(others)] if len(others) == 3 else []
    sets += [(1 << low) | x | y for x, y in combinations(others, 2)]
    return runs[::-1] + sets


def most_melded(mask: int) -> int:
    """The most value disjoint melds of ``mask`` cover."""
    return masks.mask_value(mask) - masks.min_deadwood_mask(mask)


def searched_best_melds(hand: int) -> tuple[int, ...]:
    """The choice made by searching again at every step."""
    melds = []
    mask = masks.meldable_mask(hand)
    while mask:
        target = most_melded(mask)
        for meld in melds_through_lowest(mask):
            rest = masks.meldable_mask(mask ^ meld)
            if masks.mask_value(meld) + most_melded(rest) == target:
                melds.append(meld)
                mask = rest
                break
        else:
            mask = masks.meldable_mask(mask ^ (mask & -mask))
    return tuple(sorted(melds))


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
    assert tuple(sorted(masks.best_melds_mask(hand))) == searched_best_melds(hand)


def test_a_memo_cleared_from_outside_is_searched_again():
    hand = cards_to_mask(GENERATORS["mixed_dense"](random.Random(3), 10))
    first = masks.best_melds_mask(hand)
    masks._CHOICE.clear()  # white-box: as if another thread's search had cleared the memo between two steps
    assert masks.best_melds_mask(hand) == first
    assert tuple(sorted(first)) == searched_best_melds(hand)
