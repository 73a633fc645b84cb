"""The way-up reader alone (``way_up.onnx``, ``models/way_up.py``) on every index of every deck
as a webcam or a camera sees them (``datasets.index_crops``: turned any way, soft, squeezed,
JPEG'd), grey as the reader gives them: per deck, the share read within 45 degrees of the way
the index's top faces (so on the right side of a quarter turn), the share more than 60 degrees
off (where the reader's ``way_up_same`` 0.5 may start to err), and the median error.

The reader takes two indices of one code for two cards when they face one way; a card's own
two indices face opposite ways, so it splits one card in two only when the errors of its two
indices add up to more than 120 degrees.

Decks: the fetched real designs, and procedural decks by seed (``--procedural 200-319``: decks
no training set has; Kennard's three real designs were kept out of the way-up reader's crops).
Synthetic data only; nothing here is chosen on ``../shared/real-dev``.

    python benchmarks/way_up_reads.py --a models/weights [--b OTHER] [--procedural 200-319] \\
        [--per-card 2] [--look camera] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.deck_reads import add_weights_and_decks, deck_names, report  # noqa: E402
from datasets.index_crops import LOOKS  # noqa: E402
from engine.cards import CODES  # noqa: E402
from vision.crops import CROP, degrees_apart, to_grey  # noqa: E402
from vision.onnx import WayUpReader  # noqa: E402

COLUMNS = (("within_45", "within 45", ".3f"), ("off_60", "off 60+", ".3f"), ("median_deg", "median", ".1f"))


def deck_crops(deck, seed: int, per_card: int, look: str = "camera") -> tuple[np.ndarray, np.ndarray]:
    """``per_card`` grey crops of each of the 52 indices of ``deck`` with ``look``, and the
    way each index's top faces (degrees anticlockwise from up)."""
    from datasets.backgrounds import Backgrounds

    crop, blur = LOOKS[look]
    backgrounds = Backgrounds()
    xs, ups = [], []
    for i, code in enumerate(CODES):
        for j in range(per_card):
            rng = np.random.default_rng([seed, i, j])
            x, up = crop(rng, deck, code, backgrounds.sample(rng, 160), CROP, blur, way_up=True)
            xs.append(x)
            ups.append(up)
    return to_grey(np.stack(xs)), np.array(ups)


def read_deck(net: WayUpReader, crops: np.ndarray, ups: np.ndarray) -> dict:
    err = degrees_apart(net.degrees(crops), ups)
    return {"within_45": float((err < 45).mean()), "off_60": float((err > 60).mean()),
            "median_deg": float(np.median(err))}


def main() -> None:
    from datasets.decks import load_deck

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_weights_and_decks(parser, "200-319")
    parser.add_argument("--no-real", action="store_true", help="leave out the real designs")
    parser.add_argument("--per-card", type=int, default=2, help="crops per card and deck")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--look", choices=list(LOOKS), default="camera")
    args = parser.parse_args()
    folders = {"a": args.a} | ({"b": args.b} if args.b else {})
    for folder in folders.values():
        if not (folder / "way_up.onnx").exists():
            parser.error(f"no way_up.onnx in {folder}")
    names = deck_names(args.procedural, real=not args.no_real)
    if not names:
        parser.error("no decks: fetch the real designs or give --procedural")
    nets = {k: WayUpReader(f / "way_up.onnx") for k, f in folders.items()}
    rows = {}
    for name in names:
        crops, ups = deck_crops(load_deck(name), args.seed, args.per_card, args.look)
        rows[name] = {k: read_deck(net, crops, ups) for k, net in nets.items()}
    summary = report(rows, list(folders), tuple(m for m, _, _ in COLUMNS), COLUMNS)
    if args.json:
        args.json.write_text(json.dumps({"folders": {k: str(v) for k, v in folders.items()}, "seed": args.seed,
                                         "per_card": args.per_card, "look": args.look, "decks": rows,
                                         "summary": summary}, indent=2))


if __name__ == "__main__":
    main()
