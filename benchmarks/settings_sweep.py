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

``--squeeze K`` reads each photo squeezed to K of its width (``--squeeze-axis y``: of its height)
in the middle of a frame of its size, the rest a blurred copy, its labels moved with it: as a
16:9 webcam frame resized to a square (K 0.5625) or a 4:3 photo (0.75) looks.

``--band W:H`` reads each square photo's largest middle W:H part as it is, not squeezed: ``16:9``
(640x360 of a 640x640 photo) a webcam frame at its own aspect, as the live camera gives it;
``3:4`` (480x640) a portrait phone photo. A label is kept where its index's middle lies in the
part, clipped to it (an index cut by the frame's edge then counts as missed when not read, as a
player would count it; the same for every value swept).

``--also NAME=V1,V2`` sweeps another setting too (every combination, each photo's networks
asked once for all: ``--set min_card=0.5,0.52 --also "aspects=;1.78"``).

``--with NAME=VALUE`` holds another setting at one value through the sweep: a change's
precision-recall curve is drawn by sweeping ``min_card`` with it and without it
(``--set min_card=0.4,0.45,0.5 --with cls_margins=1.0,1.15,1.3``).

With more than one ``--data``, the cards missed and read wrong are also summed over the sets at
each value (the last table, and ``totals`` in the JSON): the figure a choice is made on.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from dataclasses import fields, replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.compare_weights import grey_photo  # noqa: E402
from vision.evaluate import Truth, evaluate_truths, synthetic_validation  # noqa: E402
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


def placed(img: np.ndarray, kx: float, ky: float) -> np.ndarray:
    """``img`` shrunk to ``kx`` of its width and ``ky`` of its height in the middle of a frame of
    its size, the rest a blurred, upside-down copy of it (so that the frame has no flat border)."""
    h, w = img.shape[:2]
    frame = cv2.GaussianBlur(cv2.flip(img, -1), (0, 0), 12)
    (sw, ox), (sh, oy) = _span(w, kx), _span(h, ky)
    frame[oy:oy + sh, ox:ox + sw] = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA)
    return frame


def _span(side: int, k: float) -> tuple[int, int]:
    """The length and the offset of ``k`` of ``side`` in its middle."""
    length = max(1, round(side * k))
    return length, (side - length) // 2


def placed_truth(t: Truth, size: int, kx: float, ky: float) -> Truth:
    """``t``'s labels moved as :func:`placed` moves its square photo (``size``: its side)."""
    (sw, ox), (sh, oy) = _span(size, kx), _span(size, ky)
    sx, sy = sw / size, sh / size
    boxes = [(c, (x1 * sx + ox, y1 * sy + oy, x2 * sx + ox, y2 * sy + oy)) for c, (x1, y1, x2, y2) in t.boxes]
    return Truth(t.image, t.group, boxes)


def squeezed(img: np.ndarray, k: float, axis: str = "x") -> np.ndarray:
    """``img`` squeezed to ``k`` of its width (``axis`` "y": height) in the middle of a frame of
    its size (:func:`placed`)."""
    return placed(img, k, 1.0) if axis == "x" else placed(img, 1.0, k)


def squeezed_truth(t: Truth, size: int, k: float, axis: str = "x") -> Truth:
    """``t``'s labels moved as :func:`squeezed` moves its square photo (``size``: its side)."""
    return placed_truth(t, size, k, 1.0) if axis == "x" else placed_truth(t, size, 1.0, k)


