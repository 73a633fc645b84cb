"""Would a brightened look help the reader with dim photos? Synthetic validation photos only
(never ../shared/real-dev): each photo is read as it is and made dim (a dark room's webcam:
light cut to a fraction, a steeper gamma, sensor noise), and each dim photo is read twice: as
the reader does now, and with one more look, when the photo reads no card, at the photo with
its contrast stretched (CLAHE on the lightness, :func:`brighten`).

Printed per data set: cards missed and read wrong, as they are, dim, and dim with the
brightened look; and how many photos took that look. The brightened look is also tried on the
photos as they are, to see what it costs them.

    python benchmarks/dim_photos.py --data data/held16 --data data/synth2 [--photos 300] [--seed 1] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.evaluate import synthetic_validation
from vision.reader import Reader, group_indices


def brighten(img: np.ndarray, clip: float = 3.0, tiles: int = 8) -> np.ndarray:
    """``img`` (BGR uint8) with its lightness's contrast stretched tile by tile (CLAHE on the
    L of Lab; colour kept): a card held up in a dark room made readable."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    clahe = cv2.createCLAHE(clipLimit=clip, tileGridSize=(tiles, tiles))
    lab[..., 0] = clahe.apply(np.ascontiguousarray(lab[..., 0]))
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def dim(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A dark room's webcam: the light cut to 25-50%, gamma 1.2-1.8, noise of sigma 3-8."""
    x = img.astype(np.float32) / 255
    x = (x ** rng.uniform(1.2, 1.8)) * rng.uniform(0.25, 0.5)
    x = x * 255 + rng.normal(0, rng.uniform(3, 8), x.shape)
    return np.clip(x, 0, 255).astype(np.uint8)


def codes_of(reader: Reader, img: np.ndarray, bright: bool) -> tuple[set[str], bool]:
    indices = reader.read_indices(img)
    cards = group_indices(indices, reader.settings)
    took = False
    if bright and not cards:
        took = True
        indices = reader.read_indices(brighten(img))
        cards = group_indices(indices, reader.settings)
    return {c.card for c in cards}, took


def measure(reader: Reader, data: Path, photos: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    looks = ("as_is", "as_is_bright", "dim", "dim_bright")
    n = {k: {"true": 0, "read": 0, "right": 0, "took": 0} for k in looks}
    truths = synthetic_validation(data, photos)
    for t in truths:
        img = cv2.imread(str(t.image))
        dark = dim(img, rng)
        for look in looks:
            codes, took = codes_of(reader, dark if look.startswith("dim") else img, look.endswith("bright"))
            c = n[look]
            c["true"] += len(t.codes)
            c["read"] += len(codes)
            c["right"] += len(codes & t.codes)
            c["took"] += int(took)
    return {k: {"photos": len(truths), "cards_true": c["true"], "cards_missed": c["true"] - c["right"],
                "cards_wrong": c["read"] - c["right"], "took_bright_look": c["took"]} for k, c in n.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, action="append", required=True)
    ap.add_argument("--photos", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--weights", type=Path, default=None)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    for d in args.data:
        if "real-dev" in str(d):
            raise SystemExit("real-dev is for validation only: decide on synthetic data")
    reader = Reader(args.weights)
    out = {}
    print("| data | look | missed / wrong (of true) | photos that took the bright look |")
    print("|---|---|---|---|")
    for d in args.data:
        f = out[str(d)] = measure(reader, d, args.photos, args.seed)
        for look, r in f.items():
            print(f"| {d} | {look} | {r['cards_missed']} / {r['cards_wrong']} (of {r['cards_true']}) | "
                  f"{r['took_bright_look']} of {r['photos']} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
