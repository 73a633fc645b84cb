"""A slow, obviously-correct reference for the rules, written apart from the engine.

Brute force over every meld and every subset of disjoint melds, and over every way of
laying cards off; used by the differential tests. Cards are the engine's ints
(suit * 13 + rank) but nothing else from the engine is used.
"""

from __future__ import annotations

from itertools import combinations


def value(c: int) -> int:
    return min(c % 13 + 1, 10)


def all_melds(cards: list[int]) -> list[frozenset[int]]:
    have = set(cards)
    melds = []
    for rank in range(13):
        same = [c for c in have if c % 13 == rank]
        for n in (3, 4):
            melds += [frozenset(x) for x in combinations(same, n)]
    for suit in range(4):
        for start in range(13):
            for end in range(start + 2, 13):
                run = {suit * 13 + r for r in range(start, end + 1)}
                if run <= have:
                    melds.append(frozenset(run))
    return melds


def min_deadwood(cards: list[int]) -> int:
    melds = all_melds(cards)
    total = sum(value(c) for c in cards)
    best = 0

    def search(i: int, used: frozenset[int], covered: int) -> None:
        nonlocal best
        best = max(best, covered)
        for j in range(i, len(melds)):
            if not melds[j] & used:
                search(j + 1, used | melds[j], covered + sum(value(c) for c in melds[j]))

    search(0, frozenset(), 0)
    return total - best


def _fits(card: int, meld: frozenset[int]) -> bool:
    ranks = {c % 13 for c in meld}
    if len(ranks) == 1:  # a set
        return len(meld) == 3 and card % 13 in ranks
    suit = next(iter(meld)) // 13
    if card // 13 != suit:
        return False
    return card % 13 in (min(ranks) - 1, max(ranks) + 1)


def _layable(cards: frozenset[int], melds: list[frozenset[int]]) -> bool:
    """Can all of ``cards`` be laid off, one after another, onto ``melds``?"""
    if not cards:
        return True
    for card in cards:
        for i, meld in enumerate(melds):
            if _fits(card, meld):
                grown = [*melds[:i], meld | {card}, *melds[i + 1 :]]
                if _layable(cards - {card}, grown):
                    return True
    return False


def defender_deadwood(knocker_melds: list[list[int]], defender: list[int]) -> int:
    """The defender's least count after any legal layoffs."""
    melds = [frozenset(m) for m in knocker_melds]
    candidates = [
        c for c in defender
        if any(c % 13 == m_c % 13 or c // 13 == m_c // 13 for m in melds for m_c in m)
    ]
    best = min_deadwood(defender)
    for n in range(1, len(candidates) + 1):
        for laid in combinations(candidates, n):
            if _layable(frozenset(laid), melds):
                rest = [c for c in defender if c not in laid]
                best = min(best, min_deadwood(rest))
    return best
