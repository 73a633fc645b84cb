"""Two readers' reading time side by side, on the same photos in one run (the machine is noisy:
compare the ratio within a run, not milliseconds across runs).

A reader is a weights folder read by a source tree: this checkout's by default, or with
``--code-a`` / ``--code-b`` another checkout (``git worktree add /tmp/old v0.1.0``), so that a
change to the code is timed against the code before it. Each reader runs in a process of its
own; each photo is read by A then B, then B then A, alternately, after a warm-up; the medians
of milliseconds per photo (``Reading.ms``: decoding, every network, grouping) and the ratio
B / A. Timing only: any photos will do, real-dev's included (their cards are not looked at).

    python benchmarks/reader_speed.py --photos ../shared/real-dev/images [--n 100] \\
        [--a models/weights] [--b /tmp/new-weights] [--code-a /tmp/old] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import machine, report  # noqa: E402
from vision.image import image_files  # noqa: E402

# A reader process: a photo's path a line in, its reading's milliseconds and card codes a line out.
WORKER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from vision.reader import Reader
reader = Reader(sys.argv[2])
print("ready", flush=True)
for line in sys.stdin:
    r = reader.read(line.strip())
    print(json.dumps({"ms": r.ms, "cards": r.codes()}), flush=True)
"""


class ReaderProcess:
    """A reader in a process of its own, reading the code of ``code`` (a source tree)."""

    def __init__(self, code: Path, weights: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(code), str(weights)], cwd=code,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.proc.stdout.readline().strip() != "ready":
            raise SystemExit(f"the reader of {code} with {weights} did not start")

    def read(self, photo: Path) -> dict:
        self.proc.stdin.write(f"{photo}\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def packages() -> dict[str, str]:
    """The versions of the packages the reader's time hangs on."""
    import cv2
    import numpy as np
    import onnxruntime as ort

    return {"onnxruntime": ort.__version__, "opencv": cv2.__version__, "numpy": np.__version__}


def side_by_side(a: ReaderProcess, b: ReaderProcess, photos: list[Path], warmup: int = 3) -> tuple[list, list]:
    """Each photo read by A then B, then B then A, alternately, after a warm-up on the first
    ``warmup``: both readers' answers, in the photos' order."""
    for p in photos[:warmup]:
        a.read(p)
        b.read(p)
    got_a: list[dict] = []
    got_b: list[dict] = []
    for i, p in enumerate(photos):
        pair = ((a, got_a), (b, got_b)) if i % 2 == 0 else ((b, got_b), (a, got_a))
        for reader, out in pair:
            out.append(reader.read(p))
    return got_a, got_b


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, required=True, help="a folder of photos (searched recursively)")
    parser.add_argument("--a", type=Path, default=ROOT / "models" / "weights", help="a weights folder")
    parser.add_argument("--b", type=Path, default=ROOT / "models" / "weights", help="another weights folder")
    parser.add_argument("--code-a", type=Path, default=ROOT, help="the source tree reader A runs (default: this one)")
    parser.add_argument("--code-b", type=Path, default=ROOT, help="the source tree reader B runs (default: this one)")
    parser.add_argument("--n", type=int, default=100, help="photos to read (default 100)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    photos = [p.resolve() for p in image_files(args.photos)[:args.n]]
    if not photos:
        raise SystemExit(f"no photos under {args.photos}")
    a = ReaderProcess(args.code_a.resolve(), args.a.resolve())
    b = ReaderProcess(args.code_b.resolve(), args.b.resolve())
    try:
        got_a, got_b = side_by_side(a, b, photos)
    finally:
        a.close()
        b.close()
    ms_a, ms_b = [r["ms"] for r in got_a], [r["ms"] for r in got_b]
    med_a, med_b = statistics.median(ms_a), statistics.median(ms_b)
    report({"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(), "packages": packages(),
            "photos": len(photos), "photos_of": str(args.photos),
            "a": {"weights": str(args.a), "code": str(args.code_a)},
            "b": {"weights": str(args.b), "code": str(args.code_b)},
            "median_ms": {"a": round(med_a, 1), "b": round(med_b, 1)}, "ratio_b_over_a": round(med_b / med_a, 3),
            "ratio_of_totals_b_over_a": round(sum(ms_b) / sum(ms_a), 3),
            "photos_read_alike": sum(x["cards"] == y["cards"] for x, y in zip(got_a, got_b, strict=True))},
           args.json)


if __name__ == "__main__":
    main()
