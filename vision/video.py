"""Steady reading of a video stream: a card is shown once it has been read in most of the
recent frames (the newest weighing most), and stays until it has been missed in nearly all of
them, so codes do not flicker."""

from __future__ import annotations

from collections import deque

import numpy as np

from vision.types import CardRead, Reading


class StableReader:
    """Votes over the last ``window`` frames, each weighted ``decay`` to the power of its age; a
    card needs ``share`` of the weights to show and, once shown, ``keep`` of them to stay.

    The vote (session 40, ``benchmarks/video_votes.py``): each synthetic validation photo seen
    16 frames (jittered 1280x720, as below), the photos one after another, read once by this
    class and every rule voting on the same readings. On 400 photos of synth2, synth4,
    showdown23 and held20 (``models/weights/video-votes-session40.json``), over each photo's
    frames 9 to 16, cards missed / wrong and cards that appear or vanish between frames: the
    plain count (decay 1, share and keep 0.5, the vote before session 40) 2,839 / 753 and 84;
    decay 0.8, share 0.6, keep 0.25 2,828 / 751 and 48; a new hand shows from its 4th frame and
    the old one's cards are gone from its 5th with both. Confirmed on 400 other photos (synth2,
    synth4, showdown23 and unseen25, another seed, ``video-votes-confirm-session40.json``):
    2,468 / 629 and 103 v 2,452 / 635 and 44, the same frames. So the same cards and as soon,
    with about half the flicker.

    The reader's closer look at a frame that reads nothing (``Reader.read(zoom=True)``, about
    four times a frame's cost) is taken on one frame in ``zoom_every``, so that a table with no
    card in view does not slow every frame; the vote keeps what that frame finds.

    The reader's other looks at a frame (``Settings.aspects``: the frame read again stretched,
    up to four reads in all) are taken on one frame in ``looks_every`` (1: every frame); the
    frames between are read once, at the aspect the last such frame chose (``aspect``), since a
    hand held to the camera keeps its shape from one frame to the next. Measured in session 39
    with the plain count (``benchmarks/video_looks.py``: 400 clips of 8 jittered 1280x720
    frames made from synth2, synth4, showdown23 and held20,
    ``models/weights/video-looks-session39.json``), cards missed /
    wrong in the vote after a clip's last frame, and the mean time a frame side by side: every
    frame 360 / 98 at 115.9 ms; one in 2 358 / 98, 0.81x; one in 4 362 / 99, 0.71x; one in 8
    364 / 97, 0.67x; no looks 410 / 87, 0.61x; one in 4 with the frames between read as they
    are 405 / 87 (a card the looks alone find is then in too few frames to pass the vote). One in
    4: the looks' cards for 0.71x the time. A new hand put in view (``--switch``: 116 clips of
    8 frames of one photo, then 8 of the next, ``models/weights/video-switch-session39.json``)
    shows from its 4th frame and the old one's cards are gone from its 5th, with the looks on
    every frame or on one in 4 alike (after its 5th frame 101 / 21 cards missed / wrong v
    100 / 21): the window's vote, not the looks, sets how soon the video follows a hand. A
    window of 6 follows one frame sooner for a few more cards missed
    (``video-switch-w6-session39.json``): 8 kept, as the live page (ui/live.py) asks.
    """

    def __init__(self, reader, window: int = 8, share: float = 0.6, zoom_every: int = 4,
                 looks_every: int = 4, decay: float = 0.8, keep: float | None = 0.25) -> None:
        keep = share if keep is None else keep
        if window < 1:
            raise ValueError(f"window {window} must be 1 frame or more")
        if not 0 < decay <= 1:
            raise ValueError(f"decay {decay} must lie in (0, 1]: each older frame weighs that much of the next")
        if not 0 < keep <= share <= 1:
            raise ValueError(f"share {share} and keep {keep} must satisfy 0 < keep <= share <= 1")
        self.reader = reader
        self.frames: deque[Reading] = deque(maxlen=window)
        self.share = share
        self.decay = decay
        self.keep = keep
        self.shown: set[str] = set()  # the cards the last vote showed
        self.zoom_every = max(1, zoom_every)
        self.looks_every = max(1, looks_every)
        self.aspect = 1.0  # the aspect the last frame with every look chose
        self._count = 0

    def update(self, frame_bgr: np.ndarray) -> Reading:
        zoom = self._count % self.zoom_every == 0
        if self._count % self.looks_every == 0:
            reading = self.reader.read(frame_bgr, zoom=zoom, empty_looks=False, mirror=False)  # a camera's own frames
            self.aspect = reading.aspect
        else:
            reading = self.reader.read(frame_bgr, zoom=zoom, aspect=self.aspect)
        self._count += 1
        return self.push(reading)

    def push(self, reading: Reading) -> Reading:
        """Add one frame's reading; the voted reading of the window.

        Each frame in the window weighs ``decay`` to the power of its age (the newest 1), and a
        card scores the weights of the frames that read it: it is shown once its score reaches
        ``share`` of all the weights, and a card shown at the last frame stays while its score
        is at least ``keep`` of them. Until the window has filled (after the start or
        :meth:`reset`) "all the weights" are those of the frames seen, so that the first frame's
        cards show at once (a stray read in it shows for a few frames, as a card put in view
        mid-stream takes a few to show). Its confidence is the weighted mean over the window (a
        frame that missed it counting 0); it is flagged when any frame of the window missed it.
        Its boxes are its newest read's, scaled to this frame's size where the stream's size
        changed since (a browser lowers a webcam's resolution when the line is slow).
        """
        self.frames.append(reading)
        scores: dict[str, float] = {}
        conf: dict[str, float] = {}
        counts: dict[str, int] = {}
        latest: dict[str, CardRead] = {}
        seen_in: dict[str, Reading] = {}
        total = 0.0
        oldest = len(self.frames) - 1
        for i, r in enumerate(self.frames):  # oldest first: at decay 1 the sums of the plain count
            w = self.decay ** (oldest - i)
            total += w
            for c in r.cards:
                scores[c.card] = scores.get(c.card, 0.0) + w
                conf[c.card] = conf.get(c.card, 0.0) + w * c.confidence
                counts[c.card] = counts.get(c.card, 0) + 1
                latest[c.card] = c  # the newest frame's read of it
                seen_in[c.card] = r
        cards = []
        for code, score in scores.items():
            bar = self.keep if code in self.shown else self.share
            if score >= bar * total - 1e-9:
                c = latest[code]
                cards.append(CardRead(code, conf[code] / total, self._boxes_now(c, seen_in[code], reading),
                                      c.uncertain or counts[code] < len(self.frames)))
        cards.sort(key=lambda c: c.card)
        self.shown = {c.card for c in cards}
        return Reading(tuple(cards), reading.ms, reading.width, reading.height, reading.indices, reading.aspect)

    @staticmethod
    def _boxes_now(card: CardRead, then: Reading, now: Reading) -> tuple:
        """``card``'s boxes, read in frame ``then``, in frame ``now``'s pixels."""
        if (then.width, then.height) == (now.width, now.height) or not then.width or not then.height:
            return card.boxes
        sx, sy = now.width / then.width, now.height / then.height
        return tuple((x1 * sx, y1 * sy, x2 * sx, y2 * sy) for x1, y1, x2, y2 in card.boxes)

    def reset(self) -> None:
        self.frames.clear()
        self.aspect = 1.0
        self._count = 0
        self.shown = set()
