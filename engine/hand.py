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

from engine.cards import CODES, Card, cards_to_mask, parse_cards
from engine.errors import HandSizeError
from engine.melds import (
    Arrangement,
    Meld,
    _meld_order,
    best_melds_mask,
    discard_deadwoods_mask,
    mask_value,
    meldable_mask,
)
from engine.rules import DEFAULT_RULES, Rules

HAND_SIZES = (10, 11)


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """What discarding ``discard`` leaves."""

    discard: Card
    arrangement: Arrangement

    @property
    def deadwood(self) -> int:
        return self.arrangement.deadwood

    def to_json(self) -> dict:
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

    def to_json(self) -> dict:
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


# --- The JSON contract, built straight from masks (``ginsight hand --json/--jsonl``). ---
# The same text as ``json.dumps(analyse_hand(...).to_json())`` (a test holds them equal),
# without the intermediate objects: this is the path that runs once per line of a stream.

_MELD_CODES: dict[int, list[str]] = {}


def _meld_codes(meld: int) -> list[str]:
    codes = _MELD_CODES.get(meld)
    if codes is None:
        codes = Meld.from_mask(meld).codes
        if len(_MELD_CODES) < 100_000:
            _MELD_CODES[meld] = codes
    return codes


def _codes_text(codes: list[str]) -> str:
    return '["' + '", "'.join(codes) + '"]' if codes else "[]"


def _suit_fragments(suit: int) -> list[str]:
    """For each 13-bit mask of one suit: ``, "AS", "3S"`` (its codes, each after ", "), or "".

    All 8,192 are built at import (a few ms, each from a smaller one): filling them lazily
    cost more over a stream of random hands than building them all once.
    """
    code_text = [f', "{CODES[13 * suit + r]}"' for r in range(13)]
    out = [""] * 8192
    for bits in range(1, 8192):
        high = bits.bit_length() - 1
        out[bits] = out[bits ^ (1 << high)] + code_text[high]
    return out


_SUIT_TEXT: tuple[list[str], ...] = tuple(_suit_fragments(s) for s in range(4))


def _mask_text(mask: int) -> str:
    """The JSON list of the codes of ``mask`` (deck order), from one fragment per suit."""
    t0, t1, t2, t3 = _SUIT_TEXT
    text = t0[mask & 0x1FFF] + t1[mask >> 13 & 0x1FFF] + t2[mask >> 26 & 0x1FFF] + t3[mask >> 39]
    return "[" + text[2:] + "]"


_MELDS_TEXT: dict[tuple[int, ...], str] = {}


def _melds_text(hand_melds: tuple[int, ...]) -> str:
    text = _MELDS_TEXT.get(hand_melds)
    if text is None:
        ordered = sorted(hand_melds, key=_meld_order)
        text = "[" + ", ".join(_codes_text(_meld_codes(m)) for m in ordered) + "]"
        if len(_MELDS_TEXT) < 100_000:
            _MELDS_TEXT[hand_melds] = text
    return text


def hand_json_text(cards: Iterable[int], rules: Rules = DEFAULT_RULES) -> str:
    """``json.dumps(analyse_hand(cards, rules).to_json())``, character for character, built
    from cached fragments: the 11 options of a hand share most of their text."""
    hand = cards_to_mask(cards)
    n = hand.bit_count()
    if n not in HAND_SIZES:
        raise HandSizeError(f"hand has {n} cards; expected 10 or 11")
    return hand_text_from_mask(hand, rules.knock_limit)


def hand_text_from_mask(hand: int, limit: int) -> str:
    """:func:`hand_json_text` for a mask of 10 or 11 cards (the caller checks the count)."""
    n = hand.bit_count()
    cards_text = _mask_text(hand)
    if n == 10:
        if not meldable_mask(hand):  # most random hands: nothing melds, all is deadwood
            deadwood = mask_value(hand)
            return (
                f'{{"cards": {cards_text}, "melds": [], "deadwood_cards": {cards_text}, "deadwood": {deadwood}, '
                f'"gin": false, "can_knock": {"true" if deadwood <= limit else "false"}}}'
            )
        melds = best_melds_mask(hand)
        used = 0
        for m in melds:
            used |= m
        dead = hand & ~used
        deadwood = mask_value(dead)
        return (
            f'{{"cards": {cards_text}, "melds": {_melds_text(melds)}, "deadwood_cards": '
            f'{_mask_text(dead)}, "deadwood": {deadwood}, '
            f'"gin": {"true" if deadwood == 0 else "false"}, '
            f'"can_knock": {"true" if deadwood <= limit else "false"}}}'
        )
    deadwoods = discard_deadwoods_mask(hand)
    meldable = meldable_mask(hand)
    shared = best_melds_mask(meldable)
    shared_text = _melds_text(shared)
    shared_used = 0
    for m in shared:
        shared_used |= m
    shared_dead = hand & ~shared_used
    options = []
    best_parts = ""
    for c in sorted(deadwoods, key=lambda c: (deadwoods[c], c)):
        bit = 1 << c
        if meldable & bit:
            rest = hand ^ bit
            melds = best_melds_mask(rest)
            used = 0
            for m in melds:
                used |= m
            melds_text = _melds_text(melds)
            dead = rest & ~used
        else:
            melds_text = shared_text
            dead = shared_dead ^ bit
        parts = (
            f'"melds": {melds_text}, "deadwood_cards": {_mask_text(dead)}, '
            f'"deadwood": {deadwoods[c]}'
        )
        if not options:
            best_parts, best_code, best_deadwood = parts, CODES[c], deadwoods[c]
        options.append(f'{{"discard": "{CODES[c]}", {parts}}}')
    return (
        f'{{"cards": {cards_text}, {best_parts}, "gin": {"true" if best_deadwood == 0 else "false"}, '
        f'"can_knock": {"true" if best_deadwood <= limit else "false"}, "discard": "{best_code}", '
        f'"options": [{", ".join(options)}]}}'
    )
