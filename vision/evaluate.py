"""Measuring the reader on YOLO-labelled photos: card-level precision and recall (distinct
codes per photo), exact-hand rate, index mAP50, per group, the most confused pairs, speed.

The photos' class names are mapped to card codes ("10C" -> "TC", "QS" -> "QS"); names that
are not cards (a card back, jokers) are ignored. A photo's group is the part of its file
name before ``__`` (as in ``shared/real-dev``).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_RANK = {"A": "A", "1": "A", "10": "T", "T": "T", "J": "J", "Q": "Q", "K": "K",
         **{str(n): str(n) for n in range(2, 10)}}


def name_to_code(name: str) -> str | None:
    """A data set's class name as a card code, or None (a back, a joker)."""
    m = re.fullmatch(r"\s*(10|[2-9ATJQK1])\s*([SHDC])\s*", name.upper())
    if not m:
        return None
    return _RANK[m.group(1)] + m.group(2)


class DataSetError(ValueError):
    """A labelled data set the evaluation cannot read: its ``data.yaml`` (no class names, not
    YAML), a label line (its file and line named), or a photo that does not open."""


def load_names(folder: Path) -> list[str]:
    """The class names of a YOLO data set's ``data.yaml``, by class id: ``names`` as a list
    (inline or a block of ``- name`` lines) or as a mapping of ids 0, 1, ... to names."""
    import yaml

    path = folder / "data.yaml"
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise DataSetError(f"{path}: not YAML ({' '.join(str(exc).split())})") from None
    names = data.get("names") if isinstance(data, dict) else None
    if names is None:
        raise DataSetError(f"{path}: no class names (names:)")
    if isinstance(names, dict):
        if not all(isinstance(k, int) for k in names) or sorted(names) != list(range(len(names))):
            raise DataSetError(f"{path}: names' class ids must be 0 to {len(names) - 1}, "
                               f"not {sorted(names, key=str)}")
        names = [names[i] for i in range(len(names))]
    if not isinstance(names, list):
        raise DataSetError(f"{path}: names must be a list or a mapping of class ids to names, not {names!r}")
    return [str(n) for n in names]


