"""How two weights folders' detectors box the labelled indices (diagnosis, synthetic photos).

The classifier reads each index cut around its detector box at fixed framings
(``Settings.cls_margins``, chosen in session 30 for the detector of that time): a detector whose
boxes are larger or smaller than the labelled ones, or off centre, hands the classifier crops
framed otherwise than those framings were chosen for. For every labelled index matched by a
box (IoU >= 0.5, best first), this prints the median and quartiles of the box's longer side
over the label's, its centre's offset from the label's in label sizes, and the IoU; and the
share of labelled indices matched at all.

    python benchmarks/box_fit.py --a OLD_WEIGHTS --b models/weights --data data/synth2 \
        --data data/showdown23 --photos 200 [--json OUT]

Boxes as the reader asks for them (its det_scales, det_conf, det_iou, det_fuse); validation
photos only, never ../shared/real-dev (labels there are not the detector's to be fitted to).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.evaluate import iou, synthetic_validation
from vision.reader import Reader


def match(labels: np.ndarray, boxes: np.ndarray, least: float = 0.5) -> list[tuple[int, int, float]]:
    """Greedy one-to-one matches (label row, box row, IoU), best IoU first, at ``least`` or more."""
    if len(labels) == 0 or len(boxes) == 0:
        return []
    m = np.array([[iou(a, b) for b in boxes] for a in labels])
    out, used_l, used_b = [], set(), set()
    for flat in np.argsort(-m, axis=None):
        i, j = np.unravel_index(flat, m.shape)
        if m[i, j] < least:
            break
        if i in used_l or j in used_b:
            continue
        used_l.add(i)
        used_b.add(j)
        out.append((int(i), int(j), float(m[i, j])))
    return out


def fit(labels: np.ndarray, boxes: np.ndarray) -> dict:
    """Per matched pair: longer side ratio (box / label), centre offset (label sizes), IoU."""
    rows = match(labels, boxes)
    side = lambda r: np.maximum(r[2] - r[0], r[3] - r[1])  # noqa: E731
    centre = lambda r: np.array([(r[0] + r[2]) / 2, (r[1] + r[3]) / 2])  # noqa: E731
    return {
        "ratio": [float(side(boxes[j]) / side(labels[i])) for i, j, _ in rows],
        "offset": [float(np.linalg.norm(centre(boxes[j]) - centre(labels[i])) / side(labels[i])) for i, j, _ in rows],
        "iou": [v for _, _, v in rows],
        "labels": len(labels),
    }


def summary(parts: list[dict]) -> dict:
    q = lambda xs: [round(float(v), 3) for v in np.percentile(xs, [25, 50, 75])] if xs else None  # noqa: E731
    cat = lambda k: [v for p in parts for v in p[k]]  # noqa: E731
    labels = sum(p["labels"] for p in parts)
    return {"labels": labels, "matched": round(len(cat("iou")) / max(labels, 1), 4),
            "side_ratio_q25_50_75": q(cat("ratio")), "centre_offset_q25_50_75": q(cat("offset")),
            "iou_q25_50_75": q(cat("iou"))}


def boxes_of(reader: Reader, image: np.ndarray) -> np.ndarray:
    s = reader.settings
    boxes, _ = reader._detect(image, s.det_scales, s.det_turns)
    return np.asarray(boxes, np.float32).reshape(-1, 4)


def main(argv: list[str] | None = None) -> int:
    import cv2

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", type=Path, required=True, help="a weights folder")
    ap.add_argument("--b", type=Path, required=True, help="another weights folder")
    ap.add_argument("--data", type=Path, action="append", required=True)
    ap.add_argument("--photos", type=int, default=200, help="validation photos per data set")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    readers = {"a": Reader(args.a), "b": Reader(args.b)}
    out = {"a": str(args.a), "b": str(args.b), "photos": args.photos, "sets": {}}
    print("| data | weights | labels | matched | side ratio q25/50/75 | centre offset q25/50/75 | IoU q25/50/75 |")
    print("|---|---|---|---|---|---|---|")
    for folder in args.data:
        truths = synthetic_validation(folder, args.photos)
        if not truths:
            raise SystemExit(f"{folder}: no validation photos (images/val)")
        parts = {k: [] for k in readers}
        for t in truths:
            image = cv2.imread(str(t.image))
            labels = np.array([b for _, b in t.boxes], np.float32).reshape(-1, 4)
            for k, reader in readers.items():
                parts[k].append(fit(labels, boxes_of(reader, image)))
        out["sets"][str(folder)] = {k: summary(v) for k, v in parts.items()}
        for k in readers:
            s = out["sets"][str(folder)][k]
            print(f"| {folder} | {k} | {s['labels']} | {s['matched']} | {s['side_ratio_q25_50_75']} | "
                  f"{s['centre_offset_q25_50_75']} | {s['iou_q25_50_75']} |")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
