"""What one more detector look (the photo at ``--scale`` times its size, beside the shipped
looks) finds, photo by photo, and which photos gain: those whose indices read at the shipped
looks are small (median side under a number of pixels) or many. Synthetic validation photos
only (never ../shared/real-dev). Each network answer is remembered, so the photos are read
about once per look.

    python benchmarks/extra_look.py --data data/showdown23 --data data/synth2 --data data/synth4 \\
        --photos 300 --scale 2 [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.settings_sweep import remembering  # noqa: E402
from vision.evaluate import synthetic_validation  # noqa: E402
from vision.image import load_image  # noqa: E402
from vision.reader import Reader, median_side  # noqa: E402

SMALL = (20, 25, 30, 35, 40)  # median index side, pixels
MANY = (4, 8, 12, 16)  # indices read


def per_photo(reader: Reader, truths, scale: float) -> list[dict]:
    """For each photo: the indices read at the shipped looks, their median side, and how many
    more cards the extra look reads right and wrong."""
    base = reader.settings
    more = replace(base, det_scales=(*base.det_scales, scale))
    rows = []
    for t in truths:
        img = load_image(t.image)
        reader.settings = base
        a = reader.read(img)
        reader.settings = more
        b = reader.read(img)
        reader.settings = base
        got_a, got_b = set(a.codes()), set(b.codes())
        rows.append({"image": t.image.name, "indices": len(a.indices),
                     "median_side": median_side(list(a.indices)),
                     "right": len(got_b & t.codes) - len(got_a & t.codes),
                     "wrong": len(got_b - t.codes) - len(got_a - t.codes)})
    return rows


def triggers(rows: list[dict]) -> list[dict]:
    """More right / wrong cards if the look were taken only on some photos."""
    picks = [("every photo", lambda r: True)]
    picks += [(f"median side < {s} px", lambda r, s=s: 0 < r["median_side"] < s) for s in SMALL]
    picks += [(f"{n} or more indices", lambda r, n=n: r["indices"] >= n) for n in MANY]
    return [{"when": name, "photos": sum(1 for r in rows if pick(r)),
             "right": sum(r["right"] for r in rows if pick(r)),
             "wrong": sum(r["wrong"] for r in rows if pick(r))} for name, pick in picks]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, action="append", required=True)
    ap.add_argument("--photos", type=int, default=300)
    ap.add_argument("--scale", type=float, default=2.0)
    ap.add_argument("--weights", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args()
    out = {}
    for folder in a.data:
        rows = per_photo(remembering(Reader(a.weights)), synthetic_validation(folder, a.photos), a.scale)
        out[str(folder)] = {"triggers": triggers(rows), "photos": rows}
        for t in out[str(folder)]["triggers"]:
            print(f"| {folder} | {t['when']} | {t['photos']} | {t['right']:+d} | {t['wrong']:+d} |", flush=True)
    if a.json:
        a.json.write_text(json.dumps({"scale": a.scale, "data": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
