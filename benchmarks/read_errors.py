"""Why cards are missed, and what the wrong ones are: for every labelled card the reader does
not report, which step lost it; for every card it reports that the labels do not hold, what lies
under it.

Each photo is read as the shipped reader reads it, and once more (at the aspect the reader kept:
a square photo maybe widened, ``Looks.aspects``) with every detector box down to ``--low`` kept
and nothing dropped (no ``min_index``, no pairing), so that each labelled index can be traced
(the networks' answers are remembered, so that second read asks the detector nothing new). A
labelled card not reported (or reported as another code) falls in the first of these that holds:

- ``no box``: no detector box at ``detection.conf`` overlaps any of its indices (IoU >= 0.3);
  ``low box`` if one does at ``--low``;
- ``read none``: a box at ``detection.conf`` overlaps, but the classifier reads it likeliest as no
  index;
- ``read other``: boxes found, but each is read likeliest as another code (the commonest
  codes are listed);
- ``read weak``: read likeliest as its code, but under ``min_index``;
- ``paired away``: read as its code, but read together with another index as one card
  (``read_as_pairs``) as another code;
- ``rules``: an index read as its code was kept (pairing done), and the card rules
  (``group_indices``: one card per code, the suit twin, ``min_card``) read the card away.

A card reported that the labels do not hold is ``misread`` when its boxes lie on a labelled
index whose card is not reported, ``read twice`` when they lie only on indices of cards reported
too, and ``unlabelled`` when they lie on no labelled index (a false alarm, or a card the labels
leave out: real-dev's leave out most cards cut by the photo's edge). ``--errata FILE`` (a JSON
list of {"image", "card", "box", "note"}: cards seen by eye on unlabelled places) says which
unlabelled reads are such cards, read right or not; the labels themselves are never changed.
An erratum with ``"labelled": CODE`` is a labelled index whose label is wrong by eye: the card
there is ``card``, not CODE. A card read there as ``card`` is then ``misread, the label wrong by
eye``, and the labelled card missed so is ``the label wrong by eye`` (counted, not hidden).

``--labelled``: each missed card's labelled indices are also read as the reader reads a box
(its crops, the way-up reader, the suit reader; the detector's place and score taken by the
label's box and 1), so that a card lost by the detector (``no box``, ``low box``) is told from
one the classifier could not read even where its index is known: per group, the missed cards
with a labelled index read likeliest as their own code.

Diagnosis only: it changes nothing. On real-dev (validation only) it says where to look; any
change is decided on synthetic photos.

    python benchmarks/read_errors.py --data ../shared/real-dev [--data data/synth4 --photos 300]
        [--errata benchmarks/real_dev_errata.json] [--labelled] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.reader_steps import remembering  # noqa: E402
from vision.detect import Found, find_indices  # noqa: E402
from vision.evaluate import iou, load_truth, synthetic_validation  # noqa: E402
from vision.grouping import detector_score  # noqa: E402
from vision.image import load_image, stretch  # noqa: E402
from vision.looks import stretch_scale, unstretch_box, unstretch_index  # noqa: E402
from vision.reader import Networks, Reader  # noqa: E402
from vision.settings import Settings  # noqa: E402

MATCH = 0.3  # IoU for a box to be a labelled index's


def truths_of(folder: Path, photos: int | None):
    if (folder / "summary.json").exists():
        return synthetic_validation(folder, photos)
    return load_truth(folder)[:photos]


class FixedBoxes:
    """A stand-in detector that finds exactly ``boxes``, each at score 1."""

    def __init__(self, boxes: np.ndarray) -> None:
        self.boxes = boxes

    def __call__(self, img, conf: float, iou: float, scales) -> Found:
        return Found(self.boxes, np.ones(len(self.boxes), np.float32))


def labelled_reads(reader: Reader, img, boxes, settings: Settings) -> list[list]:
    """The reader's read of each of ``boxes`` (in ``img``'s pixels) as if its detector had
    found exactly them at score 1: [code, probability] each, "none" where it reads no index
    (the classifier's "no index" likeliest), read with ``settings`` (min_index 0, no pairing)."""
    boxes = np.array(boxes, np.float32).reshape(-1, 4)
    boxed = Reader(networks=replace(reader.networks, detector=FixedBoxes(boxes)), settings=settings)
    reads, _, _ = boxed.read_indices(img, zoom=False)
    out = []
    for box in boxes:
        same = [r for r in reads if np.allclose(r.box, box, atol=1e-3)]
        out.append([same[0].card, round(float(same[0].probs.max()), 3)] if same else ["none", None])
    return out


def causes(reader: Reader, truths, low: float, errata: list[dict] | None = None, labelled: bool = False) -> dict:
    shipped = reader.settings
    loose = shipped.changed(**{"detection.conf": low, "classification.min_index": 0.0, "grouping.pair_share": 0.0})
    tracer = Reader(networks=reader.networks, settings=loose)
    tally: dict[str, Counter] = defaultdict(Counter)
    read_as: dict[str, Counter] = defaultdict(Counter)
    rows, wrong = [], []
    for t in truths:
        img = load_image(t.image)
        reading = reader.read(img)  # as shipped: a square photo maybe read widened (Settings.aspects)
        reads, read_cards = list(reading.indices), list(reading.cards)
        cards = {c.card for c in read_cards}
        for c in read_cards:
            if c.card not in t.codes:
                row = wrong_card(c, t, cards, errata or [], img.shape)
                tally[t.group][row["kind"]] += 1
                wrong.append(row)
        # traced in the photo the cards were read from: widened where the reader kept that read
        seen = stretch(img, reading.aspect)
        scale = stretch_scale(img, seen)
        det_boxes, det_scores = find_indices(reader.networks.detector, seen, loose.detection)
        every, _, _ = tracer.read_indices(seen, zoom=False)
        det_boxes = [unstretch_box(b, scale) for b in det_boxes]
        every = [unstretch_index(r, scale) for r in every]
        by_code = defaultdict(list)
        for code, box in t.boxes:
            by_code[code].append(box)
        for code, boxes in by_code.items():
            tally[t.group]["cards"] += 1
            if code in cards:
                continue
            mine = [r for r in every if max(iou(r.box, b) for b in boxes) >= MATCH]
            strong = [r for r in mine if detector_score(r) >= shipped.detection.conf]
            boxed = [s for b0, s in zip(det_boxes, det_scores, strict=True)
                     if max(iou(b0, b) for b in boxes) >= MATCH]
            kept = [r for r in reads if r.card == code and max(iou(r.box, b) for b in boxes) >= MATCH]
            if any(e["labelled"] == code and e["card"] in cards for e in wrong_labels(errata or [], t, boxes)):
                cause = MISLABELLED  # the card there, by eye, is read
            elif kept:
                cause = "rules"
            elif not strong:
                # a box the classifier reads likeliest as no index, or only weaker boxes, or none
                cause = ("read none" if any(sc >= shipped.detection.conf for sc in boxed)
                         else "low box" if boxed else "no box")
            elif all(r.card != code for r in strong):
                cause = "read other"
                for r in strong:
                    read_as[t.group][f"{code}->{r.card}"] += 1
            elif all(r.confidence < shipped.classification.min_index for r in strong if r.card == code):
                cause = "read weak"
            else:
                cause = "paired away"  # read as its code, then read with another index as another
            tally[t.group][cause] += 1
            row = {"image": t.image.name, "card": code, "cause": cause,
                   "reads": [[r.card, round(r.confidence, 3), round(detector_score(r), 3)] for r in mine]}
            if labelled:
                sx, sy = scale
                row["labelled"] = labelled_reads(reader, seen, [(b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy)
                                                               for b in boxes], loose)
                mine_read = [q for c, q in row["labelled"] if c == code]
                if mine_read:
                    tally[t.group][LABELLED[0]] += 1
                if any(q >= SURE for q in mine_read):
                    tally[t.group][LABELLED[1]] += 1
            rows.append(row)
    return {"groups": {g: dict(c) for g, c in tally.items()},
            "read_as": {g: dict(c.most_common(12)) for g, c in read_as.items()}, "missed": rows,
            "wrong": wrong}


SURE = 0.5  # --labelled: a labelled index read as its card at this probability or more
LABELLED = ("missed, a labelled index read as it", "missed, a labelled index read as it at 0.5+")  # not causes
MISLABELLED = "the label wrong by eye"  # a missed card's cause: the card there is another, read
WRONG_KINDS = ("misread", "misread, the label wrong by eye", "read twice", "unlabelled",
               "unlabelled, read right by eye", "unlabelled, read wrong by eye")


def errata_at(errata: list[dict], truth, boxes) -> list[dict]:
    """The errata of ``truth``'s photo lying on one of ``boxes``."""
    return [e for e in errata if e["image"] == truth.image.name
            and max(iou(b, e["box"]) for b in boxes) >= MATCH]


def wrong_labels(errata: list[dict], truth, boxes) -> list[dict]:
    """The errata (with ``"labelled"``) saying a label of ``truth``'s photo lying on one of
    ``boxes`` is wrong by eye."""
    return [e for e in errata_at(errata, truth, boxes) if "labelled" in e]


def wrong_card(card, truth, cards: set[str], errata: list[dict], shape) -> dict:
    """What lies under a reported card that the labels do not hold."""
    under = sorted({code for code, tb in truth.boxes if max(iou(b, tb) for b in card.boxes) >= MATCH})
    if under:
        kind = "read twice" if all(code in cards for code in under) else "misread"
        if kind == "misread" and any(e["labelled"] in under and e["card"] == card.card
                                     for e in wrong_labels(errata, truth, card.boxes)):
            kind = "misread, the label wrong by eye"
    else:
        kind = "unlabelled"
        seen = [e for e in errata_at(errata, truth, card.boxes) if "labelled" not in e]
        if seen:
            kind += ", read right by eye" if seen[0]["card"] == card.card else ", read wrong by eye"
    h, w = shape[:2]
    edge = any(min(b[0], b[1], w - b[2], h - b[3]) < 0.02 * max(w, h) for b in card.boxes)
    return {"image": truth.image.name, "card": card.card, "kind": kind, "under": under,
            "confidence": round(card.confidence, 3), "uncertain": card.uncertain, "at_edge": edge,
            "boxes": [[round(v, 1) for v in b] for b in card.boxes]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, action="append", required=True)
    ap.add_argument("--photos", type=int, default=None)
    ap.add_argument("--weights", type=Path, default=None)
    ap.add_argument("--low", type=float, default=0.02, help="detector score kept for tracing")
    ap.add_argument("--errata", type=Path, default=None,
                    help="cards seen by eye where the labels have none, or where a label is wrong")
    ap.add_argument("--labelled", action="store_true",
                    help="also read each missed card's labelled indices as the reader reads a box")
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args()
    errata = json.loads(a.errata.read_text()) if a.errata else []
    weights = a.weights or Path(__file__).resolve().parents[1] / "models" / "weights"
    reader = Reader(weights, networks=remembering(Networks.load(weights)))
    out = {}
    for folder in a.data:
        res = causes(reader, truths_of(folder, a.photos), a.low, errata, a.labelled)
        out[str(folder)] = res
        for g, c in res["groups"].items():
            miss = {k: v for k, v in sorted(c.items()) if k != "cards" and k not in WRONG_KINDS + LABELLED}
            wrong = {k: v for k, v in sorted(c.items()) if k in WRONG_KINDS}
            print(f"{folder} {g}: {c.get('cards', 0)} cards, {sum(miss.values())} missed:",
                  ", ".join(f"{k} {v}" for k, v in miss.items()))
            print(f"   {sum(wrong.values())} wrong:", ", ".join(f"{k} {v}" for k, v in wrong.items()))
            if res["read_as"].get(g):
                print("   read as:", res["read_as"][g])
            if a.labelled:
                print(f"   of the {sum(miss.values())} missed, {c.get(LABELLED[0], 0)} with a labelled index "
                      f"read as their code ({c.get(LABELLED[1], 0)} at {SURE} or more; the label's box given "
                      "to the reader)")
    if a.json:
        a.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
