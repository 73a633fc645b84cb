"""Where a card's two indices lie, as the reader finds them: the geometry that tells one card's
two indices from two cards' (synthetic labelled photos only, never ../shared/real-dev).

On each photo the reader's index reads are matched to the labelled indices (IoU >= 0.3), and
the way-up reader is asked which way every read index faces. For each two read indices within
``--within`` index sizes of each other: whether they are one card's (their labels share a code:
a photo holds one deck) and how they lie, in the frame of one of them (``vision.reader.
card_frame``): ``cos``, the cosine between the ways they face (one card's face opposite ways);
``along`` and ``across``, how far the other lies down and to the right of it, in index sizes
(the larger of the two boxes). Prints percentiles of each for one card's pairs and for two
cards' pairs, the pairs of one card read as two codes (the errors that reading a card's two
indices together could mend), and how many pairs of each kind a rule with given bounds takes.

    python benchmarks/card_pairs.py --data data/pairs28 --data data/pairs28-showdown \\
        [--photos 300] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.cards import CODES  # noqa: E402
from vision.crops import crop_square  # noqa: E402
from vision.evaluate import iou, synthetic_validation  # noqa: E402
from vision.image import load_image  # noqa: E402
from vision.reader import Reader, card_frame, pair_odds, suit_twin  # noqa: E402


def matched_code(box, labelled, least: float = 0.3) -> str | None:
    """The code of the labelled index (``labelled``: (code, box) pairs) that ``box`` overlaps
    most, where that overlap is at least ``least`` (IoU); else None."""
    best = max(labelled, key=lambda cb: iou(box, cb[1]), default=None)
    return best[0] if best is not None and iou(box, best[1]) >= least else None


def pairs_of(reader: Reader, truths, within: float = 9.0) -> list[dict]:
    """One row per two read indices of a photo lying within ``within`` index sizes, each
    matched to a labelled index."""
    rows = []
    for t in truths:
        img = load_image(t.image)
        reads = reader.read_indices(img)
        matched = []
        for r in reads:
            code = matched_code(r.box, t.boxes)
            if code is not None:
                matched.append((r, code))
        if len(matched) < 2:
            continue
        crops = np.stack([crop_square(img, r.box, reader.classifier.size) for r, _ in matched])
        ups = reader.way_up(crops)
        for i in range(len(matched)):
            for j in range(i + 1, len(matched)):
                (a, code_a), (b, code_b) = matched[i], matched[j]
                cos, along, across = card_frame(a.box, ups[i], b.box, ups[j])
                if np.hypot(along, across) > within:
                    continue
                rows.append({"image": t.image.name, "one_card": code_a == code_b, "true": [code_a, code_b],
                             "read": [a.card, b.card], "cos": round(cos, 3), "along": round(along, 3),
                             "across": round(across, 3), "iou": round(iou(a.box, b.box), 3),
                             # each one's probability of the other's code, and of the code both
                             # together find likeliest (their probabilities multiplied)
                             "p_other": [round(float(a.probs[CODES.index(b.card)]), 4),
                                         round(float(b.probs[CODES.index(a.card)]), 4)],
                             "both": both_read(a.probs, b.probs)})
    return rows


def both_read(pa: np.ndarray, pb: np.ndarray) -> list:
    """The code two indices' probabilities multiplied find likeliest (no index ruled out), its
    share of the product, and each index's own probability of it."""
    k, share, _ = pair_odds(pa, pb)
    return [CODES[k], round(share, 4), round(float(pa[k]), 4), round(float(pb[k]), 4)]


def percentiles(values) -> dict:
    v = np.asarray(values, np.float64)
    if len(v) == 0:
        return {}
    return {f"p{q}": round(float(np.percentile(v, q)), 2) for q in (1, 5, 25, 50, 75, 95, 99)}


def summary(rows: list[dict], bounds: dict) -> dict:
    one = [r for r in rows if r["one_card"]]
    two = [r for r in rows if not r["one_card"]]
    split = [r for r in one if r["read"][0] != r["read"][1]]

    def taken(r):
        return (r["cos"] <= bounds["cos"] and bounds["along"][0] <= r["along"] <= bounds["along"][1]
                and bounds["across"][0] <= r["across"] <= bounds["across"][1])

    def twins(r):
        return r["read"][0] != r["read"][1] and suit_twin(r["read"][0]) == r["read"][1]

    return {
        "pairs": len(rows), "one_card": len(one), "two_cards": len(two),
        "one_card_read_as_two_codes": len(split),
        "of_those_suit_twins": sum(twins(r) for r in split),
        "one_card_geometry": {k: percentiles([r[k] for r in one]) for k in ("cos", "along", "across")},
        "two_cards_geometry": {k: percentiles([r[k] for r in two]) for k in ("cos", "along", "across")},
        "bounds": bounds,
        "taken_one_card": sum(map(taken, one)), "taken_two_cards": sum(map(taken, two)),
        "taken_one_card_read_as_two_codes": sum(map(taken, split)),
        "taken_two_cards_read_as_suit_twins": sum(taken(r) and twins(r) for r in two),
        "taken_one_card_read_as_suit_twins": sum(taken(r) and twins(r) for r in split),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, action="append", required=True)
    parser.add_argument("--photos", type=int, default=300, help="validation photos per data set")
    parser.add_argument("--weights", type=Path)
    parser.add_argument("--within", type=float, default=9.0, help="pairs at most this many index sizes apart")
    parser.add_argument("--cos", type=float, default=-0.5, help="a rule's bound: facing at most this cosine")
    parser.add_argument("--along", type=float, nargs=2, default=(1.5, 5.5))
    parser.add_argument("--across", type=float, nargs=2, default=(0.0, 4.0))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    reader = Reader(args.weights)
    if reader.way_up is None:
        raise SystemExit("this weights folder has no way-up reader (way_up.onnx)")
    bounds = {"cos": args.cos, "along": list(args.along), "across": list(args.across)}
    out = {}
    for data in args.data:
        rows = pairs_of(reader, synthetic_validation(data, args.photos), args.within)
        out[str(data)] = {"summary": summary(rows, bounds), "rows": rows}
        print(data, json.dumps(out[str(data)]["summary"]), flush=True)
    if args.json:
        args.json.write_text(json.dumps({"weights": str(args.weights), "photos": args.photos, **out}, indent=1))


if __name__ == "__main__":
    main()
