"""The reader's doubt, said to the player: a card read unsure ("2♣ or 2♠?", or "2♣: check it"
where no other card stands out), and the index boxes found but not read ("2 cards I could not
read"). Plain values in, words out: the pages draw the buttons.

>>> question(Doubt("2C", "2S"), ["2C", "5H"])
'2♣ or 2♠?'
>>> question(Doubt("2C", "2S"), ["2C", "2S"])  # the other card is in the hand already
'2♣: check it'
>>> swap(["AS", "2C", "5H"], "2C", "2S")
['AS', '2S', '5H']
>>> unread_text(1)
'1 card I could not read: hold it closer, or add light.'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ui.cardtext import card_label


class Doubt(NamedTuple):
    """A card read unsure, and the likeliest other card (an engine code) or None."""

    card: str
    alternative: str | None = None


def doubts_of(reading: Any) -> tuple[Doubt, ...]:
    """The unsure cards of a :class:`vision.Reading`, in its order, each once."""
    seen: dict[str, Doubt] = {}
    for read in reading.cards:
        if read.uncertain and read.card not in seen:
            seen[read.card] = Doubt(read.card, getattr(read, "alternative", None))
    return tuple(seen.values())


def offered(doubt: Doubt, hand: Iterable[str]) -> str | None:
    """The other card to offer: the alternative, unless it is the card itself or already in
    ``hand`` (the photo's other cards are left out by the reader, but the player may have
    corrected the hand since)."""
    alternative = doubt.alternative
    if alternative is None or alternative == doubt.card or alternative in set(hand):
        return None
    return alternative


def question(doubt: Doubt, hand: Iterable[str]) -> str:
    """What the player is asked about ``doubt``."""
    other = offered(doubt, hand)
    if other is None:
        return f"{card_label(doubt.card)}: check it"
    return f"{card_label(doubt.card)} or {card_label(other)}?"


def swap(codes: Sequence[str], card: str, alternative: str) -> list[str]:
    """``codes`` with ``card`` replaced by ``alternative`` in its place; as they were when
    ``card`` is not among them or ``alternative`` already is."""
    if card not in codes or alternative in codes:
        return list(codes)
    return [alternative if c == card else c for c in codes]


def unread_text(count: int) -> str:
    """What is said of ``count`` index boxes found but not read; '' for none."""
    if count <= 0:
        return ""
    if count == 1:
        return "1 card I could not read: hold it closer, or add light."
    return f"{count} cards I could not read: hold them closer, or add light."
