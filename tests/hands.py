"""Deals for the showdown tests: a knocking hand against a defender who can lay off."""

from __future__ import annotations

import random

from engine.deals import mixed_dense_hand, runs_heavy_hand
from engine.masks import min_deadwood


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
