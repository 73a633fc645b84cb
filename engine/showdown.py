"""The showdown: both hands laid out, the defender's layoffs, the outcome and the points.

Layoffs (RULES.md): a fourth card onto the knocker's set of three, or consecutive cards of
the suit onto either end of a run, one after another (9 then 10 onto 6-7-8). The defender
chooses layoffs and their own melds together for the least count: a card may be worth more
laid off than kept in the defender's own meld, and the other way round. Nothing is laid off
onto a gin hand.

The hand that shows it, with the knocker's JD as deadwood: the defender breaks the set of
eights, lays off 8S 9S onto 5-6-7S and 8C 7C under 9-10-JC, keeps the four 2s, and is left
with AC 8D = 9, which undercuts the knocker's 10:

>>> r = settle("5S 6S 7S 9C TC JC KS KC KD JD", "2S 8S 9S AC 2C 7C 8C 2D 8D 2H")
>>> r.outcome, r.winner, r.points, r.defender.deadwood
('undercut', 'defender', 11, 9)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, Literal

from engine.cards import (
    CODES,
    Card,
    cards_to_mask,
    check_cards,
    mask_to_cards,
    parse_card,
    parse_cards,
    split_tokens,
)
from engine.errors import DuplicateCardError, IllegalKnockError, InvalidMeldError
from engine.masks import best_melds_mask, is_set_mask, min_deadwood_mask
from engine.melds import Arrangement, Meld, all_best_arrangements
from engine.rules import DEFAULT_RULES, Rules

SHOWDOWN_SIZE = 10

Outcome = Literal["knock", "undercut", "gin"]  # how a showdown ends
Side = Literal["knocker", "defender"]  # who wins it


@dataclass(frozen=True, slots=True)
class Layoff:
    """One card laid off onto one of the knocker's melds (as the knocker laid it)."""

    card: Card
    meld: Meld

    def to_json(self) -> dict[str, Any]:
        return {"card": CODES[self.card], "meld": self.meld.codes}


@dataclass(frozen=True, slots=True)
class DefenderResult:
    arrangement: Arrangement
    layoffs: tuple[Layoff, ...]

    @property
    def deadwood(self) -> int:
        return self.arrangement.deadwood

    def to_json(self) -> dict[str, Any]:
        a = self.arrangement.to_json()
        return {
            "melds": a["melds"],
            "layoffs": [x.to_json() for x in self.layoffs],
            "deadwood_cards": a["deadwood_cards"],
            "deadwood": a["deadwood"],
        }


@dataclass(frozen=True, slots=True)
class Settlement:
    """The settled showdown. ``points`` go to ``winner``."""

    knocker: Arrangement
    defender: DefenderResult
    outcome: Outcome
    winner: Side
    points: int

    def to_json(self) -> dict[str, Any]:
        return {
            "knocker": self.knocker.to_json(),
            "defender": self.defender.to_json(),
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
        }


def layoff_choices(meld: int, defender: int) -> list[int]:
    """Every set of the defender's cards that can go onto ``meld`` together (as masks),
    the empty choice first."""
    if is_set_mask(meld):
        if meld.bit_count() == 4:
            return [0]
        rank = (meld.bit_length() - 1) % 13
        missing = next(s for s in range(4) if not meld >> (13 * s + rank) & 1)
        card = 1 << (13 * missing + rank)
        return [0, card] if defender & card else [0]
    low = (meld & -meld).bit_length() - 1
    high = meld.bit_length() - 1
    suit_base = low - low % 13
    up = [0]
    c = high + 1
    while c < suit_base + 13 and defender >> c & 1:
        up.append(up[-1] | 1 << c)
        c += 1
    down = [0]
    c = low - 1
    while c >= suit_base and defender >> c & 1:
        down.append(down[-1] | 1 << c)
        c -= 1
    return [u | d for u in up for d in down]


def best_defence(
    knocker_melds: Sequence[Meld], defender_cards: Iterable[int], *, gin: bool = False
) -> DefenderResult:
    """The defender's least count, layoffs and own melds chosen together.

    Ties go to fewer layoffs, then to the first choice in the knocker's meld order.
    """
    defender = cards_to_mask(defender_cards)
    melds = list(knocker_melds)
    choices = [[0] if gin else layoff_choices(m.mask, defender) for m in melds]
    best: tuple[int, int] | None = None
    best_pick: tuple[int, ...] = ()
    for pick in product(*choices):
        used = 0
        overlap = False
        for part in pick:
            if used & part:
                overlap = True
                break
            used |= part
        if overlap:
            continue
        key = (min_deadwood_mask(defender & ~used), used.bit_count())
        if best is None or key < best:
            best, best_pick = key, pick
    laid = 0
    layoffs = []
    for meld, part in zip(melds, best_pick, strict=True):
        laid |= part
        # In the order they go down: outwards from the meld's ends.
        ends = (meld.cards[0], meld.cards[-1])
        cards = sorted(mask_to_cards(part), key=lambda c: min(abs(c - e) for e in ends))
        layoffs += [Layoff(c, meld) for c in cards]
    rest = defender & ~laid
    return DefenderResult(Arrangement.from_masks(rest, best_melds_mask(rest)), tuple(layoffs))


