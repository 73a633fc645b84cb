"""Diagnosis only: how the classifier reads the clubs and spades of labelled photos when the
crops are changed at reading time (colour removed, surroundings painted over, margins, blur,
sharpening, tone, binarised, the photo's aspect restored, a smaller index).

It reads a YOLO-labelled folder's own boxes (not the detector's), so that only the classifier
is measured. Nothing here trains or chooses anything: on ``../shared/real-dev`` it is a way to
see *why* a confusion happens, to be fixed in the synthetic data and judged on synthetic data.

    python benchmarks/suit_probe.py --data ../shared/real-dev --group webcam_WIN [--weights DIR] \\
        [--json OUT.json] [--occlusion OUT.png]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.compare_weights import swapped  # noqa: E402
from engine.cards import CODES  # noqa: E402
from vision.crops import crop_square, to_grey  # noqa: E402
from vision.evaluate import load_truth  # noqa: E402
from vision.reader import Reader  # noqa: E402

SPADES, CLUBS = 0, 3  # suit = class // 13


def black_indices(data: Path, group: str | None) -> list[tuple[Path, tuple, int]]:
    """(photo, box, class) of every labelled spade or club index, in group ``group`` (all when None)."""
    out = []
    for truth in load_truth(data):
        if group and truth.group != group:
            continue
        for code, box in truth.boxes:
            if code[1] in "SC":
                out.append((truth.image, tuple(box), CODES.index(code)))
    return out


def painted_around(img: np.ndarray, box: tuple) -> np.ndarray:
    """The photo with everything outside ``box`` painted the colour of the index's paper."""
    h, w = img.shape[:2]
    x1, y1 = max(round(box[0]), 0), max(round(box[1]), 0)
    x2, y2 = min(round(box[2]), w), min(round(box[3]), h)
    inside = img[y1:y2, x1:x2]
    out = np.empty_like(img)
    out[:] = np.percentile(inside.reshape(-1, 3), 90, axis=0).astype(np.uint8)
    out[y1:y2, x1:x2] = inside
    return out


def variants(side: int) -> dict:
    """name -> f(photo, box) -> crop."""

    def scaled(fx: float, fy: float):
        def f(img, b):
            interp = cv2.INTER_AREA if fx * fy < 1 else cv2.INTER_CUBIC
            small = cv2.resize(img, None, fx=fx, fy=fy, interpolation=interp)
            return crop_square(small, (b[0] * fx, b[1] * fy, b[2] * fx, b[3] * fy), side)
        return f

    def grey(img, b):
        return np.repeat(to_grey(crop_square(img, b, side)[None])[0][..., None], 3, axis=2)

    def binarised(img, b):
        g = cv2.cvtColor(crop_square(img, b, side), cv2.COLOR_BGR2GRAY)
        t = (g.astype(np.float32) > (np.percentile(g, 5) + np.percentile(g, 95)) / 2) * 230 + 10
        return np.repeat(t.astype(np.uint8)[..., None], 3, axis=2)

    def tone(gamma: float):
        return lambda img, b: (255 * (crop_square(img, b, side) / 255.0) ** gamma).astype(np.uint8)

    out = {"as read": lambda img, b: crop_square(img, b, side), "grey": grey,
           "painted around the box": lambda img, b: crop_square(painted_around(img, b), b, side)}
    for m in (0.9, 1.0, 1.3):
        out[f"margin {m}"] = lambda img, b, m=m: crop_square(img, b, side, margin=m)
    out["blurred (sigma 1.5)"] = lambda img, b: crop_square(cv2.GaussianBlur(img, (0, 0), 1.5), b, side)
    out["sharpened"] = lambda img, b: crop_square(
        cv2.addWeighted(img, 1.8, cv2.GaussianBlur(img, (0, 0), 2), -0.8, 0), b, side)
    out["median 3 (salt and pepper off)"] = lambda img, b: crop_square(cv2.medianBlur(img, 3), b, side)
    out["gamma 2"], out["gamma 0.5"] = tone(2.0), tone(0.5)
    out["binarised"] = binarised
    out["width x 1/0.5625 (16:9 restored)"] = scaled(1 / 0.5625, 1.0)
    out["width x 0.5625 (squeezed)"] = scaled(0.5625, 1.0)
    out["halved"] = scaled(0.5, 0.5)
    out["quartered"] = scaled(0.25, 0.25)
    return out


