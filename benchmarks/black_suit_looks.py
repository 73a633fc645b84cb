"""Diagnosis only: how the reader reads the labelled black indices of a group of photos (e.g.
real-dev's ``webcam_WIN``), and who decided a wrong black suit. Nothing here is chosen or
trained on what it shows.

For each labelled club or spade index with a read index over it (IoU >= 0.3): the code it was
read as, and what the suit reader alone says of it (its 48-px crop turned upright by the
way-up reader's angle where the reader reads so, as ``Reader.suit_probs`` does). Counts the
indices read wrong, and of those with the rank right and the suit wrong, how many the suit
reader alone read right (the classifier's split outvoted it). ``--sheet`` writes a contact
sheet of the wrong ones (the crop as cut, and as the suit reader sees it: at the reader settings'
first ``suit_margins``, untilted).

    python benchmarks/black_suit_looks.py --data ../shared/real-dev --group webcam_WIN \\
        [--weights models/weights] [--sheet out.png] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.crops import crop_square  # noqa: E402
from vision.evaluate import iou, load_truth  # noqa: E402
from vision.image import load_image  # noqa: E402
from vision.reader import Reader  # noqa: E402


def looks(reader: Reader, truths) -> list[dict]:
    """One row per labelled black index with a read index over it."""
    rows = []
    for t in truths:
        img = load_image(t.image)
        reads = reader.read_indices(img)
        for code, box in t.boxes:
            if code[-1] not in "SC" or not reads:
                continue
            best = max(reads, key=lambda r: iou(r.box, box))
            if iou(best.box, box) < 0.3:
                continue
            looks = reader.suit_crops(reader.suit, img, [best.box])  # one a margin of the settings
            big = looks[0]
            small = crop_square(img, best.box, reader.classifier.size)[None]
            # the way-up reader is asked once an index, for the probability and the sheet alike
            degrees = reader.way_up.degrees(small) if reader.suit.upright else None
            spade = float(reader.suit_probs(reader.suit, looks, small, degrees)[0, 0])
            rows.append({"image": t.image.name, "true": code, "read": best.card, "suit_reader_spade": round(spade, 3),
                         "box": [round(v, 1) for v in best.box], "_crops": (big, small, degrees)})
    return rows


def tally(rows: list[dict]) -> dict:
    wrong = [r for r in rows if r["read"] != r["true"]]
    swapped = [r for r in wrong if r["read"][:-1] == r["true"][:-1] and r["read"][-1] in "SC"]
    alone_right = [r for r in swapped if (r["suit_reader_spade"] >= 0.5) == (r["true"][-1] == "S")]
    return {"black_indices": len(rows), "read_wrong": len(wrong), "suit_swapped": len(swapped),
            "suit_reader_alone_right": len(alone_right)}


def sheet(reader: Reader, rows: list[dict], path: Path, per_row: int = 6) -> None:
    tiles = []
    for r in rows:
        big, small, degrees = r["_crops"]
        seen = reader.suit_view(reader.suit, big, small, degrees)[0]
        big = big[0]
        pair = np.concatenate([cv2.resize(big, (96, 96), interpolation=cv2.INTER_NEAREST),
                               cv2.resize(seen, (96, 96), interpolation=cv2.INTER_NEAREST)], 1)
        pair = cv2.copyMakeBorder(pair, 14, 0, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(pair, f"{r['true']}>{r['read']} S{r['suit_reader_spade']:.2f}", (1, 11),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 0, 255), 1)
        tiles.append(pair)
    if not tiles:
        return
    tiles += [np.full_like(tiles[0], 255)] * (-len(tiles) % per_row)
    cv2.imwrite(str(path), np.concatenate([np.concatenate(tiles[i:i + per_row], 1)
                                           for i in range(0, len(tiles), per_row)], 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="YOLO-labelled photos (images/, labels/, data.yaml)")
    parser.add_argument("--group", help="only photos of this group (the file name's prefix before '__')")
    parser.add_argument("--weights", type=Path)
    parser.add_argument("--sheet", type=Path, help="write the wrong ones' crops to this PNG")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    reader = Reader(args.weights)
    if reader.suit is None:
        raise SystemExit("this weights folder has no suit reader (suit.onnx)")
    truths = [t for t in load_truth(args.data) if args.group is None or t.group == args.group]
    rows = looks(reader, truths)
    counts = tally(rows)
    print(json.dumps(counts))
    if args.sheet:
        sheet(reader, [r for r in rows if r["read"] != r["true"]], args.sheet)
    if args.json:
        args.json.write_text(json.dumps({"data": str(args.data), "group": args.group, **counts,
                                         "rows": [{k: v for k, v in r.items() if k != "_crops"} for r in rows]},
                                        indent=2))


if __name__ == "__main__":
    main()
