"""Melds and the exact minimum-deadwood arrangement of a hand.

The search works on 52-bit masks (bit ``suit * 13 + rank``), in small named steps after
OpenSpiel's ``GinRummyUtils``: which cards can meld at all (:func:`meldable_mask`), then a
depth-first search over the lowest meldable card: it is deadwood, or it heads a run, or it
is in a set. Because the lowest card is taken first, a run through it must start at it,
which keeps the branching small. Results are memoised by mask, so the 11 discards of a
hand share their work.

Exact, never greedy. The hand that shows why (OpenSpiel's greedy 11-card check says 12):

>>> from engine.cards import parse_cards
>>> min_deadwood(parse_cards("4C 5C 6C 6D 2S 4D 5D 3D 3S 5H"))
10
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import CODES, DECK, PRETTY, VALUES, Card, cards_to_mask, mask_to_cards
from engine.errors import InvalidMeldError

SUIT_BITS = 0x1FFF
# Bits of ranks ace..jack in every suit: where a three-card run can start.
_RUN_STARTS = sum(((1 << 11) - 1) << (13 * s) for s in range(4))
# Multiplying a 13-bit rank mask by this copies it into all four suits.
_ALL_SUITS = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _suit_values() -> tuple[int, ...]:
    # value[m] = value[m without its lowest card] + that card's value: one pass, fast import.
    values = [0] * (1 << 13)
    for m in range(1, 1 << 13):
        low = m & -m
        values[m] = values[m ^ low] + min(low.bit_length(), 10)
    return tuple(values)


_SUIT_VALUE = _suit_values()


def mask_value(mask: int) -> int:
    """Total deadwood value of the cards in ``mask``."""
    v = _SUIT_VALUE
    return v[mask & SUIT_BITS] + v[mask >> 13 & SUIT_BITS] + v[mask >> 26 & SUIT_BITS] + v[mask >> 39]


def meldable_mask(hand: int) -> int:
    """The cards of ``hand`` that belong to at least one meld inside ``hand``.

    A card outside it is deadwood in every arrangement.
    """
    r3 = hand & hand >> 1 & hand >> 2 & _RUN_STARTS
    a = hand & SUIT_BITS
    b = hand >> 13 & SUIT_BITS
    c = hand >> 26 & SUIT_BITS
    d = hand >> 39
    three_of_rank = a & b & (c | d) | c & d & (a | b)
    return r3 | r3 << 1 | r3 << 2 | (three_of_rank * _ALL_SUITS & hand)


# Max value that disjoint melds can cover, by meldable mask. Shared by all hands: it holds
# only facts about masks, so it never goes stale; it is bounded so that long simulations
# do not grow it without end.
_MELDED: dict[int, int] = {0: 0}
_MELDED_LIMIT = 400_000


def _melds_through_lowest(mask: int) -> list[int]:
    """Every meld inside ``mask`` that contains its lowest card, longest runs first.

    ``mask`` holds no card below that one, so a run through it starts at it, and a set
    through it uses only higher suits.
    """
    low = mask & -mask
    c = low.bit_length() - 1
    rank = c % 13
    melds = []
    run = low
    for k in range(1, 13 - rank):
        nxt = low << k
        if not mask & nxt:
            break
        run |= nxt
        if k >= 2:
            melds.append(run)
    melds.reverse()
    others = [1 << (13 * s + rank) for s in range(c // 13 + 1, 4) if mask >> (13 * s + rank) & 1]
    if len(others) == 3:
        x, y, z = others
        melds += [low | x | y | z, low | x | y, low | x | z, low | y | z]
    elif len(others) == 2:
        melds.append(low | others[0] | others[1])
    return melds


def _max_melded(mask: int) -> int:
    """Max total value covered by disjoint melds, ``mask`` being meldable-closed."""
    best = _MELDED.get(mask)
    if best is not None:
        return best
    # When no card is both in a possible run and in a possible set, every meldable card
    # melds at once (each stretch of a suit as one run, each rank as one set).
    r3 = mask & mask >> 1 & mask >> 2 & _RUN_STARTS
    a = mask & SUIT_BITS
    b = mask >> 13 & SUIT_BITS
    c = mask >> 26 & SUIT_BITS
    d = mask >> 39
    in_sets = (a & b & (c | d) | c & d & (a | b)) * _ALL_SUITS & mask
    v = _SUIT_VALUE
    total = v[a] + v[b] + v[c] + v[d]
    if not (r3 | r3 << 1 | r3 << 2) & in_sets:
        return total
    low = mask & -mask
    best = 0
    for meld in _melds_through_lowest(mask):
        got = mask_value(meld) + _max_melded(meldable_mask(mask ^ meld))
        if got > best:
            best = got
            if best == total:
                break
    # The lowest card as deadwood can do no better than everything else melded.
    if best < total - VALUES[low.bit_length() - 1]:
        got = _max_melded(meldable_mask(mask ^ low))
        if got > best:
            best = got
    if len(_MELDED) > _MELDED_LIMIT:
        _MELDED.clear()
        _MELDED[0] = 0
    _MELDED[mask] = best
    return best


def min_deadwood_mask(hand: int) -> int:
    """Least deadwood count of the cards in ``hand`` (any number of cards)."""
    # meldable_mask and mask_value inlined: this is the innermost call of simulations.
    a = hand & SUIT_BITS
    b = hand >> 13 & SUIT_BITS
    c = hand >> 26 & SUIT_BITS
    d = hand >> 39
    v = _SUIT_VALUE
    total = v[a] + v[b] + v[c] + v[d]
    r3 = hand & hand >> 1 & hand >> 2 & _RUN_STARTS
    meldable = r3 | r3 << 1 | r3 << 2 | ((a & b & (c | d) | c & d & (a | b)) * _ALL_SUITS & hand)
    return total - _max_melded(meldable) if meldable else total


def min_deadwood(cards: Iterable[int]) -> int:
    """Least deadwood count of ``cards``.

    >>> from engine.cards import parse_cards
    >>> min_deadwood(parse_cards("QS KS AS 2H 3H 4H 5D 6D 7D 9C"))
    30
    """
    return min_deadwood_mask(cards_to_mask(cards))


def discard_deadwoods_mask(hand: int) -> dict[int, int]:
    """For every card of ``hand``: the least deadwood left after discarding it."""
    meldable = meldable_mask(hand)
    total = mask_value(hand)
    free = total - _max_melded(meldable)  # deadwood of the whole hand
    out = {}
    m = hand
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        if meldable & low:
            out[c] = total - VALUES[c] - _max_melded(meldable_mask(meldable ^ low))
        else:
            out[c] = free - VALUES[c]
    return out


def _plain_melds(mask: int) -> list[int] | None:
    """When no card of ``mask`` can be both in a run and in a set, its melds are plain:
    each stretch of a suit one run, each rank one set. Otherwise None."""
    r3 = mask & mask >> 1 & mask >> 2 & _RUN_STARTS
    in_runs = r3 | r3 << 1 | r3 << 2
    a = mask & SUIT_BITS
    b = mask >> 13 & SUIT_BITS
    c = mask >> 26 & SUIT_BITS
    d = mask >> 39
    ranks = a & b & (c | d) | c & d & (a | b)
    if in_runs & ranks * _ALL_SUITS & mask:
        return None
    melds = []
    while in_runs:
        low = in_runs & -in_runs
        run = low
        nxt = low << 1
        while in_runs & nxt and (nxt.bit_length() - 1) % 13:
            run |= nxt
            nxt <<= 1
        melds.append(run)
        in_runs ^= run
    while ranks:
        low = ranks & -ranks
        melds.append(low * _ALL_SUITS & mask)
        ranks ^= low
    return melds


def best_melds_mask(hand: int) -> tuple[int, ...]:
    """One best arrangement's melds as masks, deterministic (longest runs, then sets)."""
    melds = []
    mask = meldable_mask(hand)
    while mask:
        plain = _plain_melds(mask)
        if plain is not None:
            melds += plain
            break
        target = _max_melded(mask)
        for meld in _melds_through_lowest(mask):
            rest = meldable_mask(mask ^ meld)
            if mask_value(meld) + _max_melded(rest) == target:
                melds.append(meld)
                mask = rest
                break
        else:  # the lowest card is deadwood
            mask = meldable_mask(mask ^ (mask & -mask))
    return tuple(melds)


