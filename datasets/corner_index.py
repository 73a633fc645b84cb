"""Find the corner indices (rank glyph + the small suit pip under it) on rendered card faces.

The boxes come from the faces' own pixels, so they can be checked.

1. **One corner.** Every corner is turned (or mirrored) to the top-left, where its *ink* (pixels
   that differ clearly from the card's face colour, minus the card's outline and long thin frame
   lines) is split into connected components. The glyph-sized component nearest the corner is the
   rank (for a ten, with the glyph beside it); the nearest component under it is the pip.
   Components that reach out of the corner region (a picture, a border) are never part of it.
2. **The deck.** Seen this way, the same rank shows the same glyph on the four suits, and the same
   suit the same pip on all its ranks (court cards apart: their index is often larger). The glyph
   most of the deck's clean reads agree on becomes a template. Each card's rank and pip are then
   that template found in its own ink, near where they were read or near where the deck has them
   (so a pip touching the picture, or a rank touching its pip, is still boxed on its own pixels);
   a card that does not show the deck's glyph there fails.
3. **Checks.** Every box must sit at its corner, be of a plausible size, overlap the deck's typical
   box, and be the 180° turn of the opposite corner's box. Otherwise :class:`DeckIndexError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

IndexBox = tuple[int, int, int, int]  # x1, y1, x2, y2 in pixels of the face; x2, y2 exclusive

# The corner region searched for an index, as fractions of the card's width and height.
REGION = (0.36, 0.5)
INK_THRESHOLD = 80.0  # RGB distance from the face colour


class DeckIndexError(ValueError):
    """A deck's corner indices cannot be found, or are implausible, on some card."""


@dataclass(frozen=True)
class Blob:
    """A box of ink: a connected component, or a union of some."""

    x1: int
    y1: int
    x2: int
    y2: int

    @property
    def w(self) -> int:
        return self.x2 - self.x1

    @property
    def h(self) -> int:
        return self.y2 - self.y1

    @property
    def box(self) -> IndexBox:
        return self.x1, self.y1, self.x2, self.y2


def _union(blobs: list[Blob]) -> Blob:
    return Blob(min(b.x1 for b in blobs), min(b.y1 for b in blobs), max(b.x2 for b in blobs), max(b.y2 for b in blobs))


def _overlap(a1: int, a2: int, b1: int, b2: int) -> int:
    return min(a2, b2) - max(a1, b1)


