"""What the reader hands the rest of the program: plain values, converted once at the edge."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


class ImageError(ValueError):
    """An image that cannot be read: not an image, truncated, empty, or too large."""


class WeightsError(ValueError):
    """A weights folder holding something the reader cannot use: a ``reader.json`` that is not
    a JSON object of known settings with values of their kinds, or a network file onnxruntime
    cannot load. The message names the file. (A missing network is a ``FileNotFoundError``.)"""


Box = tuple[float, float, float, float]  # x1 y1 x2 y2 in the photo's pixels


@dataclass(frozen=True, eq=False)
class IndexRead:
    """One corner index read: where it lies, the code read and how surely.

    ``confidence`` is sqrt(detector score x the classifier's probability of ``card``).
    ``probs``: the classifier's probabilities over the 52 codes and "no index" (after the suit
    reader's say). ``up``: the way the index's top faces in the photo, a unit (x, y), from the
    way-up reader. ``paired_share``: where it was read together with its card's other index,
    which had read another code, how sure the two together are of the code. ``top``: the
    classifier's top card probability at the training framing, kept for the aspect probe.
    """

    box: Box
    card: str
    confidence: float
    probs: np.ndarray = field(repr=False)
    up: np.ndarray | None = field(default=None, repr=False)
    paired_share: float | None = None
    top: float | None = None

    def __post_init__(self) -> None:
        if len(self.box) != 4:
            raise ValueError(f"an index box is x1 y1 x2 y2, not {self.box!r}")


@dataclass(frozen=True, slots=True)
class CardRead:
    """One card seen in a photo."""

    card: str  # engine code, e.g. "QS"
    confidence: float  # 0..1
    boxes: tuple[Box, ...]  # its corner indices, x1 y1 x2 y2 in pixels
    uncertain: bool  # flagged for the player to check (vision.grouping says when)
    alternative: str | None = None  # the likeliest other card, where its indices read one

    def to_json(self) -> dict:
        out = {"card": self.card, "confidence": round(self.confidence, 3),
               "boxes": [[round(v, 1) for v in b] for b in self.boxes], "uncertain": self.uncertain}
        if self.uncertain and self.alternative is not None:  # what the player is asked: "2C or 2S?"
            out["alternative"] = self.alternative
        return out

    def covers(self, box: Box) -> bool:
        """Whether ``box``'s centre lies in one of this card's index boxes (another box on one
        of its indices)."""
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in self.boxes)


@dataclass(frozen=True, slots=True)
class Reading:
    """All the cards read in one image."""

    cards: tuple[CardRead, ...]
    ms: float
    width: int
    height: int
    indices: tuple[IndexRead, ...] = ()  # the index-level reads behind the cards
    aspect: float = 1.0  # the stretch the cards were read at (vision.looks); 1: as it is
    mirrored: bool = False  # read flipped left-right: the photo looked mirrored (vision.looks)
    unread: tuple[Box, ...] = ()  # index boxes the detector is sure of that no card was read from

    def codes(self) -> list[str]:
        return [c.card for c in self.cards]

    def to_json(self, image: str | None = None) -> dict:
        out = {"image": image, "cards": [c.to_json() for c in self.cards], "ms": round(self.ms, 1)}
        if self.mirrored:  # only then: the contract's three keys otherwise
            out["mirrored"] = True
        if self.unread:
            out["unread"] = [[round(v, 1) for v in b] for b in self.unread]
        return out
