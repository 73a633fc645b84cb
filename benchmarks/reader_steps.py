"""What each step of the reader buys: cards missed and read wrong with every step on, and with
each step switched off in turn, on the same labelled synthetic photos (never on
../shared/real-dev); and, with ``--time``, each step's cost in reading time, side by side.

The table of ``docs/reader.md`` comes from this script. Each step exists for some photos more
than others (the stretched looks for squeezed photos, the mirror check for mirrored ones, the
black-and-white photos): ``--variant`` shows the photos so.

    python benchmarks/reader_steps.py --data data/val-mixed --data data/val-held --photos 200 \\
        [--variant grey|squeezed|flipped] [--time 60] [--json OUT]

Each network is asked once per distinct input and its answer kept, so every step is measured
on exactly the same network answers, in about the time of two or three reads of the photos.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import machine, report  # noqa: E402
from vision.evaluate import evaluate_truths, synthetic_validation  # noqa: E402
from vision.reader import Networks, Reader  # noqa: E402

# Each step, and the settings that switch it off.
STEPS: dict[str, dict[str, object]] = {
    "half-scale look": {"detection.scales": (1.0,)},
    "closer look at small indices": {"detection.small_side": 0.0},
    "three framings": {"classification.margins": (1.15,)},
    "three tilts": {"classification.tilts": (0.0,)},
    "black suit reader": {"suits.black": False},
    "a card's two indices read together": {"grouping.pair_share": 0.0},
    "one deck: far twin read again": {"grouping.one_deck": False},
    "way up tells two cards of one code apart": {"grouping.way_up_apart": 0.0},
    "stretched looks": {"looks.aspects": ()},
    "mirror check": {"looks.mirror": False},
}
VARIANTS = ("as is", "grey", "squeezed", "flipped")


def _key(value: object) -> object:
    if isinstance(value, np.ndarray):
        digest = hashlib.blake2b(np.ascontiguousarray(value).tobytes(), digest_size=16).digest()
        return value.shape, str(value.dtype), digest
    if isinstance(value, list | tuple):
        return tuple(_key(v) for v in value)
    return value


class Remembered:
    """A network whose calls are answered once per distinct input and remembered."""

    def __init__(self, net: object) -> None:
        self._net, self._memo = net, {}

    def _call(self, name: str, *args: object, **kwargs: object) -> object:
        key = (name, _key(args), tuple(sorted((k, _key(v)) for k, v in kwargs.items())))
        if key not in self._memo:
            self._memo[key] = getattr(self._net, name)(*args, **kwargs)
        return self._memo[key]

    def __call__(self, *args: object, **kwargs: object) -> object:
        return self._call("__call__", *args, **kwargs)

    def __getattr__(self, name: str) -> object:
        attr = getattr(self._net, name)
        return (lambda *a, **k: self._call(name, *a, **k)) if callable(attr) else attr


def remembering(networks: Networks) -> Networks:
    return Networks(*(None if net is None else Remembered(net) for net in
                      (networks.detector, networks.way_up, networks.classifier, networks.suit)))


def shown(variant: str):
    """A path -> the photo as the variant shows it (None: the file as it is)."""
    if variant == "as is":
        return None

    def load(path: Path) -> np.ndarray:
        img = cv2.imread(str(path))
        if variant == "grey":
            return cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        if variant == "flipped":
            return np.ascontiguousarray(img[:, ::-1])
        h, w = img.shape[:2]  # squeezed: a 16:9 frame resized to the photo's square
        return cv2.resize(cv2.resize(img, (round(w * 9 / 16), h), interpolation=cv2.INTER_AREA), (w, h))
    return load


def counts(reader: Reader, truths: list, load) -> dict:
    o = evaluate_truths(reader, truths, load=load)["overall"]
    return {k: o[k] for k in ("cards_true", "cards_missed", "cards_wrong", "cards_flagged", "wrong_flagged")}


def step_table(weights: Path, data: list[Path], photos: int, variant: str) -> dict:
    """Cards missed / wrong with every step on ("all") and with each off, per data set."""
    out = {}
    for folder in data:
        reader = Reader(weights, networks=remembering(Networks.load(weights)))
        base = reader.settings
        truths = synthetic_validation(folder, photos)
        rows = {"all": counts(reader, truths, shown(variant))}
        for step, off in STEPS.items():
            reader.settings = base.changed(**off)
            rows[step] = counts(reader, truths, shown(variant))
            print(f"{folder.name} ({variant}) without {step}: {rows[step]} (all: {rows['all']})", flush=True)
        out[folder.name] = rows
    return out


def step_times(weights: Path, folder: Path, photos: int, variant: str) -> dict:
    """Each step's share of the reading time: the median milliseconds a photo with every step
    on and with the step off, read alternately photo by photo (no answers remembered)."""
    full = Reader(weights)
    load = shown(variant) or (lambda p: cv2.imread(str(p)))
    images = [load(t.image) for t in synthetic_validation(folder, photos)]
    out = {}
    for step, off in STEPS.items():
        without = Reader(weights, networks=full.networks, settings=full.settings.changed(**off))
        a, b = [], []
        for i, img in enumerate(images):
            pair = ((full, a), (without, b)) if i % 2 == 0 else ((without, b), (full, a))
            for reader, got in pair:
                got.append(reader.read(img).ms)
        out[step] = {"ms_all": round(statistics.median(a), 1), "ms_without": round(statistics.median(b), 1),
                     "ratio_without": round(statistics.median(b) / statistics.median(a), 3)}
        print(f"time without {step}: {out[step]}", flush=True)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", type=Path, default=ROOT / "models" / "weights")
    parser.add_argument("--data", type=Path, action="append", required=True, help="a `ginsight dataset` folder")
    parser.add_argument("--photos", type=int, default=200, help="validation photos per data set (default 200)")
    parser.add_argument("--variant", choices=VARIANTS, default="as is")
    parser.add_argument("--time", type=int, default=0, metavar="N",
                        help="also time each step on N photos of the first data set")
    parser.add_argument("--no-table", action="store_true", help="only the times")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    figures: dict = {"machine": machine(), "weights": str(args.weights), "photos": args.photos,
                     "variant": args.variant}
    if not args.no_table:
        figures["steps"] = step_table(args.weights, args.data, args.photos, args.variant)
    if args.time:
        figures["times"] = step_times(args.weights, args.data[0], args.time, args.variant)
    report(figures, args.json)


if __name__ == "__main__":
    main()
