"""One crops folder for the classifier made of several: links, not copies.

The classifier trains on a folder of ``train-*.npz`` and ``val-*.npz`` shards
(:func:`models.classifier.load_crops`). To train on several data sets' crops at once, and on
mined hard negatives (``datasets.hard_negatives``: ``<data>/crops-neg``), this folder links
every shard of each source under a name that keeps its split and says where it came from:

    python -m datasets.mix --out data/mix45n/crops data/synth4/crops data/synth5/crops \\
        data/synth4/crops-neg data/synth5/crops-neg

``train-0004.npz`` of ``data/synth4/crops`` becomes
``train-synth4-crops-0004.npz``. All sources must hold crops of one side, unless ``--side``
is given: then the shards of another side are written resized to it (``cv2.INTER_AREA``), not
linked: a set's crops cut at 48 px go down to the classifier's 32 that way without drawing
its photos again (``ginsight dataset --crop 32`` would cut the same boxes straight at 32 px, a
slightly different resampling).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

SPLITS = ("train", "val")


def _side(shard: Path) -> int:
    with np.load(shard) as d:
        return int(d["x"].shape[1])


def link_crops(sources: list[Path], out: Path, side: int | None = None) -> list[Path]:
    """Link every ``train-*``/``val-*`` shard of ``sources`` into ``out``; the links made. With
    ``side``, a shard whose crops are of another side is written there resized to ``side``.

    Raises ``ValueError`` when a source has no shards, when two sources have one name, or when
    the crops are not all one side (the classifier reads one side) and no ``side`` is given."""
    names = {}
    for src in sources:
        tag = f"{src.resolve().parent.name}-{src.name}"
        if tag in names:
            raise ValueError(f"{src} and {names[tag]} would give their shards one name")
        names[tag] = src
    if side is not None and side < 8:
        raise ValueError(f"a crop side of {side} px is too small")
    plan: list[tuple[Path, Path, int]] = []  # shard, its name in out, its source's crop side
    sides: dict[int, Path] = {}
    for tag, src in names.items():
        shards = sorted(f for split in SPLITS for f in src.glob(f"{split}-*.npz"))
        if not shards:
            raise ValueError(f"no train-*.npz or val-*.npz shards in {src}")
        src_side = _side(shards[0])
        for f in shards:
            split, _, rest = f.name.partition("-")
            plan.append((f.resolve(), out / f"{split}-{tag}-{rest}", src_side))
        sides.setdefault(src_side, src)
    if side is None and len(sides) > 1:
        detail = ", ".join(f"{s} px in {src}" for s, src in sorted(sides.items()))
        raise ValueError(f"the crops are not all one side: {detail}")
    out.mkdir(parents=True, exist_ok=True)
    for target, link, src_side in plan:
        if link.is_symlink() or link.exists():
            link.unlink()
        if side is not None and src_side != side:
            _write_resized(target, link, side)
        else:
            link.symlink_to(target)
    return [link for _, link, _ in plan]


def _write_resized(shard: Path, dest: Path, side: int) -> None:
    """``shard``'s crops resized to ``side`` pixels, written whole to ``dest``."""
    import cv2

    with np.load(shard) as d:
        x, y = d["x"], d["y"]
        more = {"up": d["up"]} if "up" in d else {}  # the way each index faces: resizing keeps it
    small = np.stack([cv2.resize(img, (side, side), interpolation=cv2.INTER_AREA) for img in x])
    tmp = dest.with_name(f".{dest.name}")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, x=small, y=y, **more)
    tmp.replace(dest)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=Path, help="the folder to train on (e.g. data/mix/crops)")
    parser.add_argument("sources", nargs="+", type=Path, help="crops folders (crops/, crops-neg/, ...)")
    parser.add_argument("--side", type=int, help="write the shards of another crop side resized to this one")
    args = parser.parse_args(argv)
    try:
        links = link_crops(args.sources, args.out, args.side)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    counts = {split: sum(link.name.startswith(f"{split}-") for link in links) for split in SPLITS}
    print(f"{args.out}: {counts['train']} training and {counts['val']} validation shards linked")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
