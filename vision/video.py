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

    Why these values: each older frame weighs 0.8 of the next, a card shows at 0.6 of the
    weights and stays down to 0.25: on synthetic clips (each validation photo seen in 16
    jittered 1280x720 frames) this reads as many cards as a plain count of the window, as soon
    (a new hand shows from its 4th frame, the old one's cards are gone from its 5th), with about
    half the flicker.

    The reader's closer look at a frame whose indices read small (``Reader.read(zoom=True)``,
    a second read of the frame) is taken on one frame in ``zoom_every``, so that cards far off
    do not slow every frame; the vote keeps what that frame finds.

    The reader's stretched looks at a frame (``Looks.aspects``: up to four reads in all) are
    taken on one frame in ``looks_every`` (1: every frame); the frames between are read once, at
    the aspect the last such frame chose (``aspect``), since a hand held to the camera keeps its
    shape from one frame to the next: the looks' cards for about 0.7 of the time a frame.
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
        changed since (a browser lowers a webcam's resolution when the line is slow); its
        likeliest other card is its newest read's too. The unread boxes are the newest frame's,
        less those on a card the vote shows.
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
                                      c.uncertain or counts[code] < len(self.frames), c.alternative))
        cards.sort(key=lambda c: c.card)
        self.shown = {c.card for c in cards}
        unread = tuple(b for b in reading.unread if not any(c.covers(b) for c in cards))
        return Reading(tuple(cards), reading.ms, reading.width, reading.height, reading.indices, reading.aspect,
                       unread=unread)

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
