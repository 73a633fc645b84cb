"""Pip crops for the pip reader (``models/pips.py``): the big suit symbols in the middle of a
number card, cut as the reader cuts the dark blobs it finds beside an index (``vision.pips``).

Why: on a table, a club's index can be too small and soft to tell from a spade's (real-dev's
webcam table photos: most of the reader's wrong cards are clubs read as spades), while the
same card's pips, three or four times the index's suit symbol, show their three round lobes
plainly. A card read as a black number card can be checked by its pips, where they show.

Each crop is one blob of ink of a deck's face (``datasets.corner_index``'s ink, the card's
face colour taken away), square, with a margin, turned any way (pips face both ways on a card,
and the card lies any way), shrunk to a webcam's few pixels and made soft, noisy and JPEG'd,
then read at ``SIDE`` pixels in colour. Labels: 0 spade, 1 club (the pips of black number
cards 2-10, and their indices' suit symbols), 2 anything else a blob beside an index can be:
a heart's or a diamond's pip, a rank's glyph, a piece of a face card's picture, the table.

    python -m datasets.pips --out data/pips32 --n 150000 --seed 3   # procedural seeds 13000-13399

writes ``pips.npz`` (``x`` uint8 (N, SIDE, SIDE, 3) BGR, ``y`` label). Seeds 100-111 and 200-319
are the benchmarks' unseen decks: keep them out.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from datasets.backgrounds import Backgrounds
from datasets.corner_index import INK_THRESHOLD, depth_from_edge, face_colour, outline_width
from datasets.decks import HELD_OUT_SEEDS, Deck, fetched_decks, load_deck, seed_range
from vision.pips import MARGIN, NUMBER_RANKS, SIDE


def face_ink(face: np.ndarray) -> np.ndarray:
    """The ink of a whole face (RGBA): pixels inside the card's outline unlike its face colour."""
    depth = depth_from_edge(face)
    outline = outline_width(face, depth)
    inner = depth > outline + 2
    rgb = face[..., :3].astype(np.float32)
    colour = face_colour(rgb[inner & (depth <= outline + 4 + 0.02 * face.shape[1])])
    return (np.linalg.norm(rgb - colour, axis=-1) > INK_THRESHOLD) & inner


def blobs_of(face: np.ndarray, index_boxes: list[tuple[int, int, int, int]], code: str
             ) -> list[tuple[tuple[int, int, int, int], int]]:
    """A face's blobs of ink and their labels: (x1, y1, x2, y2) exclusive, label in LABELS.
    A black card's index suit symbols (the lowest blob of each index) and a black number
    card's pips are its suit; its rank glyphs, and every blob of a fair size on a red card (pip,
    rank, picture), are "other". A black face card's picture is left out: its suit symbols
    would be "other" in one place and a suit in another."""
    ink = face_ink(face).astype(np.uint8)
    w = ink.shape[1]
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    rank, suit = code[0], code[1]
    black = suit in "SC"
    label = "SC".index(suit) if black else 2
    inside: dict[int, list] = {}
    out = []
    for x, y, bw, bh, area in stats[1:count]:
        side = max(bw, bh)
        if side < 0.035 * w or area < 0.2 * side * side:
            continue  # specks, thin strokes
        box = (int(x), int(y), int(x + bw), int(y + bh))
        owner = next((k for k, b in enumerate(index_boxes)
                      if x >= b[0] - 2 and y >= b[1] - 2 and x + bw <= b[2] + 2 and y + bh <= b[3] + 2), None)
        if owner is not None:
            inside.setdefault(owner, []).append(box)
        elif not black and side <= 0.3 * w:
            out.append((box, 2))
        elif black and rank in NUMBER_RANKS and side >= 0.08 * w and 0.6 <= bw / bh <= 1.6:
            out.append((box, label))
    for k, boxes in inside.items():
        # the index's corner is its own top-left or, turned, bottom-right: the suit symbol is
        # the blob farthest from the card's nearer short edge
        top = index_boxes[k][1] < face.shape[0] / 2
        boxes.sort(key=lambda b: b[3] if top else -b[1])
        *glyphs, sym = boxes
        if black and 0.6 <= (sym[2] - sym[0]) / max(1, sym[3] - sym[1]) <= 1.6:
            out.append((sym, label))
        out += [(b, 2) for b in glyphs]
        if not black:
            out.append((sym, 2))
    return out


