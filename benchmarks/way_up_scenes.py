"""The way-up reader on the photos' own index crops (``ginsight dataset``'s validation crop
shards, which record each index's way up since session 24): the median and 90th-percentile
error in degrees, the share more than 10, 20 and 45 degrees off, for all indices and the black
ones; and, for a folder whose suit reader reads upright crops, its accuracy on the black
indices turned upright by the true way up and by the way the way-up reader reads, the cost
of the way-up reader's errors to the suit (the 48-px crops are resized for the way-up reader;
the reader gives it its 32-px crops of the same boxes).

``--grey``: the crops made black and white, as a photo with no colour gives them, and the
grey-photo suit reader (``suit4.onnx``, all four suits) in place of the black one; a suit
reader of crops as they lie is measured too (``suit_right_as_lie``, at the reader's
``cls_turns``), so that the shipped grey-photo reader and an upright candidate stand side by side.

Synthetic data only; nothing here is chosen on ``../shared/real-dev``.

    python benchmarks/way_up_scenes.py --a models/weights [--b OTHER] --data data/synth4-48/crops \\
        [--grey] [--json OUT]
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
from vision.crops import degrees_apart, to_grey, turn_upright  # noqa: E402
from vision.onnx import IndexClassifier, WayUpReader  # noqa: E402
from vision.reader import Settings  # noqa: E402


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


def measure(folder: Path, data: Path, grey: bool = False) -> dict:
    x, y, up = load_crops(data, "val", way_up=True)
    keep = y != NO_INDEX  # the crops between indices face no way
    x, y, up = x[keep], y[keep], up[keep]
    if grey:  # as a photo with no colour gives them: three equal channels
        x = np.repeat(to_grey(x)[..., None], 3, axis=3)
    net = WayUpReader(folder / "way_up.onnx")
    read = batched(net.degrees, x)
    err = degrees_apart(read, up)
    black = np.array([CODES[k][-1] in "SC" for k in y])
    out = {"all": summary(err), "black": summary(err[black])}
    suits = "SHDC" if grey else "SC"
    suit_path = folder / ("suit4.onnx" if grey else "suit.onnx")
    # the grey-photo reader reads every index; the black one, the black indices
    which = np.ones(len(y), bool) if grey else black
    if suit_path.exists() and which.any():
        suit = IndexClassifier(suit_path)
        xs, truth = x[which], np.array([suits.index(CODES[k][-1]) for k in y[which]])
        if xs.shape[1] != suit.size:
            raise SystemExit(f"{data}: {xs.shape[1]}-px crops; the suit reader reads {suit.size} px")
        if suit.upright:
            for name, angle in (("suit_right_true_way", up[which]), ("suit_right_read_way", read[which])):
                p = batched(lambda crops, ways: suit(turn_upright(crops, ways), turns=1), xs, angle)
                out[name] = round(float((p.argmax(1) == truth).mean()), 4)
        else:
            p = batched(lambda crops: suit(crops, turns=Settings().cls_turns), xs)
            out["suit_right_as_lie"] = round(float((p.argmax(1) == truth).mean()), 4)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", type=Path, default=ROOT / "models" / "weights")
    parser.add_argument("--b", type=Path)
    parser.add_argument("--data", type=Path, action="append", required=True,
                        help="a crops folder that records its indices' way up (e.g. data/synth4-48/crops)")
    parser.add_argument("--grey", action="store_true",
                        help="the crops in black and white, read by the grey-photo suit reader (suit4.onnx)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    folders = {"a": args.a, **({"b": args.b} if args.b else {})}
    figures = {str(d): {k: measure(f, d, args.grey) for k, f in folders.items()} for d in args.data}
    print(" ".join(f"{k} = {f}" for k, f in folders.items()))
    print("| data | indices | figure | " + " | ".join(folders) + " |")
    print("|---|---|---|" + "---|" * len(folders))
    for d, by in figures.items():
        for part in ("all", "black"):
            for k in ("median_deg", "p90_deg", "off_10", "off_20", "off_45"):
                print(f"| {d} | {part} ({by['a'][part]['indices']}) | {k} | "
                      + " | ".join(str(by[f][part].get(k)) for f in folders) + " |")
        for k in ("suit_right_as_lie", "suit_right_true_way", "suit_right_read_way"):
            if any(k in by[f] for f in folders):
                print(f"| {d} | {'all' if args.grey else 'black'} | {k} | "
                      + " | ".join(str(by[f].get(k)) for f in folders) + " |")
    if args.json:
        head = {k: str(f) for k, f in folders.items()} | {"grey": args.grey}
        args.json.write_text(json.dumps(head | {"figures": figures}, indent=2))


if __name__ == "__main__":
    main()
