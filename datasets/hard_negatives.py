"""Hard negatives for the classifier: the detector's false alarms on a data set's training photos.

``ginsight dataset`` gives the classifier "no index" crops cut at random places (mostly table
and room). The reader's wrong cards on real photos are mostly something else: a centre pip, a
letter of a court card's art, a card's edge, boxed by the detector and then read as a card.
Here the shipped detector looks at the *training* photos as the reader does, and every box it
finds that touches no labelled index (IoU under ``MAX_IOU``) is cut as the reader cuts it and
labelled "no index". Validation photos are never used, so the validation crops stay as they were.

    python -m datasets.hard_negatives --data data/synth4 [--weights models/weights] [--limit 4000]

writes ``<data>/crops-neg/train-neg-0000.npz`` (the same layout as ``crops/``); train on a folder
that links both (``python -m datasets.mix``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

MAX_IOU = 0.1  # a box touching a labelled index this much is not a false alarm


def false_alarms(boxes: np.ndarray, truth: list[tuple[float, float, float, float]]) -> list[int]:
    """Indices of ``boxes`` (N, 4) that overlap no box of ``truth`` by ``MAX_IOU`` or more."""
    from vision.evaluate import iou

    return [i for i, b in enumerate(boxes) if all(iou(tuple(b), t) < MAX_IOU for t in truth)]


def mine(data: Path, detector, side: int, *, conf: float, scales: tuple[float, ...], limit: int | None = None,
         progress=None) -> tuple[np.ndarray, dict]:
    """(crops (N, S, S, 3) uint8, counts) of the detector's false alarms on ``data``'s training
    photos (the first ``limit``). ``detector(img, conf=, scales=)`` -> (boxes, scores)."""
    import cv2

    from vision.crops import crop_square
    from vision.evaluate import load_truth

    size = json.loads((data / "summary.json").read_text())["size"]
    photos = [t for t in load_truth(data, (size, size)) if t.group == "train"][:limit]
    crops, boxes_seen = [], 0
    for i, truth in enumerate(photos):
        img = cv2.imread(str(truth.image))
        if img is None:
            raise ValueError(f"{truth.image} could not be read as a photo")
        boxes, _ = detector(img, conf=conf, scales=scales)
        boxes_seen += len(boxes)
        for k in false_alarms(boxes, [b for _, b in truth.boxes]):
            crops.append(crop_square(img, tuple(float(v) for v in boxes[k]), side))
        if progress:
            progress(i + 1, len(photos))
    x = np.stack(crops) if crops else np.zeros((0, side, side, 3), np.uint8)
    return x, {"photos": len(photos), "boxes": boxes_seen, "false_alarms": len(crops)}


def main(argv: list[str] | None = None) -> int:
    from vision.onnx import IndexClassifier, IndexDetector
    from vision.reader import DEFAULT_WEIGHTS, NONE_CLASS, Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path, help="a folder written by `ginsight dataset`")
    parser.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS, help="the detector's folder")
    parser.add_argument("--limit", type=int, help="at most this many training photos")
    parser.add_argument("--out", type=Path, help="default: <data>/crops-neg")
    args = parser.parse_args(argv)
    settings = Settings.load(args.weights)
    detector = IndexDetector(args.weights / "detector.onnx")
    side = IndexClassifier(args.weights / "classifier.onnx").size
    t0 = time.time()

    def progress(done: int, total: int) -> None:
        if done % 250 == 0 or done == total:
            print(f"{done}/{total} photos, {time.time() - t0:.0f} s", flush=True)

    x, counts = mine(args.data, detector, side, conf=settings.det_conf, scales=settings.det_scales,
                     limit=args.limit, progress=progress)
    out = args.out or args.data / "crops-neg"
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / "train-neg-0000.npz", x=x, y=np.full(len(x), NONE_CLASS, np.int16))
    summary = {**counts, "side": side, "conf": settings.det_conf, "scales": list(settings.det_scales),
               "max_iou": MAX_IOU, "weights": str(args.weights), "seconds": round(time.time() - t0, 1)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
