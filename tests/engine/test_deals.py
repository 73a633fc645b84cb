"""The seeded hand generators shared by the tests and the benchmarks."""

import random

import pytest

from engine.deals import GENERATORS, few_ranks_hand, mixed_dense_hand, runs_heavy_hand


@pytest.mark.parametrize("kind", list(GENERATORS))
@pytest.mark.parametrize("n", [10, 11])
def test_a_hand_is_n_different_cards_the_same_for_a_seed(kind, n):
    gen = GENERATORS[kind]
    for seed in range(50):
        hand = gen(random.Random(seed), n)
        assert len(set(hand)) == n and all(0 <= c < 52 for c in hand)
        assert hand == gen(random.Random(seed), n)


def test_dense_kinds_keep_to_their_shapes():
    rng = random.Random(0)
    for _ in range(200):
        assert len({c % 13 for c in few_ranks_hand(rng)}) in (3, 4)
        runs = runs_heavy_hand(rng, 11)
        assert len({c // 13 for c in runs}) <= 2 and max(c % 13 for c in runs) - min(c % 13 for c in runs) <= 6
        mixed = mixed_dense_hand(rng)
        assert len({c // 13 for c in mixed}) <= 3 and max(c % 13 for c in mixed) - min(c % 13 for c in mixed) <= 4
