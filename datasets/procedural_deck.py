"""Procedurally drawn decks: many index styles, drawn with PIL, with exact index boxes.

Each seed picks a card shape, face and ink colours (a quarter of the decks have dark faces with
light indices), a font, the size and place of the corner index and the look of the pips. The index
is drawn on a layer of its own, so its box is read off that layer's alpha, and the bottom-right
index is that layer turned by 180°. Centres are plain: pips in the usual patterns, a big pip on
aces, a framed panel with a big letter on court cards, always clear of the index.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.cards import CODES as CARD_CODES

SUPERSAMPLE = 3
INK_ALPHA = 64  # index pixels at least this opaque count as ink for the box
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
_SKIP_FONT_WORDS = ("italic", "oblique", "extralight", "math", "symbol", "emoji")
RANK_TEXT = {"T": "10"}

# Pip positions of the number cards: (column, row), column -1/0/1 = left/middle/right, row 0..1.
PIP_LAYOUT: dict[str, list[tuple[int, float]]] = {
    "2": [(0, 0), (0, 1)],
    "3": [(0, 0), (0, 0.5), (0, 1)],
    "4": [(-1, 0), (1, 0), (-1, 1), (1, 1)],
    "5": [(-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
    "6": [(-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    "7": [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    "8": [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)],
    "9": [(-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)],
    "T": [(-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6), (-1, 1), (1, 1)],
}

Colour = tuple[int, int, int]
IndexBox = tuple[int, int, int, int]


@functools.cache
def font_files() -> tuple[Path, ...]:
    """Upright text fonts installed on this machine, in a stable order."""
    found = []
    for folder in FONT_DIRS:
        if folder.exists():
            found += [p for p in folder.rglob("*.ttf") if not any(w in p.name.lower() for w in _SKIP_FONT_WORDS)]
    return tuple(sorted(found, key=lambda p: p.name))


@functools.cache
def _font(path: Path | None, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.truetype(str(path), size) if path is not None else ImageFont.load_default(size)


@dataclass(frozen=True)
class DeckStyle:
    """Everything one seed decides about a procedural deck (sizes in final pixels)."""

    aspect: float
    corner_radius: float
    face: Colour
    border: Colour | None
    dark: bool
    suit_colours: dict[str, Colour]
    font: Path | None
    court_font: Path | None
    rank_height: float
    ten_squeeze: float
    pip_height: float
    index_x: float
    index_y: float
    index_gap: float
    centred: bool
    pip_style: str
    pip_shape: PipShape
    pip_aspect: float  # width / height of the index's suit symbol
    centre_pip: float
    panel: Colour

    @classmethod
    def from_seed(cls, seed: int, height: int) -> DeckStyle:
        rng = random.Random(seed)
        fonts = font_files()
        dark = rng.random() < 0.25
        if dark:  # light ink on a dark face
            face = rng.choice([(20, 24, 38), (12, 12, 14), (18, 52, 34), (70, 16, 22), (34, 30, 60)])
            light, warm = rng.choice([(245, 245, 240), (235, 215, 150)]), rng.choice([(255, 120, 120), (255, 170, 90)])
            suit_colours = {"S": light, "C": light, "H": warm, "D": warm}
            border = rng.choice([None, light])
        else:
            face = rng.choice([(255, 255, 255), (250, 248, 240), (245, 240, 225), (240, 242, 245), (255, 252, 246)])
            black, red = rng.choice([(0, 0, 0), (25, 25, 35), (40, 40, 40)]), rng.choice([(210, 20, 30), (200, 0, 0)])
            suit_colours = {"S": black, "C": black, "H": red, "D": red}
            if rng.random() < 0.2:  # a four-colour deck
                suit_colours = {"S": black, "H": red, "D": (20, 70, 200), "C": (20, 130, 50)}
            border = rng.choice([None, (0, 0, 0), (120, 120, 120), (200, 170, 80)])
        rank_height = rng.uniform(0.07, 0.11) * height
        return cls(
            aspect=rng.uniform(0.64, 0.73),
            corner_radius=rng.uniform(0.03, 0.08),
            face=face,
            border=border,
            dark=dark,
            suit_colours=suit_colours,
            font=rng.choice(fonts) if fonts and rng.random() < 0.9 else None,
            court_font=rng.choice(fonts) if fonts else None,
            rank_height=rank_height,
            ten_squeeze=rng.uniform(0.6, 0.85),
            pip_height=rank_height * rng.uniform(0.6, 1.0),
            index_x=rng.uniform(0.035, 0.075) * height,
            index_y=rng.uniform(0.03, 0.06) * height,
            index_gap=rng.uniform(0.005, 0.02) * height,
            centred=rng.random() < 0.7,
            pip_style=rng.choice(["drawn", "drawn", "font"]),
            pip_shape=PipShape.from_rng(rng),
            pip_aspect=rng.uniform(0.75, 1.1),
            centre_pip=rng.uniform(0.1, 0.14),
            panel=rng.choice([(190, 40, 40), (40, 70, 160), (220, 180, 60), (60, 130, 80), (120, 60, 140)]),
        )


PIP_CANVAS = 240  # the side a drawn pip is laid out at before it is scaled to its box


@dataclass(frozen=True)
class PipShape:
    """The geometry of one deck's drawn suit symbols (fractions of the symbol's width).

    Real decks differ most where clubs and spades are told apart at a few pixels: a club's lobes
    may be small and tall or big and packed into a wide trefoil (as on the common casino decks), a
    spade may be slim or broad-shouldered; either stem may be a thin line or a wide flared foot.
    """

    lobe: float  # radius of a club's or spade's round lobes
    spread: float  # distance of a club's side lobes from its top lobe, in lobe radii
    shoulder: float  # how far a spade's shoulders bulge out (0: straight, < 0: pinched)
    stem: float  # half-width of the foot of a club's or spade's stem
    stem_length: float
    heart_lobe: float
    heart_tip: float  # how far a heart's point hangs below its lobes, in widths
    diamond_pinch: float  # how far a diamond's sides curve in

    @classmethod
    def from_rng(cls, rng: random.Random) -> PipShape:
        return cls(
            lobe=rng.uniform(0.2, 0.31),
            spread=rng.uniform(1.35, 2.0),
            shoulder=rng.uniform(-0.05, 0.14),
            stem=rng.uniform(0.07, 0.24),
            stem_length=rng.uniform(0.15, 0.4),
            heart_lobe=rng.uniform(0.24, 0.29),
            heart_tip=rng.uniform(0.55, 0.85),
            diamond_pinch=rng.uniform(0.0, 0.12),
        )


def _curve(a, b, bulge: float, n: int = 12) -> list[tuple[float, float]]:
    """Points from ``a`` to ``b`` along a quadratic curve bowed out by ``bulge`` x its length
    (in, when negative) on a shape traced as the pips are: top, left side, bottom, right side."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    cx, cy = (ax + bx) / 2 - bulge * dy, (ay + by) / 2 + bulge * dx
    out = []
    for t in (i / n for i in range(n + 1)):
        a_, c_, b_ = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        out.append((a_ * ax + c_ * cx + b_ * bx, a_ * ay + c_ * cy + b_ * by))
    return out


