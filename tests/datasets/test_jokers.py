"""Jokers: each deck's jokers at the cards' size, their corner marks found, laid in scenes
unlabelled, and cut as "no index" crops. (The real designs' jokers: tests/datasets/test_decks.py.)"""

import numpy as np
import pytest

from datasets import index_crops
from datasets.backgrounds import Backgrounds
from datasets.build import _crops
from datasets.decks import procedural_deck
from datasets.jokers import JOKER_NAMES, corner_boxes, median_slots
from datasets.scenes import make_scene
from engine.cards import CODES
from models.classifier import load_crops

NO_INDEX = len(CODES)


def ink(face: np.ndarray, box) -> float:
    """The share of ``box`` whose colour is far from the face's paper (its centre-left band)."""
    x1, y1, x2, y2 = box
    h = face.shape[0]
    paper = np.median(face[h // 2, 4:12, :3].astype(np.int32), axis=0)
    patch = face[y1:y2, x1:x2, :3].astype(np.int32)
    return float((np.abs(patch - paper).sum(2) > 60).mean())


@pytest.mark.parametrize("seed", [0, 1, 3, 4, 6, 9])  # light and dark faces, every corner mark
def test_a_procedural_deck_has_two_jokers_of_its_cards_size_with_marks_at_the_corners(seed):
    deck = procedural_deck(seed, height=240)
    w, h = deck.size
    assert sorted(deck.jokers) == sorted(JOKER_NAMES)
    for name, face in deck.jokers.items():
        assert face.shape == (h, w, 4)
        assert np.array_equal(face[..., 3], deck.faces["2C"][..., 3])  # the deck's outline
        top, bottom = deck.joker_boxes[name][:2]
        assert top[2] < 0.5 * w and top[3] < 0.5 * h  # near the top-left corner
        assert bottom[0] > 0.5 * w and bottom[1] > 0.5 * h  # near the bottom-right one
        assert ink(face, top) > 0.03 and ink(face, bottom) > 0.03
    again = procedural_deck(seed, height=240)
    assert all(np.array_equal(again.jokers[n], deck.jokers[n]) for n in JOKER_NAMES)


def test_corner_boxes_find_the_mark_near_each_slot_or_keep_the_slot():
    face = np.full((200, 140, 4), 255, np.uint8)
    face[20:60, 10:24, :3] = 0  # a mark at the top-left corner
    slots = [(8, 10, 22, 50), (118, 150, 132, 190)]
    top, bottom = corner_boxes(face, slots)
    assert top == (10, 20, 24, 60)
    assert bottom == slots[1]  # no ink there: the slot itself


def test_median_slots_are_the_middle_box_of_each_corner():
    boxes = {"A": [(1, 1, 5, 9), (10, 10, 14, 18)], "B": [(3, 1, 7, 9), (12, 10, 16, 18)],
             "C": [(2, 2, 6, 10), (11, 11, 15, 19)]}
    assert median_slots(boxes) == [(2, 1, 6, 9), (11, 10, 15, 18)]


def test_a_scene_may_hold_a_joker_unlabelled_and_without_one_is_the_scene_of_before():
    deck = procedural_deck(3, height=200)
    backgrounds = Backgrounds()
    with_joker = make_scene(np.random.default_rng([4, 1]), [deck], backgrounds, 320, "single", clean=True,
                            jokers=1.0, joker_rng=np.random.default_rng(0))
    assert with_joker.labels == [] and with_joker.jokers  # the held-up card is a joker
    assert {m.card for m in with_joker.jokers} <= set(JOKER_NAMES)
    plain = make_scene(np.random.default_rng([4, 1]), [deck], backgrounds, 320, "single", clean=True)
    never = make_scene(np.random.default_rng([4, 1]), [deck], backgrounds, 320, "single", clean=True,
                       jokers=0.0, joker_rng=np.random.default_rng(0))
    assert np.array_equal(plain.image, never.image) and plain.labels  # a card, labelled
    assert not np.array_equal(plain.image, with_joker.image)


def test_a_jokers_corner_marks_become_no_index_crops():
    deck = procedural_deck(3, height=200)
    scene = make_scene(np.random.default_rng([4, 1]), [deck], Backgrounds(), 320, "single", clean=True,
                       jokers=1.0, joker_rng=np.random.default_rng(0))
    xs, ys, _ = _crops(np.random.default_rng(0), scene, 24, per_scene_negatives=0)
    assert len(xs) == 2 * len(scene.jokers) and set(ys) == {NO_INDEX}


def test_index_crops_cut_jokers_as_no_index_only_when_asked(tmp_path):
    args = dict(deck_names=[], procedural=[1000], side=24, val_fraction=0.2, workers=1)
    index_crops.build(tmp_path / "all", 10, 4, jokers=1.0, **args)
    _, y = load_crops(tmp_path / "all", "train")
    assert set(y) == {NO_INDEX}
    index_crops.build(tmp_path / "none", 10, 4, **args)
    index_crops.build(tmp_path / "zero", 10, 4, jokers=0.0, **args)
    xa, ya = load_crops(tmp_path / "none", "train")
    xb, yb = load_crops(tmp_path / "zero", "train")
    assert np.array_equal(xa, xb) and np.array_equal(ya, yb) and NO_INDEX not in set(ya)
    with pytest.raises(ValueError, match="jokers"):
        index_crops.build(tmp_path / "bad", 10, 4, jokers=1.5, **args)


def test_a_rendered_deck_without_its_artwork_loads_without_jokers(tmp_path, monkeypatch):
    # The GPU machine gets the rendered cards, not the packages: the deck loads, with no jokers.
    import datasets.decks as decks

    faces = {c: np.zeros((20, 14, 4), np.uint8) for c in CODES}
    boxes = {c: [(1, 1, 4, 6), (10, 14, 13, 19)] for c in CODES}
    spec = decks.DECK_SPECS["svg-cards"]
    jokers, joker_boxes = decks._jokers(spec, tmp_path, tmp_path / "rendered" / "svg-cards-20", faces, boxes)
    assert jokers == {} and joker_boxes == {}
