"""The procedural decks' drawn suit symbols: each fills its box, points up, and the four suits
keep the outlines that tell them apart whatever shape a deck draws them in."""

import random

import numpy as np
import pytest

from datasets.procedural_deck import DEFAULT_PIP, PipShape, draw_pip

SHAPES = [DEFAULT_PIP] + [PipShape.from_rng(random.Random(seed)) for seed in range(12)]


def ink(suit: str, shape: PipShape, w: int = 60, h: int = 64) -> np.ndarray:
    return np.asarray(draw_pip(suit, w, h, (0, 0, 0), "drawn", shape))[..., 3] >= 128


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("suit", "SHDC")
def test_a_drawn_pip_fills_its_box(suit, shape):
    mask = ink(suit, shape)
    assert mask.shape == (64, 60)
    assert mask[:3].any() and mask[-3:].any() and mask[:, :3].any() and mask[:, -3:].any()
    assert 0.3 < mask.mean() < 0.85


@pytest.mark.parametrize("shape", SHAPES)
def test_spades_and_diamonds_come_to_a_point_at_the_top_clubs_and_hearts_do_not(shape):
    def top_width(suit: str) -> float:
        return ink(suit, shape)[:8].sum(1).max() / 60  # the widest of its top eighth

    assert top_width("S") < 0.3 and top_width("D") < 0.3
    assert top_width("C") > 0.35 and top_width("H") > 0.7


@pytest.mark.parametrize("shape", SHAPES)
def test_clubs_and_spades_stand_on_a_stem_hearts_on_a_point(shape):
    def foot(suit: str) -> np.ndarray:
        return ink(suit, shape)[-4:].sum(1)

    assert (foot("C") >= 6).all() and (foot("S") >= 6).all()  # a foot, not a point
    assert foot("H").min() < 6


def test_the_shape_of_a_deck_follows_its_seed():
    assert PipShape.from_rng(random.Random(4)) == PipShape.from_rng(random.Random(4))
    assert PipShape.from_rng(random.Random(4)) != PipShape.from_rng(random.Random(5))
