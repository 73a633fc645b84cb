"""What the live video costs where no card is in view (an empty table), two weights folders side
by side: each reads the same stream of webcam frames with no card through its own
``vision.video.StableReader`` (the live page's: its closer look and its stretched looks on one
frame in four), a few frames of one, then the same frames of the other, alternately, so that
both see the machine alike. Per folder: the mean and median milliseconds a frame, the slowest
frame, and how many cards the vote ever showed (false alarms).

Frames: procedural table and room backgrounds (datasets.backgrounds, from a seed), cut to 16:9
(1280x720 by default), each shown for a few frames with a little jitter, as a still camera
over an empty table gives them.

    python benchmarks/video_empty.py --a models/weights --b W [--frames 64] [--json OUT]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import machine, report  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.video import StableReader  # noqa: E402


def empty_frames(n: int, width: int = 1280, hold: int = 8, seed: int = 0) -> list[np.ndarray]:
    """``n`` 16:9 frames of no card: a background held for ``hold`` frames at a time, each
    frame moved a pixel or two and its light changed a little (a webcam's jitter)."""
    from datasets.backgrounds import Backgrounds

    rng = np.random.default_rng(seed)
    height = round(width * 9 / 16)
    frames = []
    while len(frames) < n:
        scene = Backgrounds().sample(rng, width)[:height]
        for _ in range(min(hold, n - len(frames))):
            dx, dy = rng.integers(-2, 3, 2)
            moved = cv2.warpAffine(scene, np.float32([[1, 0, dx], [0, 1, dy]]), (width, height),
                                   borderMode=cv2.BORDER_REFLECT)
            frames.append((moved * rng.uniform(0.95, 1.05)).clip(0, 255).astype(np.uint8))
    return frames


def run(readers: dict[str, StableReader], frames: list[np.ndarray], block: int = 4) -> dict[str, dict]:
    """Each stable reader over every frame, ``block`` frames of one then the same of the next."""
    ms = {k: [] for k in readers}
    shown = {k: set() for k in readers}
    for start in range(0, len(frames), block):
        order = list(readers) if (start // block) % 2 == 0 else list(readers)[::-1]
        for k in order:
            for frame in frames[start:start + block]:
                voted = readers[k].update(frame)
                ms[k].append(readers[k].frames[-1].ms)
                shown[k] |= set(voted.codes())
    return {k: {"mean_ms": round(statistics.fmean(v), 1), "median_ms": round(statistics.median(v), 1),
                "slowest_ms": round(max(v), 1), "cards_shown": sorted(shown[k])} for k, v in ms.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, type=Path, help="a weights folder")
    parser.add_argument("--b", required=True, type=Path, help="another weights folder")
    parser.add_argument("--frames", type=int, default=64, help="frames of the stream (default 64)")
    parser.add_argument("--width", type=int, default=1280, help="the frame's width (default 1280: 1280x720)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    frames = empty_frames(args.frames, args.width, seed=args.seed)
    readers = {"a": StableReader(Reader(args.a)), "b": StableReader(Reader(args.b))}
    for k in readers:  # a warm-up, then a fresh vote
        readers[k].reader.read(frames[0])
        readers[k] = StableReader(readers[k].reader)
    got = run(readers, frames)
    out = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(),
           "frames": len(frames), "size": f"{frames[0].shape[1]}x{frames[0].shape[0]}",
           "a": str(args.a), "b": str(args.b), **got,
           "ratio_of_means_b_over_a": round(got["b"]["mean_ms"] / got["a"]["mean_ms"], 3)}
    report(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
