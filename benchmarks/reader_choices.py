"""The figures behind two choices of the reader, measured on synthetic validation data only
(never on ../shared/real-dev):

1. the detector's recall by index size when it looks at the photo at full scale only, at
   full and half scale, and at a third look besides (``Settings.det_scales``);
2. the classifier's top-1 on the validation crops when each crop is read once, at two half
   turns, or at four quarter turns (``Settings.cls_turns``); for a classifier of upright crops
   (shipped since session 43), its one top-1, each crop turned upright as the reader turns it.

    python benchmarks/reader_choices.py --data data/synth2 [--photos 300] [--weights models/weights]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.classifier import load_crops  # noqa: E402
from vision.evaluate import Truth, iou, synthetic_validation  # noqa: E402
from vision.onnx import IndexDetector, first_member  # noqa: E402
from vision.reader import Reader  # noqa: E402

BUCKETS = ((0, 40, "< 40 px"), (40, 80, "40-80 px"), (80, 10_000, ">= 80 px"))


def detector_recall(det: IndexDetector, truths: list[Truth], scales: tuple[float, ...]) -> dict[str, tuple[int, float]]:
    found = {name: [0, 0] for *_, name in BUCKETS}
    for truth in truths:
        boxes, _ = det(cv2.imread(str(truth.image)), conf=0.15, scales=scales)
        for _, box in truth.boxes:
            side = max(box[2] - box[0], box[3] - box[1])
            name = next(n for lo, hi, n in BUCKETS if lo <= side < hi)
            found[name][0] += 1
            found[name][1] += any(iou(box, b) >= 0.5 for b in boxes)
    return {name: (n, hit / max(n, 1)) for name, (n, hit) in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, type=Path, help="a folder written by `ginsight dataset`")
    parser.add_argument("--photos", type=int, default=300, help="validation photos for the detector (default 300)")
    parser.add_argument("--weights", type=Path, default=ROOT / "models" / "weights")
    args = parser.parse_args()

    reader = Reader(args.weights)  # every network loaded once; of a group, the first detector is measured alone
    det = first_member(reader.detector)
    photos = synthetic_validation(args.data, args.photos)
    print(f"Detector recall at IoU 0.5 by index size (longer side), {len(photos)} synthetic validation photos")
    print("| scales | " + " | ".join(n for *_, n in BUCKETS) + " |")
    print("|---|" + "---|" * len(BUCKETS))
    for scales in ((1.0,), (1.0, 0.5), (1.0, 0.5, 0.33)):
        got = detector_recall(det, photos, scales)
        print(f"| {', '.join(map(str, scales))} | " + " | ".join(f"{r:.3f} (n={n})" for n, r in got.values()) + " |")

    x, y = load_crops(args.data / "crops", "val")
    clf = first_member(reader.classifier)
    if clf.upright:  # no turns to choose: it reads each crop once, turned upright by the way-up reader
        top1 = (reader.crop_probs(x).argmax(1) == y).mean()
        print(f"\nClassifier top-1 on {len(y)} synthetic validation crops: {top1:.3f}, each turned upright by "
              "the way-up reader and read once at each of cls_up_tilts (an upright classifier has no turns "
              "to choose; benchmarks/upright_classifier.py compares it with a plain one)")
        return
    print(f"\nClassifier top-1 on {len(y)} synthetic validation crops")
    print("| turns | top-1 |")
    print("|---|---|")
    for turns in (1, 2, 4):
        probs = np.concatenate([clf(x[i:i + 2048], turns=turns) for i in range(0, len(x), 2048)])
        print(f"| {turns} | {(probs.argmax(1) == y).mean():.3f} |")


if __name__ == "__main__":
    main()
