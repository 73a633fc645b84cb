"""The cards read, drawn on the photo as players write them: ``10♥`` in red, ``K♠`` in black,
``2♣?`` for a card read unsure, a grey dashed "?" where a card's corner was found but not read;
each label on a white tag sized to the photo and set where it hides no other label.

OpenCV's fonts have no suit symbols, so the suit is drawn as a small shape (a diamond, a heart,
a spade, a club) after the rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ui.cardtext import card_label, is_red

RED, BLACK, UNSURE, GREY = (28, 28, 185), (39, 24, 17), (0, 140, 255), (140, 140, 140)  # BGR
Box = tuple[float, float, float, float]
Rect = tuple[int, int, int, int]  # x1, y1, x2, y2


def label_height(width: int, height: int) -> int:
    """A label's height in pixels: about 1/32 of the photo's long side, never under 18."""
    return max(18, round(max(width, height) / 32))


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_labels(anchors: Sequence[Box], sizes: Sequence[tuple[int, int]], width: int, height: int) -> list[Rect]:
    """Where each label goes: above its box (``anchors``), else below, else beside it, else the
    nearest place down the photo where it covers no label placed before it; always inside the
    photo. ``sizes``: each label's (width, height).

    >>> place_labels([(10, 40, 30, 60), (12, 42, 32, 62)], [(20, 10), (20, 10)], 100, 100)
    [(10, 30, 30, 40), (12, 62, 32, 72)]
    """
    placed: list[Rect] = []
    for (x1, y1, x2, y2), (w, h) in zip(anchors, sizes, strict=True):
        x1, y1, x2, y2 = round(x1), round(y1), round(x2), round(y2)
        tries = [(x1, y1 - h), (x1, y2), (x2, y1), (x1 - w, y1)]
        tries += [(x1, y1 + step * h) for step in range(-3, 12)]
        rects = []
        for x, y in tries:
            x, y = min(max(x, 0), max(width - w, 0)), min(max(y, 0), max(height - h, 0))
            rects.append((x, y, x + w, y + h))
        placed.append(next((r for r in rects if not any(_overlaps(r, p) for p in placed)), rects[0]))
    return placed


def _suit_shape(img: np.ndarray, suit: str, x: int, y: int, size: int, colour: tuple[int, int, int]) -> None:
    """A suit symbol in a ``size`` square whose top left corner is (x, y)."""
    import cv2

    s, r = size, max(1, size // 4)
    cx = x + s // 2
    if suit == "D":
        pts = np.array([[cx, y], [x + s - s // 6, y + s // 2], [cx, y + s], [x + s // 6, y + s // 2]], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    elif suit == "H":
        cv2.circle(img, (cx - r, y + r + 1), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r, y + r + 1), r, colour, -1, cv2.LINE_AA)
        pts = np.array([[x + 1, y + r + 2], [x + s - 1, y + r + 2], [cx, y + s]], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    elif suit == "S":
        pts = np.array([[cx, y], [x + s - 1, y + s - 2 * r - 1], [x + 1, y + s - 2 * r - 1]], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        cv2.circle(img, (cx - r, y + s - 2 * r), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r, y + s - 2 * r), r, colour, -1, cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([[cx, y + s // 2], [cx + r, y + s], [cx - r, y + s]], np.int32)], colour)
    else:  # clubs
        cv2.circle(img, (cx, y + r), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx - r - 1, y + s // 2 + 1), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r + 1, y + s // 2 + 1), r, colour, -1, cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([[cx, y + s // 2], [cx + r, y + s], [cx - r, y + s]], np.int32)], colour)


def _dashed_rectangle(img: np.ndarray, box: Box, colour: tuple[int, int, int], thick: int, dash: int) -> None:
    """A box drawn in dashes ``dash`` pixels long, with gaps as long (a line's ends are round:
    each dash is drawn ``thick`` shorter)."""
    import cv2

    x1, y1, x2, y2 = (round(v) for v in box)
    for (ax, ay), (bx, by) in (((x1, y1), (x2, y1)), ((x2, y1), (x2, y2)), ((x2, y2), (x1, y2)), ((x1, y2), (x1, y1))):
        length = max(abs(bx - ax), abs(by - ay))
        for start in range(0, length, 2 * dash):
            end = min(start + max(1, dash - thick), length)
            p = (ax + (bx - ax) * start // length, ay + (by - ay) * start // length)
            q = (ax + (bx - ax) * end // length, ay + (by - ay) * end // length)
            cv2.line(img, p, q, colour, thick)


def annotate(image_bgr: np.ndarray, reading: Any) -> np.ndarray:
    """A copy of the photo with each card read boxed and labelled (``reading.cards``: each
    with ``card``, a code such as ``'TH'``, its ``boxes`` and ``uncertain``): a card read
    unsure is boxed in orange and its label ends in "?" (``2♣?``), seen without colour too.
    Each index box found but not read (``reading.unread``, where it has them) is a grey
    dashed box labelled "?"."""
    import cv2

    out = image_bgr.copy()
    height, width = out.shape[:2]
    tag = label_height(width, height)
    font, font_scale = cv2.FONT_HERSHEY_SIMPLEX, tag / 30
    thick = max(1, tag // 10)
    pad = max(2, tag // 8)
    glyph = int(tag * 0.7) - pad
    (qw, _), _ = cv2.getTextSize("?", font, font_scale, thick)
    anchors, sizes, texts = [], [], []
    for card in reading.cards:
        rank = card_label(card.card)[:-1]  # "10" for a ten, as players write it
        colour = RED if is_red(card.card) else BLACK
        for x1, y1, x2, y2 in card.boxes:
            cv2.rectangle(out, (int(x1), int(y1)), (int(x2), int(y2)), UNSURE if card.uncertain else colour,
                          max(1, tag // 8))
        if not card.boxes:
            continue
        (tw, _), _ = cv2.getTextSize(rank, font, font_scale, thick)
        anchors.append(card.boxes[0])
        sizes.append((pad * 3 + tw + int(tag * 0.7) + (qw if card.uncertain else 0), tag))
        texts.append((rank, card.card[1], colour, card.uncertain, tw))
    for box in getattr(reading, "unread", ()):
        _dashed_rectangle(out, box, GREY, max(1, tag // 8), max(2, tag // 4))
        anchors.append(box)
        sizes.append((pad * 2 + qw, tag))
        texts.append(("", "", GREY, True, 0))
    for (x1, y1, x2, y2), (rank, suit, colour, unsure, tw) in zip(
            place_labels(anchors, sizes, width, height), texts, strict=True):
        cv2.rectangle(out, (x1, y1), (x2, y2), (255, 255, 255), -1)
        border = GREY if not suit else UNSURE if unsure else colour
        cv2.rectangle(out, (x1, y1), (x2, y2), border, max(1, tag // 12))
        baseline = y2 - pad - tag // 10
        if suit:
            cv2.putText(out, rank, (x1 + pad, baseline), font, font_scale, colour, thick, cv2.LINE_AA)
            _suit_shape(out, suit, x1 + pad * 2 + tw, y1 + (tag - glyph) // 2, glyph, colour)
        if unsure:  # after the suit, or alone on an index not read
            x = x1 + pad * 2 + tw + int(tag * 0.7) if suit else x1 + pad
            cv2.putText(out, "?", (x, baseline), font, font_scale, colour, thick, cv2.LINE_AA)
    return out
