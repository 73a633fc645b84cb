"""Small stand-in networks for the reader's tests, and helpers that make index reads and photos.

A test builds its reader through the constructor with these in place of the shipped networks::

    Reader(networks=Networks(detector=Detector(...), way_up=WayUp(), classifier=Classifier(...)),
           settings=Settings())

Each stand-in answers from what it is shown (a photo's painted patches, a crop's colour), so
that a test's photo decides what the reader reads, and records what it was asked.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from engine.cards import CODES
from vision.reader import Networks, Reader
from vision.settings import Settings
from vision.types import IndexRead

NONE = 52  # the classifier's "no index"
PAPER = 230  # the grey of a test photo's table


def probs(**mass: float) -> np.ndarray:
    """A classifier's 53 probabilities: the codes given (``none`` for "no index"), the rest on
    "no index"."""
    p = np.zeros(53, np.float32)
    for code, v in mass.items():
        p[NONE if code == "none" else CODES.index(code)] = v
    if "none" not in mass:
        p[NONE] = max(0.0, 1.0 - float(p.sum()))
    return p


def sure(code: str) -> np.ndarray:
    return probs(**{code: 1.0})


def index(code: str, x: float, y: float, conf: float = 0.9, size: float = 20, p: np.ndarray | None = None,
          up=None, paired_share: float | None = None) -> IndexRead:
    """An index read: a box ``size`` tall and 0.6 of that wide at (x, y), facing ``up`` (a unit
    (x, y); None: not known)."""
    return IndexRead((float(x), float(y), x + size * 0.6, y + size), code, conf,
                     np.zeros(53, np.float32) if p is None else p,
                     None if up is None else np.asarray(up, np.float64), paired_share)


def read(code: str, x: float, y: float, score: float, p: np.ndarray, size: float = 20, up=None) -> IndexRead:
    """An index read as the reader makes it: confidence sqrt(detector score x probability)."""
    return index(code, x, y, float(np.sqrt(score * p[CODES.index(code)])), size, p, up)


UP, DOWN, LEFT, RIGHT = (0.0, -1.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0)


# --- photos ------------------------------------------------------------------------------------


def photo(height: int = 100, width: int = 120) -> np.ndarray:
    return np.full((height, width, 3), PAPER, np.uint8)


def paint(img: np.ndarray, box, colour) -> np.ndarray:
    """``img`` with the box (x1 y1 x2 y2, whole pixels) filled with ``colour`` (BGR)."""
    x1, y1, x2, y2 = (round(float(v)) for v in box)
    img[y1:y2, x1:x2] = colour
    return img


def colour_of(crop: np.ndarray) -> tuple[int, int, int]:
    """The colour at a crop's centre (where its index lies)."""
    s = crop.shape[0]
    return tuple(int(v) for v in crop[s // 2, s // 2])


def ink_boxes(img: np.ndarray, least: int = 12) -> list[tuple[float, float, float, float]]:
    """The boxes of the patches painted on a test photo (connected pixels off the paper's grey),
    each at least ``least`` pixels, left to right then top to bottom."""
    off = (np.abs(img.astype(np.int16) - PAPER).max(2) > 20).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(off, connectivity=4)
    boxes = [(float(x), float(y), float(x + w), float(y + h)) for x, y, w, h, area in stats[1:n] if area >= least]
    return sorted(boxes)


# --- networks ----------------------------------------------------------------------------------


class Detector:
    """A detector: ``find(img, scales)`` gives a list of (box, score); by default every patch
    painted on the photo, scored ``score``. Boxes scored under the ``conf`` asked are left out.
    Records the scales and the ``conf`` of each call."""

    def __init__(self, find: Callable | None = None, score: float = 0.9) -> None:
        self.find = find or (lambda img, scales: [(b, score) for b in ink_boxes(img)])
        self.asked: list[tuple[float, ...]] = []
        self.confs: list[float] = []
        self.widths: list[int] = []

    def __call__(self, img, conf: float = 0.15, iou: float = 0.5, scales: tuple[float, ...] = (1.0,)):
        self.asked.append(tuple(scales))
        self.confs.append(conf)
        self.widths.append(img.shape[1])
        found = [(b, s) for b, s in self.find(img, tuple(scales)) if s >= conf]
        boxes = np.array([b for b, _ in found], np.float32).reshape(-1, 4)
        return boxes, np.array([s for _, s in found], np.float32)


class Classifier:
    """An index classifier of crops turned upright: ``read(crop)`` gives a crop's 53
    probabilities (by default from its centre's colour, looked up in ``colours``; "no index"
    for a colour not there). Records the crops of each call."""

    upright = True
    classes = 53

    def __init__(self, colours: dict | None = None, read: Callable | None = None, size: int = 32) -> None:
        self.colours = colours or {}
        self.read = read or self._by_colour
        self.size = size
        self.seen: list[np.ndarray] = []

    def _by_colour(self, crop: np.ndarray) -> np.ndarray:
        c = colour_of(crop)
        for colour, p in self.colours.items():
            if max(abs(a - b) for a, b in zip(c, colour, strict=True)) <= 3:
                return p
        return probs(none=1.0)

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        self.seen.append(crops)
        if len(crops) == 0:
            return np.zeros((0, self.classes), np.float32)
        return np.stack([self.read(c) for c in crops]).astype(np.float32)

    @property
    def crops_read(self) -> int:
        return sum(len(c) for c in self.seen)


class WayUp:
    """A way-up reader: ``read(crop)`` gives the degrees anticlockwise from the crop's up that its
    index faces (default 0: every index upright). Records how many crops each call was shown."""

    size = 32

    def __init__(self, read: Callable | None = None) -> None:
        self.read = read or (lambda crop: 0.0)
        self.asked: list[int] = []

    def degrees(self, crops: np.ndarray) -> np.ndarray:
        return np.array([self.read(c) for c in crops], np.float32).reshape(-1)

    def cos_sin(self, crops: np.ndarray) -> np.ndarray:
        self.asked.append(len(crops))
        r = np.radians(self.degrees(crops))
        return np.stack([np.cos(r), np.sin(r)], 1).astype(np.float32).reshape(-1, 2)


def reader(detector=None, classifier=None, way_up=None, suit=None, **settings) -> Reader:
    """A reader of the stand-ins, with the settings named ``group__name`` changed."""
    nets = Networks(detector=detector or Detector(), way_up=way_up or WayUp(), classifier=classifier or Classifier(),
                    suit=suit)
    return Reader(networks=nets, settings=Settings().changed(**settings))
