"""Melds and the exact minimum-deadwood arrangement of a hand, as values: :class:`Meld`
and :class:`Arrangement`.

The search runs in :mod:`engine.masks` on 52-bit masks (bit ``suit * 13 + rank``), in small
named steps after OpenSpiel's ``GinRummyUtils``: which cards can meld at all
(:func:`~engine.masks.meldable_mask`), then a depth-first search over the lowest meldable
card: it is deadwood, or it heads a run, or it is in a set. Because the lowest card is taken
first, a run through it must start at it, which keeps the branching small. Results are
memoised by mask, so the 11 discards of a hand share their work.

Exact, never greedy. The hand that shows why (OpenSpiel's greedy 11-card check says 12):

>>> from engine.cards import parse_cards
>>> best_arrangement(parse_cards("4C 5C 6C 6D 2S 4D 5D 3D 3S 5H")).deadwood
10
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import CODES, DECK, PRETTY, VALUES, Card, cards_to_mask, mask_to_cards
from engine.errors import InvalidMeldError
from engine.masks import all_best_melds_mask, best_melds_mask, is_meld_mask, meld_cards, meld_order, merge_runs


@dataclass(frozen=True, slots=True)
class Meld:
    """A set or a run; ``cards`` in rank order (sets in suit order)."""

    cards: tuple[Card, ...]

    @classmethod
    def from_mask(cls, mask: int) -> Meld:
        return cls(tuple(DECK[c] for c in meld_cards(mask)))

    @classmethod
    def from_cards(cls, cards: Iterable[int]) -> Meld:
        """Validate and build a meld; raises :class:`InvalidMeldError`."""
        cards = list(cards)
        mask = cards_to_mask(cards)
        if mask.bit_count() != len(cards) or not is_meld_mask(mask):
            shown = " ".join(CODES[c] for c in cards)
            raise InvalidMeldError(
                f"not a meld: {shown} (a set is 3-4 cards of one rank; a run 3+ cards in a row "
                "of one suit, ace low)"
            )
        return cls.from_mask(mask)

    @property
    def mask(self) -> int:
        return cards_to_mask(self.cards)

    @property
    def is_set(self) -> bool:
        return len({c % 13 for c in self.cards}) == 1

    @property
    def is_run(self) -> bool:
        return not self.is_set

    @property
    def codes(self) -> list[str]:
        return [CODES[c] for c in self.cards]

    def __str__(self) -> str:
        return " ".join(PRETTY[c] for c in self.cards)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand laid out: its melds, its deadwood cards and their count."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(VALUES[c] for c in self.deadwood_cards)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(sorted([c for m in self.melds for c in m.cards] + list(self.deadwood_cards)))

    @classmethod
    def from_masks(cls, hand: int, melds: Sequence[int]) -> Arrangement:
        used = 0
        for m in melds:
            used |= m
        return cls(
            tuple(Meld.from_mask(m) for m in sorted(melds, key=meld_order)),
            tuple(mask_to_cards(hand & ~used)),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "melds": [m.codes for m in self.melds],
            "deadwood_cards": [CODES[c] for c in self.deadwood_cards],
            "deadwood": self.deadwood,
        }


def best_arrangement(cards: Iterable[int]) -> Arrangement:
    """The minimum-deadwood arrangement, the same one every time for the same cards.

    >>> from engine.cards import parse_cards
    >>> a = best_arrangement(parse_cards("7S 7C 7D 8S 9S 2H 3H 4H KD KC"))
    >>> [str(m) for m in a.melds], a.deadwood
    (['2♥ 3♥ 4♥', '7♠ 8♠ 9♠'], 34)
    """
    hand = cards_to_mask(cards)
    return Arrangement.from_masks(hand, best_melds_mask(hand))


def all_best_arrangements(cards: Iterable[int]) -> list[Arrangement]:
    """Every distinct minimum-deadwood arrangement (touching runs merged), best-first order
    being :func:`best_arrangement`'s choice first, then the rest sorted."""
    hand = cards_to_mask(cards)
    first = merge_runs(best_melds_mask(hand))
    found = {merge_runs(ms) for ms in all_best_melds_mask(hand)}
    found.discard(first)
    return [Arrangement.from_masks(hand, ms) for ms in [first, *sorted(found)]]
