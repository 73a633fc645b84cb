"""The JSON text of ``ginsight hand --json/--jsonl``, built straight from masks.

The same text as ``json.dumps(analyse_hand(...).to_json())`` (a test holds them equal),
without the intermediate objects: this is the path that runs once per line of a stream,
and it imports no dataclasses, json or argparse, so that a stream starts fast.
"""

from __future__ import annotations

from engine.cards import CODES
from engine.masks import best_melds_mask, discard_deadwoods_mask, mask_value, meld_cards, meld_order, meldable_mask

HAND_SIZES = (10, 11)

_MELD_CODES: dict[int, list[str]] = {}


def _meld_codes(meld: int) -> list[str]:
    codes = _MELD_CODES.get(meld)
    if codes is None:
        codes = [CODES[c] for c in meld_cards(meld)]
        if len(_MELD_CODES) < 100_000:
            _MELD_CODES[meld] = codes
    return codes


def _codes_text(codes: list[str]) -> str:
    return '["' + '", "'.join(codes) + '"]' if codes else "[]"


def _suit_fragments(suit: int) -> list[str]:
    """For each 13-bit mask of one suit: ``, "AS", "3S"`` (its codes, each after ", "), or "".

    All 8,192 are built at import, doubled rank by rank (the masks with rank r on top are
    those below it plus that code): filling them lazily cost more over a stream of random
    hands than building them all once.
    """
    out = [""]
    for rank in range(13):
        code = f', "{CODES[13 * suit + rank]}"'
        out += [text + code for text in out]
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
        ordered = sorted(hand_melds, key=meld_order)
        text = "[" + ", ".join(_codes_text(_meld_codes(m)) for m in ordered) + "]"
        if len(_MELDS_TEXT) < 100_000:
            _MELDS_TEXT[hand_melds] = text
    return text


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
    options: list[str] = []
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
