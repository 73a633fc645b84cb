"""The way-up reader on the photos' own index crops (``ginsight dataset``'s validation crop
shards, which record each index's way up since session 24): the median and 90th-percentile
error in degrees, the share more than 10, 20 and 45 degrees off, for all indices and the black
ones; and, for a folder whose suit reader reads upright crops, its accuracy on the black
indices turned upright by the true way up and by the way the way-up reader reads, the cost
of the way-up reader's errors to the suit (the 48-px crops are resized for the way-up reader;
the reader gives it its 32-px crops of the same boxes).

Synthetic data only; nothing here is chosen on ``../shared/real-dev``.

    python benchmarks/way_up_scenes.py --a models/weights [--b OTHER] --data data/synth4-48/crops \\
        [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from datasets.index_crops import NO_INDEX  # noqa: E402
from engine.cards import CODES  # noqa: E402
from models.classifier import load_crops  # noqa: E402
from vision.crops import degrees_apart, turn_upright  # noqa: E402
from vision.onnx import IndexClassifier, WayUpReader  # noqa: E402


def summary(err: np.ndarray) -> dict:
    if len(err) == 0:
        return {"indices": 0}
    return {"indices": len(err), "median_deg": round(float(np.median(err)), 2),
            "p90_deg": round(float(np.percentile(err, 90)), 2),
            **{f"off_{d}": round(float((err > d).mean()), 4) for d in (10, 20, 45)}}


def batched(fn, *arrays: np.ndarray, size: int = 1024) -> np.ndarray:
    """``fn`` on ``size`` rows of each array at a time, the outputs joined."""
    n = len(arrays[0])
    return np.concatenate([fn(*(a[i:i + size] for a in arrays)) for i in range(0, n, size)]) if n else np.zeros((0,))


def measure(folder: Path, data: Path) -> dict:
    x, y, up = load_crops(data, "val", way_up=True)
    keep = y != NO_INDEX  # the crops between indices face no way
    x, y, up = x[keep], y[keep], up[keep]
    net = WayUpReader(folder / "way_up.onnx")
    read = batched(net.degrees, x)
    err = degrees_apart(read, up)
    black = np.array([CODES[k][-1] in "SC" for k in y])
    out = {"all": summary(err), "black": summary(err[black])}
    suit_path = folder / "suit.onnx"
    if suit_path.exists():
        suit = IndexClassifier(suit_path)
        if suit.upright and black.any():
            xb, truth = x[black], np.array([0 if CODES[k][-1] == "S" else 1 for k in y[black]])
            if xb.shape[1] != suit.size:
                raise SystemExit(f"{data}: {xb.shape[1]}-px crops; the suit reader reads {suit.size} px")
            for name, angle in (("suit_right_true_way", up[black]), ("suit_right_read_way", read[black])):
                p = batched(lambda crops, ways: suit(turn_upright(crops, ways), turns=1), xb, angle)
                out[name] = round(float((p.argmax(1) == truth).mean()), 4)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", type=Path, default=ROOT / "models" / "weights")
    parser.add_argument("--b", type=Path)
    parser.add_argument("--data", type=Path, action="append", required=True,
                        help="a crops folder that records its indices' way up (e.g. data/synth4-48/crops)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    folders = {"a": args.a, **({"b": args.b} if args.b else {})}
    figures = {str(d): {k: measure(f, d) for k, f in folders.items()} for d in args.data}
    print(" ".join(f"{k} = {f}" for k, f in folders.items()))
    print("| data | indices | figure | " + " | ".join(folders) + " |")
    print("|---|---|---|" + "---|" * len(folders))
    for d, by in figures.items():
        for part in ("all", "black"):
            for k in ("median_deg", "p90_deg", "off_10", "off_20", "off_45"):
                print(f"| {d} | {part} ({by['a'][part]['indices']}) | {k} | "
                      + " | ".join(str(by[f][part].get(k)) for f in folders) + " |")
        for k in ("suit_right_true_way", "suit_right_read_way"):
            if k in by["a"]:
                print(f"| {d} | black | {k} | " + " | ".join(str(by[f].get(k)) for f in folders) + " |")
    if args.json:
        args.json.write_text(json.dumps({k: str(f) for k, f in folders.items()} | {"figures": figures}, indent=2))


if __name__ == "__main__":
    main()
