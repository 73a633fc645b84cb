"""Cards: a small value type, parsing and formatting built from one table.

A card is an ``int`` from 0 to 51 (``suit * 13 + rank``, rank 0 = ace ... 12 = king,
suits in the order spades, hearts, diamonds, clubs), so that a hand is also a 52-bit
mask: the solver in :mod:`engine.melds` works on masks, everything else on cards.

>>> parse_card("10h")
Card.parse('TH')
>>> str(parse_card("q♠")), parse_card("q♠").code, parse_card("Q♠").value
('Q♠', 'QS', 10)
>>> [c.code for c in parse_cards("AS 2s 10h")]
['AS', '2S', 'TH']
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.errors import CardParseError, DuplicateCardError, HandSizeError

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"10": 9}
_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)} | {
    sym: i for i, sym in enumerate(SUIT_SYMBOLS)
} | {sym: i for i, sym in enumerate("♤♡♢♧")}
_SPLIT = re.compile(r"[\s,;]+")


class Card(int):
    """One of the 52 cards; compare, hash and index it like the ``int`` it is."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """0 for an ace up to 12 for a king."""
        return int(self) % 13

    @property
    def suit(self) -> int:
        """Index into :data:`SUITS` (S H D C)."""
        return int(self) // 13

    @property
    def value(self) -> int:
        """Deadwood value: ace 1, number cards their face value, J Q K 10."""
        return VALUES[self]

    @property
    def code(self) -> str:
        """Canonical two-character code, e.g. ``'TS'``."""
        return CODES[self]

    @property
    def pretty(self) -> str:
        """Human form with the suit symbol, e.g. ``'10♠'``."""
        return PRETTY[self]

    @property
    def mask(self) -> int:
        return 1 << int(self)

    @classmethod
    def parse(cls, token: str) -> Card:
        return parse_card(token)

    def __str__(self) -> str:
        return PRETTY[self]

    def __repr__(self) -> str:
        return f"Card.parse({CODES[self]!r})"


def _value(i: int) -> int:
    return min(i % 13 + 1, 10)


DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))
VALUES: tuple[int, ...] = tuple(_value(i) for i in range(52))
CODES: tuple[str, ...] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
PRETTY: tuple[str, ...] = tuple(
    ("10" if i % 13 == 9 else RANKS[i % 13]) + SUIT_SYMBOLS[i // 13] for i in range(52)
)
# Every accepted spelling of every card (A/a, T/t/10, S/s/♠/♤, ...) -> the card.
CARD_SPELLINGS: dict[str, Card] = {
    rank + suit: DECK[s * 13 + r]
    for r in range(13)
    for rank in {RANKS[r], RANKS[r].lower(), *(["10"] if r == 9 else [])}
    for s in range(4)
    for suit in {SUITS[s], SUITS[s].lower(), SUIT_SYMBOLS[s], "♤♡♢♧"[s]}
}


def parse_card(token: str) -> Card:
    """Parse one card: rank ``A 2-9 10 T J Q K`` then suit ``S H D C`` or a symbol.

    Any case. Raises :class:`CardParseError` naming the token when it is not a card.
    """
    card = CARD_SPELLINGS.get(token)
    if card is not None:
        return card
    text = token.strip()
    card = CARD_SPELLINGS.get(text)
    if card is not None:
        return card
    if len(text) < 2:
        raise CardParseError(f"not a card: {token!r} (expected rank then suit, e.g. 'QS')")
    rank_text, suit_text = text[:-1].upper(), text[-1].upper()
    rank = _RANK_ALIASES.get(rank_text)
    suit = _SUIT_ALIASES.get(suit_text)
    if rank is None:
        raise CardParseError(
            f"unknown rank {text[:-1]!r} in card {token!r} (ranks: A 2-10 T J Q K)"
        )
    if suit is None:
        raise CardParseError(
            f"unknown suit {text[-1]!r} in card {token!r} (suits: S H D C or ♠ ♥ ♦ ♣)"
        )
    return DECK[suit * 13 + rank]


def split_tokens(text: str) -> list[str]:
    """Split a card string on spaces, commas or semicolons."""
    if "," in text or ";" in text:
        return [t for t in _SPLIT.split(text.strip()) if t]
    return text.split()


def parse_cards(
    text: str | Iterable[str],
    *,
    sizes: Iterable[int] | None = None,
    what: str = "hand",
) -> list[Card]:
    """Parse cards from a string (or tokens), refusing duplicates.

    ``sizes``: the allowed numbers of cards, when a number is required.

    >>> parse_cards("AS AS")
    Traceback (most recent call last):
    ...
    engine.errors.DuplicateCardError: duplicate card 'AS' in hand
    """
    tokens = split_tokens(text) if isinstance(text, str) else [
        t for part in text for t in split_tokens(part)
    ]
    cards: list[Card] = []
    seen = 0
    by_code = CARD_SPELLINGS
    for token in tokens:
        card = by_code.get(token) or parse_card(token)
        bit = 1 << card
        if seen & bit:
            raise DuplicateCardError(f"duplicate card {token!r} in {what}")
        seen |= bit
        cards.append(card)
    _check_count(cards, sizes, what)
    return cards


def check_cards(cards: Iterable[int], *, sizes: Iterable[int] | None = None, what: str = "hand") -> list[Card]:
    """Cards given as ints (or :class:`Card`): each once, and as many as ``sizes`` allows.

    The same errors as :func:`parse_cards`, for cards that need no parsing.

    >>> check_cards([0, 13, 0])
    Traceback (most recent call last):
    ...
    engine.errors.DuplicateCardError: duplicate card 'AS' in hand
    """
    out: list[Card] = []
    seen = 0
    for c in cards:
        if not 0 <= c < 52:
            raise CardParseError(f"not a card: {c!r} (cards are numbered 0 to 51)")
        bit = 1 << c
        if seen & bit:
            raise DuplicateCardError(f"duplicate card {CODES[c]!r} in {what}")
        seen |= bit
        out.append(DECK[c])
    _check_count(out, sizes, what)
    return out


def _check_count(cards: list[Card], sizes: Iterable[int] | None, what: str) -> None:
    if sizes is not None:
        allowed = tuple(sizes)
        if len(cards) not in allowed:
            wanted = " or ".join(str(n) for n in allowed)
            raise HandSizeError(f"{what} has {len(cards)} cards; expected {wanted}")


def cards_to_mask(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def mask_to_cards(mask: int) -> list[Card]:
    """The cards of a mask, in deck order (suit, then rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(DECK[low.bit_length() - 1])
        mask ^= low
    return out


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in display order: by suit (S H D C), then rank (A..K)."""
    return sorted(cards)


def format_cards(cards: Iterable[Card], *, pretty: bool = False) -> str:
    return " ".join(PRETTY[c] if pretty else CODES[c] for c in cards)