def _sprite(face: np.ndarray, box: tuple[int, int, int, int], table: np.ndarray) -> np.ndarray:
    """The square around ``box`` (side: its longer side, margin included, and a quarter more,
    so that it can be turned), the face laid on ``table`` where the card is transparent."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1) * (1 + 2 * MARGIN) * 1.45
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    half = side / 2
    m = np.float32([[1, 0, half - cx], [0, 1, half - cy]])
    n = int(np.ceil(side))
    rgba = cv2.warpAffine(face, m, (n, n), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    a = rgba[..., 3:4].astype(np.float32) / 255
    under = cv2.resize(table, (n, n)).astype(np.float32)
    return (rgba[..., 2::-1].astype(np.float32) * a + under * (1 - a)).astype(np.uint8)  # BGR


def look(rng: np.random.Generator, sprite: np.ndarray) -> np.ndarray:
    """A sprite as the reader would cut it from a photo: turned, cut to the blob's square,
    shrunk to 8-31 pixels, soft, lit, noisy, JPEG'd, read at SIDE."""
    n = sprite.shape[0]
    angle = rng.uniform(0, 360)
    squeeze = rng.uniform(0.8, 1.0)
    m = cv2.getRotationMatrix2D((n / 2, n / 2), angle, 1.0)
    m[:, :] = np.diag([1.0, squeeze]) @ m if rng.random() < 0.5 else m
    img = cv2.warpAffine(sprite, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    keep = n / 1.45 * rng.uniform(0.9, 1.12)  # the crop's side, jittered as a blob's box is
    shift = rng.normal(0, 0.04 * keep, 2)
    x1, y1 = n / 2 - keep / 2 + shift[0], n / 2 - keep / 2 + shift[1]
    cut = cv2.warpAffine(img, np.float32([[1, 0, -x1], [0, 1, -y1]]), (int(keep), int(keep)),
                         borderMode=cv2.BORDER_REFLECT)
    small = int(rng.uniform(8, 32))
    blur = rng.uniform(0.0, 0.08) * small
    img = cv2.resize(cut, (small, small), interpolation=cv2.INTER_AREA)
    if blur > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img = img.astype(np.float32) * rng.uniform(0.45, 1.15) * rng.uniform(0.85, 1.15, 3) + rng.uniform(-20, 25)
    img += rng.normal(0, rng.uniform(0, 9), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.15:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    _, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
    img = cv2.imdecode(jpg, cv2.IMREAD_COLOR)
    return cv2.resize(img, (SIDE, SIDE), interpolation=cv2.INTER_LINEAR)


def deck_sprites(rng: np.random.Generator, deck: Deck, backgrounds: Backgrounds
                 ) -> list[tuple[np.ndarray, int]]:
    """Every labelled blob of a deck, as sprites."""
    table = backgrounds.sample(rng, 64)
    out = []
    for code, face in deck.faces.items():
        for box, label in blobs_of(face, deck.index_boxes[code], code):
            out.append((_sprite(face, box, table), label))
    return out


def _table_patch(rng: np.random.Generator, backgrounds: Backgrounds) -> np.ndarray:
    """A piece of table or room: what a dark blob beside an index can also be."""
    return backgrounds.sample(rng, int(rng.integers(24, 96)))


def _shard(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    names, n, seed = args
    rng = np.random.default_rng(seed)
    backgrounds = Backgrounds()
    sprites: list[tuple[np.ndarray, int]] = []
    for name in names:
        sprites += deck_sprites(rng, load_deck(name), backgrounds)
    by_label = [[s for s, lab in sprites if lab == k] for k in range(3)]
    x = np.zeros((n, SIDE, SIDE, 3), np.uint8)
    y = rng.integers(0, 3, n)  # balanced
    for i in range(n):
        if y[i] == 2 and (rng.random() < 0.2 or not by_label[2]):
            x[i] = look(rng, _table_patch(rng, backgrounds))
            continue
        pool = by_label[y[i]]
        x[i] = look(rng, pool[int(rng.integers(len(pool)))])
    return x, y.astype(np.int64)


def build(out: Path, n: int, seed: int, deck_names: list[str], workers: int = 2, per_shard: int = 6) -> None:
    rng = np.random.default_rng(seed)
    order = [deck_names[i] for i in rng.permutation(len(deck_names))]
    groups = [order[i:i + per_shard] for i in range(0, len(order), per_shard)]
    each = -(-n // len(groups))
    jobs = [(g, each, seed * 1000 + k) for k, g in enumerate(groups)]
    xs, ys = [], []
    with ProcessPoolExecutor(workers) as pool:
        for k, (x, y) in enumerate(pool.map(_shard, jobs)):
            xs.append(x)
            ys.append(y)
            print(f"\r{k + 1}/{len(jobs)} shards", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    out.mkdir(parents=True, exist_ok=True)
    x, y = np.concatenate(xs)[:n], np.concatenate(ys)[:n]
    np.savez_compressed(out / "pips.npz", x=x, y=y)
    print(f"{len(y)} pip crops -> {out / 'pips.npz'} ({np.bincount(y, minlength=3).tolist()} spade/club/other)")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m datasets.pips", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--n", type=int, default=120000)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--procedural-seeds", type=seed_range, default=seed_range("13000-13399"))
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    held = sorted(set(args.procedural_seeds) & HELD_OUT_SEEDS)
    if held:
        p.error(f"procedural seeds {held[0]}... are the benchmarks' unseen decks")
    real = fetched_decks()
    build(args.out, args.n, args.seed, real + [f"procedural-{s}" for s in args.procedural_seeds], args.workers)


if __name__ == "__main__":
    main()
