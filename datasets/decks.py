"""Playing-card deck artwork for the synthetic-photo generator: faces and corner-index boxes.

Real decks come from free-software packages (fetched into a cache, never installed; see
``datasets/SOURCES.md``), rendered from SVG with cairosvg; their index boxes are found on the
rendered faces and checked across the deck (:mod:`datasets.corner_index`). Procedural decks are
drawn with PIL (:mod:`datasets.procedural_deck`) and know their boxes exactly.

>>> deck = procedural_deck(3, height=160)
>>> len(deck.faces), deck.faces["QH"].shape[0], len(deck.index_boxes["QH"])
(52, 160, 2)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from datasets.corner_index import deck_index_boxes, rescale_deck_boxes
from datasets.deck_sources import DECK_SPECS, PACKAGES, fetch_package, package_dir, package_info
from datasets.jokers import corner_boxes, median_slots, procedural_jokers
from datasets.procedural_deck import procedural_faces
from engine.cards import CODES as CARD_CODES

IndexBox = tuple[int, int, int, int]
PROCEDURAL_PREFIX = "procedural-"
PROCEDURAL_LISTED = 8  # procedural decks that available_decks() names; any seed loads
HELD_OUT_SEEDS = frozenset(range(100, 112)) | frozenset(range(200, 320))  # benchmarks' unseen decks
JOKER_FORMAT = 1  # bump when the jokers' rendering or corner boxes change
RENDER_FORMAT = 2  # bump when rendering or box finding changes, to invalidate cached renders
REFERENCE_HEIGHT = 320  # index boxes of real decks are found at this face height, then scaled


def seed_range(text: str) -> list[int]:
    """Procedural deck seeds from the command line: "1000-1599" -> [1000, ..., 1599]; "5" -> [5]."""
    lo, _, hi = text.partition("-")
    try:
        first, last = int(lo), int(hi or lo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed or a range of seeds like 0-23") from None
    if last < first:
        raise argparse.ArgumentTypeError(f"{text!r}: the range runs backwards")
    return list(range(first, last + 1))


@dataclass
class Deck:
    """One deck's 52 faces and the boxes of their corner indices.

    ``faces`` maps a card code ("TS", "QH", "AC") to an RGBA uint8 image, alpha 0 outside the
    card's outline; all faces are the same size. ``index_boxes`` maps a code to one box per
    corner index, (x1, y1, x2, y2) in the face's pixels, x2 and y2 exclusive (so the box's width
    is x2 - x1): the top-left index first, then the bottom-right one (turned by 180°), then, on
    decks with four indices, the top-right and the bottom-left one. A box holds the rank glyph(s)
    and the small suit pip under them, nothing else.
    """

    name: str
    source: str
    licence: str
    faces: dict[str, np.ndarray]
    index_boxes: dict[str, list[IndexBox]]
    # The deck's jokers (``datasets.jokers``), RGBA faces of the cards' size by name
    # ("joker_black", "joker_red"; none for a design without them), and per joker the boxes of
    # its corner marks, where an index would be: to be read as "no index", never as a card.
    jokers: dict[str, np.ndarray] = field(default_factory=dict)
    joker_boxes: dict[str, list[IndexBox]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if sorted(self.faces) != sorted(CARD_CODES) or sorted(self.index_boxes) != sorted(CARD_CODES):
            raise ValueError(f"deck {self.name!r} must have exactly the 52 cards")
        shapes = {face.shape for face in self.faces.values()}
        if len(shapes) != 1 or len(next(iter(shapes))) != 3 or next(iter(shapes))[2] != 4:
            raise ValueError(f"deck {self.name!r}: faces must be RGBA images of one size, not {shapes}")
        h, w = next(iter(shapes))[:2]
        for code, boxes in self.index_boxes.items():
            for x1, y1, x2, y2 in boxes:
                if not (0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h):
                    raise ValueError(f"deck {self.name!r}: {code} box {(x1, y1, x2, y2)} is not inside the face")
        for name, joker in self.jokers.items():
            if joker.shape != (h, w, 4) or not self.joker_boxes.get(name):
                raise ValueError(f"deck {self.name!r}: joker {name!r} must be an RGBA face of the cards' size, "
                                 "with its corner boxes")

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the faces."""
        h, w = next(iter(self.faces.values())).shape[:2]
        return w, h

    def __repr__(self) -> str:
        w, h = self.size
        return f"<Deck {self.name!r} {w}x{h} from {self.source!r} ({self.licence})>"


