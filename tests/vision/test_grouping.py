"""From index reads to cards, voting over video frames, drawing: no model needed."""

import numpy as np

from vision.draw import annotate
from vision.reader import IndexRead, Settings, group_indices
from vision.types import CardRead, Reading
from vision.video import StableReader


def ix(code, x, y, conf=0.9, size=20):
    return IndexRead((x, y, x + size * 0.6, y + size), code, conf, np.zeros(53))


def test_two_indices_of_one_card_make_one_card():
    cards = group_indices([ix("QS", 10, 10), ix("QS", 90, 120), ix("7H", 300, 40, 0.8)])
    assert [c.card for c in cards] == ["QS", "7H"]  # deck order: spades, hearts, diamonds, clubs
    qs = cards[0]
    assert len(qs.boxes) == 2 and not qs.uncertain
    assert abs(qs.confidence - (1 - 0.1 * 0.1)) < 1e-9


def test_far_apart_indices_of_one_code_are_kept_once_and_flagged():
    cards = group_indices([ix("QS", 10, 10, 0.95), ix("QS", 600, 600, 0.9)])
    assert len(cards) == 1 and cards[0].uncertain and len(cards[0].boxes) == 1


def test_low_confidence_dropped_or_flagged():
    s = Settings()
    assert group_indices([ix("2C", 0, 0, 0.3)], s) == []
    (card,) = group_indices([ix("2C", 0, 0, 0.6)], s)
    assert card.uncertain


class FakeReader:
    def __init__(self, frames):
        self.frames = iter(frames)

    def read(self, frame):
        codes = next(self.frames)
        cards = tuple(CardRead(c, 0.9, ((0, 0, 10, 10),), False) for c in codes)
        return Reading(cards, 5.0, 640, 480)


def test_stable_reader_votes_out_flicker():
    frames = [["AS", "2S"], ["AS", "2S"], ["AS", "KD"], ["AS", "2S"], ["AS"], ["AS", "2S"]]
    stable = StableReader(FakeReader(frames), window=4)
    shown = [stable.update(None).codes() for _ in frames]
    assert shown[0] == ["2S", "AS"] or shown[0] == ["AS", "2S"]
    assert all("KD" not in s for s in shown[3:])  # one stray frame never shows once the window fills
    assert all("AS" in s and "2S" in s for s in shown)  # a card missed in one frame stays


def test_annotate_draws_without_touching_the_input():
    img = np.full((200, 300, 3), 255, np.uint8)
    reading = Reading((CardRead("QS", 0.9, ((10, 10, 40, 60),), False),
                       CardRead("7H", 0.6, ((100, 100, 130, 150),), True)), 1.0, 300, 200)
    out = annotate(img, reading)
    assert (img == 255).all()
    assert (out != 255).any(axis=2).sum() > 100
    assert tuple(out[10, 25]) != (255, 255, 255)
