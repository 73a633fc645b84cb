"""Render the 52 faces of an SVG deck to same-sized RGBA images."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

from datasets.deck_sources import SvgDeckSpec
from datasets.svg_render import Box, SvgSheet, locate, render_cropped
from engine.cards import CODES as CARD_CODES

# How much a card's drawn box may differ from the deck's card size before it is an error (px at
# the final height): anti-aliasing moves a box by a pixel, a shadow or a stray element by more.
SIZE_TOLERANCE_PX = 3


class DeckRenderError(RuntimeError):
    """The deck's artwork cannot be rendered into 52 same-sized faces."""


def load_sheet(spec: SvgDeckSpec, path: Path) -> SvgSheet:
    """One SVG file of ``spec``'s artwork, parsed, its symbol uses sized where the deck asks."""
    sheet = SvgSheet.from_file(path)
    if spec.symbol_widths:
        sheet.size_symbol_uses()
    return sheet


def _documents(spec: SvgDeckSpec, root: Path) -> dict[str, tuple[ET.Element, Box]]:
    """Per card code: a document drawing just that card, and the page to look for it on."""
    docs = {}
    if spec.layout in ("files", "codes"):
        for code in CARD_CODES:
            sheet = load_sheet(spec, root / spec.path / spec.card_ref(code))
            docs[code] = (sheet.root, sheet.page)
        return docs
    sheet = load_sheet(spec, root / spec.path)
    for code in CARD_CODES:
        ref = spec.card_ref(code)
        if ref not in sheet.by_id:
            raise DeckRenderError(f"{spec.name}: no element {ref!r} for {code}")
        docs[code] = (sheet.element_document(ref), sheet.page)
    return docs


def _fit(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """Centre ``image`` on a transparent ``width`` x ``height`` canvas, cropping what overhangs."""
    out = np.zeros((height, width, 4), np.uint8)
    h, w = image.shape[:2]
    sy, sx = max(0, (h - height) // 2), max(0, (w - width) // 2)
    dy, dx = max(0, (height - h) // 2), max(0, (width - w) // 2)
    ch, cw = min(h, height), min(w, width)
    out[dy : dy + ch, dx : dx + cw] = image[sy : sy + ch, sx : sx + cw]
    return out


def render_svg_faces(spec: SvgDeckSpec, package_root: Path, height: int) -> dict[str, np.ndarray]:
    """The 52 card faces of ``spec``, each an RGBA array ``height`` pixels tall, all the same size.

    Raises:
        DeckRenderError: a card is missing, draws nothing, or is not the size of the others.
    """
    docs = _documents(spec, package_root)
    rough = {}
    for code, (doc, page) in docs.items():
        box = locate(doc, page)
        if box is None:
            raise DeckRenderError(f"{spec.name}: {code} draws nothing")
        rough[code] = box
    # The card size, measured finely on a few cards; the coarse boxes are only good to ~2%.
    sizes = []
    for code in ("2C", "7D", "KS"):
        doc, _ = docs[code]
        _, exact = render_cropped(doc, rough[code], 1000 / rough[code].h, rough[code].h * 0.05)
        sizes.append((exact.w, exact.h))
    card_w, card_h = float(np.median([s[0] for s in sizes])), float(np.median([s[1] for s in sizes]))
    scale = height / card_h
    width = round(card_w * scale)
    faces = {}
    for code, (doc, _) in docs.items():
        image, _ = render_cropped(doc, rough[code], scale, rough[code].h * 0.05)
        h, w = image.shape[:2]
        if abs(h - height) > SIZE_TOLERANCE_PX or abs(w - width) > SIZE_TOLERANCE_PX:
            raise DeckRenderError(f"{spec.name}: {code} is {w}x{h} px, the deck's cards {width}x{height}")
        faces[code] = _fit(image, width, height)
    return faces
