"""Card precision and recall against the reader's card threshold (``Settings.min_card``), on
synthetic validation photos only (never on ../shared/real-dev): the figures behind the
threshold shipped in ``models/weights/reader.json``.

Each photo is read once with no card threshold; every card read is kept with its confidence
and whether it is in the photo; then each threshold is applied to those reads.

    python benchmarks/reader_thresholds.py --data data/synth2 [--photos 300] [--weights models/weights]

With ``--weights`` twice (and ``--data`` several times) two folders' curves are printed side by
side on the same photos, e.g. to tell a detector that finds fewer but surer cards from one
that is only set at another threshold (session 16); ``--json`` writes them too.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.evaluate import synthetic_validation  # noqa: E402
from vision.reader import Reader  # noqa: E402

THRESHOLDS = (0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


def sweep(reads: list[list[tuple[float, bool]]], n_true: int, thresholds=THRESHOLDS) -> list[tuple]:
    """(threshold, precision, recall) over photos whose card reads are (confidence, right)."""
    rows = []
    for thr in thresholds:
        kept = [right for photo in reads for conf, right in photo if conf >= thr]
        precision = sum(kept) / len(kept) if kept else 1.0
        rows.append((thr, precision, sum(kept) / n_true if n_true else 1.0))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, type=Path, action="append",
                        help="a folder written by `ginsight dataset` (repeat for several)")
    parser.add_argument("--photos", type=int, default=300, help="validation photos (default 300)")
    parser.add_argument("--weights", type=Path, action="append",
                        help="a weights folder (repeat for two side by side; default models/weights)")
    parser.add_argument("--thresholds", type=lambda v: tuple(float(x) for x in v.split(",")), default=THRESHOLDS,
                        help="comma-separated card thresholds (default %(default)s)")
    parser.add_argument("--json", type=Path, help="also write the curves to this file")
    args = parser.parse_args()

    folders = args.weights or [ROOT / "models" / "weights"]
    readers = {folder: Reader(folder) for folder in folders}  # loaded once, for every data set
    shipped = {folder: reader.settings.min_card for folder, reader in readers.items()}
    for reader in readers.values():
        reader.settings = dataclasses.replace(reader.settings, min_card=0.0)
    out = {}
    for data in args.data:
        photos = synthetic_validation(data, args.photos)
        curves = {}
        for folder, reader in readers.items():
            reads, n_true = [], 0
            for t in photos:
                truth = t.codes
                n_true += len(truth)
                reads.append([(c.confidence, c.card in truth) for c in reader.read(t.image).cards])
            curves[str(folder)] = {"threshold": shipped[folder],
                                   "rows": [[thr, round(p, 4), round(r, 4)] for thr, p, r in
                                            sweep(reads, n_true, args.thresholds)]}
        out[str(data)] = {"photos": len(photos), "curves": curves}
        print(f"\n{data}: card precision and recall by card threshold, {len(photos)} synthetic validation photos")
        print("| min_card | " + " | ".join(f"{f} (at {c['threshold']}): precision, recall" for f, c in curves.items())
              + " |")
        print("|---|" + "---|" * len(curves))
        for i, thr in enumerate(args.thresholds):
            print(f"| {thr} | " + " | ".join(f"{c['rows'][i][1]:.3f}, {c['rows'][i][2]:.3f}" for c in curves.values())
                  + " |")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