def _label_box(parts: list[str], where: str, w: int, h: int) -> tuple[float, float, float, float]:
    """A label line's box in pixels: ``cx cy bw bh`` or a polygon's ``x y`` pairs (its bounding
    box), all shares of the photo's size."""
    vals = []
    for v in parts:
        try:
            vals.append(float(v))
        except ValueError:
            raise DataSetError(f"{where}: {v!r} is not a number") from None
    if len(vals) == 4:
        cx, cy, bw, bh = vals
        return (cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h
    if len(vals) < 6 or len(vals) % 2:
        raise DataSetError(f"{where}: {len(vals)} numbers after the class (4 for a box, or 6 or more "
                           "in x y pairs for a polygon)")
    xs, ys = vals[0::2], vals[1::2]
    return min(xs) * w, min(ys) * h, max(xs) * w, max(ys) * h


@dataclass
class Truth:
    image: Path
    group: str
    boxes: list[tuple[str, tuple[float, float, float, float]]]  # code, pixel box

    @property
    def codes(self) -> set[str]:
        return {c for c, _ in self.boxes}


def load_truth(folder: Path, width_height: tuple[int, int] | None = None) -> list[Truth]:
    import cv2

    from vision.image import image_files

    names = load_names(folder)
    codes = [name_to_code(n) for n in names]
    images = image_files(folder / "images")
    out = []
    for img in images:
        rel = img.relative_to(folder / "images")
        label = (folder / "labels" / rel).with_suffix(".txt")
        if width_height is None:
            pixels = cv2.imread(str(img))
            if pixels is None:
                raise DataSetError(f"{img} is not an image OpenCV can open")
            h, w = pixels.shape[:2]
        else:
            w, h = width_height
        boxes = []
        if label.exists():
            for number, line in enumerate(label.read_text().split("\n"), 1):
                parts = line.split()
                if not parts:
                    continue
                where = f"{label} line {number}"
                if not parts[0].isdigit():
                    raise DataSetError(f"{where}: class {parts[0]!r} is not a class id (0 to {len(codes) - 1})")
                if int(parts[0]) >= len(codes):
                    raise DataSetError(f"{where}: class {int(parts[0])}, but data.yaml names {len(codes)} "
                                       f"class{'es' if len(codes) != 1 else ''}")
                box = _label_box(parts[1:], where, w, h)
                code = codes[int(parts[0])]
                if code is not None:  # a back, a joker: not a card
                    boxes.append((code, box))
        group = img.stem.split("__")[0] if "__" in img.stem else rel.parts[0] if len(rel.parts) > 1 else "all"
        out.append(Truth(img, group, boxes))
    return out


def synthetic_validation(folder: Path, limit: int | None = None) -> list[Truth]:
    """The validation photos of a data set written by ``ginsight dataset``, the first ``limit``
    (every photo is square, of the size in its summary.json: none is opened to size it)."""
    import json

    size = json.loads((folder / "summary.json").read_text())["size"]
    return [t for t in load_truth(folder, (size, size)) if t.group == "val"][:limit]


def iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def average_precision(preds: list[tuple[float, int, tuple]], truths: dict[int, list[tuple]], thr: float = 0.5) -> float:
    """AP at IoU ``thr``: ``preds`` (score, image id, box), ``truths`` image id -> boxes."""
    total = sum(len(v) for v in truths.values())
    if total == 0:
        return float("nan")
    used = {k: [False] * len(v) for k, v in truths.items()}
    tp = []
    for _score, img, box in sorted(preds, key=lambda p: -p[0]):
        best, best_j = 0.0, -1
        for j, t in enumerate(truths.get(img, [])):
            o = iou(box, t)
            if o > best:
                best, best_j = o, j
        if best >= thr and not used[img][best_j]:
            used[img][best_j] = True
            tp.append(1)
        else:
            tp.append(0)
    if not tp:
        return 0.0
    tp_arr = np.array(tp, float)
    cum_tp = np.cumsum(tp_arr)
    recall = cum_tp / total
    precision = cum_tp / np.arange(1, len(tp_arr) + 1)
    # all-point interpolation
    mrec = np.concatenate([[0], recall, [1]])
    mpre = np.concatenate([[1], precision, [0]])
    mpre = np.maximum.accumulate(mpre[::-1])[::-1]
    idx = np.where(mrec[1:] != mrec[:-1])[0]
    return float(np.sum((mrec[idx + 1] - mrec[idx]) * mpre[idx + 1]))


def evaluate(reader, folder: Path, limit: int | None = None, progress=None) -> dict:
    truths = load_truth(folder)
    if not truths:
        raise DataSetError(f"{folder / 'images'} holds no photos (.jpg, .jpeg, .png, .bmp or .webp)")
    if limit:
        truths = truths[:limit]
    return {"data": str(folder), **evaluate_truths(reader, truths, progress)}


def evaluate_truths(reader, truths: list[Truth], progress=None, load=None) -> dict:
    """The figures of :func:`evaluate` over ``truths``; ``load`` (a path -> a BGR array) changes
    what the reader is shown, e.g. the photos in black and white (default: the files as they are)."""
    per_group: dict[str, Counter] = {}
    confused: Counter = Counter()
    times = []
    card_preds: dict[str, list] = {}
    agnostic_preds = []
    gt_by_class: dict[str, dict[int, list]] = {}
    gt_agnostic: dict[int, list] = {}
    for i, t in enumerate(truths):
        reading = reader.read(t.image if load is None else load(t.image))
        times.append(reading.ms)
        predicted = set(reading.codes())
        truth = t.codes
        tp = len(predicted & truth)
        # the cards the reader flags uncertain, which the app asks the player to check
        flagged = {c.card for c in reading.cards if c.uncertain}
        g = per_group.setdefault(t.group, Counter())
        g.update(photos=1, tp=tp, pred=len(predicted), truth=len(truth), exact=int(predicted == truth),
                 flagged=len(flagged), flagged_wrong=len(flagged - truth))
        for code, box in t.boxes:
            gt_by_class.setdefault(code, {}).setdefault(i, []).append(box)
            gt_agnostic.setdefault(i, []).append(box)
            # Where a card is lost: its index not found (or thrown out), or found and misread.
            best, best_card = 0.0, None
            for ix in reading.indices:
                o = iou(ix.box, box)
                if o > best:
                    best, best_card = o, ix.card
            found = best >= 0.5
            g.update(idx_truth=1, idx_found=int(found), idx_right=int(found and best_card == code))
        for ix in reading.indices:
            card_preds.setdefault(ix.card, []).append((ix.confidence, i, ix.box))
            agnostic_preds.append((ix.confidence, i, ix.box))
            # what was it really? the best-overlapping true index
            best, best_code = 0.0, None
            for code, box in t.boxes:
                o = iou(ix.box, box)
                if o > best:
                    best, best_code = o, code
            if best >= 0.5 and best_code != ix.card:
                confused[(best_code, ix.card)] += 1
        if progress:
            progress(i + 1, len(truths))
    classes = sorted(set(gt_by_class) | set(card_preds))
    aps = [average_precision(card_preds.get(c, []), gt_by_class.get(c, {})) for c in classes]
    aps = [a for a in aps if a == a]

    def summarise(c: Counter) -> dict:
        return {
            "photos": c["photos"],
            "precision": c["tp"] / c["pred"] if c["pred"] else 1.0,
            "recall": c["tp"] / c["truth"] if c["truth"] else 1.0,
            "exact_hand_rate": c["exact"] / c["photos"] if c["photos"] else 0.0,
            "cards_true": c["truth"], "cards_read": c["pred"], "cards_right": c["tp"],
            # What a player has to mend: cards not read, and cards read that are not there.
            "cards_missed": c["truth"] - c["tp"], "cards_wrong": c["pred"] - c["tp"],
            # True indices with a read index over them (IoU >= 0.5), and of those, read right.
            "indices_found": c["idx_found"] / c["idx_truth"] if c["idx_truth"] else 1.0,
            "found_read_right": c["idx_right"] / c["idx_found"] if c["idx_found"] else 1.0,
            # Cards flagged uncertain (the app marks them to be checked), how many of the wrong
            # ones are among them, and the precision of the cards read without a flag.
            "cards_flagged": c["flagged"], "wrong_flagged": c["flagged_wrong"],
            "wrong_unflagged": c["pred"] - c["tp"] - c["flagged_wrong"],
            "right_flagged": c["flagged"] - c["flagged_wrong"],
            "right_flagged_share": (c["flagged"] - c["flagged_wrong"]) / c["tp"] if c["tp"] else 0.0,
            "unflagged_precision": ((c["tp"] - (c["flagged"] - c["flagged_wrong"])) / (c["pred"] - c["flagged"])
                                    if c["pred"] > c["flagged"] else 1.0),
        }

    total = sum(per_group.values(), Counter())
    return {
        "overall": summarise(total),
        "groups": {g: summarise(c) for g, c in sorted(per_group.items())},
        # None (JSON null) where the photos label no card index: no AP to take (NaN is not JSON)
        "index_map50": float(np.mean(aps)) if aps else None,
        "index_map50_class_agnostic": average_precision(agnostic_preds, gt_agnostic) if gt_agnostic else None,
        "confused": [{"true": a, "read": b, "count": n} for (a, b), n in confused.most_common(10)],
        "median_ms": statistics.median(times) if times else None,
    }