def default_cache_dir() -> Path:
    """Where fetched and rendered decks live: ``$GINSIGHT_CACHE/decks`` or ``~/.cache/ginsight/decks``."""
    root = os.environ.get("GINSIGHT_CACHE")
    return (Path(root) if root else Path.home() / ".cache" / "ginsight") / "decks"


def fetch_decks(cache_dir: Path | None = None, quiet: bool = True) -> list[str]:
    """Download and unpack the packages with deck artwork into the cache; skip those already there.

    A package that cannot be fetched (registry unreachable, no apt) is reported (unless ``quiet``)
    and skipped. Returns the names of the decks now available.
    """
    cache_dir = cache_dir or default_cache_dir()
    for package in PACKAGES:
        try:
            fetch_package(cache_dir, package, quiet=quiet)
        except (OSError, RuntimeError) as error:
            if not quiet:
                print(f"could not fetch {package}: {error}")
    return available_decks(cache_dir)


def fetched_decks(cache_dir: Path | None = None) -> list[str]:
    """Names of the real decks whose artwork has been fetched (:func:`fetch_decks`)."""
    cache_dir = cache_dir or default_cache_dir()
    return [name for name, spec in DECK_SPECS.items() if package_info(cache_dir, spec.package) is not None]


def available_decks(cache_dir: Path | None = None) -> list[str]:
    """Names of the decks :func:`load_deck` can load: real decks whose artwork has been fetched,
    then procedural ones (``procedural-<seed>``; any seed loads, the first few are listed)."""
    return fetched_decks(cache_dir) + [f"{PROCEDURAL_PREFIX}{seed}" for seed in range(PROCEDURAL_LISTED)]


def procedural_deck(seed: int, height: int = 320) -> Deck:
    """Deck number ``seed`` of the procedurally drawn ones (the same seed gives the same deck)."""
    faces, boxes = procedural_faces(seed, height)
    slots = median_slots(boxes)
    jokers = procedural_jokers(seed, faces["2C"], slots, height)
    joker_boxes = {name: corner_boxes(face, slots) for name, face in jokers.items()}
    return Deck(f"{PROCEDURAL_PREFIX}{seed}", "ginsight datasets/procedural_deck.py", "CC0 (generated)", faces, boxes,
                jokers, joker_boxes)


def load_deck(name: str, cache_dir: Path | None = None, height: int = 320) -> Deck:
    """The deck ``name`` with faces ``height`` pixels tall.

    A real deck is rendered and its boxes found the first time, then read back from
    ``<cache>/rendered/<name>-<height>/``. Boxes are found on faces ``REFERENCE_HEIGHT`` tall (where
    every deck was checked by eye) and carried over to other heights, snapped to their ink.

    Raises:
        KeyError: no deck of that name.
        FileNotFoundError: its artwork has not been fetched (see :func:`fetch_decks`).
        datasets.deck_render.DeckRenderError: the artwork does not render into 52 same-sized faces.
        datasets.corner_index.DeckIndexError: its index boxes fail the checks at this height.
    """
    if name.startswith(PROCEDURAL_PREFIX):
        return procedural_deck(int(name.removeprefix(PROCEDURAL_PREFIX)), height)
    if name not in DECK_SPECS:
        raise KeyError(f"unknown deck {name!r}; known: {', '.join(DECK_SPECS)}")
    spec = DECK_SPECS[name]
    cache_dir = cache_dir or default_cache_dir()
    info = package_info(cache_dir, spec.package)
    if info is None:
        raise FileNotFoundError(f"{spec.package} is not in {cache_dir}; run fetch_decks() first")
    source = f"{spec.package} {info['version']} ({info['registry']})"
    rendered = cache_dir / "rendered" / f"{name}-{height}"
    cached = _read_rendered(rendered, source)
    if cached is not None:
        faces, boxes = cached
    else:
        # cairosvg only when a deck is not rendered yet: a machine given the rendered cache
        # (the GPU machine, say) writes data sets without it.
        from datasets.deck_render import render_svg_faces

        faces = render_svg_faces(spec, package_dir(cache_dir, spec.package), height)
        if height == REFERENCE_HEIGHT:
            boxes = deck_index_boxes(faces, spec.corners)
        else:
            # Boxes are found, and the decks were checked, at one height; others carry them over.
            reference = load_deck(name, cache_dir, REFERENCE_HEIGHT)
            boxes = rescale_deck_boxes(faces, reference.index_boxes, reference.size, spec.corners)
        _write_rendered(rendered, source, spec.licence, faces, boxes)
    jokers, joker_boxes = _jokers(spec, cache_dir, rendered, faces, boxes)
    return Deck(name, source, spec.licence, faces, boxes, jokers, joker_boxes)


