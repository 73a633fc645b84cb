"""A stand-in for the card reader (``ui.reader.load_reader``), so the photo flows are tested
without a model: a "photo" is a small PNG whose text chunk ``cards`` names the cards in it.

It decodes with Pillow, so a file that is not an image, or a damaged one, fails as a real one
would, with a ``ValueError`` (as :class:`vision.ImageError` is).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from PIL import Image, PngImagePlugin

MAX_PIXELS = 40_000_000


@dataclass(frozen=True)
class FakeCardRead:
    card: str
    confidence: float
    boxes: tuple[tuple[float, float, float, float], ...]
    uncertain: bool
    alternative: str | None = None


@dataclass(frozen=True)
class FakeReading:
    cards: tuple[FakeCardRead, ...]
    ms: float
    width: int
    height: int
    mirrored: bool = False
    unread: tuple[tuple[float, float, float, float], ...] = ()

    def codes(self) -> list[str]:
        return [c.card for c in self.cards]


def photo(codes: str, unsure: str = "", size: tuple[int, int] = (64, 48), fmt: str = "PNG",
          mirrored: bool = False, unread: int = 0) -> bytes:
    """A fake photo of ``codes`` (space-separated); ``unsure`` ones are read with low confidence,
    each written ``9C`` (no other card stands out) or ``9C/9S`` (the likeliest other card 9S);
    ``mirrored``: read as a mirrored photo flipped back (vision.Reading.mirrored); ``unread``:
    index boxes found but not read."""
    info = PngImagePlugin.PngInfo()
    info.add_text("cards", codes)
    info.add_text("unsure", unsure)
    info.add_text("mirrored", "1" if mirrored else "")
    info.add_text("unread", str(unread))
    out = io.BytesIO()
    Image.new("RGB", size, (20, 90, 40)).save(out, fmt, pnginfo=info)
    return out.getvalue()


def unsure_of(text: str) -> dict[str, str | None]:
    """``"9C/9S KD"`` -> ``{"9C": "9S", "KD": None}``: unsure cards and their likeliest others."""
    pairs = (item.split("/", 1) if "/" in item else (item, None) for item in text.split())
    return {card: other for card, other in pairs}


def reading_of(codes: list[str], unsure: dict[str, str | None], width: int, height: int,
               mirrored: bool = False, unread: int = 0) -> FakeReading:
    reads = tuple(
        FakeCardRead(c, 0.4 if c in unsure else 0.97, ((1.0, 1.0, 5.0, 5.0),), c in unsure, unsure.get(c))
        for c in codes
    )
    boxes = tuple((10.0 + 8 * i, 20.0, 16.0 + 8 * i, 30.0) for i in range(unread))
    return FakeReading(reads, 12.0, width, height, mirrored, boxes)


class FakeStable:
    def __init__(self, codes: list[str], unsure: str = "", unread: int = 0) -> None:
        self.codes, self.unsure, self.unread = codes, unsure_of(unsure), unread
        self.frames = 0

    def update(self, frame) -> FakeReading:
        self.frames += 1
        return reading_of(self.codes, self.unsure, frame.shape[1], frame.shape[0], unread=self.unread)


class FakeReader:
    """``read`` / ``annotate`` / ``stable`` as :class:`ui.reader.CardReader` has them."""

    live_codes: ClassVar[list[str]] = ["AS", "2S", "3S", "7H", "7D", "7C", "9C", "TC", "JC", "KD"]

    def __init__(self, live_unsure: str = "", live_unread: int = 0) -> None:
        """``live_unsure`` (as :func:`photo`'s ``unsure``), ``live_unread``: the video's doubts."""
        self.reads = 0
        self.live_unsure, self.live_unread = live_unsure, live_unread

    def _open(self, data: bytes) -> Image.Image:
        try:
            image = Image.open(io.BytesIO(data))
            if image.width * image.height > MAX_PIXELS:
                raise ValueError(f"image too large: {image.width}x{image.height} pixels")
            image.load()
        except ValueError:
            raise
        except Exception as exc:
            raise ValueError(f"not an image or a damaged one ({exc})") from None
        return image

    def read(self, image) -> FakeReading:
        self.reads += 1
        if isinstance(image, np.ndarray):  # a photo the app decoded itself (a huge one, shrunk)
            return reading_of(self.live_codes, {}, image.shape[1], image.shape[0])
        img = self._open(image)
        codes = img.text.get("cards", "").split()
        unsure = unsure_of(img.text.get("unsure", ""))
        return reading_of(codes, unsure, img.width, img.height, img.text.get("mirrored") == "1",
                          int(img.text.get("unread") or 0))

    def annotate(self, image, reading) -> np.ndarray:
        img = self._open(image) if isinstance(image, bytes) else None
        h, w = (img.height, img.width) if img is not None else image.shape[:2]
        out = np.zeros((h, w, 3), np.uint8)
        out[:, :, 2] = 200  # red in BGR: "drawn"
        return out

    def stable(self, window: int = 8) -> FakeStable:
        return FakeStable(self.live_codes, self.live_unsure, self.live_unread)
