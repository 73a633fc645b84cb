"""Steady reading of a video stream: a card is shown once it has been read in most of the
recent frames, and stays until it has been missed in most of them, so codes do not flicker."""

from __future__ import annotations

from collections import deque

import numpy as np

from vision.types import CardRead, Reading


class StableReader:
    """Votes over the last ``window`` frames; a card needs ``share`` of them to show.

    The reader's closer look at a frame that reads nothing (``Reader.read(zoom=True)``, about
    four times a frame's cost) is taken on one frame in ``zoom_every``, so that a table with no
    card in view does not slow every frame; the vote keeps what that frame finds.

    The reader's other looks at a frame (``Settings.aspects``: the frame read again stretched,
    up to four reads in all) are taken on one frame in ``looks_every`` (1: every frame); the
    frames between are read once, at the aspect the last such frame chose (``aspect``), since a
    hand held to the camera keeps its shape from one frame to the next. Measured in session 39
    (``benchmarks/video_looks.py``: 400 clips of 8 jittered 1280x720 frames made from synth2,
    synth4, showdown23 and held20, ``models/weights/video-looks-session39.json``), cards missed /
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

    def __init__(self, reader, window: int = 8, share: float = 0.5, zoom_every: int = 4,
                 looks_every: int = 4) -> None:
        self.reader = reader
        self.frames: deque[Reading] = deque(maxlen=window)
        self.share = share
        self.zoom_every = max(1, zoom_every)
        self.looks_every = max(1, looks_every)
        self.aspect = 1.0  # the aspect the last frame with every look chose
        self._count = 0

    def update(self, frame_bgr: np.ndarray) -> Reading:
        zoom = self._count % self.zoom_every == 0
        if self._count % self.looks_every == 0:
            reading = self.reader.read(frame_bgr, zoom=zoom)
            self.aspect = reading.aspect
        else:
            reading = self.reader.read(frame_bgr, zoom=zoom, aspect=self.aspect)
        self._count += 1
        return self.push(reading)

    def push(self, reading: Reading) -> Reading:
        """Add one frame's reading; the voted reading of the window."""
        self.frames.append(reading)
        counts: dict[str, int] = {}
        latest: dict[str, CardRead] = {}
        conf_sum: dict[str, float] = {}
        for r in self.frames:
            for c in r.cards:
                counts[c.card] = counts.get(c.card, 0) + 1
                conf_sum[c.card] = conf_sum.get(c.card, 0.0) + c.confidence
                latest[c.card] = c
        need = max(1, int(np.ceil(self.share * len(self.frames))))
        cards = []
        for code, n in counts.items():
            if n >= need:
                c = latest[code]
                cards.append(CardRead(code, conf_sum[code] / len(self.frames), c.boxes,
                                      c.uncertain or n < len(self.frames)))
        cards.sort(key=lambda c: c.card)
        return Reading(tuple(cards), reading.ms, reading.width, reading.height, reading.indices, reading.aspect)

    def reset(self) -> None:
        self.frames.clear()
        self.aspect = 1.0
        self._count = 0
