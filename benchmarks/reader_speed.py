"""Two weights folders' reading time side by side, on the same photos in one run (the machine
is noisy: compare the ratio within a run, not milliseconds across runs).

Each photo is read by A then B, then B then A, alternately, after a warm-up; the medians of
milliseconds per photo (``Reading.ms``: decoding, both networks, grouping) and the ratio B / A.
Timing only: any photos will do, real-dev's included (their cards are not looked at).
``--empty`` times photos with no card instead: procedural table and room backgrounds
(datasets.backgrounds, from a seed), what a reader costs where nothing is in view; the cards
each reads there (false alarms) are counted too.

    python benchmarks/reader_speed.py --a models/weights --b /tmp/new-weights \\
        (--photos ../shared/real-dev/images | --empty) [--n 100] [--json OUT]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import machine, report  # noqa: E402
from vision.image import image_files, load_image  # noqa: E402
from vision.reader import Reader  # noqa: E402


def packages() -> dict[str, str]:
    """The versions of the packages the reader's time hangs on (a fresh set-up may bring newer ones)."""
    import cv2
    import numpy as np
    import onnxruntime as ort

    return {"onnxruntime": ort.__version__, "opencv": cv2.__version__, "numpy": np.__version__}


def photos_in(folder: Path, n: int) -> list[Path]:
    found = image_files(folder)
    if not found:
        raise SystemExit(f"no photos under {folder}")
    return found[:n]


def read_side_by_side(a: Reader, b: Reader, images: list, warmup: int = 3) -> tuple[list, list]:
    """Each image read by A then B, then B then A, alternately, after a warm-up on the first
    ``warmup``: both readers' readings (each with its ``ms``), in the images' order."""
    for img in images[:warmup]:
        a.read(img)
        b.read(img)
    got_a, got_b = [], []
    for i, img in enumerate(images):
        first, second = ((a, got_a), (b, got_b)) if i % 2 == 0 else ((b, got_b), (a, got_a))
        for reader, out in (first, second):
            out.append(reader.read(img))
    return got_a, got_b


def time_side_by_side(a: Reader, b: Reader, images: list, warmup: int = 3) -> tuple[list[float], list[float]]:
    """:func:`read_side_by_side`'s milliseconds per image, A's and B's."""
    got_a, got_b = read_side_by_side(a, b, images, warmup)
    return [r.ms for r in got_a], [r.ms for r in got_b]


def empty_photos(n: int, size: int = 640, seed: int = 0) -> list:
    """``n`` photos of no card: procedural backgrounds (tables, rooms), the same for a seed."""
    import numpy as np

    from datasets.backgrounds import Backgrounds

    rng = np.random.default_rng(seed)
    return [Backgrounds().sample(rng, size).clip(0, 255).astype(np.uint8) for _ in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, type=Path, help="a weights folder")
    parser.add_argument("--b", required=True, type=Path, help="another weights folder")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--photos", type=Path, help="a folder of photos (searched recursively)")
    where.add_argument("--empty", action="store_true", help="photos of no card (procedural backgrounds)")
    parser.add_argument("--n", type=int, default=100, help="photos to read (default 100)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()

    # decoded once: the networks are what is compared
    images = empty_photos(args.n) if args.empty else [load_image(p) for p in photos_in(args.photos, args.n)]
    a, b = Reader(args.a), Reader(args.b)
    got_a, got_b = read_side_by_side(a, b, images)
    ms_a, ms_b = [r.ms for r in got_a], [r.ms for r in got_b]
    med_a, med_b = statistics.median(ms_a), statistics.median(ms_b)
    sizes = sorted({f"{img.shape[1]}x{img.shape[0]}" for img in images})
    out = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(),
           "packages": packages(), "photos": len(images), "sizes": sizes[:5], "a": str(args.a), "b": str(args.b),
           "crop_side": {"a": a.classifier.size, "b": b.classifier.size},
           "median_ms": {"a": round(med_a, 1), "b": round(med_b, 1)}, "ratio_b_over_a": round(med_b / med_a, 3),
           "ratio_of_totals_b_over_a": round(sum(ms_b) / sum(ms_a), 3), "photos_of": "no card" if args.empty
           else str(args.photos)}
    if args.empty:
        out["cards_read_where_none_is"] = {"a": sum(len(r.cards) for r in got_a),
                                           "b": sum(len(r.cards) for r in got_b)}
    report(out, args.json)


if __name__ == "__main__":
    main()
