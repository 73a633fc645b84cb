"""An index classifier of crops turned upright first (``ginsight train --cls-upright``) beside
one of crops at any turn, on the same validation crops (a ``ginsight dataset`` or
``datasets.mix`` crops folder whose crops record their way up): crop top-1 of

- the plain classifier reading each crop as cut, at one turn and at four (what the reader does);
- the upright one reading each crop turned upright by its true way (what its training log
  reports) and by the way the way-up reader reads it (what the reader does).

"No index" crops are counted too (their way, where a file records none, drawn at random, as
training draws it). Synthetic data only; nothing here is chosen on ``../shared/real-dev``.

    python benchmarks/upright_classifier.py --plain models/weights --upright runs/cand-up43 \\
        --data data/mix41/crops [--limit 20000] [--json OUT]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import report  # noqa: E402
from models.classifier import load_crops  # noqa: E402
from vision.crops import degrees_apart, turn_upright  # noqa: E402
from vision.onnx import IndexClassifier, WayUpReader  # noqa: E402


def top1(net: IndexClassifier, crops: np.ndarray, y: np.ndarray, turns: int = 1, batch: int = 2048) -> float:
    right = sum(int((net(crops[i:i + batch], turns=turns).argmax(1) == y[i:i + batch]).sum())
                for i in range(0, len(y), batch))
    return right / max(len(y), 1)


def compare(plain: Path, upright: Path, data: Path, limit: int = 0, seed: int = 0) -> dict:
    x, y, up = load_crops(data, "val", way_up=True, unknown_up=np.random.default_rng(0))
    if limit and limit < len(y):
        pick = np.sort(np.random.default_rng(seed).choice(len(y), limit, replace=False))
        x, y, up = x[pick], y[pick], up[pick]
    a = IndexClassifier(plain / "classifier.onnx")
    b = IndexClassifier(upright / "classifier.onnx")
    if a.upright or not b.upright:
        raise SystemExit(f"--plain must read crops at any turn and --upright crops turned upright "
                         f"({plain}: upright {a.upright}; {upright}: upright {b.upright})")
    way_up = WayUpReader(upright / "way_up.onnx")
    read = np.concatenate([way_up.degrees(x[i:i + 2048]) for i in range(0, len(y), 2048)])
    cards = y < 52
    err = degrees_apart(read[cards], up[cards])
    return {
        "data": str(data), "crops": len(y), "cards": int(cards.sum()),
        "plain": {"weights": str(plain), "one_turn": round(top1(a, x, y), 4), "four_turns": round(top1(a, x, y, 4), 4)},
        "upright": {"weights": str(upright), "true_way": round(top1(b, turn_upright(x, up), y), 4),
                    "way_up_reader": round(top1(b, turn_upright(x, read), y), 4)},
        "way_up_error_deg": {"median": round(float(np.median(err)), 2),
                             "off_45": round(float((err > 45).mean()), 4)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plain", type=Path, default=ROOT / "models" / "weights")
    parser.add_argument("--upright", type=Path, required=True, help="a weights folder with an upright classifier")
    parser.add_argument("--data", type=Path, required=True, help="a crops folder (val-*.npz)")
    parser.add_argument("--limit", type=int, default=0, help="at most this many crops, drawn at random (0: all)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = compare(args.plain, args.upright, args.data, args.limit)
    report(result, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
