"""Two model folders side by side on synthetic validation data only (never on ../shared/real-dev):
the figures by which a training run is kept or dropped.

For each data set written by ``ginsight dataset`` and each weights folder:
- the classifier's top-1 on the validation crops at its own side (turned upright as the reader turns them),
  as they are and turned black and white, and the share of clubs read as spades and of spades
  read as clubs: from ``crops/``, or from ``crops-<side>/`` for a
  classifier of another side (the crops folder of the same data set written again with the
  same seed and ``--crop <side>``: the same boxes at another resolution); "n/a" when neither;
  the classifier alone: a suit reader (``suit.onnx``) has its say only in the photos' figures;
- the whole reader on the first ``--photos`` validation photos: card precision and recall,
  indices found and read right, and the cards missed and the cards read wrong (what a player
  would have to mend), as they are and in black and white.

    python benchmarks/compare_weights.py --a models/weights --b /tmp/new-weights \\
        --data data/synth2 --data data/synth4 [--photos 300] [--json OUT]
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

from models.classifier import load_crops  # noqa: E402
from vision.crops import to_grey  # noqa: E402
from vision.evaluate import evaluate_truths, synthetic_validation  # noqa: E402
from vision.reader import Reader  # noqa: E402


def grey_photo(path: Path) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def crop_reads(reader: Reader, x: np.ndarray) -> np.ndarray:
    """The class each crop is read as, the classifier asked as the reader asks it (turned upright
    by the way-up reader: ``Reader.crop_probs``)."""
    return reader.crop_probs(x).argmax(1)


def swapped(read: np.ndarray, y: np.ndarray, true_suit: int, read_suit: int) -> float | None:
    """The share of crops of ``true_suit`` read as a card of ``read_suit`` (suit = class // 13:
    0 spades, 3 clubs), the confusion real webcam photos show most."""
    mine = (y < 52) & (y // 13 == true_suit)
    return float(((read[mine] < 52) & (read[mine] // 13 == read_suit)).mean()) if mine.any() else None


def crops_for(data: Path, side: int) -> Path | None:
    """The data set's validation crops at ``side`` pixels: ``crops/``, or ``crops-<side>/`` (the
    same boxes cut at another side: ``ginsight dataset`` with the same seed and ``--crop``)."""
    for folder in (data / "crops", data / f"crops-{side}"):
        shard = next(iter(sorted(folder.glob("val-*.npz"))), None)
        if shard is not None and np.load(shard)["x"].shape[1] == side:
            return folder
    return None


LOOKS = {"photos": None, "photos_grey": grey_photo}  # the photos as they are, and made black and white


def measure(reader: Reader, data: Path, truths: list, loaded: dict, looks: tuple[str, ...] = tuple(LOOKS)) -> dict:
    """``loaded``: crops folder -> (x, grey x, y), filled here, shared by both weights folders;
    ``looks``: the photos read as they are ("photos") and made black and white ("photos_grey")."""
    side = reader.networks.classifier.size
    folder = crops_for(data, side)
    out = {"crop_side": side, "crops": None, "crop_top1": None, "crop_top1_grey": None,
           "clubs_read_as_spades": None, "spades_read_as_clubs": None}
    if folder is not None:
        if folder not in loaded:
            x, y = load_crops(folder, "val")
            loaded[folder] = (x, np.repeat(to_grey(x)[..., None], 3, axis=3), y)
        x, grey_x, y = loaded[folder]
        read, read_grey = crop_reads(reader, x), crop_reads(reader, grey_x)
        out.update(crops=len(y), crop_top1=float((read == y).mean()), crop_top1_grey=float((read_grey == y).mean()),
                   clubs_read_as_spades=swapped(read, y, 3, 0), spades_read_as_clubs=swapped(read, y, 0, 3))
    for name in looks:
        o = evaluate_truths(reader, truths, load=LOOKS[name])["overall"]
        out[name] = {k: o[k] for k in ("photos", "precision", "recall", "exact_hand_rate", "indices_found",
                                       "found_read_right", "cards_true", "cards_read", "cards_right",
                                       "cards_missed", "cards_wrong")}
    return out


def compare(a: Path, b: Path, data: Path, photos: int, looks: tuple[str, ...] = tuple(LOOKS)) -> dict:
    """Both folders' figures on one data set, its photos and each side's crops loaded once."""
    truths = synthetic_validation(data, photos)
    loaded: dict = {}
    return {k: measure(Reader(w), data, truths, loaded, looks) for k, w in (("a", a), ("b", b))}


def _f(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, type=Path, help="a weights folder (e.g. the shipped models/weights)")
    parser.add_argument("--b", required=True, type=Path, help="another weights folder")
    parser.add_argument("--data", required=True, type=Path, action="append", help="a folder written by "
                        "`ginsight dataset` (repeat for several)")
    parser.add_argument("--photos", type=int, default=300, help="validation photos per data set (default 300)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--colour-only", action="store_true",
                        help="the photos only as they are, not also made black and white (where the two folders "
                             "differ only in what a black-and-white photo does not ask, e.g. the black suit reader)")
    parser.add_argument("--grey-only", action="store_true",
                        help="the photos only made black and white (where the two folders differ only in what a "
                             "colour photo does not ask)")
    args = parser.parse_args()
    if args.colour_only and args.grey_only:
        parser.error("--colour-only or --grey-only, not both")
    looks = ("photos",) if args.colour_only else ("photos_grey",) if args.grey_only else tuple(LOOKS)
    figures = {str(d): compare(args.a, args.b, d, args.photos, looks) for d in args.data}
    print(f"a = {args.a}, b = {args.b}")
    print("| data | figure | a | b |")
    print("|---|---|---|---|")
    for d, ab in figures.items():
        a, b = ab["a"], ab["b"]
        print(f"| {d} | crop top-1 ({a['crops']} / {b['crops']} crops, {a['crop_side']} / {b['crop_side']} px) "
              f"| {_f(a['crop_top1'])} | {_f(b['crop_top1'])} |")
        print(f"| {d} | crop top-1, grey | {_f(a['crop_top1_grey'])} | {_f(b['crop_top1_grey'])} |")
        for k in ("clubs_read_as_spades", "spades_read_as_clubs"):
            print(f"| {d} | crops: {k.replace('_', ' ')} | {_f(a[k])} | {_f(b[k])} |")
        for name in looks:
            for k in ("precision", "recall", "indices_found", "found_read_right"):
                print(f"| {d} | {name} ({a[name]['photos']}): {k} | {a[name][k]:.3f} | {b[name][k]:.3f} |")
            mend = [f"{w[name]['cards_missed']} / {w[name]['cards_wrong']}" for w in (a, b)]
            print(f"| {d} | {name}: cards missed / wrong (of {a[name]['cards_true']}) | {mend[0]} | {mend[1]} |")
    if args.json:
        args.json.write_text(json.dumps({"a": str(args.a), "b": str(args.b), "figures": figures}, indent=2))


if __name__ == "__main__":
    main()
