"""Cards far from the camera, and what the reader's closer look (``Settings.zoom_scales``: a
photo that reads no index is looked at again at 2x) buys and costs. Synthetic only (never
``../shared/real-dev``).

Each synthetic validation photo is shrunk to ``--shrink`` of its side in the middle of a frame
of the same size (the rest a blurred, upside-down copy of the photo, so that the frame is not a
flat border), its labels moved with it: the same cards, far away. Every photo is read with the
closer look off and on, side by side in one run, and so are the photos as they are, where the
look must change little. Per set: card precision and recall, cards missed and wrong, how many
photos took the closer look, and median ms per photo (all and those photos).

    python benchmarks/far_cards.py --data data/synth2 --data data/synth4 --photos 300 \\
        [--shrink 0.5 --shrink 0.35] [--weights models/weights] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.settings_sweep import placed, placed_truth  # noqa: E402
from vision.evaluate import Truth, synthetic_validation  # noqa: E402
from vision.reader import Reader  # noqa: E402


def far_frame(img: np.ndarray, k: float) -> np.ndarray:
    """Square ``img`` shrunk to ``k`` of its side in the middle of a same-sized frame, the rest a
    blurred, upside-down copy of it (settings_sweep.placed)."""
    return placed(img, k, k)


def far_truth(t: Truth, size: int, k: float) -> Truth:
    """``t``'s labels moved as :func:`far_frame` moves its photo (``size``: the square photo's side)."""
    return placed_truth(t, size, k, k)


def read_all(reader: Reader, truths: list[Truth], load, empty: list[bool] | None = None) -> tuple[dict, list[bool]]:
    """Card figures, and per photo whether it read no index. ``empty``: that list from the same
    photos read without the closer look, which says which photos took it (none when not given)."""
    tp = pred = true = 0
    ms, zoomed_ms, nothing = [], [], []
    for i, t in enumerate(truths):
        reading = reader.read(load(t.image))
        codes = set(reading.codes())
        tp, pred, true = tp + len(codes & t.codes), pred + len(codes), true + len(t.codes)
        ms.append(reading.ms)
        nothing.append(not reading.indices)
        if empty is not None and empty[i]:
            zoomed_ms.append(reading.ms)
    return {"photos": len(truths), "precision": tp / pred if pred else 1.0, "recall": tp / true if true else 1.0,
            "cards_true": true, "cards_right": tp, "cards_missed": true - tp, "cards_wrong": pred - tp,
            "photos_zoomed": len(zoomed_ms), "median_ms": statistics.median(ms),
            "median_ms_zoomed": statistics.median(zoomed_ms) if zoomed_ms else None}, nothing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, type=Path, action="append", help="a folder written by "
                        "`ginsight dataset` (repeat for several)")
    parser.add_argument("--photos", type=int, default=300, help="validation photos per data set (default 300)")
    parser.add_argument("--shrink", type=float, action="append", help="side of the far photo, as a share "
                        "(repeat; default 0.5)")
    parser.add_argument("--weights", type=Path, default=ROOT / "models" / "weights")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    shrinks = args.shrink or [0.5]
    if any(not 0.1 <= k <= 1 for k in shrinks):
        parser.error("--shrink must lie in 0.1-1")

    reader = Reader(args.weights)
    zoom = reader.settings.zoom_scales or (2.0,)
    looks = {"off": replace(reader.settings, zoom_scales=()), "on": replace(reader.settings, zoom_scales=zoom)}
    out = {"weights": str(args.weights), "zoom_scales": list(zoom), "photos": args.photos, "sets": {}}
    print("| data | photos | closer look | precision | recall | missed | wrong | photos zoomed | median ms "
          "| median ms zoomed |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for data in args.data:
        truths = synthetic_validation(data, args.photos)
        size = json.loads((data / "summary.json").read_text())["size"]
        sets = [("as they are", truths, lambda p: cv2.imread(str(p)))]
        for k in shrinks:
            sets.append((f"shrunk to {k:g}", [far_truth(t, size, k) for t in truths],
                         lambda p, k=k: far_frame(cv2.imread(str(p)), k)))
        for name, ts, load in sets:
            empty = None  # the "off" look runs first: its empty photos are those that take the look
            for look, settings in looks.items():
                reader.settings = settings
                got, nothing = read_all(reader, ts, load, empty)
                empty = nothing
                out["sets"].setdefault(f"{data.name}, {name}", {})[look] = got
                zms = "-" if got["median_ms_zoomed"] is None else f"{got['median_ms_zoomed']:.0f}"
                print(f"| {data.name}, {name} | {got['photos']} | {look} | {got['precision']:.4f} | "
                      f"{got['recall']:.4f} | {got['cards_missed']} | {got['cards_wrong']} | "
                      f"{got['photos_zoomed']} | {got['median_ms']:.0f} | {zms} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
