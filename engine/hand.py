"""A player's hand of 10 or 11 cards: its arrangement, the discards, and the knock.

With 11 cards (a card just taken) the player must discard: every discard is weighed, the
best first. A knock is legal when some discard leaves a count at or under the knock limit;
gin when one leaves 0. With 10 cards there is no discard to choose: the report describes
those 10 as they stand, and ``can_knock`` says whether they would be a legal knocking hand
(the count after a knocker's discard is of 10 such cards).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.cards import CODES, Card, cards_to_mask, parse_cards
from engine.errors import HandSizeError
from engine.hand_text import HAND_SIZES, hand_text_from_mask
from engine.masks import best_melds_mask, discard_deadwoods_mask
from engine.melds import Arrangement
from engine.rules import DEFAULT_RULES, Rules


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """What discarding ``discard`` leaves."""

    discard: Card
    arrangement: Arrangement

    @property
    def deadwood(self) -> int:
        return self.arrangement.deadwood

    def to_json(self) -> dict[str, Any]:
        return {"discard": CODES[self.discard], **self.arrangement.to_json()}


@dataclass(frozen=True, slots=True)
class HandReport:
    """The analysis of a hand: for 11 cards, of the hand after its best discard."""

    cards: tuple[Card, ...]
    arrangement: Arrangement
    can_knock: bool
    options: tuple[DiscardOption, ...] = ()

    @property
    def deadwood(self) -> int:
        return self.arrangement.deadwood

    @property
    def gin(self) -> bool:
        return self.arrangement.deadwood == 0

    @property
    def discard(self) -> Card | None:
        return self.options[0].discard if self.options else None

    def to_json(self) -> dict[str, Any]:
        out = {
            "cards": [CODES[c] for c in self.cards],
            **self.arrangement.to_json(),
            "gin": self.gin,
            "can_knock": self.can_knock,
        }
        if self.options:
            out["discard"] = CODES[self.options[0].discard]
            out["options"] = [o.to_json() for o in self.options]
        return out


def discard_options(cards: Iterable[int]) -> list[DiscardOption]:
    """Every discard of a hand with what it leaves, least deadwood first (ties: deck order).

    >>> from engine.cards import parse_cards
    >>> best = discard_options(parse_cards("4S 4C 4D 4H 5S 5C 5D 6S 2C 3S 3C"))[0]
    >>> best.discard.code, best.deadwood
    ('6S', 3)
    """
    hand = cards_to_mask(cards)
    deadwoods = discard_deadwoods_mask(hand)
    order = sorted(deadwoods, key=lambda c: (deadwoods[c], c))
    out = []
    for c in order:
        rest = hand ^ (1 << c)
        out.append(DiscardOption(Card(c), Arrangement.from_masks(rest, best_melds_mask(rest))))
    return out


def analyse_hand(cards: Iterable[int] | str, rules: Rules = DEFAULT_RULES) -> HandReport:
    """Analyse 10 or 11 cards (a string is parsed). Raises ``HandSizeError`` otherwise.

    >>> r = analyse_hand("4S 4C 4D 4H 5S 5C 5D 6S 2C 3S 3C")
    >>> r.discard.code, r.deadwood, r.can_knock, r.gin
    ('6S', 3, True, False)
    """
    hand = parse_cards(cards, sizes=HAND_SIZES) if isinstance(cards, str) else list(cards)
    if len(hand) not in HAND_SIZES:
        raise HandSizeError(f"hand has {len(hand)} cards; expected 10 or 11")
    ordered = tuple(sorted(Card(c) for c in hand))
    if len(hand) == 11:
        options = tuple(discard_options(ordered))
        best = options[0].arrangement
        return HandReport(ordered, best, best.deadwood <= rules.knock_limit, options)
    mask = cards_to_mask(ordered)
    arrangement = Arrangement.from_masks(mask, best_melds_mask(mask))
    return HandReport(ordered, arrangement, arrangement.deadwood <= rules.knock_limit)


def hand_json_text(cards: Iterable[int], rules: Rules = DEFAULT_RULES) -> str:
    """``json.dumps(analyse_hand(cards, rules).to_json())``, character for character, built
    from cached fragments: the 11 options of a hand share most of their text."""
    hand = cards_to_mask(cards)
    n = hand.bit_count()
    if n not in HAND_SIZES:
        raise HandSizeError(f"hand has {n} cards; expected 10 or 11")
    return hand_text_from_mask(hand, rules.knock_limit)