def _all_best_melds(mask: int, memo: dict[int, list[tuple[int, ...]]]) -> list[tuple[int, ...]]:
    """All meld tuples reaching :func:`_max_melded` for a meldable-closed ``mask``."""
    if mask == 0:
        return [()]
    found = memo.get(mask)
    if found is not None:
        return found
    target = _max_melded(mask)
    out: list[tuple[int, ...]] = []
    for meld in _melds_through_lowest(mask):
        rest = meldable_mask(mask ^ meld)
        if mask_value(meld) + _max_melded(rest) == target:
            out += [(meld, *tail) for tail in _all_best_melds(rest, memo)]
    rest = meldable_mask(mask ^ (mask & -mask))
    if _max_melded(rest) == target:
        out += _all_best_melds(rest, memo)
    memo[mask] = out
    return out


def _merge_runs(melds: Iterable[int]) -> tuple[int, ...]:
    """Join runs of one suit that touch (A23 + 456 is the run A-6), then sort."""
    runs: list[int] = []
    sets: list[int] = []
    for m in melds:
        (sets if is_set_mask(m) else runs).append(m)
    runs.sort()
    merged: list[int] = []
    for r in runs:
        if merged and merged[-1] << 1 & r and _same_suit(merged[-1], r):
            merged[-1] |= r
        else:
            merged.append(r)
    return tuple(sorted(merged + sets))


