"""Seeded generators of hands, for tests and benchmarks: random hands, and dense ones where
melds cross each other (few ranks, runs in two suits, a window of ranks in three suits),
the hands on which a meld solver goes wrong or slow.

A hand is a list of ``n`` different cards (ints 0..51); the same ``rng`` state gives the
same hand.

>>> import random
>>> [len(GENERATORS[kind](random.Random(1), 11)) for kind in GENERATORS]
[11, 11, 11, 11]
"""

from __future__ import annotations

import random
from collections.abc import Callable

HandGenerator = Callable[[random.Random, int], list[int]]


def random_hand(rng: random.Random, n: int = 10) -> list[int]:
    """Any ``n`` cards of the deck."""
    return rng.sample(range(52), n)


def few_ranks_hand(rng: random.Random, n: int = 10) -> list[int]:
    """``n`` cards of three or four ranks: sets, and sets that compete."""
    ranks = rng.sample(range(13), rng.choice((3, 4)))
    pool = [s * 13 + r for r in ranks for s in range(4)]
    return rng.sample(pool, n)


def runs_heavy_hand(rng: random.Random, n: int = 10) -> list[int]:
    """``n`` cards of seven ranks in a row in two suits: long runs that overlap sets."""
    suits = rng.sample(range(4), 2)
    start = rng.randrange(0, 7)
    pool = [s * 13 + r for s in suits for r in range(start, start + 7)]
    return rng.sample(pool, n)


def mixed_dense_hand(rng: random.Random, n: int = 10) -> list[int]:
    """A window of five ranks in three suits: sets and runs cross each other."""
    suits = rng.sample(range(4), 3)
    start = rng.randrange(0, 9)
    pool = [s * 13 + r for s in suits for r in range(start, start + 5)]
    return rng.sample(pool, n)


GENERATORS: dict[str, HandGenerator] = {
    "random": random_hand,
    "few_ranks": few_ranks_hand,
    "runs_heavy": runs_heavy_hand,
    "mixed_dense": mixed_dense_hand,
}
