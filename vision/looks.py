"""Extra looks at a photo: stretched back to its true aspect, and flipped left-right.

A 16:9 webcam frame or a 4:3 photo resized to a square squeezes every index; the reader then
also reads the photo stretched back by each of ``Looks.aspects``, where the classifier reads
the indices found surer so (the aspect probe), and keeps the look whose cards are surest.

A selfie camera's photo is mirrored: its indices read as other cards (a 2 as a 5). Where the
first look's indices read surer flipped than as they lie, the photo is read flipped too, and
kept flipped where its cards are surer.

Boxes found in a stretched or flipped photo are given back in the photo's own pixels.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.classify import NONE_CLASS
from vision.networks import IndexClassifier
from vision.types import Box, CardRead, IndexRead


def cards_score(cards: list[CardRead]) -> float:
    """How well a photo read at one look: the sum of its cards' confidences (0 with no card)."""
    return float(sum(c.confidence for c in cards))


def stretch_scale(img: np.ndarray, wide: np.ndarray) -> tuple[float, float]:
    """How much ``wide`` (``img`` stretched, vision.image.stretch) scales x and y: its sides over
    ``img``'s, exactly (1139 / 640 for a 640-pixel square widened 1.78x, not 1.78)."""
    return wide.shape[1] / img.shape[1], wide.shape[0] / img.shape[0]


def unstretch_box(box: Box, scale: tuple[float, float]) -> Box:
    """A box found in a stretched photo, in the photo's own pixels (``scale``: stretch_scale)."""
    sx, sy = scale
    x1, y1, x2, y2 = box
    return (x1 / sx, y1 / sy, x2 / sx, y2 / sy)


def unstretch_index(read: IndexRead, scale: tuple[float, float]) -> IndexRead:
    """An index read in a stretched photo, its box (and the way it faces) in the photo's own pixels."""
    up = read.up
    if up is not None:
        up = np.asarray(up, np.float32) / np.float32(scale)
        up = up / max(float(np.linalg.norm(up)), 1e-9)
    return replace(read, box=unstretch_box(read.box, scale), up=up)


def unstretch_card(card: CardRead, scale: tuple[float, float]) -> CardRead:
    return replace(card, boxes=tuple(unstretch_box(b, scale) for b in card.boxes))


def mirrored_box(box: Box, width: int) -> Box:
    """``box`` (x1 y1 x2 y2) where it lies in its photo, ``width`` pixels wide, flipped left-right."""
    x1, y1, x2, y2 = (float(v) for v in box)
    return width - x2, y1, width - x1, y2


def mirrored_index(read: IndexRead, width: int) -> IndexRead:
    """An index read in a photo flipped left-right, where it lies in the photo as given."""
    up = None if read.up is None else np.array([-read.up[0], read.up[1]], np.float32)
    return replace(read, box=mirrored_box(read.box, width), up=up)


def mirrored_card(card: CardRead, width: int) -> CardRead:
    return replace(card, boxes=tuple(mirrored_box(b, width) for b in card.boxes))


def mirror_confidences(classifier: IndexClassifier, scores: np.ndarray, upright_crops: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Each detector box's confidence as it lies and mirrored: its crop turned upright by the
    way-up reader's angle, and that crop flipped left-right (a crop turned upright and then
    flipped is the flipped crop turned upright by the mirrored angle), read once by the
    classifier; sqrt(detector score x the likeliest code's probability), as an index's."""
    n = len(scores)
    if n == 0:
        return np.zeros(0), np.zeros(0)
    crops = np.concatenate([upright_crops, np.ascontiguousarray(upright_crops[:, :, ::-1])])
    top = classifier(crops)[:, :NONE_CLASS].max(1)
    conf = np.sqrt(np.tile(np.asarray(scores, np.float64), 2) * top)
    return conf[:n], conf[n:]


def mirror_means(as_is: np.ndarray, mirrored: np.ndarray, strong: float) -> tuple[float, float]:
    """The means of boxes' confidences as they lie and mirrored over the boxes that read
    ``strong`` or more one way or the other (the detector's weak boxes, pips and pictures, would
    draw the two together); (0, 0) for none."""
    as_is, mirrored = np.asarray(as_is, np.float64), np.asarray(mirrored, np.float64)
    keep = np.maximum(as_is, mirrored) >= strong
    if not keep.any():
        return 0.0, 0.0
    return float(as_is[keep].mean()), float(mirrored[keep].mean())


def looks_mirrored(odds: tuple[float, float], least: float) -> bool:
    """Whether the odds (as they lie, mirrored: :func:`mirror_means`) ask for the photo to be
    read flipped too: mirrored ``least`` or more, and surer than as they lie."""
    as_is, mirrored = odds
    return mirrored >= least and mirrored > as_is