def probe(reader: Reader, items: list, photos: dict) -> dict:
    y = np.array([k for *_, k in items])
    clubs = y // 13 == CLUBS
    rows = {}
    for name, f in variants(reader.classifier.size).items():
        x = np.stack([f(photos[p], b) for p, b, _ in items])
        probs = reader.classifier(x, turns=reader.settings.cls_turns)
        read = probs.argmax(1)
        rows[name] = {
            "clubs_right": float((read[clubs] == y[clubs]).mean()) if clubs.any() else None,
            "clubs_read_as_spades": swapped(read, y, CLUBS, SPADES),
            "spades_right": float((read[~clubs] == y[~clubs]).mean()) if (~clubs).any() else None,
        }
    return {"clubs": int(clubs.sum()), "spades": int((~clubs).sum()), "variants": rows}


def occlusion_sheet(reader: Reader, items: list, photos: dict, n: int = 12, scale: int = 4) -> np.ndarray:
    """A picture of where the classifier finds its suit in the first ``n`` crops: each crop
    beside itself tinted red where hiding a patch (8 px, the crop's median colour) raises the
    probability of the index's true suit, green where it lowers it (full tint at 0.5)."""
    side = reader.classifier.size
    tiles = []
    for path, box, y in items[:n]:
        crop = crop_square(photos[path], box, side)
        suit = slice(y // 13 * 13, y // 13 * 13 + 13)
        base = reader.classifier(crop[None], turns=reader.settings.cls_turns)[0][suit].sum()
        fill = np.median(crop.reshape(-1, 3), axis=0)
        step = max(side // 8, 1)
        hidden, spots = [], []
        for yy in range(0, side, step):
            for xx in range(0, side, step):
                m = crop.copy()
                m[max(yy - step, 0):yy + 2 * step, max(xx - step, 0):xx + 2 * step] = fill
                hidden.append(m)
                spots.append((yy, xx))
        p = reader.classifier(np.stack(hidden), turns=reader.settings.cls_turns)[:, suit].sum(1)
        heat = np.zeros((side, side), np.float32)
        for (yy, xx), v in zip(spots, p - base, strict=True):
            heat[yy:yy + step, xx:xx + step] = v
        h = np.clip(heat / 0.5, -1, 1)
        tint = np.zeros((side, side, 3), np.uint8)
        tint[..., 2] = (np.maximum(h, 0) * 255).astype(np.uint8)
        tint[..., 1] = (np.maximum(-h, 0) * 255).astype(np.uint8)
        big = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
        tile = np.hstack([big, cv2.addWeighted(big, 0.5, cv2.resize(tint, big.shape[1::-1],
                                                                   interpolation=cv2.INTER_NEAREST), 0.8, 0)])
        cv2.putText(tile, f"{CODES[y]} p={base:.2f}", (2, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 255), 1)
        tiles.append(tile)
    rows = [np.hstack(tiles[i:i + 4] + [np.zeros_like(tiles[0])] * (4 - len(tiles[i:i + 4])))
            for i in range(0, len(tiles), 4)]
    return np.vstack(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, type=Path, help="a YOLO-labelled folder (images/, labels/)")
    parser.add_argument("--group", help="only this group's photos (e.g. webcam_WIN)")
    parser.add_argument("--weights", type=Path, help="a weights folder (default: the shipped one)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--occlusion", type=Path, metavar="PNG",
                        help="also draw where the classifier finds the suit of the first 12 club indices")
    args = parser.parse_args()
    items = black_indices(args.data, args.group)
    if not items:
        raise SystemExit(f"no labelled spade or club indices under {args.data} (group {args.group})")
    photos = {p: cv2.imread(str(p)) for p in {p for p, _, _ in items}}
    reader = Reader(args.weights)
    result = probe(reader, items, photos)
    print(f"{result['clubs']} club and {result['spades']} spade indices")
    print("| crops | clubs right | clubs read as spades | spades right |\n|---|---|---|---|")
    for name, r in result["variants"].items():
        print(f"| {name} | {r['clubs_right']:.2f} | {r['clubs_read_as_spades']:.2f} | {r['spades_right']:.2f} |")
    if args.json:
        args.json.write_text(json.dumps({"data": str(args.data), "group": args.group, **result}, indent=2))
    if args.occlusion:
        clubs = [it for it in items if it[2] // 13 == CLUBS]
        cv2.imwrite(str(args.occlusion), occlusion_sheet(reader, clubs, photos))


if __name__ == "__main__":
    main()
