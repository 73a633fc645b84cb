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
    """

    def __init__(self, reader, window: int = 8, share: float = 0.5, zoom_every: int = 4) -> None:
        self.reader = reader
        self.frames: deque[Reading] = deque(maxlen=window)
        self.share = share
        self.zoom_every = max(1, zoom_every)
        self._count = 0

    def update(self, frame_bgr: np.ndarray) -> Reading:
        reading = self.reader.read(frame_bgr, zoom=self._count % self.zoom_every == 0)
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