def score(knocker_deadwood: int, defender_deadwood: int, rules: Rules = DEFAULT_RULES) -> tuple[Outcome, Side, int]:
    """(outcome, winner, points) from the two counts (the defender's after layoffs).

    >>> score(0, 12), score(6, 12), score(8, 8)
    (('gin', 'knocker', 37), ('knock', 'knocker', 6), ('undercut', 'defender', 10))
    """
    if knocker_deadwood == 0:
        return "gin", "knocker", rules.gin_bonus + defender_deadwood
    if defender_deadwood <= knocker_deadwood:
        return "undercut", "defender", rules.undercut_bonus + knocker_deadwood - defender_deadwood
    return "knock", "knocker", defender_deadwood - knocker_deadwood


MeldsInput = str | Sequence[Meld | str | Sequence[str]]


def parse_melds(melds: MeldsInput) -> list[Meld]:
    """Melds from ``"AS 2S 3S | 7H 7D 7C"``, or from a sequence of melds, each a :class:`Meld`,
    a string of codes or a list of codes. Raises ``InvalidMeldError`` or ``CardParseError``.

    >>> [str(m) for m in parse_melds([["AS", "2S", "3S"], "7h 7d 7c"])]
    ['A♠ 2♠ 3♠', '7♥ 7♦ 7♣']
    """
    if isinstance(melds, str):
        groups: list[Meld | str | Sequence[str]] = [g for g in melds.split("|") if g.strip()]
    else:
        groups = list(melds)
    out = []
    for group in groups:
        if isinstance(group, Meld):
            out.append(group)
        else:
            tokens = split_tokens(group) if isinstance(group, str) else list(group)
            out.append(Meld.from_cards(parse_card(t) for t in tokens))
    return out


def settle(
    knocker: str | Iterable[int],
    defender: str | Iterable[int],
    knocker_melds: MeldsInput | None = None,
    rules: Rules = DEFAULT_RULES,
) -> Settlement:
    """Settle a showdown from the knocker's 10 cards (after the discard) and the defender's.

    ``knocker_melds``: the melds the knocker laid; the knocker's other cards are deadwood.
    When not given, the knocker's least-deadwood arrangement is used, ties broken to leave
    the defender the least to lay off. Raises ``HandSizeError``, ``DuplicateCardError``,
    ``InvalidMeldError`` or ``IllegalKnockError`` on bad input.
    """
    k_cards = _showdown_hand(knocker, "knocker's hand")
    d_cards = _showdown_hand(defender, "defender's hand")
    k_mask, d_mask = cards_to_mask(k_cards), cards_to_mask(d_cards)
    if k_mask & d_mask:
        both = " ".join(CODES[c] for c in mask_to_cards(k_mask & d_mask))
        raise DuplicateCardError(f"card in both hands: {both}")

    if knocker_melds is not None:
        melds = parse_melds(knocker_melds)
        used = 0
        for m in melds:
            if m.mask & used:
                raise InvalidMeldError(f"card used in two declared melds: {m}")
            if m.mask & ~k_mask:
                missing = " ".join(CODES[c] for c in mask_to_cards(m.mask & ~k_mask))
                raise InvalidMeldError(f"declared meld {' '.join(m.codes)} uses {missing}, not in the knocker's hand")
            used |= m.mask
        candidates = [Arrangement.from_masks(k_mask, [m.mask for m in melds])]
    else:
        candidates = all_best_arrangements(k_cards)

    knocker_deadwood = candidates[0].deadwood
    if knocker_deadwood > rules.knock_limit:
        raise IllegalKnockError(
            f"knocker's count is {knocker_deadwood}; a knock needs {rules.knock_limit} or less"
        )
    return settle_arranged(candidates, d_cards, rules)


def _showdown_hand(cards: str | Iterable[int], what: str) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards, sizes=(SHOWDOWN_SIZE,), what=what)
    return check_cards(cards, sizes=(SHOWDOWN_SIZE,), what=what)


def settle_arranged(
    candidates: Sequence[Arrangement], defender_cards: Sequence[int], rules: Rules = DEFAULT_RULES
) -> Settlement:
    """The showdown once the knocker's possible arrangements are known: all of one legal
    count (as :func:`settle` checks), the one leaving the defender the most is laid.

    For settling one knock against many defenders (the advice's sampling), the knocker's
    arrangements are found once.
    """
    knocker_deadwood = candidates[0].deadwood
    gin = knocker_deadwood == 0
    defender_cards = list(defender_cards)
    chosen, defence = None, None
    for arrangement in candidates:  # all have the same count: leave the defender the most
        result = best_defence(arrangement.melds, defender_cards, gin=gin)
        if defence is None or result.deadwood > defence.deadwood:
            chosen, defence = arrangement, result
    assert chosen is not None and defence is not None
    outcome, winner, points = score(knocker_deadwood, defence.deadwood, rules)
    return Settlement(chosen, defence, outcome, winner, points)