@functools.cache
def _pip_mask(suit: str, shape: PipShape) -> Image.Image:
    """A suit symbol, pointing up, drawn in white on a black canvas and cropped to its ink
    (drawn once per suit and shape: a deck draws each many times; callers only resize it)."""
    s = PIP_CANVAS
    canvas = Image.new("L", (s, 2 * s), 0)
    draw = ImageDraw.Draw(canvas)

    def disc(x: float, y: float, r: float) -> None:
        draw.ellipse([x - r, y - r, x + r, y + r], fill=255)

    def stem(top: float) -> None:
        foot = top + shape.lobe * s * 0.8 + shape.stem_length * s  # below the lobes
        draw.polygon([(s / 2 - 0.03 * s, top), (s / 2 + 0.03 * s, top), (s / 2 + shape.stem * s, foot),
                      (s / 2 - shape.stem * s, foot)], fill=255)

    if suit == "C":
        r = shape.lobe * s
        dx = s / 2 - r
        dy = max((shape.spread * r) ** 2 - dx * dx, (0.6 * r) ** 2) ** 0.5
        top, side = r, r + dy
        disc(s / 2, top, r)
        disc(r, side, r)
        disc(s - r, side, r)
        draw.polygon([(s / 2, top), (r, side), (s - r, side)], fill=255)
        disc(s / 2, (top + 2 * side) / 3, 0.6 * r)  # no pinholes where the lobes meet
        disc(s / 2, side, 0.5 * r)
        stem(side)
    elif suit == "S":
        r = shape.lobe * s
        side = s * 0.95 - r * 0.2  # lobes' centres: the body is about as tall as wide
        left = _curve((s / 2, 0), (r * 0.1, side - r * 0.25), shape.shoulder)
        right = _curve((s - r * 0.1, side - r * 0.25), (s / 2, 0), shape.shoulder)
        draw.polygon([*left, (r, side + r * 0.6), (s - r, side + r * 0.6), *right], fill=255)
        disc(r, side, r)
        disc(s - r, side, r)
        draw.polygon([(r, side), (s / 2, side + r * 0.9), (s - r, side)], fill=255)
        stem(side)
    elif suit == "H":
        r = shape.heart_lobe * s
        tip = r + shape.heart_tip * s
        disc(r, r, r)
        disc(s - r, r, r)
        draw.polygon(_curve((0.01 * s, r * 1.1), (s / 2, tip), 0.08) + _curve((s / 2, tip), (0.99 * s, r * 1.1), 0.08)
                     + [(s / 2, r * 0.6)], fill=255)
    else:
        h = s * 1.25
        pinch = -shape.diamond_pinch
        points = (_curve((s / 2, 0), (0, h / 2), pinch) + _curve((0, h / 2), (s / 2, h), pinch)
                  + _curve((s / 2, h), (s, h / 2), pinch) + _curve((s, h / 2), (s / 2, 0), pinch))
        draw.polygon(points, fill=255)
    return canvas.crop(canvas.getbbox())


