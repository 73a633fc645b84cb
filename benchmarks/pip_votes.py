"""What a black number card's pips say of its suit, as the reader finds them (``vision.pips``),
on synthetic labelled photos only (never ../shared/real-dev).

On each photo the reader's index reads are matched to the labelled indices (IoU >= 0.3); for
each read of a black number card (read so, and labelled a black card), the pip reader's
confident answers in the card's pip region are counted: how many as its true suit, how many
as the other. Prints how often a card's pips are found at all, how often they are right, and
what ``pip_suit`` at each count would mend (a read of the wrong black suit turned right) and
break (a right read turned wrong); ``--montage`` writes the pip crops of some cards, for the eye.

    python benchmarks/pip_votes.py --weights runs/s32/w-pips --data data/showdown23 \\
        --data data/synth2 --photos 300 [--sure 0.9] [--json OUT] [--montage OUT.png]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.card_pairs import matched_code  # noqa: E402
from vision.crops import crop_squares  # noqa: E402
from vision.evaluate import synthetic_validation  # noqa: E402
from vision.image import load_image  # noqa: E402
from vision.pips import NUMBER_RANKS, pip_crops  # noqa: E402
from vision.reader import Reader  # noqa: E402


def votes_of(reader: Reader, truths, sure: float, montage: list | None = None) -> list[dict]:
    rows = []
    for t in truths:
        img = load_image(t.image)
        reads = reader.read_indices(img)
        asked = []
        for r in reads:
            if r.card[0] not in NUMBER_RANKS or r.card[1] not in "SC":
                continue
            code = matched_code(r.box, t.boxes)
            if code is not None and code[1] in "SC":
                asked.append((r, code))
        if not asked:
            continue
        ups = reader.way_up(crop_squares(img, np.array([r.box for r, _ in asked], np.float32), reader.way_up.size))
        others = [r.box for r in reads]
        for (r, true), up in zip(asked, ups, strict=True):
            crops = pip_crops(img, r.box, up, others)
            p = reader.pips(crops) if len(crops) else np.zeros((0, 3), np.float32)
            spades, clubs = int((p[:, 0] >= sure).sum()), int((p[:, 1] >= sure).sum())
            right, wrong = (spades, clubs) if true[1] == "S" else (clubs, spades)
            rows.append({"image": t.image.name, "true": true, "read": r.card, "blobs": len(crops),
                         "right": right, "wrong": wrong})
            if montage is not None and len(crops) and len(montage) < 40:
                montage.append((true, crops[:12]))
    return rows


def summary(rows: list[dict], counts=(1, 2, 3)) -> dict:
    out = {"reads": len(rows), "read_wrong_suit": sum(r["read"] != r["true"] for r in rows),
           "with_blobs": sum(r["blobs"] > 0 for r in rows),
           "with_a_sure_pip": sum(r["right"] + r["wrong"] > 0 for r in rows),
           "pips_right": sum(r["right"] for r in rows), "pips_wrong": sum(r["wrong"] for r in rows)}
    for n in counts:
        # the rule of vision.reader.Reader.check_pips at pip_suit n ("none": none of its own
        # suit), and a looser one for comparison ("ahead": n more of the other than of its own)
        for rule in ("none", "ahead"):
            mended = broken = 0
            for r in rows:
                own_suit_true = r["read"] == r["true"]
                own, other = (r["right"], r["wrong"]) if own_suit_true else (r["wrong"], r["right"])
                if (other >= n and own == 0) if rule == "none" else other - own >= n:
                    if own_suit_true:
                        broken += 1
                    else:
                        mended += 1
            out[f"pip_suit={n} {rule}"] = {"mended": mended, "broken": broken}
    return out


def write_montage(path: Path, montage: list) -> None:
    import cv2

    from vision.pips import SIDE

    rows = []
    for true, crops in montage:
        row = np.zeros((SIDE, SIDE * 13, 3), np.uint8)
        cv2.putText(row, true, (1, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 255, 0), 1)
        for k, c in enumerate(crops):
            row[:, SIDE * (k + 1):SIDE * (k + 2)] = c
        rows.append(row)
    img = np.vstack(rows)
    cv2.imwrite(str(path), cv2.resize(img, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, action="append", required=True)
    parser.add_argument("--photos", type=int, default=300, help="validation photos per data set")
    parser.add_argument("--weights", type=Path, required=True, help="a weights folder with pips.onnx")
    parser.add_argument("--sure", type=float, default=0.9)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--montage", type=Path)
    args = parser.parse_args()
    reader = Reader(args.weights)
    if reader.pips is None or reader.way_up is None:
        raise SystemExit(f"{args.weights} has no pip reader (pips.onnx) or no way-up reader (way_up.onnx)")
    out, montage = {}, [] if args.montage else None
    for data in args.data:
        rows = votes_of(reader, synthetic_validation(data, args.photos), args.sure, montage)
        out[str(data)] = {"summary": summary(rows), "rows": rows}
        print(data, json.dumps(out[str(data)]["summary"]), flush=True)
    if args.montage:
        write_montage(args.montage, montage)
    if args.json:
        args.json.write_text(json.dumps({"weights": str(args.weights), "photos": args.photos, "sure": args.sure,
                                         **out}, indent=1))


if __name__ == "__main__":
    main()
