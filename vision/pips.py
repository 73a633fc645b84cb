"""A black number card's suit checked by its pips (``Settings.pip_suit``).

Why: a club's index read small and soft can look like a spade's (real-dev's webcam table
photos; showdown photos' overlapping rows of synthetic validation), while the card's pips,
several times the size of its index's suit symbol, show their shape plainly where the card's
body is in view.

How: from an index's box and the way its top faces (the way-up reader), the part of the photo
where its card's pips lie (to the index's right and below it, as on every deck measured:
pips' centres 0.4-2.7 index lengths right of the index's centre and -0.2-5.2 below,
``datasets/pips.py``) is turned upright at a fixed scale; its dark blobs of a pip's size
(0.22-1.05 index lengths, 8 photo pixels or more) that are not cut by the region's edge nor
lie on another card are cut as ``datasets.pips`` cuts its crops and read by the pip reader
(``pips.onnx``, ``models/pips.py``: spade, club or other). :func:`pip_votes` counts the
confident answers.

Another card: where another detected index lies in the region, what lies beyond that index's
card's top-left corner is taken for that card's. Why: in a row laid down, or a fan, the next
card covers this one's body and shows its own pips there; on 300 synthetic showdown photos
(two such rows each) without this rule, 401 of 2,099 confident answers were the other black
suit, with it 45 of 1,057 (``benchmarks/pip_votes.py``, ``models/weights/pip-votes-session32*``).
"""

from __future__ import annotations

import cv2
import numpy as np

SIDE = 24  # the pip reader reads crops this many pixels square
MARGIN = 0.2  # a crop's side is the blob's longer side times 1 + 2 * MARGIN
LABELS = ("spade", "club", "other")  # the pip reader's outputs
NUMBER_RANKS = "23456789T"  # the cards with pips (an ace's one pip is often drawn big and ornate)
UNIT = 40.0  # canvas pixels per index length
RIGHT = (0.3, 2.8)  # the region, in index lengths right of the index's centre
DOWN = (-0.3, 5.0)  # and below it
PIP_SIDE = (0.22, 1.05)  # a pip's longer side, in index lengths
MIN_PIXELS = 8  # and in the photo's own pixels at least (the pip reader learnt pips 8-32 px)
BEYOND = (0.45, 0.85)  # an index's card's top-left corner, in index lengths left of and above its centre


def pip_region(img: np.ndarray, box, up) -> tuple[np.ndarray, np.ndarray]:
    """The region where the card of index ``box`` (x1, y1, x2, y2) has its pips, turned upright
    (the index's top up) at UNIT pixels an index length, and the affine map from that canvas to
    the photo (2 x 3). Outside the photo the canvas is black."""
    x1, y1, x2, y2 = (float(v) for v in box)
    s = max(x2 - x1, y2 - y1)
    c = np.array([(x1 + x2) / 2, (y1 + y2) / 2], np.float64)
    u = np.asarray(up, np.float64)
    u = u / max(np.linalg.norm(u), 1e-9)
    right, down = np.array([-u[1], u[0]]), -u
    k = s / UNIT
    origin = c + right * s * RIGHT[0] + down * s * DOWN[0]
    m = np.column_stack([right * k, down * k, origin])  # canvas (X, Y, 1) -> photo (x, y)
    w, h = int(UNIT * (RIGHT[1] - RIGHT[0])), int(UNIT * (DOWN[1] - DOWN[0]))
    canvas = cv2.warpAffine(img, m, (w, h), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    return canvas, m


def pip_crops(img: np.ndarray, box, up, others=()) -> np.ndarray:
    """The blobs of a pip's size in index ``box``'s pip region (:func:`pip_region`), cut square
    at SIDE pixels as ``datasets.pips`` cuts them; none whose centre lies in one of ``others``
    (the photo's detected index boxes, its own included) or that touch the region's edge."""
    canvas, m = pip_region(img, box, up)
    h, w = canvas.shape[:2]
    grey = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY)
    bright = cv2.dilate(grey, np.ones((int(UNIT * 0.6), int(UNIT * 0.6)), np.uint8)).astype(np.float32)
    ink = ((grey.astype(np.float32) < 0.62 * bright) & (bright > 60)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    scale = UNIT / max(box[2] - box[0], box[3] - box[1])  # canvas pixels a photo pixel
    lo, hi = max(PIP_SIDE[0] * UNIT, MIN_PIXELS * scale), PIP_SIDE[1] * UNIT
    boxes = np.asarray(others, np.float64).reshape(-1, 4)
    # Another index in the region is another card's, lying over this one (a row laid down, a
    # fan) or beside it: the part of the region beyond its card's top-left corner (as this
    # card faces) is that card's, not this one's.
    inverse = cv2.invertAffineTransform(m)
    centres = np.column_stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2, np.ones(len(boxes))])
    corners = [(cx - BEYOND[0] * UNIT, cy - BEYOND[1] * UNIT) for cx, cy in centres @ inverse.T
               if 0 <= cx < w and -BEYOND[1] * UNIT < cy < h and not (cx < 0.3 * UNIT and cy < 0.6 * UNIT)]
    crops = []
    for x, y, bw, bh, area in stats[1:count]:
        side = max(bw, bh)
        if not lo <= side <= hi or area < 0.25 * side * side or not 0.55 <= bw / bh <= 1.8:
            continue
        if x <= 0 or y <= 0 or x + bw >= w or y + bh >= h:
            continue  # cut by the region's edge (or the photo's)
        if any(x + bw > kx and y + bh > ky for kx, ky in corners):
            continue  # on another card
        cx, cy = x + bw / 2, y + bh / 2
        px, py = m @ np.array([cx, cy, 1.0])
        if len(boxes) and np.any((boxes[:, 0] <= px) & (px <= boxes[:, 2]) & (boxes[:, 1] <= py) & (py <= boxes[:, 3])):
            continue  # an index's glyph
        half = side * (1 + 2 * MARGIN) / 2
        cut = cv2.getRectSubPix(canvas, (round(2 * half), round(2 * half)), (cx, cy))
        crops.append(cv2.resize(cut, (SIDE, SIDE), interpolation=cv2.INTER_AREA))
    return np.stack(crops) if crops else np.zeros((0, SIDE, SIDE, 3), np.uint8)


def pip_votes(net, img: np.ndarray, box, up, others=(), sure: float = 0.9) -> tuple[int, int]:
    """How many of index ``box``'s card's pips the pip reader ``net`` reads, at ``sure`` or
    more, as spades and as clubs."""
    crops = pip_crops(img, box, up, others)
    if len(crops) == 0:
        return 0, 0
    p = net(crops)
    return int((p[:, 0] >= sure).sum()), int((p[:, 1] >= sure).sum())
