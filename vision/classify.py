"""Reading each index found: turned upright, then read by the classifier and the suit reader.

Every network of the shipped reader reads crops turned upright: the way-up reader says which
way each index faces, and its crop is turned by that angle before it is read, as the networks
learnt (``models/classifier.py``, ``models/suit.py``). Each index is read
from a few framings and tilts and the probabilities averaged (``Classification``); then, where
the weights folder has them, a suit reader has its say on the suit (``vision.suits``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vision.crops import MARGIN, crop_squares, turn_upright
from vision.networks import IndexClassifier, WayUpReader
from vision.settings import Classification
from vision.suits import apply_suit_reader

NONE_CLASS = 52  # the classifier's "no index": its classes are the engine's 52 codes, then this


class Ways(NamedTuple):
    """The way-up reader's answer for a photo's index crops: degrees anticlockwise from each
    crop's up (to turn it upright by), and the way each index's top faces in the photo, a unit
    (x, y)."""

    degrees: np.ndarray
    vectors: np.ndarray


def ways_up(way_up: WayUpReader, crops: np.ndarray) -> Ways:
    """Which way each index of ``crops`` (cut at the training margin) faces."""
    cos_sin = way_up.cos_sin(crops)
    return Ways(WayUpReader.angles(cos_sin), WayUpReader.vectors(cos_sin))


def upright_probs(classifier: IndexClassifier, crops: np.ndarray, degrees: np.ndarray,
                  tilts: tuple[float, ...]) -> np.ndarray:
    """The classifier's probabilities (N, classes) for ``crops`` turned upright by ``degrees``
    plus each of ``tilts``, read once each and averaged."""
    n = len(crops)
    degrees = np.asarray(degrees, np.float32)
    views = np.concatenate([turn_upright(crops, degrees + t) for t in tilts])
    probs = classifier(views)
    return probs.reshape(len(tilts), n, -1).mean(0) if len(tilts) > 1 else probs


def index_probs(classifier: IndexClassifier, img: np.ndarray, boxes: np.ndarray, crops: np.ndarray,
                degrees: np.ndarray, settings: Classification) -> tuple[np.ndarray, np.ndarray]:
    """The classifier's probabilities (N, 53) for the indices ``boxes`` in ``img``, read at
    each of the settings' margins and tilts and averaged (``crops``: them cut at the training
    margin; ``degrees``: the way-up reader's angles), and each index's top card probability at
    the training margin alone (N,), which the aspect probe weighs."""
    margins = settings.margins
    size = classifier.size
    looks = [crops if m == MARGIN else crop_squares(img, boxes, size, m) for m in margins]
    n = len(boxes)
    probs = upright_probs(classifier, np.concatenate(looks), np.tile(degrees, len(looks)), settings.tilts)
    per_look = probs.reshape(len(looks), n, -1)
    at_margin = per_look[margins.index(MARGIN)] if MARGIN in margins else upright_probs(
        classifier, crops, degrees, settings.tilts)
    return per_look.mean(0), at_margin[:, :NONE_CLASS].max(1)


def top_prob(classifier: IndexClassifier, way_up: WayUpReader, img: np.ndarray, boxes: np.ndarray,
             tilts: tuple[float, ...]) -> np.floating:
    """The mean of the classifier's top card probability for the indices ``boxes`` cut from
    ``img`` at the training margin (the way-up reader asked afresh): how surely they read there."""
    crops = crop_squares(img, boxes, classifier.size)
    return upright_probs(classifier, crops, way_up.degrees(crops), tilts)[:, :NONE_CLASS].max(1).mean()


def with_suit_reader(probs: np.ndarray, net: IndexClassifier, img: np.ndarray, boxes: np.ndarray,
                     degrees: np.ndarray) -> np.ndarray:
    """``probs`` with the black suit reader's say on the indices read as spades or clubs (its
    odds and the classifier's multiplied). Only the crops of those indices are cut and read."""

    def suit_probs(mask: np.ndarray) -> np.ndarray:
        crops = crop_squares(img, boxes[mask], net.size)
        return net(turn_upright(crops, np.asarray(degrees[mask], np.float32)))

    return apply_suit_reader(probs, suit_probs)
