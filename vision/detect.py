"""Finding the corner indices: the detector's boxes at the settings' scales, and when to look again.

A photo is looked at as it is and halved (a close-up's big indices come out at the sizes the
detector learnt). A photo that reads no index is looked at closer (a card held far from a
webcam); one whose indices read small (cards far off on a table) is read again with a closer
look added. The reader decides from what the first look read (:func:`takes_small_look`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vision.networks import IndexDetector
from vision.settings import Detection
from vision.types import IndexRead


class Found(NamedTuple):
    """The detector's answer on one photo: index boxes (N, 4) x1 y1 x2 y2 in its pixels, and
    their scores (N,)."""

    boxes: np.ndarray
    scores: np.ndarray


def find_indices(detector: IndexDetector, img: np.ndarray, settings: Detection,
                 scales: tuple[float, ...] | None = None) -> Found:
    """The index boxes in ``img`` at ``scales`` (default: the settings' first look)."""
    boxes, scores = detector(img, conf=settings.conf, iou=settings.iou,
                             scales=settings.scales if scales is None else scales)
    return Found(boxes, scores)


def box_side(box) -> float:
    """A box's longer side in pixels (at least 1): the size an index is measured in."""
    return max(box[2] - box[0], box[3] - box[1], 1.0)


def median_side(reads: list[IndexRead]) -> float:
    """The median side of the indices read, in pixels (0 when none)."""
    return float(np.median([box_side(r.box) for r in reads])) if reads else 0.0


def takes_small_look(reads: list[IndexRead], settings: Detection) -> bool:
    """Whether a photo whose first look read ``reads`` is read again with ``small_scales`` too:
    it read indices, and their median side is under ``small_side`` (0: never)."""
    return (bool(reads) and settings.small_side > 0 and bool(settings.small_scales)
            and median_side(reads) < settings.small_side)