def _jokers(spec, cache_dir: Path, rendered: Path, faces: dict[str, np.ndarray], boxes: dict[str, list[IndexBox]]
            ) -> tuple[dict[str, np.ndarray], dict[str, list[IndexBox]]]:
    """A real deck's jokers and their corner boxes: read from ``rendered/jokers.json`` and its
    PNGs, or rendered (and written there) the first time. A machine given only the rendered
    cards (no artwork, or no cairosvg: the GPU machine's bundle) gets no jokers, and the cards
    as before."""
    meta_file = rendered / "jokers.json"
    if meta_file.exists():
        meta = json.loads(meta_file.read_text())
        if meta.get("format") == JOKER_FORMAT:
            jokers = {n: np.asarray(Image.open(rendered / f"{n}.png").convert("RGBA")) for n in meta["boxes"]}
            return jokers, {n: [tuple(b) for b in bs] for n, bs in meta["boxes"].items()}  # type: ignore[misc]
    h, w = next(iter(faces.values())).shape[:2]
    try:
        from datasets.jokers import render_svg_jokers

        jokers = render_svg_jokers(spec, package_dir(cache_dir, spec.package), (w, h))
    except (ImportError, OSError):
        return {}, {}
    slots = median_slots(boxes)
    joker_boxes = {n: corner_boxes(face, slots) for n, face in jokers.items()}
    if rendered.exists():  # beside the faces; each file whole before it has its name
        for n, face in jokers.items():
            tmp = rendered / f".{n}.{os.getpid()}.png"
            Image.fromarray(face).save(tmp, format="PNG")
            tmp.replace(rendered / f"{n}.png")
        tmp = rendered / f".jokers.{os.getpid()}.json"
        tmp.write_text(json.dumps({"format": JOKER_FORMAT, "boxes": joker_boxes}) + "\n")
        tmp.replace(meta_file)
    return jokers, joker_boxes


def _read_rendered(folder: Path, source: str) -> tuple[dict[str, np.ndarray], dict[str, list[IndexBox]]] | None:
    meta_file = folder / "deck.json"
    if not meta_file.exists():
        return None
    meta = json.loads(meta_file.read_text())
    if meta.get("format") != RENDER_FORMAT or meta.get("source") != source:
        return None
    faces = {code: np.asarray(Image.open(folder / f"{code}.png").convert("RGBA")) for code in CARD_CODES}
    boxes = {code: [tuple(box) for box in meta["index_boxes"][code]] for code in CARD_CODES}
    return faces, boxes  # type: ignore[return-value]


def _write_rendered(
    folder: Path, source: str, licence: str, faces: dict[str, np.ndarray], boxes: dict[str, list[IndexBox]]
) -> None:
    """Write the faces as PNGs and the boxes as JSON, all at once: a half-written folder never
    shows, and of processes rendering the same deck at the same time the first to finish wins."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}-"))
    staging.chmod(0o755)  # mkdtemp makes it private; the cache is not
    for code, face in faces.items():
        Image.fromarray(face).save(staging / f"{code}.png")
    meta = {"format": RENDER_FORMAT, "source": source, "licence": licence, "index_boxes": boxes}
    (staging / "deck.json").write_text(json.dumps(meta, indent=1) + "\n")
    if folder.exists() and _read_rendered(folder, source) is None:
        shutil.rmtree(folder, ignore_errors=True)  # stale: another format or package version
    try:
        staging.rename(folder)
    except OSError:  # another process has just written it
        shutil.rmtree(staging, ignore_errors=True)
