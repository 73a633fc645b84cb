"""Which procedural decks' clubs the classifier reads as spades, against how each deck is
drawn: the figures behind "too few club shapes, not odd ones" (session 10's model card).

It reads a ``benchmarks/webcam_reads.py`` (or ``deck_reads.py``) JSON, rebuilds each procedural
deck's style from its seed (``DeckStyle.from_seed``: nothing is rendered), and prints, for one
side of the comparison, the correlation of the share of clubs read as spades with each number
of the deck's suit shape, the mean share by kind of deck, and the worst decks.

    python benchmarks/deck_shapes.py models/weights/webcam-reads-session10.json [--side a|b] [--worst 10]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from datasets.decks import PROCEDURAL_PREFIX  # noqa: E402
from datasets.procedural_deck import DeckStyle  # noqa: E402

NUMBERS = ("index_suit", "lobe", "spread", "stem", "stem_length", "shoulder", "suit_aspect")


def deck_traits(seed: int) -> dict:
    """What ``seed``'s deck looks like where clubs and spades differ."""
    style = DeckStyle.from_seed(seed, 320)
    shape = style.pip_shape
    return {
        "index_suit": style.pip_height / style.rank_height,  # the index's suit, in rank heights
        "lobe": shape.lobe, "spread": shape.spread, "stem": shape.stem, "stem_length": shape.stem_length,
        "shoulder": shape.shoulder, "suit_aspect": style.pip_aspect,
        "drawn": style.pip_style == "drawn",  # else a font's glyphs
        "dark": style.dark,
        "four_colour": style.suit_colours["C"] != style.suit_colours["S"],
    }


def table(decks: dict, side: str) -> list[dict]:
    """One row per procedural deck of a reads JSON's ``decks``: its traits and its shares."""
    rows = []
    for name, sides in decks.items():
        if not name.startswith(PROCEDURAL_PREFIX) or side not in sides:
            continue
        seed = int(name.removeprefix(PROCEDURAL_PREFIX))
        rows.append({"deck": name, "seed": seed, **deck_traits(seed),
                     "clubs_read_as_spades": sides[side]["clubs_read_as_spades"], "right": sides[side]["right"]})
    return rows


def summary(rows: list[dict]) -> dict:
    """Correlations with the share of clubs read as spades, and that share by kind of deck."""
    share = np.array([r["clubs_read_as_spades"] for r in rows], float)
    corr = {}
    for k in NUMBERS:
        x = np.array([r[k] for r in rows], float)
        corr[k] = float(np.corrcoef(x, share)[0, 1]) if len(rows) > 2 and x.std() > 0 and share.std() > 0 else None
    kinds = {}
    for k in ("drawn", "dark", "four_colour"):
        for value in (True, False):
            sel = share[np.array([r[k] == value for r in rows], bool)]
            mean = float(sel.mean()) if len(sel) else None
            kinds[f"{k}={value}"] = {"decks": len(sel), "clubs_read_as_spades": mean}
    return {"decks": len(rows), "clubs_read_as_spades": float(share.mean()) if len(rows) else None,
            "correlation": corr, "by_kind": kinds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reads", type=Path, help="a webcam_reads.py / deck_reads.py JSON")
    parser.add_argument("--side", default="a", choices=("a", "b"), help="which weights of the comparison")
    parser.add_argument("--worst", type=int, default=10, help="list this many decks, most clubs read as spades first")
    args = parser.parse_args()
    rows = table(json.loads(args.reads.read_text())["decks"], args.side)
    if not rows:
        raise SystemExit(f"no procedural decks read by side {args.side} in {args.reads}")
    s = summary(rows)
    print(f"{s['decks']} procedural decks, side {args.side}: clubs read as spades {s['clubs_read_as_spades']:.3f}")
    print("| deck number | correlation with clubs read as spades |\n|---|---|")
    for k, v in s["correlation"].items():
        print(f"| {k} | {'-' if v is None else f'{v:+.2f}'} |")
    print("| kind | decks | clubs read as spades |\n|---|---|---|")
    for k, v in s["by_kind"].items():
        mean = v["clubs_read_as_spades"]
        print(f"| {k} | {v['decks']} | {'-' if mean is None else f'{mean:.3f}'} |")
    print("| deck | clubs as spades | index suit | lobe | spread | stem | drawn | dark | four colours |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: -r["clubs_read_as_spades"])[:args.worst]:
        print(f"| {r['deck']} | {r['clubs_read_as_spades']:.2f} | {r['index_suit']:.2f} | {r['lobe']:.2f} | "
              f"{r['spread']:.2f} | {r['stem']:.2f} | {r['drawn']} | {r['dark']} | {r['four_colour']} |")


if __name__ == "__main__":
    main()
