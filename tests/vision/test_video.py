"""Voting over video frames (vision.video.StableReader) and drawing a reading (vision.draw): no
network needed, the frames' readings are given."""

import itertools

import numpy as np
import pytest

from vision.draw import annotate
from vision.types import CardRead, Reading
from vision.video import StableReader


class FakeReader:
    def __init__(self, frames):
        self.frames = iter(frames)

        self.zooms = []

    def read(self, frame, zoom=True, aspect=None, empty_looks=True, mirror=True):
        self.zooms.append(zoom)
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


def test_stable_reader_keeps_a_card_read_in_about_half_the_frames_steady():
    """The vote's defaults (newest frames weigh most; a shown card stays until it is under a
    quarter of the weights) hold a card read off and on; the plain count showed it three times."""
    frames = [["AS", "2S"]] * 8 + [["AS", "2S"] if c == "+" else ["AS"] for c in "---++-+-+---"]
    shown = {}
    for name, kw in (("default", {}), ("plain", {"share": 0.5, "decay": 1.0, "keep": 0.5})):
        stable = StableReader(FakeReader(frames), window=8, **kw)
        shown[name] = ["2S" in stable.update(None).codes() for _ in frames]
    flips = {k: sum(a != b for a, b in itertools.pairwise(v)) for k, v in shown.items()}
    assert flips == {"default": 0, "plain": 3} and all(shown["default"])


def test_stable_reader_follows_a_new_hand_as_soon_as_the_plain_count():
    """A new hand shows from its 4th frame and the old one is gone from its 5th (window 8)."""
    frames = [["AS", "2S"]] * 8 + [["KD"]] * 6
    stable = StableReader(FakeReader(frames), window=8)
    shown = [stable.update(None).codes() for _ in frames][8:]
    assert shown == [["2S", "AS"]] * 3 + [["2S", "AS", "KD"]] + [["KD"]] * 2
    stable.reset()
    assert stable.shown == set() and not stable.frames


def plain_count_vote(frames, share):
    """The plain count, the vote as first written: a card shown when read in ceil(share * n)
    of the n frames, its confidence the sum over n, its boxes the newest frame's, flagged when
    a frame missed it (the reference the new vote must equal at decay 1 and keep = share)."""
    counts, latest, conf_sum = {}, {}, {}
    for r in frames:
        for c in r.cards:
            counts[c.card] = counts.get(c.card, 0) + 1
            conf_sum[c.card] = conf_sum.get(c.card, 0.0) + c.confidence
            latest[c.card] = c
    need = max(1, int(np.ceil(share * len(frames))))
    return sorted(((code, conf_sum[code] / len(frames), latest[code].boxes, latest[code].uncertain or n < len(frames))
                   for code, n in counts.items() if n >= need))


def test_stable_reader_at_decay_1_is_the_plain_count_card_for_card():
    import random

    rng = random.Random(40)
    for window in (1, 2, 3, 5, 8, 11):
        for share in (0.375, 0.5, 0.625):
            stable = StableReader(None, window=window, share=share, decay=1.0, keep=share)
            frames = []
            for n in range(60):
                if n == 30:
                    stable.reset()
                    frames.clear()
                reading = Reading(tuple(
                    CardRead(code, round(rng.random(), 3), ((n, n, n + 5, n + 5),), rng.random() < 0.2)
                    for code in ("AS", "2C", "3D", "QH") if rng.random() < 0.55), 5.0, 640, 480)
                frames.append(reading)
                got = stable.push(reading)
                want = plain_count_vote(frames[-window:], share)
                assert [(c.card, c.confidence, c.boxes, c.uncertain) for c in got.cards] == want


def test_stable_reader_weighs_the_newest_frames_most():
    """At decay 0.8 the frames weigh 1, 0.8, 0.64, 0.512 from the newest. KD read in the first
    frame alone holds 1, then 0.8 / 1.8, 0.64 / 2.44 (0.26: kept, over keep 0.25) and 0.512 /
    2.952 (0.17: gone); AS holds 1 / 1.8 (0.56: not yet, under share 0.6), then 1.8 / 2.44 and
    2.44 / 2.952, its confidence 0.9 x that."""
    stable = StableReader(None, window=4)
    card = lambda code: CardRead(code, 0.9, ((0, 0, 1, 1),), False)  # noqa: E731
    shown = [stable.push(Reading(tuple(card(c) for c in codes), 1.0, 10, 10)).cards
             for codes in (["KD"], ["AS"], ["AS"], ["AS"])]
    assert [[c.card for c in cards] for cards in shown] == [["KD"], ["KD"], ["AS", "KD"], ["AS"]]
    assert [(c.card, round(c.confidence, 6), c.uncertain) for c in shown[-1]] == \
        [("AS", round(0.9 * 2.44 / 2.952, 6), True)]
    with pytest.raises(ValueError, match="keep"):
        StableReader(None, share=0.5, keep=0.6)
    with pytest.raises(ValueError, match="decay"):
        StableReader(None, decay=0)
    for window in (0, -1):  # 0 had voted over no frame at all
        with pytest.raises(ValueError, match=f"window {window} must be 1 frame or more"):
            StableReader(None, window=window)


