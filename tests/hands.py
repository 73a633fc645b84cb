"""Seeded generators of test hands: random, dense (few ranks, or runs-heavy), knocking."""

from __future__ import annotations

import random

from engine.melds import min_deadwood


def random_hand(rng: random.Random, n: int = 10) -> list[int]:
    return rng.sample(range(52), n)


def few_ranks_hand(rng: random.Random, n: int = 10) -> list[int]:
    ranks = rng.sample(range(13), rng.choice((3, 4)))
    pool = [s * 13 + r for r in ranks for s in range(4)]
    return rng.sample(pool, n)


def runs_heavy_hand(rng: random.Random, n: int = 10) -> list[int]:
    suits = rng.sample(range(4), 2)
    start = rng.randrange(0, 7)
    pool = [s * 13 + r for s in suits for r in range(start, start + 7)]
    return rng.sample(pool, n)


def mixed_dense_hand(rng: random.Random, n: int = 10) -> list[int]:
    """A window of ranks in three suits: sets and runs cross each other."""
    suits = rng.sample(range(4), 3)
    start = rng.randrange(0, 9)
    pool = [s * 13 + r for s in suits for r in range(start, start + 5)]
    return rng.sample(pool, n)


GENERATORS = {
    "random": random_hand,
    "few_ranks": few_ranks_hand,
    "runs_heavy": runs_heavy_hand,
    "mixed_dense": mixed_dense_hand,
}


def knock_deal(rng: random.Random, limit: int = 10) -> tuple[list[int], list[int]]:
    """A knocker's 10 cards with count <= limit, and a defender's 10 cards that often
    hold cards next to the knocker's melds."""
    while True:
        knocker = runs_heavy_hand(rng) if rng.random() < 0.5 else mixed_dense_hand(rng)
        if min_deadwood(knocker) <= limit:
            break
    rest = [c for c in range(52) if c not in knocker]
    near = [c for c in rest if any(abs(c - k) <= 2 or c % 13 == k % 13 for k in knocker)]
    far = [c for c in rest if c not in near]
    take = min(len(near), rng.randint(4, 10))
    defender = rng.sample(near, take) + rng.sample(far, 10 - take)
    return knocker, defender
