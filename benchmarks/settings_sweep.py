"""One weights folder read with several values of one reader setting on the same synthetic
validation photos (never on ../shared/real-dev): cards missed and read wrong, precision and
recall at each value, as ``compare_weights.py`` counts them.

Each network (detector, classifier, suit readers, way-up reader) is asked once per distinct
input and its answer kept, so values that change only what is done with the answers (e.g.
``suit_weight``, ``suit_rule``, ``far_apart``) cost about one read of the photos in all.

    python benchmarks/settings_sweep.py --weights models/weights --data data/synth2 \\
        --data data/synth4 --photos 800 --set suit_weight=1,0.5,0.25,0 [--grey] [--json OUT]

A setting that holds several numbers takes values split by ";", each its numbers joined by ","
(``--set "suit_tilts=0;-8,0,8"``).

``--with NAME=VALUE`` holds another setting at one value through the sweep: a change's
precision-recall curve is drawn by sweeping ``min_card`` with it and without it
(``--set min_card=0.4,0.45,0.5 --with cls_margins=1.0,1.15,1.3``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import fields, replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.compare_weights import grey_photo  # noqa: E402
from vision.evaluate import evaluate_truths, synthetic_validation  # noqa: E402
from vision.reader import Reader, Settings  # noqa: E402


def _key(value) -> object:
    if isinstance(value, np.ndarray):
        return (value.shape, str(value.dtype), hashlib.blake2b(np.ascontiguousarray(value).tobytes(),
                                                               digest_size=16).digest())
    if isinstance(value, (list, tuple)):
        return tuple(_key(v) for v in value)
    return value


class Remembered:
    """A network whose calls (``__call__`` and its other methods) are answered once per
    distinct input and remembered; its other attributes are the network's."""

    def __init__(self, net) -> None:
        self._net = net
        self._memo: dict = {}
        self.asked = self.answered = 0

    def _method(self, name: str):
        method = getattr(self._net, name)

        def call(*args, **kwargs):
            key = (name, _key(args), tuple(sorted((k, _key(v)) for k, v in kwargs.items())))
            self.asked += 1
            if key not in self._memo:
                self._memo[key] = method(*args, **kwargs)
            else:
                self.answered += 1
            return self._memo[key]

        return call

    def __call__(self, *args, **kwargs):
        return self._method("__call__")(*args, **kwargs)

    def __getattr__(self, name: str):
        attr = getattr(self._net, name)
        return self._method(name) if callable(attr) and not isinstance(attr, type) else attr


NETS = ("detector", "classifier", "suit", "suit_up", "grey_suit", "way_up", "pips")


def remembering(reader: Reader) -> Reader:
    for name in NETS:
        net = getattr(reader, name)
        if net is not None:
            if hasattr(net, "members"):  # a detector group: each member's candidates remembered too (det_vote)
                net.members = [Remembered(m) for m in net.members]
            setattr(reader, name, Remembered(net))
    return reader


def parse_set(text: str) -> tuple[str, list]:
    """"name=v1,v2,..." -> the setting's name and its values, typed as the setting is."""
    name, _, values = text.partition("=")
    types = {f.name: type(getattr(Settings(), f.name)) for f in fields(Settings)}
    if name not in types or not values:
        raise argparse.ArgumentTypeError(f"--set wants NAME=V1,V2,... with NAME a reader setting, not {text!r}")
    kind = types[name]
    if kind is tuple:  # det_scales, zoom_scales, suit_margins, suit_tilts: numbers; values split by ";"
        try:
            return name, [tuple(float(x) for x in v.split(",") if x.strip()) for v in values.split(";")]
        except ValueError:
            raise argparse.ArgumentTypeError(f"--set {name}: each value numbers joined by ',', values split by ';', "
                                             f"not {values!r}") from None
    if kind not in (bool, int, float, str):
        raise argparse.ArgumentTypeError(f"--set takes a setting of one value or of numbers, "
                                         f"not {name} ({kind.__name__})")
    if kind is bool:
        flags = {"1": True, "true": True, "on": True, "0": False, "false": False, "off": False}
        if any(v.lower() not in flags for v in values.split(",")):
            raise argparse.ArgumentTypeError(f"--set {name}: each value on/off, true/false or 1/0, not {values!r}")
        return name, [flags[v.lower()] for v in values.split(",")]
    return name, [kind(v) for v in values.split(",")]


def sweep(reader: Reader, name: str, values: list, truths: list, grey: bool = False) -> list[dict]:
    base = reader.settings
    rows = []
    for value in values:
        reader.settings = replace(base, **{name: value})
        o = evaluate_truths(reader, truths, load=grey_photo if grey else None)["overall"]
        rows.append({name: value} | {k: o[k] for k in ("precision", "recall", "cards_true", "cards_missed",
                                                        "cards_wrong", "exact_hand_rate")})
    reader.settings = base
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", type=Path, default=ROOT / "models" / "weights")
    parser.add_argument("--data", required=True, type=Path, action="append")
    parser.add_argument("--photos", type=int, default=300, help="validation photos per data set (default 300)")
    parser.add_argument("--set", required=True, type=parse_set, dest="setting", metavar="NAME=V1,V2,...")
    parser.add_argument("--with", type=parse_set, dest="fixed", action="append", default=[], metavar="NAME=VALUE",
                        help="another setting held at one value through the sweep (repeatable), e.g. to draw "
                             "min_card's curve with and without a change")
    parser.add_argument("--grey", action="store_true", help="the photos made black and white")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    name, values = args.setting
    fixed = {}
    for other, held in args.fixed:
        if len(held) != 1 or other == name:
            parser.error(f"--with {other}: one value, of a setting other than the one swept")
        fixed[other] = held[0]
    figures = {}
    print(f"weights {args.weights}; {name} at {values}{'; black and white' if args.grey else ''}"
          + "".join(f"; {k} {v}" for k, v in fixed.items()))
    print(f"| data | {name} | precision | recall | cards missed / wrong (of) |")
    print("|---|---|---|---|---|")
    for data in args.data:
        reader = remembering(Reader(args.weights))
        reader.settings = replace(reader.settings, **fixed)
        rows = sweep(reader, name, values, synthetic_validation(data, args.photos), args.grey)
        figures[str(data)] = rows
        for r in rows:
            print(f"| {data} | {r[name]} | {r['precision']:.4f} | {r['recall']:.4f} | "
                  f"{r['cards_missed']} / {r['cards_wrong']} ({r['cards_true']}) |", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"weights": str(args.weights), "setting": name, "values": values, "with": fixed,
                                         "photos": args.photos, "grey": args.grey, "figures": figures}, indent=2))


if __name__ == "__main__":
    main()