def test_stable_reader_draws_a_kept_card_where_it_lies_after_the_stream_shrinks():
    """A browser lowers a webcam's resolution when the line is slow: a card the vote keeps from
    an older, larger frame is given in the new frame's pixels, not the old ones."""
    stable = StableReader(None, window=4)
    big = Reading((CardRead("QS", 0.9, ((1000, 600, 1040, 660),), False),), 1.0, 1280, 720)
    for _ in range(3):
        stable.push(big)
    voted = stable.push(Reading((), 1.0, 640, 360))  # QS not read in the smaller frame: kept
    assert voted.codes() == ["QS"] and (voted.width, voted.height) == (640, 360)
    assert voted.cards[0].boxes == ((500, 300, 520, 330),)
    # the same size: the boxes as read
    assert stable.push(Reading((CardRead("QS", 0.9, ((10, 20, 30, 40),), False),), 1.0, 640, 360)
                       ).cards[0].boxes == ((10, 20, 30, 40),)


def test_stable_reader_zooms_on_one_frame_in_a_few():
    reader = FakeReader([[]] * 9)
    stable = StableReader(reader, window=4, zoom_every=4)
    for _ in range(9):
        stable.update(None)
    assert reader.zooms == [True, False, False, False, True, False, False, False, True]


def test_annotate_draws_without_touching_the_input():
    img = np.full((200, 300, 3), 255, np.uint8)
    reading = Reading((CardRead("QS", 0.9, ((10, 10, 40, 60),), False),
                       CardRead("7H", 0.6, ((100, 100, 130, 150),), True)), 1.0, 300, 200)
    out = annotate(img, reading)
    assert (img == 255).all()
    assert (out != 255).any(axis=2).sum() > 100
    assert tuple(out[10, 25]) != (255, 255, 255)


class AspectReader:
    """Reads every frame as the same card; a frame with every look chooses ``chosen``."""

    def __init__(self, chosen):
        self.chosen = chosen
        self.calls = []
        self.empty_looks = []

    def read(self, frame, zoom=True, aspect=None, empty_looks=True, mirror=True):
        self.calls.append(aspect)
        self.empty_looks.append(empty_looks)
        cards = (CardRead("AS", 0.9, ((0, 0, 10, 10),), False),)
        return Reading(cards, 5.0, 640, 480, aspect=self.chosen if aspect is None else aspect)


def test_stable_reader_takes_the_looks_on_one_frame_in_a_few_and_keeps_their_aspect_between():
    reader = AspectReader(1.78)
    stable = StableReader(reader, window=4, looks_every=3)
    for _ in range(7):
        assert stable.update(None).codes() == ["AS"]
    assert reader.calls == [None, 1.78, 1.78, None, 1.78, 1.78, None]  # None: every look
    reader.chosen = 1.0  # the hand moved: from the next frame with every look, read as it is
    for _ in range(4):
        stable.update(None)
    assert reader.calls[7:] == [1.78, 1.78, None, 1.0]
    stable.reset()
    stable.update(None)
    assert reader.calls[-1] is None and stable.aspect == 1.0
    # the frames that take the looks take no stretched look at an empty table (empty_looks=False)
    assert not any(e for a, e in zip(reader.calls, reader.empty_looks, strict=True) if a is None)


def test_stable_reader_takes_the_looks_on_one_frame_in_four_by_default_or_on_every_one():
    reader = AspectReader(0.75)
    stable = StableReader(reader, window=8)
    for _ in range(5):
        stable.update(None)
    assert reader.calls == [None, 0.75, 0.75, 0.75, None]
    reader.calls.clear()
    stable = StableReader(reader, window=8, looks_every=1)
    for _ in range(3):
        stable.update(None)
    assert reader.calls == [None, None, None]


def test_the_live_video_does_not_check_for_a_mirrored_photo():
    asked = []

    class Recorder:
        def read(self, frame, zoom=True, aspect=None, empty_looks=True, mirror=True):
            asked.append(mirror if aspect is None else None)
            return Reading((), 1.0, 8, 8)

    stable = StableReader(Recorder(), window=2)
    for _ in range(5):
        stable.update(np.zeros((8, 8, 3), np.uint8))
    assert False in asked and True not in asked


def test_the_vote_keeps_a_cards_likeliest_other_card_and_the_newest_frames_unread_boxes():
    stable = StableReader(None, window=2)
    unsure = CardRead("2C", 0.7, ((0, 0, 10, 10),), True, "2S")
    stable.push(Reading((unsure,), 5.0, 640, 480, unread=((100, 100, 110, 120),)))
    voted = stable.push(Reading((unsure,), 5.0, 640, 480, unread=((2, 2, 8, 8), (200, 200, 210, 220))))
    assert [(c.card, c.alternative, c.uncertain) for c in voted.cards] == [("2C", "2S", True)]
    assert voted.unread == ((200, 200, 210, 220),)  # the newest frame's, less the one on the card shown
