"""The reader's time with onnxruntime's worker threads spinning after each run (its default)
and not (``vision.onnx.ALLOW_SPINNING``, off since session 30), side by side on the same photos
in one run: the machine is noisy, so compare the ratio within a run. The answers are the same
either way (checked here on every photo); only the time differs.

Timing only: any photos will do, real-dev's included (their cards are not looked at).

    python benchmarks/ort_spinning.py --photos ../shared/real-dev/images [--n 100] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.onnx  # noqa: E402
from benchmarks.reader_speed import photos_in, time_side_by_side  # noqa: E402
from vision.image import load_image  # noqa: E402
from vision.reader import Reader  # noqa: E402


def reader_with(spinning: bool, weights: Path) -> Reader:
    """A reader whose onnxruntime sessions spin (or not), whatever the module's default."""
    default = vision.onnx.ALLOW_SPINNING
    vision.onnx.ALLOW_SPINNING = spinning
    try:
        return Reader(weights)
    finally:
        vision.onnx.ALLOW_SPINNING = default


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", type=Path, default=ROOT / "models" / "weights")
    parser.add_argument("--photos", required=True, type=Path, help="a folder of photos (searched recursively)")
    parser.add_argument("--n", type=int, default=100, help="photos to read (default 100)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()

    images = [load_image(p) for p in photos_in(args.photos, args.n)]
    spin, still = reader_with(True, args.weights), reader_with(False, args.weights)
    same = all(spin.read(img).codes() == still.read(img).codes() for img in images)
    ms_spin, ms_still = time_side_by_side(spin, still, images)
    med_spin, med_still = statistics.median(ms_spin), statistics.median(ms_still)
    out = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": f"{platform.machine()}, "
           f"{len(os.sched_getaffinity(0))} CPUs, Python {platform.python_version()}",
           "photos": len(images), "weights": str(args.weights), "same_cards": same,
           "median_ms": {"spinning": round(med_spin, 1), "not_spinning": round(med_still, 1)},
           "ratio_not_over_spinning": round(med_still / med_spin, 3)}
    print(json.dumps(out, indent=2))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
