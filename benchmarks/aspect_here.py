"""The aspect probe's figure for the photo as it is, kept from the first read v asked again.

Since session 52 each index read keeps the classifier's top probability of its one framing
(``IndexRead.top``), and the aspect probe (``Settings.aspect_probe``) takes the photo's figure
from those (``Reader.here_prob``) instead of cutting the indices again and asking the way-up
reader and the classifier once more (``Reader.top_prob``, as up to session 51). This reads the
same photos both ways, one reader, alternately (after a warm-up), and reports:

- whether every reading is the same (cards, confidences, boxes, the aspect chosen), and the
  largest difference between the two figures for the photo as it is (0.0: the same to the bit);
- the medians of milliseconds per photo (``Reading.ms``) and the ratio new / old.

    python benchmarks/aspect_here.py --photos ../shared/real-dev/images [--n 200] [--json OUT]

Timing only on real-dev (their cards are not looked at); any photos will do.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.report import report
from vision import Reader
from vision.image import image_files, load_image


def reading_key(reading) -> list:
    """What a reading says, for comparing two: cards with confidences, flags and boxes, and
    the aspect chosen."""
    return [[(c.card, c.confidence, c.uncertain, c.boxes) for c in reading.cards], reading.aspect]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", required=True, help="a folder of photos (searched recursively)")
    ap.add_argument("--n", type=int, default=200, help="photos to read (default 200)")
    ap.add_argument("--weights", default=None, help="weights folder (default: the shipped one)")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    photos = image_files(args.photos)[: args.n]
    if not photos:
        print(f"no photos in {args.photos}", file=sys.stderr)
        return 2
    reader = Reader(args.weights)
    kept = reader.here_prob

    def read(img, old: bool):
        reader.here_prob = reader.top_prob if old else kept  # old: asked again, as up to session 51
        return reader.read(img)

    images = [load_image(p) for p in photos]
    for img in images[:5]:  # warm-up
        read(img, False)
        read(img, True)
    new_ms, old_ms, differ, worst = [], [], [], 0.0
    for k, (path, img) in enumerate(zip(photos, images, strict=True)):
        order = (False, True) if k % 2 == 0 else (True, False)
        got = {}
        for old in order:
            got[old] = read(img, old)
        new_ms.append(got[False].ms)
        old_ms.append(got[True].ms)
        if reading_key(got[False]) != reading_key(got[True]):
            differ.append(path.name)
        indices = reader._read_cards(img, True).indices
        if indices:
            worst = max(worst, abs(float(kept(img, indices)) - float(reader.top_prob(img, indices))))
    reader.here_prob = kept
    out = {
        "photos": len(photos),
        "readings_that_differ": differ,
        "largest_difference_of_the_figure": worst,
        "median_ms_old": round(statistics.median(old_ms), 2),
        "median_ms_new": round(statistics.median(new_ms), 2),
        "ratio_new_over_old": round(statistics.median(new_ms) / statistics.median(old_ms), 4),
        "ratio_of_totals": round(sum(new_ms) / sum(old_ms), 4),
    }
    report(out, args.json, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
