"""How photos look, in numbers: to make synthetic training photos match real ones (a webcam's
held-up cards, say), compare the two sets' figures side by side before training on them.

Per labelled folder (YOLO layout; a group is the file-name prefix before ``__``, as in
``shared/real-dev``; a ``ginsight dataset`` folder's validation photos are its group ``val``),
the 10th, 50th and 90th percentiles over the photos of:

- ``brightness``: the grey level's mean (0-255);
- ``contrast``: the grey level's standard deviation;
- ``warmth``: the red channel's mean less the blue's (a warm lamp positive, daylight near 0);
- ``sharpness``: the variance of the grey image's Laplacian (blur lowers it; noise raises it);
- ``noise``: the median absolute difference from a 3x3 median filter (sensor noise);
- ``index_height``: the median height of a photo's labelled indices, in pixels at 640 high
  (the size the detector must find).

Statistics only: reading real-dev so says nothing about any reader, and changes nothing.

    python benchmarks/photo_stats.py --data ../shared/real-dev --data data/val-held [--json OUT]
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import machine, report  # noqa: E402
from vision.evaluate import load_truth  # noqa: E402

FIGURES = ("brightness", "contrast", "warmth", "sharpness", "noise", "index_height")


def photo_figures(img: np.ndarray, index_heights: list[float]) -> dict[str, float]:
    """One photo's figures (``index_heights``: its labelled indices' heights in its pixels)."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    g = grey.astype(np.float32)
    scale = 640 / img.shape[0]
    return {
        "brightness": float(g.mean()),
        "contrast": float(g.std()),
        "warmth": float(img[..., 2].mean() - img[..., 0].mean()),
        "sharpness": float(cv2.Laplacian(g, cv2.CV_32F).var()),
        "noise": float(np.median(np.abs(g - cv2.medianBlur(grey, 3).astype(np.float32)))),
        "index_height": float(np.median(index_heights)) * scale if index_heights else float("nan"),
    }


def percentiles(rows: list[dict[str, float]]) -> dict[str, list[float] | None]:
    """Each figure's 10th, 50th and 90th percentiles over ``rows`` (photos without a labelled
    index left out of ``index_height``; None where no photo has the figure)."""
    out: dict[str, list[float] | None] = {}
    for name in FIGURES:
        values = np.array([r[name] for r in rows], np.float64)
        values = values[~np.isnan(values)]
        out[name] = [round(float(np.percentile(values, q)), 1) for q in (10, 50, 90)] if len(values) else None
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", required=True, help="a labelled folder (repeatable)")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    sets = {}
    for folder in args.data:
        groups: dict[str, list[dict[str, float]]] = {}
        for t in load_truth(Path(folder)):
            img = cv2.imread(str(t.image))
            groups.setdefault(t.group, []).append(photo_figures(img, [b[3] - b[1] for _, b in t.boxes]))
        sets[folder] = {g: {"photos": len(rows), **percentiles(rows)} for g, rows in sorted(groups.items())}
    report({"what": "photo statistics: 10th, 50th and 90th percentiles", "figures": list(FIGURES),
            "date": datetime.now(UTC).strftime("%Y-%m-%d"), "machine": machine(), "sets": sets}, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
