"""A 16:9 webcam frame read padded to a square v padded only to multiples of 32 (``rect``), side
by side in one run: the milliseconds of each, their ratio, and whether the cards read agree.

The frames are made from a synthetic data set's validation photos (never ``../shared/real-dev``):
each photo's middle 16:9 band, scaled to ``--width`` (1280x720 by default, a common webcam
frame), with the labels whose index lies wholly inside the band. Each frame is read by both
readers, alternately first, after a warm-up; the card-level precision and recall of each against
those labels, the share of frames where both read exactly the same cards, and the cards only
one of them read: right, cut by the frame's edge (in the photo, its index not wholly in the
frame: neither right nor wrong here), or wrong.

    python benchmarks/wide_frames.py --data data/synth2 [--n 200] [--width 1280] [--json OUT]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import machine, report  # noqa: E402
from vision.evaluate import synthetic_validation  # noqa: E402
from vision.reader import Reader  # noqa: E402


def only_in_one(read_a: list[set[str]], read_b: list[set[str]], inside: list[set[str]],
                in_photo: list[set[str]]) -> dict:
    """The cards one reader read and the other did not, frame by frame: how many were right
    (their index wholly in the frame), in the photo but cut by the frame's edge, or wrong."""
    out = {"right": 0, "cut_by_the_edge": 0, "wrong": 0}
    for a, b, want, there in zip(read_a, read_b, inside, in_photo, strict=True):
        for code in a - b:
            out["right" if code in want else "cut_by_the_edge" if code in there else "wrong"] += 1
    return out


def wide_frame(img: np.ndarray, boxes: list, width: int) -> tuple[np.ndarray, set[str]]:
    """The middle 16:9 band of a square photo, scaled to ``width``, and the codes whose index
    lies wholly inside the band."""
    h, w = img.shape[:2]
    band = round(w * 9 / 16)
    top = (h - band) // 2
    frame = cv2.resize(img[top:top + band], (width, round(width * 9 / 16)), interpolation=cv2.INTER_LINEAR)
    codes = {code for code, (_x1, y1, _x2, y2) in boxes if y1 >= top and y2 <= top + band}
    return frame, codes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, type=Path, help="a data set from `ginsight dataset`")
    parser.add_argument("--weights", type=Path, help="weights folder (default the shipped one)")
    parser.add_argument("--n", type=int, default=200, help="validation photos (default 200)")
    parser.add_argument("--width", type=int, default=1280, help="the frame's width (default 1280: 1280x720)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()

    truths = synthetic_validation(args.data, args.n)
    if not truths:
        raise SystemExit(f"no validation photos in {args.data}")
    frames = [wide_frame(cv2.imread(str(t.image)), t.boxes, args.width) for t in truths]
    inside = [want for _, want in frames]
    in_photo = [t.codes for t in truths]
    rect, square = Reader(args.weights), Reader(args.weights)
    if not rect.detector.dynamic:
        raise SystemExit("this detector has a fixed input size: it is always read square")
    for reader, on in ((rect, True), (square, False)):
        reader.settings = replace(reader.settings, rect=on)
        reader.detector.rect = on

    for frame, _ in frames[:3]:
        rect.read(frame)
        square.read(frame)
    ms = {"square": [], "rect": []}
    read = {"square": [], "rect": []}
    for i, (frame, _) in enumerate(frames):
        order = (("square", square), ("rect", rect)) if i % 2 == 0 else (("rect", rect), ("square", square))
        for name, reader in order:
            r = reader.read(frame)
            ms[name].append(r.ms)
            read[name].append({c.card for c in r.cards})

    def scores(name: str) -> dict:
        right = sum(len(got & want) for got, (_, want) in zip(read[name], frames, strict=True))
        n_read = sum(len(got) for got in read[name])
        n_true = sum(len(want) for _, want in frames)
        return {"precision": round(right / max(n_read, 1), 4), "recall": round(right / max(n_true, 1), 4),
                "cards_read": n_read, "cards_right": right, "median_ms": round(statistics.median(ms[name]), 1)}

    out = {"date": datetime.now(UTC).isoformat(timespec="seconds"),
           "machine": machine(),
           "data": str(args.data), "frames": len(frames), "frame_size": list(frames[0][0].shape[1::-1]),
           "cards_true": sum(len(want) for _, want in frames),
           "square": scores("square"), "rect": scores("rect"),
           "ratio_rect_over_square": round(statistics.median(ms["rect"]) / statistics.median(ms["square"]), 3),
           "same_cards": round(float(np.mean([a == b for a, b in zip(read["square"], read["rect"], strict=True)])), 4),
           "only_square": only_in_one(read["square"], read["rect"], inside, in_photo),
           "only_rect": only_in_one(read["rect"], read["square"], inside, in_photo)}
    report(out, args.json)


if __name__ == "__main__":
    main()
