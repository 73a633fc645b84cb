"""The live video's looks (``Settings.aspects``) taken on every frame v on one frame in a few,
side by side in one run: the cards the vote shows after each frame, and the time per frame.

A clip is made from each synthetic validation photo (never ``../shared/real-dev``): its middle
16:9 part as a webcam gives it (``settings_sweep.banded``, labels whose index's middle lies in
it), scaled to ``--width`` (1280x720 by default), seen ``--frames`` times, each frame moved a
little as a hand held to a camera moves (a shift of up to 3 pixels, a turn of up to 0.7 degrees,
1% nearer or farther), its light changed by up to 5%, with sensor noise and the webcam's JPEG,
all from ``--seed``. Each clip is fed to a fresh :class:`vision.video.StableReader` per way:

- ``every``: the looks on every frame (``looks_every`` 1);
- ``kN``: the looks on one frame in N, the frames between read once at the aspect it chose
  (``looks_every`` N);
- ``kN-plain``: the same, the frames between read as they are (aspect 1);
- ``none``: no looks (``aspects`` empty).

The ways take turns clip by clip (the first of a clip rotates), so the machine's noise falls on
all alike; the time is each ``update`` call's, reported as a mean and a median per frame and as
a ratio to ``every``. Cards missed and wrong are counted on the vote shown after each frame
(``after``: frame 1, 2, ...) and summed over the clips.

``--switch``: each clip is one photo's frames and then the next photo's (another hand put in
front of the camera), each frame counted against the hand in view: how many frames the vote
takes to show the new hand's cards and to drop the old one's. ``--window``: the vote taken
over that many frames (default ``--frames``; the live video's is 8). ``--plain-vote``: the vote
before session 40 (a card shown when read in half the window's frames), with which session 39's
figures were taken; by default ``StableReader``'s own.

    python benchmarks/video_looks.py --data data/synth2 --data data/held20 --photos 100 \\
        [--frames 8] [--window 8] [--every 2,4] [--switch] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import machine, report  # noqa: E402
from benchmarks.settings_sweep import banded, banded_truth  # noqa: E402
from vision.evaluate import synthetic_validation  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.video import StableReader  # noqa: E402

BAND = (16, 9)


def jittered(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One webcam frame of a still hand: ``frame`` moved a little (up to 3 pixels, 0.7 degrees,
    1% in scale), its light changed by up to 5%, with sensor noise, through JPEG."""
    h, w = frame.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-0.7, 0.7), rng.uniform(0.99, 1.01))
    m[:, 2] += rng.uniform(-3, 3, 2)
    out = cv2.warpAffine(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    out = out.astype(np.float32) * rng.uniform(0.95, 1.05) + rng.uniform(-5, 5)
    out += rng.normal(0, 2.0, out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    _ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 91))])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def clip(path: Path, width: int, frames: int, seed: int) -> list[np.ndarray]:
    """``frames`` jittered frames of the photo's middle 16:9 part scaled to ``width``."""
    base = banded(cv2.imread(str(path)), BAND)
    base = cv2.resize(base, (width, round(width * BAND[1] / BAND[0])), interpolation=cv2.INTER_LINEAR)
    rng = np.random.default_rng(seed)
    return [jittered(base, rng) for _ in range(frames)]


class PlainBetween(StableReader):
    """Looks on one frame in ``looks_every``; the frames between read as they are (the aspect
    a frame with every look chose is forgotten at once)."""

    def update(self, frame_bgr: np.ndarray):
        reading = super().update(frame_bgr)
        self.aspect = 1.0
        return reading


def vote_clip(stable: StableReader, frames: list[np.ndarray], want) -> tuple[list[dict], list[float]]:
    """Each frame fed to ``stable``: the cards its vote shows after it, counted against ``want``
    (right, wrong, missed), and each ``update`` call's milliseconds. ``want``: the cards in view,
    a set for the whole clip or one per frame."""
    counts, ms = [], []
    wants = [want] * len(frames) if isinstance(want, set) else want
    for f, want in zip(frames, wants, strict=True):
        t0 = time.perf_counter()
        shown = {c.card for c in stable.update(f).cards}
        ms.append((time.perf_counter() - t0) * 1000)
        counts.append({"right": len(shown & want), "wrong": len(shown - want), "missed": len(want - shown)})
    return counts, ms


PLAIN_COUNT = {"share": 0.5, "decay": 1.0, "keep": 0.5}  # the vote before session 40


