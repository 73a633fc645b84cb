"""Render single elements (one card) of a big SVG sheet with cairosvg.

A card deck in SVG is usually one file with an element id per card. Rendering the whole sheet
per card is slow (cairosvg resolves every ``<use>`` by scanning the whole document), so
:class:`SvgSheet` parses the file once and, per card, writes a small stand-alone document: the
card's element under copies of its ancestors (whose transforms and styles it inherits), plus
every element it references (``href``, ``url(#...)``), transitively, in ``<defs>``.

Where the card is comes from the rendered alpha channel: a small render of the whole page locates
it (:func:`locate`), and a render of that place at the wanted scale is cropped to the card's outline
(:func:`render_cropped`).
"""

from __future__ import annotations

import copy
import gzip
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import cairosvg
import cairosvg.parser
import cairosvg.surface
import numpy as np

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
HREF_ATTRS = (f"{{{XLINK_NS}}}href", "href")
_URL_REF = re.compile(r"url\(\s*['\"]?#([^'\")\s]+)['\"]?\s*\)")
# Containers whose children are never drawn in place: an element in them is drawn by a <use>.
_NON_RENDERED = {"defs", "symbol", "clipPath", "mask", "pattern", "marker", "linearGradient", "radialGradient"}
_UNITS_PX = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}

ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in SVG user units."""

    x: float
    y: float
    w: float
    h: float

    def grown(self, margin: float) -> Box:
        return Box(self.x - margin, self.y - margin, self.w + 2 * margin, self.h + 2 * margin)


def _view_box(text: str) -> Box:
    """An SVG ``viewBox`` attribute ("x y w h", spaces or commas) as a :class:`Box`."""
    x, y, w, h = (float(v) for v in re.split(r"[\s,]+", text.strip()))
    return Box(x, y, w, h)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _length_px(value: str | None) -> float | None:
    if not value:
        return None
    match = re.fullmatch(r"\s*([-+0-9.eE]+)\s*([a-z%]*)\s*", value)
    if not match or match.group(2) not in _UNITS_PX:
        return None
    return float(match.group(1)) * _UNITS_PX[match.group(2)]


def read_svg_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def alpha_bbox(alpha: np.ndarray, threshold: int = 24) -> tuple[int, int, int, int] | None:
    """(x1, y1, x2, y2), exclusive ends, of the pixels whose alpha is above ``threshold``."""
    ys, xs = np.nonzero(alpha > threshold)
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


class SvgSheet:
    """One parsed SVG file from which single elements can be rendered."""

    def __init__(self, data: bytes) -> None:
        self.root = ET.fromstring(data)
        self.by_id: dict[str, ET.Element] = {}
        self.parent: dict[ET.Element, ET.Element] = {}
        for elem in self.root.iter():
            if "id" in elem.attrib:
                self.by_id.setdefault(elem.attrib["id"], elem)
            for child in elem:
                self.parent[child] = elem
        self.styles = [e for e in self.root.iter() if _local(e.tag) == "style"]
        self.page = self._page_box()

    @classmethod
    def from_file(cls, path: Path) -> SvgSheet:
        return cls(read_svg_bytes(path))

    def _page_box(self) -> Box:
        view_box = self.root.get("viewBox")
        if view_box:
            return _view_box(view_box)
        w = _length_px(self.root.get("width")) or 1000.0
        h = _length_px(self.root.get("height")) or 1000.0
        return Box(0.0, 0.0, w, h)

    def size_symbol_uses(self) -> int:
        """Give each ``<use>`` of a ``<symbol>`` with a viewBox that has a height and no width the
        width that keeps the viewBox's aspect. A browser sizes such a use by the symbol's aspect;
        cairosvg takes the missing width as the page's and draws the symbol that wide. Returns
        how many uses were changed.

        >>> sheet = SvgSheet(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        ...     b'<symbol id="s" viewBox="-50 -100 100 200"/><use href="#s" height="30"/></svg>')
        >>> sheet.size_symbol_uses(), sheet.root[1].get("width")
        (1, '15')
        """
        changed = 0
        for elem in self.root.iter():
            if _local(elem.tag) != "use" or elem.get("width") is not None or elem.get("height") is None:
                continue
            ref = next((v[1:] for k, v in elem.attrib.items() if k in HREF_ATTRS and v.startswith("#")), None)
            symbol = self.by_id.get(ref) if ref else None
            height = _length_px(elem.get("height"))
            if symbol is None or _local(symbol.tag) != "symbol" or not symbol.get("viewBox") or height is None:
                continue
            box = _view_box(symbol.get("viewBox"))
            if box.w <= 0 or box.h <= 0:
                continue
            elem.set("width", f"{height * box.w / box.h:g}")
            changed += 1
        return changed

    def _ancestors(self, elem: ET.Element) -> list[ET.Element]:
        """Ancestors of ``elem`` from the root's child down to its parent."""
        chain = []
        node = self.parent.get(elem)
        while node is not None and node is not self.root:
            chain.append(node)
            node = self.parent.get(node)
        return chain[::-1]

    def _references(self, elem: ET.Element) -> set[str]:
        refs = set()
        for node in elem.iter():
            for name, value in node.attrib.items():
                if name in HREF_ATTRS:
                    if value.startswith("#"):
                        refs.add(value[1:])
                elif "url(" in value:
                    refs.update(_URL_REF.findall(value))
        return refs

    def _closure(self, target: ET.Element) -> list[ET.Element]:
        """Elements referenced from ``target``, transitively, that are not inside it."""
        inside = set(target.iter())
        seen: set[str] = set()
        todo = list(self._references(target))
        found: list[ET.Element] = []
        while todo:
            ref = todo.pop()
            if ref in seen or ref not in self.by_id:
                continue
            seen.add(ref)
            elem = self.by_id[ref]
            if elem in inside:
                continue
            found.append(elem)
            todo.extend(self._references(elem))
        # Keep only the outermost of nested references so that no id is copied twice.
        chosen = set(found)
        return [e for e in found if not any(a in chosen for a in self._ancestors(e))]

    def element_document(self, element_id: str) -> ET.Element:
        """A stand-alone <svg> root that draws only ``element_id``, at its place on the page."""
        target = self.by_id[element_id]
        root = ET.Element(self.root.tag, {k: v for k, v in self.root.attrib.items() if k != "id"})
        for style in self.styles:
            root.append(copy.deepcopy(style))
        defs = ET.SubElement(root, f"{{{SVG_NS}}}defs")
        for elem in self._closure(target):
            defs.append(copy.deepcopy(elem))
        chain = self._ancestors(target)
        if any(_local(a.tag) in _NON_RENDERED for a in chain):
            # Defined, not drawn: draw it with a <use> (its own transform still applies).
            defs.append(copy.deepcopy(target))
            ET.SubElement(root, f"{{{SVG_NS}}}use", {f"{{{XLINK_NS}}}href": f"#{element_id}"})
            return root
        parent = root
        for ancestor in chain:
            attrs = {k: v for k, v in ancestor.attrib.items() if k != "id"}
            parent = ET.SubElement(parent, ancestor.tag, attrs)
        shown = copy.deepcopy(target)
        if "display" in shown.get("style", "") or shown.get("display") == "none":
            shown.set("style", re.sub(r"display\s*:\s*none", "display:inline", shown.get("style", "")))
            shown.attrib.pop("display", None)
        parent.append(shown)
        return root