def _same_suit(a: int, b: int) -> bool:
    return (a.bit_length() - 1) // 13 == (b.bit_length() - 1) // 13


def is_set_mask(meld: int) -> bool:
    """True when a valid meld's mask is a set (its lowest and highest cards share a rank)."""
    return (meld & -meld).bit_length() % 13 == meld.bit_length() % 13


def is_meld_mask(meld: int) -> bool:
    """A set of 3-4 cards of one rank, or a run of 3+ cards of one suit (ace low)."""
    n = meld.bit_count()
    if n < 3:
        return False
    cards = mask_to_cards(meld)
    ranks = {c % 13 for c in cards}
    if len(ranks) == 1:
        return n <= 4
    if len({c // 13 for c in cards}) != 1:
        return False
    low = min(cards)
    return meld == ((1 << n) - 1) << low


@dataclass(frozen=True, slots=True)
class Meld:
    """A set or a run; ``cards`` in rank order (sets in suit order)."""

    cards: tuple[Card, ...]

    @classmethod
    def from_mask(cls, mask: int) -> Meld:
        return cls(tuple(sorted(mask_to_cards(mask), key=lambda c: (c % 13, c // 13))))

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
            tuple(Meld.from_mask(m) for m in sorted(melds, key=_meld_order)),
            tuple(mask_to_cards(hand & ~used)),
        )

    def to_json(self) -> dict:
        return {
            "melds": [m.codes for m in self.melds],
            "deadwood_cards": [CODES[c] for c in self.deadwood_cards],
            "deadwood": self.deadwood,
        }


def _meld_order(mask: int) -> tuple[int, int]:
    # Sets and runs shown by their lowest card's rank, then suit.
    low = (mask & -mask).bit_length() - 1
    return (low % 13, low // 13)


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
    first = _merge_runs(best_melds_mask(hand))
    found = {_merge_runs(ms) for ms in _all_best_melds(meldable_mask(hand), {})}
    found.discard(first)
    return [Arrangement.from_masks(hand, ms) for ms in [first, *sorted(found)]]


def card_of(mask: int) -> Card:
    return DECK[mask.bit_length() - 1]