def ways(reader: Reader, bare: Reader, every: list[int], window: int, vote: dict | None = None):
    """name -> a fresh StableReader for one clip; ``vote``: its share, decay and keep (default
    StableReader's own)."""
    v = vote or {}
    out = {"every": lambda: StableReader(reader, window=window, looks_every=1, **v)}
    for k in every:
        out[f"k{k}"] = lambda k=k: StableReader(reader, window=window, looks_every=k, **v)
        out[f"k{k}-plain"] = lambda k=k: PlainBetween(reader, window=window, looks_every=k, **v)
    out["none"] = lambda: StableReader(bare, window=window, looks_every=1, **v)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, type=Path, action="append", help="a data set from `ginsight dataset`")
    parser.add_argument("--weights", type=Path, help="weights folder (default the shipped one)")
    parser.add_argument("--photos", type=int, default=100, help="validation photos of each set (default 100)")
    parser.add_argument("--frames", type=int, default=8, help="frames a clip (default 8, the live window)")
    parser.add_argument("--window", type=int, help="frames the vote is taken over (default --frames)")
    parser.add_argument("--plain-vote", action="store_true",
                        help="vote by the plain count (half the window's frames), as before session 40: "
                             "session 39's figures")
    parser.add_argument("--every", default="2,4", help="looks on one frame in N, for each N (default 2,4)")
    parser.add_argument("--width", type=int, default=1280, help="the frame's width (default 1280: 1280x720)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--switch", action="store_true",
                        help="each clip is one photo's frames, then the next photo's: how soon the vote follows")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    every = [int(v) for v in args.every.split(",") if v.strip()]
    if any(k < 2 for k in every):
        raise SystemExit("--every wants numbers of frames of 2 or more")

    reader = Reader(args.weights)
    bare = Reader(args.weights)
    bare.settings = replace(bare.settings, aspects=())
    window = args.frames if args.window is None else args.window
    if window < 1:
        raise SystemExit("--window wants 1 frame or more")
    makers = ways(reader, bare, every, window, PLAIN_COUNT if args.plain_vote else None)
    names = list(makers)
    length = args.frames * (2 if args.switch else 1)
    counts = {n: [{"right": 0, "wrong": 0, "missed": 0} for _ in range(length)] for n in names}
    ms = {n: [] for n in names}
    per_set = {}
    clips = 0
    warm = True
    for data in args.data:
        size = json.loads((data / "summary.json").read_text())["size"]
        truths = synthetic_validation(data, args.photos)
        if not truths:
            raise SystemExit(f"no validation photos in {data}")
        set_counts = {n: {"right": 0, "wrong": 0, "missed": 0} for n in names}
        for i, t in enumerate(truths[:-1] if args.switch else truths):
            want = banded_truth(t, size, BAND).codes
            frames = clip(t.image, args.width, args.frames, args.seed + clips)
            if args.switch:  # then the next photo: another hand
                then = truths[i + 1]
                want = [want] * args.frames + [banded_truth(then, size, BAND).codes] * args.frames
                frames += clip(then.image, args.width, args.frames, args.seed + 10_000 + clips)
            if warm:  # the first reads of a network are slow
                for f in frames[:2]:
                    reader.read(f)
                    bare.read(f)
                warm = False
            shift = clips % len(names)
            for name in names[shift:] + names[:shift]:
                got, took = vote_clip(makers[name](), frames, want)
                ms[name] += took
                for frame_no, frame_counts in enumerate(got):
                    for k, v in frame_counts.items():
                        counts[name][frame_no][k] += v
                for k, v in got[-1].items():  # the vote after the clip's last frame
                    set_counts[name][k] += v
            clips += 1
            if clips % 20 == 0:
                print(f"{clips} clips", file=sys.stderr, flush=True)
        per_set[str(data)] = {"clips": len(truths) - (1 if args.switch else 0), "last_frame": set_counts}
    base = statistics.mean(ms["every"])
    out = {"date": datetime.now(UTC).isoformat(timespec="seconds"),
           "machine": machine(),
           "data": [str(d) for d in args.data], "photos": args.photos, "clips": clips, "frames": length,
           "switch": args.switch, "window": window, "plain_vote": args.plain_vote,
           "width": args.width, "seed": args.seed, "ways": {}}
    for name in names:
        out["ways"][name] = {
            "mean_ms": round(statistics.mean(ms[name]), 1), "median_ms": round(statistics.median(ms[name]), 1),
            "time_ratio_to_every": round(statistics.mean(ms[name]) / base, 3),
            "last_frame": counts[name][-1],
            "after": " ".join(f'{c["missed"]}/{c["wrong"]}' for c in counts[name]),  # missed / wrong, frame by frame
        }
    out["sets"] = per_set
    report(out, args.json)


if __name__ == "__main__":
    main()
