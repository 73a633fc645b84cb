"""The reader's array fast paths (session 59) against the code they replaced, side by side
in one run: the same numbers, in less time.

- ``vision.crops.normalise``: each crop's 2nd and 98th percentiles from one ``np.partition``
  (``vision.crops.percentiles``) instead of ``np.percentile`` over three axes.
- ``vision.onnx.to_input``: the detector's input laid out in uint8, then made float in place,
  instead of converting a strided view and dividing into a second array.
- ``vision.image.is_grey``: each pixel's channel spread from the channels' bytes, not a
  reduction over a strided int16 copy.

Each photo is read by one reader with the replaced code patched in (``slow``) and as it is
(``fast``), in turn (slow then fast, then fast then slow), after a warm-up: the readings must be
equal (every card, its confidence, boxes and flag, to the last bit) and the medians of
milliseconds per photo are compared (the machine is noisy: read the ratio, not the
milliseconds). Also each function alone, on a batch of crops and a 640x640 photo.

    python benchmarks/fast_paths.py --photos ../shared/real-dev/images [--n 200] [--json OUT]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.onnx  # noqa: E402
import vision.reader  # noqa: E402
from benchmarks.reader_speed import packages, photos_in  # noqa: E402
from benchmarks.report import machine, report  # noqa: E402
from vision.crops import normalise  # noqa: E402
from vision.image import GREY_SHARE, GREY_SPREAD, is_grey, load_image  # noqa: E402
from vision.onnx import to_input  # noqa: E402
from vision.reader import Reader  # noqa: E402


def normalise_before(patches: np.ndarray) -> np.ndarray:
    """``vision.crops.normalise`` as it was up to session 58, word for word."""
    x = patches.astype(np.float32)
    if x.ndim == 3:
        x = x[..., None]
    lo = np.percentile(x, 2, axis=(1, 2, 3), keepdims=True)
    hi = np.percentile(x, 98, axis=(1, 2, 3), keepdims=True)
    x = (x - lo) / np.maximum(hi - lo, 16.0)
    return np.ascontiguousarray(np.clip(x, 0, 1).transpose(0, 3, 1, 2)) * 2 - 1


def is_grey_before(img: np.ndarray) -> bool:
    """``vision.image.is_grey`` as it was up to session 58 (its constants as they are)."""
    if img.ndim == 2 or img.shape[2] == 1:
        return True
    px = img[::4, ::4, :3].astype(np.int16)
    spread = px.max(2) - px.min(2)
    return bool((spread > GREY_SPREAD).mean() < GREY_SHARE)


def to_input_before(boxed: np.ndarray) -> np.ndarray:
    """The detector's input as ``IndexDetector.tensor`` made it up to session 58."""
    return boxed[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255


@contextlib.contextmanager
def slow_paths():
    """The reader with the code the fast paths replaced (``vision.onnx`` looks both up by name)."""
    saved = vision.onnx.normalise, vision.onnx.to_input, vision.reader.is_grey
    vision.onnx.normalise, vision.onnx.to_input = normalise_before, to_input_before
    vision.reader.is_grey = is_grey_before
    try:
        yield
    finally:
        vision.onnx.normalise, vision.onnx.to_input, vision.reader.is_grey = saved


def same_reading(a, b) -> bool:
    """Every card (code, confidence, boxes, flag) and how the photo was read, exactly."""
    return a.cards == b.cards and a.aspect == b.aspect and a.mirrored == b.mirrored


def read_both(reader: Reader, images: list, warmup: int = 3) -> tuple[list, list]:
    """Each image read slow then fast, then fast then slow, alternately, after a warm-up."""
    for img in images[:warmup]:
        with slow_paths():
            reader.read(img)
        reader.read(img)
    slow, fast = [], []
    for i, img in enumerate(images):
        for which in (("slow", "fast") if i % 2 == 0 else ("fast", "slow")):
            if which == "slow":
                with slow_paths():
                    slow.append(reader.read(img))
            else:
                fast.append(reader.read(img))
    return slow, fast


def time_alone(fn_a, fn_b, arg, rounds: int = 200) -> dict:
    """Median microseconds of two functions of one argument, called in turn; their outputs equal."""
    a, b = np.asarray(fn_a(arg)), np.asarray(fn_b(arg))
    same = bool(np.array_equal(a, b) and a.dtype == b.dtype)
    ta, tb = [], []
    for i in range(rounds):
        for fn, out in ((fn_a, ta), (fn_b, tb)) if i % 2 == 0 else ((fn_b, tb), (fn_a, ta)):
            t = time.perf_counter()
            fn(arg)
            out.append((time.perf_counter() - t) * 1e6)
    a, b = statistics.median(ta), statistics.median(tb)
    return {"same_numbers": same, "median_us": {"before": round(a, 1), "now": round(b, 1)},
            "ratio_now_over_before": round(b / a, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", required=True, type=Path, help="a folder of photos (searched recursively)")
    parser.add_argument("--weights", type=Path, help="a weights folder (default: the shipped one)")
    parser.add_argument("--n", type=int, default=200, help="photos to read (default 200)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    images = [load_image(p) for p in photos_in(args.photos, args.n)]
    reader = Reader(args.weights)
    slow, fast = read_both(reader, images)
    differ = [i for i, (a, b) in enumerate(zip(slow, fast, strict=True)) if not same_reading(a, b)]
    ms_slow, ms_fast = [r.ms for r in slow], [r.ms for r in fast]
    med_slow, med_fast = statistics.median(ms_slow), statistics.median(ms_fast)
    rng = np.random.default_rng(0)
    crops = rng.integers(0, 256, (8, reader.classifier.size, reader.classifier.size, 3), np.uint8)
    photo = rng.integers(0, 256, (640, 640, 3), np.uint8)
    out = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(),
           "packages": packages(), "photos": len(images), "photos_of": str(args.photos),
           "weights": str(args.weights or "shipped"),
           "readings_differing": len(differ), "cards_read": sum(len(r.cards) for r in fast),
           "median_ms": {"before": round(med_slow, 1), "now": round(med_fast, 1)},
           "ratio_now_over_before": round(med_fast / med_slow, 3),
           "ratio_of_totals_now_over_before": round(sum(ms_fast) / sum(ms_slow), 3),
           "normalise_8_crops": time_alone(normalise_before, normalise, crops),
           "to_input_640": time_alone(to_input_before, to_input, photo),
           "is_grey_640": time_alone(is_grey_before, is_grey, photo)}
    if differ:
        out["first_differing"] = differ[:10]
    report(out, args.json)
    if differ:
        print(f"{len(differ)} photos read differently with the fast paths", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
