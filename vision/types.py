"""What the reader hands the rest of the program: plain values, converted once at the edge."""

from __future__ import annotations

from dataclasses import dataclass


class ImageError(ValueError):
    """An image that cannot be read: not an image, truncated, empty, or too large."""


class WeightsError(ValueError):
    """A weights folder holding something the reader cannot use: a ``reader.json`` that is not
    a JSON object of known settings with values of their kinds, or a network file onnxruntime
    cannot load. The message names the file. (A missing network is a ``FileNotFoundError``.)"""


@dataclass(frozen=True, slots=True)
class CardRead:
    """One card seen in a photo."""

    card: str  # engine code, e.g. "QS"
    confidence: float  # 0..1
    boxes: tuple[tuple[float, float, float, float], ...]  # its corner indices, x1 y1 x2 y2 in pixels
    uncertain: bool  # low confidence, or its indices far apart (two cards of one code?)

    def to_json(self) -> dict:
        return {"card": self.card, "confidence": round(self.confidence, 3),
                "boxes": [[round(v, 1) for v in b] for b in self.boxes], "uncertain": self.uncertain}


@dataclass(frozen=True, slots=True)
class Reading:
    """All the cards read in one image."""

    cards: tuple[CardRead, ...]
    ms: float
    width: int
    height: int
    indices: tuple = ()  # the index-level reads behind the cards (vision.reader.IndexRead)
    aspect: float = 1.0  # the stretch the cards were read at (vision.reader.Settings.aspects); 1: as it is
    mirrored: bool = False  # read flipped left-right: the photo looked mirrored (Settings.mirror_check)

    def codes(self) -> list[str]:
        return [c.card for c in self.cards]

    def to_json(self, image: str | None = None) -> dict:
        out = {"image": image, "cards": [c.to_json() for c in self.cards], "ms": round(self.ms, 1)}
        if self.mirrored:  # only then: the contract's three keys otherwise
            out["mirrored"] = True
        return out