DEFAULT_PIP = PipShape(0.24, 1.7, 0.05, 0.17, 0.25, 0.27, 0.7, 0.05)


def draw_pip(suit: str, width: float, height: float, colour: Colour, style: str,
             shape: PipShape | None = None) -> Image.Image:
    """A suit symbol filling a ``width`` x ``height`` RGBA image, pointing up: a font's glyph
    (``style`` "font"), or drawn to ``shape``."""
    w, h = max(1, round(width)), max(1, round(height))
    if style == "font":
        glyph = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}[suit]
        fonts = [p for p in font_files() if p.name.startswith("DejaVuSans")]
        if fonts:
            return _fit_glyph(glyph, fonts[0], w, h, colour)
    mask = _pip_mask(suit, shape or DEFAULT_PIP).resize((w, h), Image.Resampling.LANCZOS)
    image = Image.new("RGBA", (w, h), (*colour, 0))
    image.putalpha(mask)
    return image


def _fit_glyph(text: str, font_path: Path | None, w: int, h: int, colour: Colour) -> Image.Image:
    """``text`` in the given font, its ink scaled to exactly ``w`` x ``h`` pixels."""
    font = _font(font_path, 4 * h)
    left, top, right, bottom = font.getbbox(text)
    canvas = Image.new("L", (right - left + 8, bottom - top + 8), 0)
    ImageDraw.Draw(canvas).text((4 - left, 4 - top), text, font=font, fill=255)
    bbox = canvas.getbbox() or (0, 0, 1, 1)
    mask = canvas.crop(bbox).resize((w, h), Image.Resampling.LANCZOS)
    image = Image.new("RGBA", (w, h), (*colour, 0))
    image.putalpha(mask)
    return image


def _rank_glyph(rank: str, style: DeckStyle, colour: Colour, scale: float) -> Image.Image:
    text = RANK_TEXT.get(rank, rank)
    font = _font(style.font, 200)
    left, top, right, bottom = font.getbbox(text)
    ink_w, ink_h = right - left, bottom - top
    h = style.rank_height * scale
    w = h * ink_w / max(1, ink_h) * (style.ten_squeeze if rank == "T" else 1.0)
    return _fit_glyph(text, style.font, max(1, round(w)), max(1, round(h)), colour)


def _index_layer(code: str, style: DeckStyle, size: tuple[int, int], scale: float) -> Image.Image:
    """The top-left index of ``code`` alone on a transparent layer of the card's size."""
    rank, suit = code[0], code[1]
    colour = style.suit_colours[suit]
    glyph = _rank_glyph(rank, style, colour, scale)
    pip_h = style.pip_height * scale
    pip = draw_pip(suit, pip_h * style.pip_aspect, pip_h, colour, style.pip_style, style.pip_shape)
    x, y = style.index_x * scale, style.index_y * scale
    column = max(glyph.width, pip.width)
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    gx = x + (column - glyph.width) / 2 if style.centred else x
    px = x + (column - pip.width) / 2 if style.centred else x
    layer.alpha_composite(glyph, (round(gx), round(y)))
    layer.alpha_composite(pip, (round(px), round(y + glyph.height + style.index_gap * scale)))
    return layer


