"""Hard negatives for the classifier: the detector's false alarms on a data set's training photos.

``ginsight dataset`` gives the classifier "no index" crops cut at random places (mostly table
and room). The reader's wrong cards on real photos are mostly something else: a centre pip, a
letter of a court card's art, a card's edge, boxed by the detector and then read as a card.
Here the shipped detector looks at the *training* photos as the reader does, and every box it
finds that touches no labelled index (IoU under ``MAX_IOU``) is cut as the reader cuts it and
labelled "no index". Validation photos are never used, so the validation crops stay as they were.

    python -m datasets.hard_negatives --data data/synth4 [--weights models/weights] [--limit 4000]
        [--skip 3000] [--read-as-card] [--repeat 4] [--out DIR]

writes ``<data>/crops-neg/train-neg-0000.npz`` (the same layout as ``crops/``); train on a folder
that links both (``python -m datasets.mix``).

With the classifier in the loop (``--read-as-card``), only the false alarms that the weights'
classifier still reads as a card (as the reader would report them: not "no index", confidence
at least ``min_index``) are kept: what a round of training on all false alarms left. ``--skip``
passes over the photos an earlier round mined; ``--repeat`` writes each kept crop that many
times, so that a few hundred weigh something beside the data set's crops (the training's
augmentation turns and degrades each copy differently).
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
         skip: int = 0, keep=None, progress=None) -> tuple[np.ndarray, dict]:
    """(crops (N, S, S, 3) uint8, counts) of the detector's false alarms on ``data``'s training
    photos (``limit`` of them after the first ``skip``). ``detector(img, conf=, scales=)`` ->
    (boxes, scores). ``keep(crops, scores)`` -> a bool mask: which false alarms to keep (all
    when None)."""
    import cv2

    from vision.crops import crop_square
    from vision.evaluate import load_truth

    size = json.loads((data / "summary.json").read_text())["size"]
    photos = [t for t in load_truth(data, (size, size)) if t.group == "train"]
    photos = photos[skip:skip + limit if limit is not None else None]
    crops, boxes_seen, alarms = [], 0, 0
    for i, truth in enumerate(photos):
        img = cv2.imread(str(truth.image))
        if img is None:
            raise ValueError(f"{truth.image} could not be read as a photo")
        boxes, scores = detector(img, conf=conf, scales=scales)
        boxes_seen += len(boxes)
        found = false_alarms(boxes, [b for _, b in truth.boxes])
        alarms += len(found)
        if found:
            cut = np.stack([crop_square(img, tuple(float(v) for v in boxes[k]), side) for k in found])
            if keep is not None:
                cut = cut[np.asarray(keep(cut, scores[found]), bool)]
            crops.extend(cut)
        if progress:
            progress(i + 1, len(photos))
    x = np.stack(crops) if crops else np.zeros((0, side, side, 3), np.uint8)
    return x, {"photos": len(photos), "boxes": boxes_seen, "false_alarms": alarms, "kept": len(crops)}


def read_as_card(read, settings):
    """A ``keep`` for :func:`mine`: the crops the reader would report as an index (its own
    ``vision.grouping.index_read``: a card code, confidence sqrt(detector score x probability) at
    least ``settings.classification.min_index``), read by ``read`` (crops -> probabilities:
    ``Reader.crop_probs``, the classifier asked as the reader asks it, crops turned upright first)."""
    from vision.grouping import index_read

    def keep(crops: np.ndarray, scores: np.ndarray) -> np.ndarray:
        probs = read(crops)
        # The box does not enter the decision; the reader's rule is applied as it stands.
        return np.array([index_read((0.0, 0.0, 0.0, 0.0), float(s), p, settings.classification.min_index) is not None
                         for s, p in zip(scores, probs, strict=True)], bool)

    return keep


def main(argv: list[str] | None = None) -> int:
    from vision.classify import NONE_CLASS
    from vision.networks import IndexClassifier, IndexDetector
    from vision.reader import DEFAULT_WEIGHTS
    from vision.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path, help="a folder written by `ginsight dataset`")
    parser.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS, help="the detector's folder")
    parser.add_argument("--limit", type=int, help="at most this many training photos")
    parser.add_argument("--skip", type=int, default=0, help="pass over the first this many training photos")
    parser.add_argument("--read-as-card", action="store_true",
                        help="keep only the false alarms the weights' classifier reads as a card")
    parser.add_argument("--repeat", type=int, default=1, help="write each kept crop this many times")
    parser.add_argument("--out", type=Path, help="default: <data>/crops-neg")
    args = parser.parse_args(argv)
    if args.skip < 0 or args.repeat < 1 or (args.limit is not None and args.limit < 1):
        parser.error("--skip must be 0 or more, --repeat and --limit 1 or more")
    settings = Settings.load(args.weights)
    keep = None
    if args.read_as_card:  # the reader's own networks, loaded once: its detector mines, its classifier keeps
        from vision.reader import Reader

        reader = Reader(args.weights)
        detector, side = reader.networks.detector, reader.networks.classifier.size
        keep = read_as_card(reader.crop_probs, settings)
    else:
        detector = IndexDetector(args.weights / "detector.onnx")
        side = IndexClassifier(args.weights / "classifier.onnx").size
    t0 = time.time()

    def progress(done: int, total: int) -> None:
        if done % 250 == 0 or done == total:
            print(f"{done}/{total} photos, {time.time() - t0:.0f} s", flush=True)

    x, counts = mine(args.data, detector, side, conf=settings.detection.conf, scales=settings.detection.scales,
                     limit=args.limit, skip=args.skip, keep=keep, progress=progress)
    x = np.repeat(x, args.repeat, axis=0)
    out = args.out or args.data / "crops-neg"
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / "train-neg-0000.npz", x=x, y=np.full(len(x), NONE_CLASS, np.int16))
    summary = {**counts, "written": len(x), "skip": args.skip, "read_as_card": args.read_as_card,
               "repeat": args.repeat, "side": side, "conf": settings.detection.conf,
               "scales": list(settings.detection.scales),
               "max_iou": MAX_IOU, "weights": str(args.weights), "seconds": round(time.time() - t0, 1)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
