"""How many photos take the reader's small-index look (``Settings.small_side``: a photo whose
indices read are small is read again with the detector also at ``small_scales``), per group,
and the median side of the indices first read. Diagnosis only: it says where the look can
change anything; it reads no card against a label (real-dev may be counted, it is not tuned on).

A folder with ``summary.json`` (written by ``ginsight dataset``) counts its first ``--photos``
validation photos; any other labelled folder (``images/``, as ``ginsight eval`` takes it)
counts every photo, grouped as ``ginsight eval`` groups them.

    python benchmarks/small_looks.py --data ../shared/real-dev --data data/synth2 \\
        [--photos 800] [--weights models/weights] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.evaluate import load_truth, synthetic_validation  # noqa: E402
from vision.image import is_grey  # noqa: E402
from vision.reader import Reader, median_side, takes_small_look  # noqa: E402


def photos(folder: Path, limit: int | None) -> list[tuple[str, Path]]:
    """(group, path) of each photo counted in ``folder``."""
    if (folder / "summary.json").exists():
        return [(t.group, t.image) for t in synthetic_validation(folder, limit)]
    return [(t.group, t.image) for t in load_truth(folder)][:limit]


def count(reader: Reader, items: list[tuple[str, Path]], load=cv2.imread) -> dict:
    """Per group (and ``all``): photos, photos that read an index at the usual looks, photos that
    take the small look, and the median of the photos' median index sides (px)."""
    s = reader.settings
    groups: dict[str, dict] = defaultdict(lambda: {"photos": 0, "read": 0, "small_look": 0, "sides": []})
    for group, path in items:
        img = load(str(path))
        if img is None:
            raise SystemExit(f"cannot read photo: {path}")
        grey = reader.grey_suit is not None and is_grey(img)
        reads = reader._read_at(img, s.det_scales, grey)
        for g in (group, "all"):
            row = groups[g]
            row["photos"] += 1
            if reads:
                side = median_side(reads)
                row["read"] += 1
                row["sides"].append(side)
                row["small_look"] += takes_small_look(reads, s)
    return {g: {"photos": r["photos"], "read": r["read"], "small_look": r["small_look"],
                "median_side": round(statistics.median(r["sides"]), 1) if r["sides"] else None}
            for g, r in groups.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, action="append", required=True, help="a labelled folder (repeatable)")
    ap.add_argument("--photos", type=int, default=None, help="the first N photos of each folder (default all)")
    ap.add_argument("--weights", type=Path, default=ROOT / "models" / "weights")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    args = ap.parse_args(argv)
    reader = Reader(args.weights)
    out = {"small_side": reader.settings.small_side, "small_scales": list(reader.settings.small_scales), "sets": {}}
    for folder in args.data:
        if not (folder / "images").is_dir():
            raise SystemExit(f"not a labelled folder (no images/): {folder}")
        out["sets"][str(folder)] = res = count(reader, photos(folder, args.photos))
        for g, r in sorted(res.items()):
            print(f"{folder} {g}: {r['photos']} photos, {r['read']} read an index, {r['small_look']} take the "
                  f"small look (median index side {r['median_side']} px)")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