def _draw_centre(card: Image.Image, code: str, style: DeckStyle, inner: tuple[float, float, float, float]) -> None:
    """Pips, a big ace pip, or a court panel, inside ``inner`` (x1, y1, x2, y2)."""
    rank, suit = code[0], code[1]
    x1, y1, x2, y2 = inner
    colour = style.suit_colours[suit]
    w, h = x2 - x1, y2 - y1
    if rank == "A":
        ph = min(w, h) * 0.55
        pip = draw_pip(suit, ph * 0.85, ph, colour, style.pip_style, style.pip_shape)
        card.alpha_composite(pip, (round(x1 + (w - pip.width) / 2), round(y1 + (h - pip.height) / 2)))
    elif rank in PIP_LAYOUT:
        pw = min(card.height * style.centre_pip * 0.85, w / 3.2)  # three columns that never touch
        ph = pw / 0.85
        for column, row in PIP_LAYOUT[rank]:
            cx = x1 + w / 2 + column * (w / 2 - pw / 2)
            cy = y1 + ph / 2 + row * (h - ph)
            pip = draw_pip(suit, pw, ph, colour, style.pip_style, style.pip_shape)
            if row > 0.5:
                pip = pip.rotate(180)
            card.alpha_composite(pip, (round(cx - pw / 2), round(cy - ph / 2)))
    else:
        draw = ImageDraw.Draw(card)
        line = max(2, round(card.width * 0.012))
        draw.rectangle([x1, y1, x2, y2], fill=(*style.panel, 255), outline=(*colour, 255), width=line)
        letter = _fit_glyph(rank, style.court_font, round(w * 0.45), round(h * 0.3), style.face)
        letter_x = round(x1 + (w - letter.width) / 2)
        card.alpha_composite(letter, (letter_x, round(y1 + h * 0.12)))
        card.alpha_composite(letter.rotate(180), (letter_x, round(y2 - h * 0.12 - letter.height)))
        ph = min(w, h) * 0.22
        pip = draw_pip(suit, ph * 0.85, ph, style.face, style.pip_style, style.pip_shape)
        card.alpha_composite(pip, (round(x1 + (w - pip.width) / 2), round(y1 + (h - pip.height) / 2)))


def _card(
    code: str, style: DeckStyle, width: int, height: int, index: Image.Image, index_right: float
) -> tuple[np.ndarray, IndexBox]:
    """One face (RGBA array) and the box of its top-left index, drawn ``SUPERSAMPLE`` times larger
    and scaled down. ``index_right`` is where the deck's widest index ends (supersampled px)."""
    s = SUPERSAMPLE
    size = (width * s, height * s)
    card = Image.new("RGBA", size, (0, 0, 0, 0))
    radius = style.corner_radius * width * s
    draw = ImageDraw.Draw(card)
    border = max(1, round(0.006 * height * s))
    if style.border is None:
        draw.rounded_rectangle([0, 0, size[0] - 1, size[1] - 1], radius, fill=(*style.face, 255))
    else:
        draw.rounded_rectangle([0, 0, size[0] - 1, size[1] - 1], radius, fill=(*style.border, 255))
        draw.rounded_rectangle(
            [border, border, size[0] - 1 - border, size[1] - 1 - border], radius - border, fill=(*style.face, 255)
        )
    margin = 0.04 * width * s
    top = style.index_y * s + margin / 2
    inner = (index_right + margin, top, size[0] - index_right - margin, size[1] - top)
    _draw_centre(card, code, style, inner)
    card.alpha_composite(index)
    card.alpha_composite(index.rotate(180))
    face = card.resize((width, height), Image.Resampling.BOX)
    alpha = np.asarray(index.resize((width, height), Image.Resampling.BOX))[..., 3]
    ys, xs = np.nonzero(alpha >= INK_ALPHA)
    return np.asarray(face).copy(), (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)


def procedural_faces(seed: int, height: int = 320) -> tuple[dict[str, np.ndarray], dict[str, list[IndexBox]]]:
    """The 52 faces of procedural deck ``seed`` and their index boxes (top-left, bottom-right)."""
    style = DeckStyle.from_seed(seed, height)
    width = round(height * style.aspect)
    size = (width * SUPERSAMPLE, height * SUPERSAMPLE)
    indices = {code: _index_layer(code, style, size, SUPERSAMPLE) for code in CARD_CODES}
    index_right = max(layer.getbbox()[2] for layer in indices.values())
    faces, boxes = {}, {}
    for code in CARD_CODES:
        face, (x1, y1, x2, y2) = _card(code, style, width, height, indices[code], index_right)
        faces[code] = face
        boxes[code] = [(x1, y1, x2, y2), (width - x2, height - y2, width - x1, height - y1)]
    return faces, boxes
