"""The live webcam, checked on clips made from labelled photos: how soon a hand held up to the
camera reads right, and how right and how honestly flagged the voted cards are once it does.

Each photo of the groups asked (by default real-dev's webcam groups) becomes one clip per
condition, ``--frames`` frames (16: about 1.3 s at 12 frames a second) of a webcam's 1280x720
picture, every frame moved a little, with sensor noise and through the webcam's JPEG:

- ``as is``: the photo filling the frame (real-dev's webcam photos are webcam frames squeezed to a
  square: so stretched back to a 16:9 webcam's frame);
- ``scaled``: that frame at 0.7 of its size, on a blurred copy of itself (the hand further off);
- ``dimmed``: as is, at half the light with a warm cast and more noise (an evening room).

Each clip is voted as the app votes (:class:`vision.video.StableReader`, its defaults, started
afresh), the frames read back to back as the live page reads them, so that a frame's time is
the reader's time on this CPU. Counted per group and condition:

- ``first_right_s``: from the clip's first frame to the end of the first frame whose vote is
  the hand exactly (every card, nothing else), in the reader's own seconds: median, the
  slowest, the share of clips within 2 s, and the clips never right;
- the vote at each frame from the window's filling on: cards right, wrong and missed, the
  wrong ones flagged and not, the right ones flagged; precision, recall, unflagged precision,
  and the share of right cards flagged;
- ``exact_at_end``: the share of clips whose last vote is the hand exactly.

    python benchmarks/live_clips.py [--data ../shared/real-dev] [--groups webcam_] [--frames 16]
        [--weights DIR] [--json OUT]

real-dev is validation only: read it so once per reader that is a candidate to ship.
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
from vision.evaluate import load_truth  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.video import StableReader  # noqa: E402

WIDTH, HEIGHT = 1280, 720
CONDITIONS = ("as is", "scaled", "dimmed")


def framed(photo: np.ndarray, condition: str) -> np.ndarray:
    """``photo`` in a 1280x720 webcam picture, as ``condition`` shows it."""
    back = cv2.resize(photo, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)
    if condition == "scaled":
        inner = cv2.resize(back, (round(WIDTH * 0.7), round(HEIGHT * 0.7)), interpolation=cv2.INTER_AREA)
        back = cv2.GaussianBlur(back, (0, 0), 25)
        y, x = (HEIGHT - inner.shape[0]) // 2, (WIDTH - inner.shape[1]) // 2
        back[y:y + inner.shape[0], x:x + inner.shape[1]] = inner
    if condition == "dimmed":
        dim = back.astype(np.float32) * 0.5 * np.float32([0.85, 1.0, 1.1])  # BGR: warm light
        back = np.clip(dim, 0, 255).astype(np.uint8)
    return back


def jittered(frame: np.ndarray, rng: np.random.Generator, noise: float) -> np.ndarray:
    """One webcam frame of a hand held still: ``frame`` moved a little (up to 4 pixels, 1 degree,
    2% in scale), its light changed by up to 5%, with sensor noise, through JPEG."""
    h, w = frame.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-1, 1), rng.uniform(0.98, 1.02))
    m[:, 2] += rng.uniform(-4, 4, 2)
    out = cv2.warpAffine(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    out = out.astype(np.float32) * rng.uniform(0.95, 1.05) + rng.normal(0, noise, out.shape).astype(np.float32)
    _ok, data = cv2.imencode(".jpg", np.clip(out, 0, 255).astype(np.uint8),
                             [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 91))])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def play(stable: StableReader, frames: list[np.ndarray], want: set[str]) -> dict:
    """Feed ``frames`` to ``stable``: when the vote was first the hand exactly (seconds of
    reading, None if never), and the steady frames' counts."""
    stable.reset()
    spent, first = 0.0, None
    counts = {"right": 0, "wrong": 0, "missed": 0, "wrong_flagged": 0, "right_flagged": 0}
    for i, frame in enumerate(frames):
        voted = stable.update(frame)
        spent += voted.ms / 1000
        shown = {c.card: c for c in voted.cards}
        if first is None and set(shown) == want:
            first = spent
        if i + 1 >= stable.frames.maxlen:  # the window is full: the steady vote
            for code, card in shown.items():
                ok = code in want
                counts["right" if ok else "wrong"] += 1
                counts[("right" if ok else "wrong") + "_flagged"] += card.uncertain
            counts["missed"] += len(want - set(shown))
    return {"first_right_s": first, "exact_at_end": set(shown) == want, **counts}


def summary(clips: list[dict]) -> dict:
    """The clips' figures together."""
    total = {k: sum(c[k] for c in clips) for k in ("right", "wrong", "missed", "wrong_flagged", "right_flagged")}
    read = total["right"] + total["wrong"]
    unflagged = read - total["wrong_flagged"] - total["right_flagged"]
    times = [c["first_right_s"] for c in clips if c["first_right_s"] is not None]
    return {
        "clips": len(clips),
        "exact_at_end": round(sum(c["exact_at_end"] for c in clips) / max(len(clips), 1), 3),
        "first_right_s_median": round(statistics.median(times), 2) if times else None,
        "first_right_s_max": round(max(times), 2) if times else None,
        "right_within_2s": round(sum(t <= 2 for t in times) / max(len(clips), 1), 3),
        "never_right": len(clips) - len(times),
        "precision": round(total["right"] / max(read, 1), 4),
        "recall": round(total["right"] / max(total["right"] + total["missed"], 1), 4),
        "unflagged_precision": round((total["right"] - total["right_flagged"]) / max(unflagged, 1), 4),
        "right_flagged_share": round(total["right_flagged"] / max(total["right"], 1), 4),
        **total,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "real-dev"), help="a labelled folder (YOLO)")
    ap.add_argument("--groups", default="webcam_", help="read the groups whose names start so (comma-separated)")
    ap.add_argument("--frames", type=int, default=16, help="frames a clip")
    ap.add_argument("--conditions", default=",".join(CONDITIONS), help="of: " + ", ".join(CONDITIONS))
    ap.add_argument("--limit", type=int, default=None, help="the first N photos only")
    ap.add_argument("--weights", default=None, help="the reader's weights folder (default: the shipped)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    unknown = [c for c in conditions if c not in CONDITIONS]
    if unknown or args.frames < 1:
        ap.error(f"unknown conditions {unknown}" if unknown else "--frames must be 1 or more")
    prefixes = tuple(p.strip() for p in args.groups.split(",") if p.strip())
    truths = [t for t in load_truth(Path(args.data)) if t.group.startswith(prefixes)][:args.limit]
    if not truths:
        ap.error(f"no photos of groups {args.groups!r} in {args.data}")
    stable = StableReader(Reader(args.weights))
    rng = np.random.default_rng(args.seed)
    clips: dict[str, dict[str, list[dict]]] = {}
    for t in truths:
        photo = cv2.imread(str(t.image))
        for condition in conditions:
            base = framed(photo, condition)
            noise = 6.0 if condition == "dimmed" else 2.5
            frames = [jittered(base, rng, noise) for _ in range(args.frames)]
            clips.setdefault(t.group, {}).setdefault(condition, []).append(play(stable, frames, t.codes))
    figures = {
        "what": "live webcam clips made from labelled photos, voted as the app votes",
        "date": datetime.now(UTC).strftime("%Y-%m-%d"), "machine": machine(), "data": args.data,
        "frames": args.frames, "weights": args.weights or "shipped",
        "groups": {g: {c: summary(v) for c, v in by.items()} for g, by in clips.items()},
        "all": {c: summary([x for by in clips.values() for x in by.get(c, [])]) for c in conditions},
    }
    report(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
