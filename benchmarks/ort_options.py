"""The reader's time with one of onnxruntime's session options on and off, side by side on the
same photos in one run (the machine is noisy, so compare the ratio within a run), and whether
every photo reads the same either way (cards, confidences, flags, boxes and aspect, from the
timed readings themselves):

- ``spinning``: worker threads spin, waiting for work, after each run (onnxruntime's default;
  off since session 30, ``vision.onnx.ALLOW_SPINNING``);
- ``denormals``: denormal floats are treated as zero (``vision.onnx.DENORMALS_AS_ZERO``,
  session 53).

Timing only: any photos will do, real-dev's included (their cards are not looked at).

    python benchmarks/ort_options.py --option spinning|denormals --photos ../shared/real-dev/images
        [--n 100] [--json OUT]

(Session 30's figures were written by this script's first form, ``ort_spinning.py``, which
measured ``spinning`` alone.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.onnx  # noqa: E402
from benchmarks.aspect_here import reading_key  # noqa: E402
from benchmarks.reader_speed import photos_in, read_side_by_side  # noqa: E402
from benchmarks.report import machine, report  # noqa: E402
from vision.image import load_image  # noqa: E402
from vision.reader import Reader  # noqa: E402

OPTIONS = {"spinning": "ALLOW_SPINNING", "denormals": "DENORMALS_AS_ZERO"}  # --option: vision.onnx's flag


def reader_with(option: str, on: bool, weights: Path) -> Reader:
    """A reader whose onnxruntime sessions have ``option`` on (or off), whatever the module's
    default; the default is left as it was."""
    flag = OPTIONS[option]
    default = getattr(vision.onnx, flag)
    setattr(vision.onnx, flag, on)
    try:
        return Reader(weights)
    finally:
        setattr(vision.onnx, flag, default)


def differing(got_a: list, got_b: list) -> list[int]:
    """The photos (by position) whose two readings differ in cards, confidences, flags, boxes
    or aspect (``aspect_here.reading_key``)."""
    return [i for i, (ra, rb) in enumerate(zip(got_a, got_b, strict=True)) if reading_key(ra) != reading_key(rb)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--option", choices=sorted(OPTIONS), required=True)
    parser.add_argument("--weights", type=Path, default=ROOT / "models" / "weights")
    parser.add_argument("--photos", required=True, type=Path, help="a folder of photos (searched recursively)")
    parser.add_argument("--n", type=int, default=100, help="photos to read (default 100)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    images = [load_image(p) for p in photos_in(args.photos, args.n)]  # none: it stops, saying so
    on, off = reader_with(args.option, True, args.weights), reader_with(args.option, False, args.weights)
    got_on, got_off = read_side_by_side(on, off, images)
    differ = differing(got_on, got_off)
    ms_on, ms_off = [r.ms for r in got_on], [r.ms for r in got_off]
    med_on, med_off = statistics.median(ms_on), statistics.median(ms_off)
    out = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(),
           "option": args.option, "flag": f"vision.onnx.{OPTIONS[args.option]}",
           "photos": len(images), "weights": str(args.weights), "photos_read_differently": differ,
           "median_ms": {"on": round(med_on, 1), "off": round(med_off, 1)},
           "ratio_on_over_off": round(med_on / med_off, 3),
           "ratio_of_totals_on_over_off": round(sum(ms_on) / sum(ms_off), 3)}
    report(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