def box_iou(a: IndexBox, b: IndexBox) -> float:
    inter = max(0, _overlap(a[0], a[2], b[0], b[2])) * max(0, _overlap(a[1], a[3], b[1], b[3]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union else 0.0


def face_colour(pixels: np.ndarray) -> np.ndarray:
    """The most common colour among ``pixels`` (N x 3): the card's face colour."""
    quantised = (pixels // 16).astype(np.int32)
    keys = quantised[:, 0] * 256 + quantised[:, 1] * 16 + quantised[:, 2]
    return pixels[keys == np.bincount(keys).argmax()].mean(axis=0)


def depth_from_edge(face: np.ndarray) -> np.ndarray:
    """Per pixel, the distance (px) to the outside of the card (alpha <= 128)."""
    inside = np.pad((face[..., 3] > 128).astype(np.uint8), 1)
    return cv2.distanceTransform(inside, cv2.DIST_L2, 3)[1:-1, 1:-1]


def outline_width(face: np.ndarray, depth: np.ndarray, max_px: int = 12) -> int:
    """How many pixels in from the card's edge its outline (border stroke) reaches.

    The outline is the band along the edge that is nearly all ink; glyphs and pictures cover
    only a small part of any one ring of pixels at a given depth.
    """
    rgb = face[..., :3].astype(np.float32)
    colour = face_colour(rgb[(depth > max_px) & (depth <= max_px + 2)])
    ink = np.linalg.norm(rgb - colour, axis=-1) > INK_THRESHOLD / 2
    width = 1
    for d in range(1, max_px):
        ring = (depth > d - 1) & (depth <= d)
        if ring.any() and ink[ring].mean() < 0.5:
            break
        width = d
    return width


def ink_mask(face: np.ndarray) -> np.ndarray:
    """The ink of the top-left corner region of ``face`` (RGBA), as a boolean array."""
    h, w = face.shape[:2]
    rw, rh = round(REGION[0] * w), round(REGION[1] * h)
    depth = depth_from_edge(face)
    outline = outline_width(face, depth)
    depth = depth[:rh, :rw]
    inner = depth > outline + 1
    rgb = face[:rh, :rw, :3].astype(np.float32)
    # The face colour is that of the margin just inside the outline: pictures can fill much of a
    # corner, but rarely its margin.
    margin = inner & (depth <= outline + 1 + max(3, 0.02 * w))
    distance = np.linalg.norm(rgb - face_colour(rgb[margin if margin.any() else inner]), axis=-1)
    ink = ((distance > INK_THRESHOLD) & inner).astype(np.uint8)
    # Long thin straight lines (a picture's frame) are no glyph: cut them out, so that a rank or
    # pip touching the frame comes apart from it.
    length, thick = round(0.3 * h), max(4, round(0.015 * h))
    lines = np.zeros_like(ink)
    for kh, kw in ((1, length), (length, 1)):
        run = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((kh, kw), np.uint8))
        solid = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((max(kh, thick), max(kw, thick)), np.uint8))
        lines |= run & (1 - solid)
    lines = cv2.dilate(lines, np.ones((3, 3), np.uint8))
    return (ink & (1 - lines)).astype(bool)


def _blobs(ink: np.ndarray) -> list[Blob]:
    rh, rw = ink.shape
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    blobs = []
    for x, y, bw, bh, area in stats[1:count]:
        blob = Blob(int(x), int(y), int(x + bw), int(y + bh))
        # A speck, or something that reaches out of the corner (a frame, a picture): never an index.
        if area >= 3 and blob.x2 < rw and blob.y2 < rh:
            blobs.append(blob)
    return blobs


@dataclass
class Corner:
    """One corner of one card, turned to the top-left: its ink and the rank and pip read there."""

    ink: np.ndarray
    rank: Blob | None = None
    pip: Blob | None = None
    problem: str = ""


def read_corner(face: np.ndarray, two_glyph_rank: bool = False) -> Corner:
    """Read the rank and the pip in the top-left corner of ``face`` (RGBA) on their own.

    ``two_glyph_rank`` (a ten) lets the rank take in a second glyph of its size beside it.
    """
    h, w = face.shape[:2]
    ink = ink_mask(face)
    corner = Corner(ink)
    blobs = _blobs(ink)
    seeds = [b for b in blobs if 0.035 * h <= b.h <= 0.3 * h and b.w <= 0.2 * w]
    if not seeds:
        corner.problem = "no glyph-sized ink near the corner"
        return corner
    rank = [min(seeds, key=lambda b: b.x1 + b.y1)]
    if two_glyph_rank:
        r = rank[0]
        beside = [
            b
            for b in blobs
            if b != r
            and abs(b.y1 - r.y1) <= 0.15 * r.h
            and abs(b.y2 - r.y2) <= 0.15 * r.h
            and 0 <= b.x1 - r.x2 <= 0.3 * r.h
        ]
        rank += [min(beside, key=lambda b: b.x1)] if beside else []
    corner.rank = r = _union(rank)
    below = [
        b
        for b in blobs
        if b not in rank
        and r.y2 - 0.2 * r.h <= b.y1 <= r.y2 + 0.6 * r.h
        and _overlap(r.x1, r.x2, b.x1, b.x2) > 0
        and b.h <= 1.5 * r.h
        and b.w <= 2.0 * max(r.w, r.h)
    ]
    if below:
        corner.pip = min(below, key=lambda b: b.y1)
    else:
        corner.problem = "no pip under the rank"
    return corner


def _corner_views(corners: int) -> list[tuple[int, bool]]:
    """(quarter turns, mirrored) that bring each corner to the top-left: TL, BR[, TR, BL]."""
    views = [(0, False), (2, False)]
    return [*views, (0, True), (2, True)] if corners == 4 else views


def _view(face: np.ndarray, turns: int, mirrored: bool) -> np.ndarray:
    view = np.rot90(face, turns)
    return np.ascontiguousarray(view[:, ::-1] if mirrored else view)


def _to_face(box: IndexBox, turns: int, mirrored: bool, w: int, h: int) -> IndexBox:
    """Map a box found in a corner view back to the face's coordinates."""
    x1, y1, x2, y2 = box
    if mirrored:
        x1, x2 = w - x2, w - x1
    if turns == 2:
        x1, y1, x2, y2 = w - x2, h - y2, w - x1, h - y1
    return x1, y1, x2, y2


def _crop(ink: np.ndarray, box: IndexBox) -> np.ndarray:
    x1, y1, x2, y2 = box
    return ink[max(0, y1) : y2, max(0, x1) : x2]


def _distance(a: IndexBox, b: IndexBox) -> int:
    return max(abs(p - q) for p, q in zip(a, b, strict=True))


@dataclass
class _Glyph:
    """A glyph (one rank's, one suit's pip) as the deck draws it: its ink (with a one-pixel margin),
    and per corner view where it typically sits."""

    ink: np.ndarray = field(repr=False)
    where: dict[int, IndexBox]

    def find(self, ink: np.ndarray, near: list[IndexBox], radius: int) -> IndexBox | None:
        """The glyph's tight box in ``ink`` within ``radius`` px of one of the boxes ``near``.

        The glyph is there when nearly all of its pixels are ink (give or take a pixel of
        anti-aliasing), and ink that is not the glyph (a picture touching it) covers at most half
        of the rest of its box; of several such places the best fitting wins. None if nowhere.
        """
        gh, gw = self.ink.shape
        if ink.shape[0] < gh or ink.shape[1] < gw:
            return None
        kernel = np.ones((3, 3), np.uint8)
        glyph = self.ink.astype(np.float32)
        near_glyph = cv2.dilate(self.ink.astype(np.uint8), kernel).astype(np.float32)
        image = ink.astype(np.float32)
        hits = cv2.matchTemplate(cv2.dilate(ink.astype(np.uint8), kernel).astype(np.float32), glyph, cv2.TM_CCORR)
        total = cv2.matchTemplate(image, np.ones_like(glyph), cv2.TM_CCORR)
        beside = total - cv2.matchTemplate(image, near_glyph, cv2.TM_CCORR)
        found = hits / max(1.0, glyph.sum())
        extra = beside / max(1.0, near_glyph.size - near_glyph.sum())
        score = np.where((found >= 0.9) & (extra <= 0.5), found - extra, -np.inf)
        best, best_score = None, -np.inf
        for x1, y1, _, _ in near:
            # Boxes are tight; the glyph's ink has a one-pixel margin.
            ys = slice(max(0, y1 - 1 - radius), max(0, y1 - 1 + radius + 1))
            xs = slice(max(0, x1 - 1 - radius), max(0, x1 - 1 + radius + 1))
            window = score[ys, xs]
            if window.size and window.max() > best_score:
                dy, dx = np.unravel_index(int(window.argmax()), window.shape)
                best, best_score = (xs.start + int(dx), ys.start + int(dy)), float(window.max())
        if best is None:
            return None
        x, y = best
        own = ink[y : y + gh, x : x + gw] & (near_glyph > 0)  # this card's ink of the glyph
        ys, xs = np.nonzero(own)
        return x + int(xs.min()), y + int(ys.min()), x + int(xs.max()) + 1, y + int(ys.max()) + 1


def _same_size(blob: Blob, size: tuple[int, int]) -> bool:
    return abs(blob.w - size[0]) <= 1 and abs(blob.h - size[1]) <= 1


def _glyph_templates(
    parts: dict[tuple[str, int], Blob], inks: dict[tuple[str, int], np.ndarray], group_of
) -> dict[str, _Glyph]:
    """Per group (a rank, a suit's pip), the glyph as most of its clean reads show it."""
    groups: dict[str, list[tuple[str, int]]] = {}
    for key in parts:
        groups.setdefault(group_of(key), []).append(key)
    templates = {}
    for group, keys in groups.items():
        sizes = {(parts[k].w, parts[k].h) for k in keys}
        # The size most reads agree on; of equally common sizes the largest, as a glyph that
        # touched a frame line can come out a pixel or two short.
        size = max(sorted(sizes), key=lambda sz: (sum(_same_size(parts[k], sz) for k in keys), sz[0] * sz[1]))
        keys = [k for k in keys if _same_size(parts[k], size)]
        if len(keys) < max(2, 0.4 * len(groups[group])):
            continue  # no agreement on what this glyph looks like
        where = {}
        for corner in {k[1] for k in keys}:
            boxes = np.array([parts[k].box for k in keys if k[1] == corner])
            where[corner] = tuple(int(v) for v in np.median(boxes, axis=0).round())
        ref = min(keys, key=lambda k: _distance(parts[k].box, where[k[1]]))
        templates[group] = _Glyph(np.pad(_crop(inks[ref], parts[ref].box), 1), where)
    return templates


def find_deck_boxes(
    faces: dict[str, np.ndarray], corners: int = 2
) -> tuple[dict[str, list[IndexBox | None]], list[str]]:
    """The index boxes of a deck's faces (None where not found), and the problems met."""
    codes = sorted(faces)
    h, w = faces[codes[0]].shape[:2]
    radius = max(2, round(0.02 * h))
    views = _corner_views(corners)
    read = {
        (code, k): read_corner(_view(faces[code], *view), two_glyph_rank=code[0] == "T")
        for code in codes
        for k, view in enumerate(views)
    }
    inks = {key: corner.ink for key, corner in read.items()}
    clean = {key: c for key, c in read.items() if c.rank is not None and c.pip is not None}

    # Mirrored views show mirrored glyphs, and court cards often have a larger index than the
    # others: each gets templates of its own.
    def rank_group(key: tuple[str, int]) -> str:
        return f"{key[0][0]} {views[key[1]][1]}"

    def pip_group(key: tuple[str, int]) -> str:
        return f"{key[0][1]} {views[key[1]][1]} {key[0][0] in 'JQK'}"

    ranks = _glyph_templates({k: c.rank for k, c in clean.items()}, inks, rank_group)
    pips = _glyph_templates({k: c.pip for k, c in clean.items()}, inks, pip_group)
    boxes: dict[str, list[IndexBox | None]] = {code: [] for code in codes}
    problems = []
    for (code, k), corner in read.items():
        rank = _settle(corner.rank, ranks.get(rank_group((code, k))), k, corner.ink, radius)
        pip = _settle(corner.pip, pips.get(pip_group((code, k))), k, corner.ink, radius)
        if rank is None or pip is None or pip[1] < rank[3] - radius:
            what = "no rank" if rank is None else "no pip" if pip is None else "the pip is not under the rank"
            problems.append(f"{code} corner {k}: {what} ({corner.problem or 'unlike the rest of the deck'})")
            boxes[code].append(None)
        else:
            boxes[code].append(_to_face(_union([Blob(*rank), Blob(*pip)]).box, *views[k], w, h))
    return boxes, problems


def _settle(read: Blob | None, glyph: _Glyph | None, corner: int, ink: np.ndarray, radius: int) -> IndexBox | None:
    """A glyph's box on one corner: the deck's glyph found near where it was read, or near where
    the deck has it; as read when the deck does not agree on the glyph."""
    if glyph is None:
        return read.box if read is not None else None
    near = [read.box] if read is not None else []
    near += sorted(glyph.where.values(), key=lambda box: box != glyph.where.get(corner))
    found = glyph.find(ink, near, radius)
    if found is not None and read is not None and _distance(found, read.box) <= 3 and _contains(read.box, found):
        return read.box  # the glyph as read: the template may be a pixel or two short of it
    return found


def _contains(outer: IndexBox, inner: IndexBox) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def check_deck_boxes(boxes: dict[str, list[IndexBox]], w: int, h: int, corners: int = 2) -> list[str]:
    """The problems with a deck's boxes: implausible, or inconsistent across the deck."""
    problems = []
    tol = max(3, round(0.025 * h))
    for k in range(corners):
        median = tuple(int(v) for v in np.median(np.array([b[k] for b in boxes.values()]), axis=0))
        for code, card_boxes in boxes.items():
            x1, y1, x2, y2 = card_boxes[k]
            bw, bh = x2 - x1, y2 - y1
            at_corner = min(x1, w - x2) < 0.15 * w and min(y1, h - y2) < 0.15 * h
            if not (0.04 * w <= bw <= 0.3 * w and 0.08 * h <= bh <= 0.45 * h and at_corner):
                problems.append(f"{code} corner {k}: implausible box {card_boxes[k]}")
            elif box_iou(card_boxes[k], median) < 0.5:
                problems.append(f"{code} corner {k}: box {card_boxes[k]} far from the deck's {median}")
    for code, card_boxes in boxes.items():
        # Opposite corners hold the same index turned by 180 degrees.
        for a, b in ((0, 1), (2, 3))[: corners // 2]:
            x1, y1, x2, y2 = card_boxes[b]
            if _distance(card_boxes[a], (w - x2, h - y2, w - x1, h - y1)) > tol:
                problems.append(f"{code}: corner {b} {card_boxes[b]} is not corner {a} {card_boxes[a]} turned")
    return problems


def deck_index_boxes(faces: dict[str, np.ndarray], corners: int = 2) -> dict[str, list[IndexBox]]:
    """The index boxes of every face of a deck, checked against each other.

    Returns, per card code, one box per corner: top-left, bottom-right (and top-right,
    bottom-left when ``corners`` is 4).

    Raises:
        DeckIndexError: some card's index is missing or implausible; the message lists them.
    """
    boxes, problems = find_deck_boxes(faces, corners)
    if not problems:
        h, w = next(iter(faces.values())).shape[:2]
        problems = check_deck_boxes(boxes, w, h, corners)  # type: ignore[arg-type]
    if problems:
        raise DeckIndexError("; ".join(problems))
    return boxes  # type: ignore[return-value]


def rescale_deck_boxes(
    faces: dict[str, np.ndarray], boxes: dict[str, list[IndexBox]], size: tuple[int, int], corners: int = 2
) -> dict[str, list[IndexBox]]:
    """Boxes found on a deck's faces at another ``size`` (width, height), carried over to ``faces``.

    Each box is scaled, then snapped to this rendering's ink by at most a pixel a side (ink that
    touches it further out is the picture, not the index). The result is checked like any deck.

    Raises:
        DeckIndexError: the carried-over boxes fail the deck's checks.
    """
    h, w = next(iter(faces.values())).shape[:2]
    sx, sy = w / size[0], h / size[1]
    views = _corner_views(corners)
    out: dict[str, list[IndexBox]] = {}
    for code, card_boxes in boxes.items():
        out[code] = []
        for k, box in enumerate(card_boxes):
            x1, y1, x2, y2 = box
            scaled = (int(x1 * sx), int(y1 * sy), int(np.ceil(x2 * sx)), int(np.ceil(y2 * sy)))
            view = views[k]
            # Snap in the corner's own view, where ink_mask works. Turning by 180° and mirroring are
            # their own inverses and commute, so _to_face also maps a face box into the view.
            ink = ink_mask(_view(faces[code], *view))
            out[code].append(_to_face(_snap(ink, _to_face(scaled, *view, w, h)), *view, w, h))
    problems = check_deck_boxes(out, w, h, corners)
    if problems:
        raise DeckIndexError("; ".join(problems))
    return out


def _snap(ink: np.ndarray, box: IndexBox) -> IndexBox:
    """``box`` moved by at most one pixel a side to the bounds of the ink in it (grown by a pixel)."""
    x1, y1, x2, y2 = box
    ys, xs = np.nonzero(_crop(ink, (x1 - 1, y1 - 1, x2 + 1, y2 + 1)))
    if len(xs) == 0:
        return box
    ox, oy = max(0, x1 - 1), max(0, y1 - 1)
    ix1, iy1, ix2, iy2 = ox + xs.min(), oy + ys.min(), ox + xs.max() + 1, oy + ys.max() + 1
    return (
        int(np.clip(ix1, x1 - 1, x1 + 1)),
        int(np.clip(iy1, y1 - 1, y1 + 1)),
        int(np.clip(ix2, x2 - 1, x2 + 1)),
        int(np.clip(iy2, y2 - 1, y2 + 1)),
    )