def parse_band(text: str) -> tuple[int, int]:
    """``"16:9"`` -> (16, 9): a frame's width and height in proportion."""
    try:
        w, h = (int(v) for v in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--band wants W:H, e.g. 16:9 or 3:4, not {text!r}") from None
    if w <= 0 or h <= 0:
        raise argparse.ArgumentTypeError(f"--band wants W:H above 0, not {text!r}")
    return w, h


def band_box(size: int, band: tuple[int, int]) -> tuple[int, int, int, int]:
    """Left, top, width and height of the largest middle ``band`` (W, H) part of a square photo
    of side ``size``."""
    w, h = band
    width, height = (size, round(size * h / w)) if w >= h else (round(size * w / h), size)
    return (size - width) // 2, (size - height) // 2, width, height


def banded(img: np.ndarray, band: tuple[int, int]) -> np.ndarray:
    """The middle ``band`` (W, H) part of a square photo, at its own pixels (e.g. 16:9, a webcam
    frame's shape)."""
    left, top, width, height = band_box(img.shape[1], band)
    return np.ascontiguousarray(img[top:top + height, left:left + width])


def banded_truth(t: Truth, size: int, band: tuple[int, int]) -> Truth:
    """``t``'s labels in :func:`banded`'s frame: those whose middle lies in it, clipped to it."""
    left, top, width, height = band_box(size, band)
    boxes = [(c, (max(x1 - left, 0.0), max(y1 - top, 0.0), min(x2 - left, float(width)), min(y2 - top, float(height))))
             for c, (x1, y1, x2, y2) in t.boxes
             if left <= (x1 + x2) / 2 < left + width and top <= (y1 + y2) / 2 < top + height]
    return Truth(t.image, t.group, boxes)


def photo_loader(grey: bool = False, squeeze: float | None = None, axis: str = "x",
                 band: tuple[int, int] | None = None):
    """A path -> BGR array for evaluate_truths: the photo made black and white and / or squeezed,
    or cut to its middle ``band`` (W, H) part (None: the file as it is)."""
    if not grey and squeeze is None and band is None:
        return None

    def load(path) -> np.ndarray:
        img = grey_photo(path) if grey else cv2.imread(str(path))
        img = img if squeeze is None else squeezed(img, squeeze, axis)
        return img if band is None else banded(img, band)
    return load


def sweep(reader: Reader, name: str, values: list, truths: list, grey: bool = False,
          squeeze: float | None = None, axis: str = "x", band: tuple[int, int] | None = None) -> list[dict]:
    base = reader.settings
    rows = []
    load = photo_loader(grey, squeeze, axis, band)
    for value in values:
        reader.settings = replace(base, **{name: value})
        o = evaluate_truths(reader, truths, load=load)["overall"]
        rows.append({name: value} | {k: o[k] for k in ("precision", "recall", "cards_true", "cards_missed",
                                                        "cards_wrong", "exact_hand_rate")})
    reader.settings = base
    return rows


def totals(figures: dict[str, list[dict]], keys: list[str]) -> list[dict]:
    """Each combination of the ``keys`` settings' values summed over the data sets of
    ``figures`` (data -> its sweep's rows): cards there, missed and read wrong, and the
    precision and recall of the sum, in the rows' order."""
    summed: dict[tuple, dict] = {}
    for rows in figures.values():
        for r in rows:
            t = summed.setdefault(tuple(_key(r[k]) for k in keys),
                                  {k: r[k] for k in keys} | {"cards_true": 0, "cards_missed": 0, "cards_wrong": 0})
            for k in ("cards_true", "cards_missed", "cards_wrong"):
                t[k] += r[k]
    out = []
    for t in summed.values():
        right = t["cards_true"] - t["cards_missed"]
        read = right + t["cards_wrong"]
        out.append(t | {"precision": right / read if read else 1.0,
                        "recall": right / t["cards_true"] if t["cards_true"] else 1.0})
    return out


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
    parser.add_argument("--also", type=parse_set, action="append", default=[], metavar="NAME=V1,V2,...",
                        help="and at each of these values of another setting (repeatable: every combination), "
                             "the networks asked once for all")
    parser.add_argument("--squeeze", type=float, help="each photo squeezed to this share of its width (0-1)")
    parser.add_argument("--squeeze-axis", choices=("x", "y"), default="x", help="squeeze the height instead (y)")
    parser.add_argument("--band", type=parse_band, metavar="W:H",
                        help="each square photo cut to its largest middle W:H part: 16:9 a webcam frame at its own "
                             "aspect, 3:4 a portrait phone photo")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.squeeze is not None and not 0 < args.squeeze <= 1:
        parser.error(f"--squeeze wants a share of the photo's side in (0, 1], not {args.squeeze}")
    if args.squeeze is not None and args.band is not None:
        parser.error("--squeeze and --band: one or the other")
    name, values = args.setting
    fixed = {}
    for other, held in args.fixed:
        if len(held) != 1 or other == name:
            parser.error(f"--with {other}: one value, of a setting other than the one swept")
        fixed[other] = held[0]
    also = dict(args.also)
    if name in also or set(also) & set(fixed):
        parser.error("--also: settings other than the one swept and those held --with")
    combos = [dict(zip(also, c, strict=True)) for c in itertools.product(*also.values())]
    figures = {}
    print(f"weights {args.weights}; {name} at {values}{'; black and white' if args.grey else ''}"
          + (f"; squeezed to {args.squeeze} ({args.squeeze_axis})" if args.squeeze is not None else "")
          + (f"; the middle {args.band[0]}:{args.band[1]} part" if args.band else "")
          + "".join(f"; {k} {v}" for k, v in fixed.items()))
    print(f"| data | {' | '.join([*also, name])} | precision | recall | cards missed / wrong (of) |")
    print("|---|" + "---|" * (len(also) + 4))
    for data in args.data:
        reader = remembering(Reader(args.weights))
        reader.settings = replace(reader.settings, **fixed)
        truths = synthetic_validation(data, args.photos)
        if args.squeeze is not None or args.band is not None:  # the side of the set's square photos
            size = json.loads((data / "summary.json").read_text())["size"]
        if args.squeeze is not None:
            truths = [squeezed_truth(t, size, args.squeeze, args.squeeze_axis) for t in truths]
        if args.band is not None:
            truths = [banded_truth(t, size, args.band) for t in truths]
        rows = []
        for combo in combos:
            reader.settings = replace(reader.settings, **combo)
            for r in sweep(reader, name, values, truths, args.grey, args.squeeze, args.squeeze_axis, args.band):
                rows.append(combo | r)
                print(f"| {data} | {' | '.join(str(r[k]) if k == name else str(combo[k]) for k in [*also, name])} | "
                      f"{r['precision']:.4f} | {r['recall']:.4f} | "
                      f"{r['cards_missed']} / {r['cards_wrong']} ({r['cards_true']}) |", flush=True)
        figures[str(data)] = rows
    keys = [*also, name]
    summed = totals(figures, keys) if len(figures) > 1 else []
    if summed:
        print(f"\n| all {len(figures)} sets | {' | '.join(keys)} | precision | recall | cards missed / wrong (of) |")
        print("|---|" + "---|" * (len(keys) + 3))
        for t in summed:
            print(f"| all | {' | '.join(str(t[k]) for k in keys)} | {t['precision']:.4f} | {t['recall']:.4f} | "
                  f"{t['cards_missed']:,} / {t['cards_wrong']:,} ({t['cards_true']:,}) |")
    if args.json:
        out = {"weights": str(args.weights), "setting": name, "values": values, "also": also, "with": fixed,
               "photos": args.photos, "grey": args.grey, "squeeze": args.squeeze,
               "squeeze_axis": args.squeeze_axis, "band": list(args.band) if args.band else None, "figures": figures,
               "totals": summed}
        args.json.write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
