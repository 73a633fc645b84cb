"""The solver on 52-bit masks (bit ``suit * 13 + rank``): which cards can meld, the exact
least deadwood, one or all best arrangements' melds, every discard of 11 cards.

Plain functions on ints, with no dataclasses or other costly imports: ``ginsight hand
--jsonl`` starts on this module alone. :mod:`engine.melds` wraps the melds it finds in
``Meld`` and ``Arrangement`` and explains the search.

>>> from engine.cards import CODES, parse_cards
>>> hand = cards_to_mask(parse_cards("AS 2S 3S 4S 7H 7D 7C 9C TC KD"))
>>> min_deadwood_mask(hand), [[CODES[c] for c in meld_cards(m)] for m in best_melds_mask(hand)]
(29, [['AS', '2S', '3S', '4S'], ['7H', '7D', '7C']])
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import VALUES, cards_to_mask, mask_to_cards

SUIT_BITS = 0x1FFF
# Bits of ranks ace..jack in every suit: where a three-card run can start.
_RUN_STARTS = sum(((1 << 11) - 1) << (13 * s) for s in range(4))
# Multiplying a 13-bit rank mask by this copies it into all four suits.
_ALL_SUITS = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _suit_values() -> tuple[int, ...]:
    # value[m] for every 13-bit mask of one suit, doubled rank by rank: the masks with rank r
    # on top are those below it plus that card's value (fast to build at import).
    values = [0]
    for rank in range(13):
        v = min(rank + 1, 10)
        values += [x + v for x in values]
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
# Beside it, the first choice that reaches that value (a meld, or 0: the lowest card is
# deadwood), so that one best arrangement is read off without searching again. Written and
# cleared with _MELDED: every mask in one is in the other.
_CHOICE: dict[int, int] = {}


def clear_memo() -> None:
    """Forget every solved mask (benchmarks time the solver from nothing with it)."""
    _MELDED.clear()
    _MELDED[0] = 0
    _CHOICE.clear()


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
    best = choice = 0
    for meld in _melds_through_lowest(mask):
        got = mask_value(meld) + _max_melded(meldable_mask(mask ^ meld))
        if got > best:
            best, choice = got, meld
            if best == total:
                break
    # The lowest card as deadwood can do no better than everything else melded.
    if best < total - VALUES[low.bit_length() - 1]:
        got = _max_melded(meldable_mask(mask ^ low))
        if got > best:
            best, choice = got, 0
    if len(_MELDED) > _MELDED_LIMIT:
        _MELDED.clear()
        _MELDED[0] = 0
        _CHOICE.clear()
    _MELDED[mask] = best
    _CHOICE[mask] = choice
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
    """One best arrangement's melds as masks, deterministic: at each step the first meld
    through the lowest card (longest runs, then sets) that still reaches the best value, else
    that card as deadwood; read off the choices :func:`_max_melded` recorded."""
    melds = []
    mask = meldable_mask(hand)
    while mask:
        plain = _plain_melds(mask)
        if plain is not None:
            melds += plain
            break
        _max_melded(mask)  # not plain, so searched: its choice is recorded
        meld = _CHOICE.get(mask)
        if meld is None:  # the memo was cleared from outside since: search this mask again
            del _MELDED[mask]
            _max_melded(mask)
            meld = _CHOICE[mask]
        if meld:
            melds.append(meld)
            mask = meldable_mask(mask ^ meld)
        else:  # the lowest card is deadwood
            mask = meldable_mask(mask ^ (mask & -mask))
    return tuple(melds)


def all_best_melds_mask(hand: int) -> list[tuple[int, ...]]:
    """The melds of every best arrangement of ``hand`` (runs that touch not yet merged:
    see :func:`merge_runs`)."""
    return _all_best_melds(meldable_mask(hand), {})


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


def merge_runs(melds: Iterable[int]) -> tuple[int, ...]:
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


def meld_order(mask: int) -> tuple[int, int]:
    """Sort key of melds as shown: by their lowest card's rank, then suit."""
    low = (mask & -mask).bit_length() - 1
    return (low % 13, low // 13)


def meld_cards(mask: int) -> list[int]:
    """A meld's cards in the order shown: by rank, then suit (a run by rank, a set by suit)."""
    return sorted(mask_to_cards(mask), key=lambda c: (c % 13, c // 13))
