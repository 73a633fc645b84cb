"""Every corner index of every deck, clean, read by the classifier: per deck, the share read
right and the clubs read as spades. A check on the classifier alone (no detector, no photo):
an index the network misreads even drawn clean on a plain card is one it has not learnt.

Decks are the fetched real designs (``datasets.decks.available_decks``) and procedural decks by
seed: ``--procedural 0-23`` are decks the synthetic data sets train on (synth5 uses seeds 0-23),
``--procedural 100-111`` decks that no training set has (``data/heldout-pips``). Synthetic
data only; nothing here is chosen on ``../shared/real-dev``.

    python benchmarks/deck_reads.py --a models/weights [--b OTHER] [--procedural 0-23] \\
        [--procedural 100-111] [--json OUT]
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

from benchmarks.compare_weights import swapped  # noqa: E402
from benchmarks.suit_probe import CLUBS, SPADES  # noqa: E402
from datasets.decks import seed_range as seeds  # noqa: E402  (--procedural 0-23)
from engine.cards import CODES  # noqa: E402
from vision.crops import crop_square  # noqa: E402
from vision.reader import Reader  # noqa: E402

PAPER = 128  # what shows outside a card's rounded corners


def deck_crops(deck, side: int) -> tuple[np.ndarray, np.ndarray]:
    """Every index box of ``deck`` cut as the reader cuts it: (crops (N, S, S, 3) BGR, classes)."""
    xs, ys = [], []
    for code in CODES:
        face = deck.faces[code]
        alpha = face[..., 3:4].astype(np.float32) / 255
        bgr = cv2.cvtColor(face, cv2.COLOR_RGBA2BGR).astype(np.float32) * alpha + PAPER * (1 - alpha)
        bgr = bgr.astype(np.uint8)
        for box in deck.index_boxes[code]:
            xs.append(crop_square(bgr, tuple(float(v) for v in box), side))
            ys.append(CODES.index(code))
    return np.stack(xs), np.array(ys)


def scores(read: np.ndarray, y: np.ndarray) -> dict:
    """A deck's figures from its crops' reads (classes) and true classes."""
    return {"indices": len(y), "right": float((read == y).mean()),
            "clubs_read_as_spades": swapped(read, y, CLUBS, SPADES),
            "spades_read_as_clubs": swapped(read, y, SPADES, CLUBS)}


def read_deck(read, deck, side: int) -> dict:
    """``deck``'s figures, its indices cut at ``side`` and read by ``read`` (crops -> probabilities:
    ``Reader.crop_probs``, the classifier asked as the reader asks it)."""
    x, y = deck_crops(deck, side)
    return scores(read(x).argmax(1), y)


def add_weights_and_decks(parser: argparse.ArgumentParser, seeds_example: str) -> None:
    """The options both deck scripts take: the weights read side by side, procedural seeds, --json."""
    parser.add_argument("--a", required=True, type=Path, help="a weights folder (e.g. models/weights)")
    parser.add_argument("--b", type=Path, help="another weights folder, read side by side")
    parser.add_argument("--procedural", type=seeds, action="append", default=[],
                        help=f"procedural deck seeds, e.g. {seeds_example} (repeatable)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")


def deck_names(procedural: list, real: bool = True) -> list[str]:
    """The decks a deck script reads: the fetched real designs (unless not ``real``), then the
    procedural decks of the seed groups ``procedural`` (``--procedural``)."""
    from datasets.decks import PROCEDURAL_PREFIX, available_decks

    names = [n for n in available_decks() if not n.startswith(PROCEDURAL_PREFIX)] if real else []
    return names + [f"{PROCEDURAL_PREFIX}{s}" for group in procedural for s in group]


# The columns report() prints by default: (metric, heading, format).
RIGHT_AND_CLUBS = (("right", "right", ".3f"), ("clubs_read_as_spades", "clubs as spades", ".2f"))


def report(rows: dict, keys: list[str], metrics: tuple[str, ...], columns: tuple = RIGHT_AND_CLUBS) -> dict:
    """Print per deck, for each weights folder, the ``columns`` (by default the share read right
    and clubs read as spades), then the means over real designs and procedural decks; return
    those means (``metrics``)."""
    from datasets.decks import PROCEDURAL_PREFIX

    def cells(r: dict) -> str:
        return " | ".join(f"{r[k][m]:{fmt}}" for k in keys for m, _, fmt in columns)

    head = " | ".join(f"{k}: {heading}" for k in keys for _, heading, _ in columns)
    print(f"| deck | {head} |\n|---|" + "---|" * len(keys) * len(columns))
    for name, r in rows.items():
        print(f"| {name} | {cells(r)} |")
    summary = {}
    for label, group in (("real designs", [n for n in rows if not n.startswith(PROCEDURAL_PREFIX)]),
                         ("procedural", [n for n in rows if n.startswith(PROCEDURAL_PREFIX)])):
        if group:
            summary[label] = {k: {m: float(np.mean([rows[n][k][m] for n in group])) for m in metrics}
                              for k in keys}
            print(f"| mean of {len(group)} {label} | {cells(summary[label])} |")
    return summary


def main() -> None:
    from datasets.decks import load_deck

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_weights_and_decks(parser, "0-23")
    args = parser.parse_args()

    names = deck_names(args.procedural)
    folders = {"a": args.a} | ({"b": args.b} if args.b else {})
    readers = {k: Reader(f) for k, f in folders.items()}  # an upright classifier's crops turned as it reads them
    rows = {}
    for name in names:
        deck = load_deck(name)
        rows[name] = {k: read_deck(r.crop_probs, deck, r.classifier.size) for k, r in readers.items()}
    summary = report(rows, list(folders), ("right", "clubs_read_as_spades"))
    if args.json:
        args.json.write_text(json.dumps({"folders": {k: str(v) for k, v in folders.items()}, "decks": rows,
                                         "summary": summary}, indent=2))


if __name__ == "__main__":
    main()