def render_region(document: ET.Element, region: Box, width: int, height: int) -> np.ndarray:
    """Render ``region`` (user units) of ``document`` to an RGBA uint8 array of the given size."""
    doc = copy.copy(document)
    doc.attrib = dict(document.attrib)
    doc.set("viewBox", f"{region.x!r} {region.y!r} {region.w!r} {region.h!r}")
    doc.set("width", str(width))
    doc.set("height", str(height))
    doc.set("preserveAspectRatio", "none")
    tree = cairosvg.parser.Tree(bytestring=ET.tostring(doc))
    # Draw straight into a cairo image (no PNG round trip): premultiplied BGRA, rows padded to the stride.
    surface = cairosvg.surface.PNGSurface(tree, None, 96, output_width=width, output_height=height)
    image = surface.cairo
    image.flush()
    stride = image.get_stride()
    bgra = np.frombuffer(image.get_data(), np.uint8).reshape(image.get_height(), stride // 4, 4)
    bgra = bgra[:height, :width].astype(np.float32)
    surface.finish()
    alpha = bgra[..., 3:4]
    rgb = np.where(alpha > 0, bgra[..., 2::-1] * 255.0 / np.maximum(alpha, 1.0), 0.0)
    return np.concatenate([np.clip(rgb + 0.5, 0, 255), alpha], axis=-1).astype(np.uint8)


def locate(document: ET.Element, page: Box, coarse_px: int = 480) -> Box | None:
    """Roughly where ``document`` draws (user units), from a small render of the page.

    The page is grown whenever the drawing touches its edge: some sheets put cards outside it.
    The answer is good to about one coarse pixel; see :func:`render_cropped` for the exact box.
    """
    region = page
    for _ in range(4):
        scale = coarse_px / max(region.w, region.h)
        w, h = max(1, round(region.w * scale)), max(1, round(region.h * scale))
        found = alpha_bbox(render_region(document, region, w, h)[..., 3], threshold=0)
        if found is None:
            return None
        x1, y1, x2, y2 = found
        if x1 > 0 and y1 > 0 and x2 < w and y2 < h:
            return Box(region.x + x1 / scale, region.y + y1 / scale, (x2 - x1) / scale, (y2 - y1) / scale)
        region = region.grown(max(region.w, region.h) / 2)
    return None


def render_cropped(document: ET.Element, rough: Box, scale: float, margin: float) -> tuple[np.ndarray, Box]:
    """Render ``rough`` grown by ``margin`` (user units) at ``scale`` px per unit; crop to the drawing.

    Returns the cropped RGBA image and the region it covers in user units.
    """
    region = rough.grown(margin)
    w, h = max(1, round(region.w * scale)), max(1, round(region.h * scale))
    sx, sy = w / region.w, h / region.h
    image = render_region(document, region, w, h)
    found = alpha_bbox(image[..., 3])
    if found is None:
        return image[:0, :0], Box(region.x, region.y, 0.0, 0.0)
    x1, y1, x2, y2 = found
    return image[y1:y2, x1:x2], Box(region.x + x1 / sx, region.y + y1 / sy, (x2 - x1) / sx, (y2 - y1) / sy)
