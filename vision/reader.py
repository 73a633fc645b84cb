"""The card reader: photo -> the cards in view, each with its confidence and index boxes.

A photo's way through the reader, each step a module of its own:

1. load and check the photo (``vision.image``);
2. find the corner indices (``vision.detect``: a YOLO detector, one class);
3. cut each index out, find which way it faces and turn it upright, read it (``vision.classify``:
   the way-up reader, the index classifier, the black suit reader);
4. make cards of the indices (``vision.grouping``: pure functions, no networks);
5. take the extra looks (``vision.looks``): the photo stretched back to its true aspect, and
   flipped left-right where it looks mirrored.

Every network runs with onnxruntime on the CPU (``vision.networks``); every threshold is in
``vision.settings``. ``docs/reader.md`` tells what each step buys on photos.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision.classify import index_probs, top_prob, upright_probs, ways_up, with_suit_reader
from vision.crops import crop_squares, turn_upright
from vision.detect import find_indices, takes_small_look
from vision.grouping import group_indices, index_read, read_as_pairs
from vision.image import load_image, stretch
from vision.looks import (
    cards_score,
    looks_mirrored,
    mirror_confidences,
    mirror_means,
    mirrored_box,
    mirrored_card,
    mirrored_index,
    stretch_scale,
    unstretch_box,
    unstretch_card,
    unstretch_index,
)
from vision.networks import IndexClassifier, IndexDetector, WayUpReader
from vision.settings import Settings
from vision.types import Box, CardRead, IndexRead, Reading, WeightsError

DEFAULT_WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "weights"


@dataclass(frozen=True)
class Networks:
    """The reader's networks: the detector, the way-up reader and the index classifier, and the
    black suit reader where the weights folder has one (``suit.onnx``)."""

    detector: IndexDetector
    way_up: WayUpReader
    classifier: IndexClassifier
    suit: IndexClassifier | None = None

    @classmethod
    def load(cls, folder: Path, threads: int = 2) -> Networks:
        """A weights folder's networks. Raises ``FileNotFoundError`` naming a missing network,
        ``WeightsError`` for one the reader cannot use."""
        for name in ("detector.onnx", "way_up.onnx", "classifier.onnx"):
            if not (folder / name).exists():
                raise FileNotFoundError(f"model file missing: {folder / name} (train with `ginsight train`)")

        suit = folder / "suit.onnx"
        nets = cls(IndexDetector(folder / "detector.onnx", threads=threads),
                   WayUpReader(folder / "way_up.onnx", threads=threads),
                   IndexClassifier(folder / "classifier.onnx", threads=threads),
                   IndexClassifier(suit, threads=threads) if suit.exists() else None)
        for net, name in ((nets.classifier, "classifier"), (nets.suit, "suit")):
            if net is not None and not net.upright:
                raise WeightsError(f"{folder / (name + '.onnx')}: the reader reads crops turned upright by the "
                                   "way-up reader; this network learnt crops at any turn (train it again: "
                                   "`ginsight train` for the classifier, `python -m models.suit` for the suit reader)")
        return nets


class Look(NamedTuple):
    """One look at a photo: the indices read, the cards they make, the indices as the cards
    report them (an index read again as its suit twin carries that code), and the boxes the
    detector was sure of that make no card (``Reading.unread``)."""

    indices: list[IndexRead]
    cards: list[CardRead]
    reported: list[IndexRead]
    unread: list[Box]


class FirstLook(NamedTuple):
    """What the first look found in the photo as it is, for the mirror check: the detector's
    scores, and its boxes' crops with the way-up reader's angles."""

    scores: np.ndarray
    crops: np.ndarray
    degrees: np.ndarray


NOTHING = FirstLook(np.zeros(0, np.float32), np.zeros((0, 1, 1, 3), np.uint8), np.zeros(0, np.float32))


def unread_boxes(boxes: list[Box], cards: list[CardRead]) -> list[Box]:
    """``boxes`` (sure detector boxes read as no card) less those lying on a card's index: the
    indices the player is told were seen but not read."""
    return [b for b in boxes if not any(c.covers(b) for c in cards)]


class Reader:
    """Loads the networks once; :meth:`read` is safe to call repeatedly, from several threads.

    ``networks`` and ``settings``, where given, are used instead of the weights folder's (tests
    give small stand-in networks; benchmarks change a setting)."""

    def __init__(self, weights_dir: str | Path | None = None, threads: int = 2, *,
                 networks: Networks | None = None, settings: Settings | None = None) -> None:
        folder = Path(weights_dir) if weights_dir is not None else DEFAULT_WEIGHTS
        cv2.setNumThreads(threads)
        self.networks = networks if networks is not None else Networks.load(folder, threads)
        self.settings = settings if settings is not None else Settings.load(folder)

    def read(self, image, zoom: bool = True, aspect: float | None = None,
             empty_looks: bool = True, mirror: bool = True) -> Reading:
        """Read a photo (path, bytes or BGR array). Raises ``ImageError`` on bad input.

        ``zoom=False`` skips the closer look at small indices (a video takes it now and then).
        ``aspect``: read the photo at that stretch only (1: as it is), as an earlier read's
        ``Reading.aspect`` names it: the live video chooses it on a few frames. None: the photo
        as it is and the stretched looks. ``empty_looks=False`` skips the stretched looks at a
        photo that reads nothing (an empty table in a video). ``mirror=False`` skips the mirror
        check (the live video's frames), as does a read at a given ``aspect``."""
        t0 = time.perf_counter()
        img = load_image(image)
        height, width = img.shape[:2]
        if aspect is not None:
            if not 0 < aspect < float("inf"):  # NaN too
                raise ValueError(f"aspect must be a stretch above 0, not {aspect!r}")
            look = self._look_stretched(img, aspect, zoom)
            return Reading(tuple(look.cards), (time.perf_counter() - t0) * 1000, width, height,
                           tuple(look.reported), float(aspect), unread=tuple(look.unread))
        look, aspect, first = self._read_photo(img, zoom, empty_looks)
        mirrored = False
        if mirror and self.settings.looks.mirror and self.looks_mirrored(first):
            flipped, f_aspect, _ = self._read_photo(np.ascontiguousarray(img[:, ::-1]), zoom, empty_looks)
            if cards_score(flipped.cards) > cards_score(look.cards):
                mirrored, aspect = True, f_aspect
                look = Look([], [mirrored_card(c, width) for c in flipped.cards],
                            [mirrored_index(ix, width) for ix in flipped.reported],
                            [mirrored_box(b, width) for b in flipped.unread])
        ms = (time.perf_counter() - t0) * 1000
        return Reading(tuple(look.cards), ms, width, height, tuple(look.reported), aspect, mirrored,
                       tuple(look.unread))

    def read_indices(self, img: np.ndarray, zoom: bool = True) -> tuple[list[IndexRead], list[Box], FirstLook]:
        """The indices read in ``img``, the sure boxes read as no card, and what the first look
        found. With ``zoom``, a photo whose indices are small is read again with a closer look
        added (``vision.detect``)."""
        s = self.settings.detection
        reads, unread, first = self._indices_at(img, s.scales)
        if zoom and takes_small_look(reads, s):
            reads, unread, _ = self._indices_at(img, (*s.scales, *s.small_scales))
        return reads, unread, first

    def crop_probs(self, crops: np.ndarray) -> np.ndarray:
        """The classifier's probabilities (N, 53) for index crops cut at its side, turned upright
        as the reader turns them: for scripts that read crops without a photo."""
        n = self.networks
        return upright_probs(n.classifier, crops, n.way_up.degrees(crops), self.settings.classification.tilts)

    def looks_mirrored(self, first: FirstLook) -> bool:
        """Whether the photo whose first look found ``first`` reads surer flipped left-right."""
        s = self.settings.looks
        upright = turn_upright(first.crops, first.degrees)
        odds = mirror_means(*mirror_confidences(self.networks.classifier, first.scores, upright), s.mirror_strong)
        return looks_mirrored(odds, s.mirror_least)

    def _indices_at(self, img: np.ndarray, scales: tuple[float, ...]
                    ) -> tuple[list[IndexRead], list[Box], FirstLook]:
        """The indices read in ``img`` with the detector at ``scales``, and the boxes scored
        ``detection.unread`` or more that read as no card."""
        n, s = self.networks, self.settings
        boxes, scores = find_indices(n.detector, img, s.detection, scales)
        if len(boxes) == 0:
            return [], [], NOTHING
        crops = crop_squares(img, boxes, n.classifier.size)
        ways = ways_up(n.way_up, crops)
        degrees = np.asarray(ways.degrees, np.float32)
        probs, tops = index_probs(n.classifier, img, boxes, crops, ways.degrees, s.classification)
        if n.suit is not None and s.suits.black:
            probs = with_suit_reader(probs, n.suit, img, boxes, ways.degrees)
        least = s.classification.min_index
        all_reads = [index_read(tuple(float(v) for v in box), score, p, least, up, float(top))
                     for box, score, p, up, top in zip(boxes, scores, probs, ways.vectors, tops, strict=True)]
        reads = [r for r in all_reads if r is not None]
        unread: list[Box] = [(float(b[0]), float(b[1]), float(b[2]), float(b[3]))
                             for b, score, r in zip(boxes, scores, all_reads, strict=True)
                             if r is None and score >= s.detection.unread]
        if s.grouping.pair_share > 0 and len(reads) > 1:
            reads = [r for r in read_as_pairs(reads, s.grouping) if r.confidence >= least]
        return reads, unread, FirstLook(scores, crops, degrees)

    def _look(self, img: np.ndarray, zoom: bool) -> tuple[Look, FirstLook]:
        indices, unread, first = self.read_indices(img, zoom)
        cards, reported = group_indices(indices, self.settings.grouping, self.settings.classification.min_index)
        return Look(indices, cards, reported, unread_boxes(unread, cards)), first

    def _look_stretched(self, img: np.ndarray, factor: float, zoom: bool, wide: np.ndarray | None = None) -> Look:
        """The look at ``img`` stretched by ``factor`` (``wide``, where already made), its boxes
        in ``img``'s own pixels."""
        if factor == 1:
            return self._look(img, zoom)[0]
        wide = stretch(img, factor) if wide is None else wide
        look, _ = self._look(wide, zoom)
        scale = stretch_scale(img, wide)
        return Look([unstretch_index(r, scale) for r in look.indices], [unstretch_card(c, scale) for c in look.cards],
                    [unstretch_index(r, scale) for r in look.reported], [unstretch_box(b, scale) for b in look.unread])

    def _read_photo(self, img: np.ndarray, zoom: bool, empty_looks: bool) -> tuple[Look, float, FirstLook]:
        """The photo read as it is and at each stretch worth a look: the surest look, its
        stretch, and what the first look found."""
        s = self.settings.looks
        look, first = self._look(img, zoom)
        aspect = 1.0
        if not s.aspects or not (look.indices or empty_looks):
            return look, aspect, first
        # with indices read, a stretch is looked at only where the classifier reads them surer
        # so (the aspect probe); with none, every stretch is, without the closer look
        probing = bool(look.indices)
        zoom = zoom and probing
        best = cards_score(look.cards)
        if probing:
            here = np.array([r.top for r in look.indices], np.float32).mean()
            boxes = np.array([r.box for r in look.indices], np.float32).reshape(-1, 4)
        for factor in s.aspects:
            wide = stretch(img, factor)
            if probing:
                sx, sy = stretch_scale(img, wide)
                there = top_prob(self.networks.classifier, self.networks.way_up, wide,
                                 boxes * np.float32([sx, sy, sx, sy]), self.settings.classification.tilts)
                if float(there - here) <= s.aspect_probe:
                    continue
            other = self._look_stretched(img, factor, zoom, wide)
            if cards_score(other.cards) > best:
                best, aspect, look = cards_score(other.cards), factor, other
        return look, aspect, first
