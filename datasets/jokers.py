"""Jokers: cards with no index that a reader must not read as a card.

Gin is played without jokers, but most decks come with two, and a joker left on the table or in
a hand shows its corner to the reader, which must not read it as a card (a reader trained
without jokers reads real-dev's one joker as a king). So
the decks carry their jokers (:attr:`datasets.decks.Deck.jokers`), the scenes may lay one among
the cards, unlabelled, and ``datasets.index_crops --jokers`` cuts their corners as "no index"
crops for the classifier.

Where a joker comes from:
- real designs: the artwork's own joker elements (``joker_black`` / ``joker_red`` in GNOME's and
  svg-cards' sheets, ``black_joker`` / ``red_joker`` in KDE's, ``1J.svg`` / ``2J.svg`` in
  Kennard's folders), rendered at the deck's card size; a design without one has none;
- procedural decks: drawn here in the deck's own style (:func:`procedural_jokers`): "JOKER" down
  the corner in the index font, or a star, and a big star or the word in the centre.

A joker's ``corner`` boxes are where its corner mark is, the places a detector would box: in each
corner slot of the deck's indices, the ink near that corner (:func:`corner_boxes`).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from datasets.procedural_deck import SUPERSAMPLE, DeckStyle, _fit_glyph, _font

IndexBox = tuple[int, int, int, int]
JOKER_NAMES = ("joker_black", "joker_red")
# The element id (or file) of each joker, by the deck's layout (datasets.deck_sources.SvgDeckSpec).
JOKER_REFS = {
    "suit_rank": ("joker_black", "joker_red"),
    "rank_suit": ("black_joker", "red_joker"),
    "codes": ("1J.svg", "2J.svg"),
    "files": (),  # cardsJS has no jokers
}
INK = 60  # a pixel this far (summed over RGB) from the face's colour is ink
SIZE_TOLERANCE = 0.03  # a joker more than this share off the deck's card size is not used


def paper_colour(face: np.ndarray) -> np.ndarray:
    """The colour of a face's paper: the median of a band just inside its outline, RGB."""
    h, w = face.shape[:2]
    band = np.concatenate([face[h // 2, round(w * 0.02): round(w * 0.06), :3],
                           face[h // 2, round(w * 0.94): round(w * 0.98), :3]])
    return np.median(band, axis=0)


def corner_boxes(face: np.ndarray, slots: list[IndexBox]) -> list[IndexBox]:
    """Where ``face``'s corner marks are, one box per index slot of its deck (``slots``: the
    deck's index boxes, e.g. the median over its cards, top-left first). For each slot: the ink
    in the corner region that reaches from the card's corner to past the slot (the slot grown
    by half its size), or the slot itself when that region has no ink."""
    h, w = face.shape[:2]
    paper = paper_colour(face).astype(np.int32)
    ink = (np.abs(face[..., :3].astype(np.int32) - paper).sum(2) > INK) & (face[..., 3] > 128)
    edge = max(2, round(0.02 * w))  # leave out the outline's own border: a few pixels at the card's edges
    boxes = []
    for x1, y1, x2, y2 in slots:
        bw, bh = x2 - x1, y2 - y1
        left = x1 < w - x2  # the slot's corner: the nearer side of the card
        top = y1 < h - y2
        rx1, rx2 = (0, x2 + bw) if left else (x1 - bw, w)
        ry1, ry2 = (0, y2 + bh // 2) if top else (y1 - bh // 2, h)
        rx1, ry1 = max(rx1, edge), max(ry1, edge)
        rx2, ry2 = min(rx2, w - edge), min(ry2, h - edge)
        ys, xs = np.nonzero(ink[ry1:max(ry1, ry2), rx1:max(rx1, rx2)])
        if len(xs) < 10:
            boxes.append((int(x1), int(y1), int(x2), int(y2)))
        else:
            boxes.append((rx1 + int(xs.min()), ry1 + int(ys.min()), rx1 + int(xs.max()) + 1, ry1 + int(ys.max()) + 1))
    return boxes


def median_slots(index_boxes: dict[str, list[IndexBox]]) -> list[IndexBox]:
    """The deck's index slots: per corner, the median of its cards' boxes."""
    n = min(len(b) for b in index_boxes.values())
    arr = np.array([boxes[:n] for boxes in index_boxes.values()], np.float64)  # (52, n, 4)
    return [tuple(round(float(v)) for v in np.median(arr[:, k], axis=0)) for k in range(n)]  # type: ignore[misc]


def render_svg_jokers(spec, package_root: Path, size: tuple[int, int]) -> dict[str, np.ndarray]:
    """The jokers of the SVG deck ``spec`` as RGBA faces of ``size`` (w, h), by name in
    :data:`JOKER_NAMES`; those the artwork lacks, or that are not the deck's card size, are left out."""
    from datasets.deck_render import _fit, load_sheet
    from datasets.svg_render import locate, render_cropped

    width, height = size
    refs = JOKER_REFS.get(spec.layout, ())
    jokers = {}
    sheet = None
    for name, ref in zip(JOKER_NAMES, refs, strict=False):
        if spec.layout == "codes":
            path = package_root / spec.path / ref
            if not path.exists():
                continue
            one = load_sheet(spec, path)
            doc, page = one.root, one.page
        else:
            if sheet is None:
                sheet = load_sheet(spec, package_root / spec.path)
            if ref not in sheet.by_id:
                continue
            doc, page = sheet.element_document(ref), sheet.page
        rough = locate(doc, page)
        if rough is None:
            continue
        _, exact = render_cropped(doc, rough, 1000 / rough.h, rough.h * 0.05)
        if exact.h <= 0:
            continue
        image, _ = render_cropped(doc, rough, height / exact.h, rough.h * 0.05)
        h, w = image.shape[:2]
        if abs(h - height) > SIZE_TOLERANCE * height or abs(w - width) > SIZE_TOLERANCE * width:
            continue  # not a card of this deck's size (a label, a half-drawn element)
        jokers[name] = _fit(image, width, height)
    return jokers


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: tuple, points: int = 5) -> None:
    pts = []
    for k in range(points * 2):
        radius = r if k % 2 == 0 else r * 0.42
        angle = np.pi * k / points - np.pi / 2
        pts.append((cx + radius * np.cos(angle), cy + radius * np.sin(angle)))
    draw.polygon(pts, fill=(*colour, 255))


def procedural_jokers(seed: int, face: np.ndarray, slots: list[IndexBox], height: int) -> dict[str, np.ndarray]:
    """The black and the red joker of procedural deck ``seed``, drawn on a blank of its face
    (``face``: any of its cards, whose outline and paper are copied) in its style."""
    style = DeckStyle.from_seed(seed, height)
    rng = random.Random(f"joker-{seed}")
    h, w = face.shape[:2]
    paper = tuple(int(v) for v in paper_colour(face))
    mark = rng.choice(["letters", "letters", "star", "word"])
    centre = rng.choice(["star", "word", "panel"])
    jokers = {}
    s = SUPERSAMPLE
    for name, suit in zip(JOKER_NAMES, "SH", strict=True):
        colour = style.suit_colours[suit]
        blank = face.copy()
        inside = blank[..., 3] > 0
        # the paper everywhere inside the outline but a thin rim (the border, when the deck has one)
        rim = max(2, round(0.012 * h))
        keep = np.zeros_like(inside)
        keep[rim:-rim, rim:-rim] = True
        blank[inside & keep, :3] = paper
        card = Image.fromarray(blank).resize((w * s, h * s), Image.Resampling.BICUBIC)
        layer = Image.new("RGBA", card.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(layer)
        x1, y1, x2, y2 = slots[0]
        sx, sy, sw, sh = x1 * s, y1 * s, (x2 - x1) * s, (y2 - y1) * s
        if mark == "letters":  # J O K E R down the corner
            step = sh * rng.uniform(1.1, 1.5) / 5
            for k, letter in enumerate("JOKER"):
                glyph = _fit_glyph(letter, style.font, max(1, round(step * 0.8)), max(1, round(step * 0.85)), colour)
                layer.alpha_composite(glyph, (round(sx + (sw - glyph.width) / 2), round(sy + k * step)))
        elif mark == "star":
            _star(draw, sx + sw / 2, sy + sw / 2, sw * 0.55, colour)
        else:  # the word across the top corner
            glyph = _fit_glyph("JOKER", style.font, round(sw * 2.6), round(sh * 0.3), colour)
            layer.alpha_composite(glyph, (round(sx), round(sy)))
        card.alpha_composite(Image.alpha_composite(layer, layer.rotate(180)))
        cw, ch = card.size
        middle = ImageDraw.Draw(card)
        if centre == "star":
            _star(middle, cw / 2, ch / 2, cw * 0.3, colour)
        elif centre == "word":
            font = _font(style.court_font or style.font, round(cw * 0.16))
            middle.text((cw / 2, ch / 2), "JOKER", font=font, fill=(*colour, 255), anchor="mm")
        else:
            middle.rectangle([cw * 0.28, ch * 0.25, cw * 0.72, ch * 0.75], fill=(*style.panel, 255),
                             outline=(*colour, 255), width=max(2, round(cw * 0.012)))
            _star(middle, cw / 2, ch / 2, cw * 0.16, paper)
        out = np.asarray(card.resize((w, h), Image.Resampling.BOX)).copy()
        out[..., 3] = face[..., 3]  # the deck's outline exactly
        jokers[name] = out
    return jokers
