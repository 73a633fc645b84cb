"""How often a joker's corner is read as a card: every joker of every deck, its corner marks cut
as a webcam (or, ``--look camera``, a webcam frame stretched to a square) shows them
(``datasets.index_crops``), read by the classifier at the reader's four turns. Per deck and
weights folder: the share of crops read as a card with at least the reader's ``min_index`` (the
index is kept) and with at least its ``min_card`` (on its own it would make a card), and the
cards most often read.

Gin is played without jokers, but a joker left among the cards must read as nothing: real-dev's
one joker was read as KD (session 18). Decks: the fetched real designs that have jokers, and
procedural decks by seed (``--procedural 100-111 --procedural 200-319`` are decks no training set
has). Synthetic data only; nothing here is chosen on ``../shared/real-dev``.

    python benchmarks/joker_reads.py --a models/weights [--b OTHER] [--procedural 100-111] \\
        [--per-joker 40] [--look camera] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.deck_reads import add_weights_and_decks, deck_names, report  # noqa: E402
from datasets.index_crops import LOOKS  # noqa: E402
from engine.cards import CODES  # noqa: E402
from vision.reader import NONE_CLASS, Reader  # noqa: E402

COLUMNS = (("kept_as_index", "kept as index", ".3f"), ("read_as_card", "read as card", ".3f"))


def joker_crops(deck, side: int, seed: int, per_joker: int, look: str = "webcam") -> np.ndarray:
    """``per_joker`` crops of the corner marks of each of ``deck``'s jokers, with ``look``."""
    from datasets.backgrounds import Backgrounds

    crop, blur = LOOKS[look]
    backgrounds = Backgrounds()
    xs = []
    for i, name in enumerate(sorted(deck.jokers)):
        for j in range(per_joker):
            rng = np.random.default_rng([seed, i, j])
            xs.append(crop(rng, deck, name, backgrounds.sample(rng, 160), side, blur))
    return np.stack(xs)


def read_jokers(reader: Reader, crops: np.ndarray) -> dict:
    """The share of ``crops`` that ``reader``'s classifier reads as a card strong enough to be
    kept as an index (``min_index``) and to make a card (``min_card``), and the cards read."""
    probs = reader.classifier(crops, turns=reader.settings.cls_turns)
    best = probs.argmax(1)
    conf = probs.max(1)
    card = best != NONE_CLASS
    kept = card & (conf >= reader.settings.min_index)
    made = card & (conf >= reader.settings.min_card)
    read = Counter(CODES[c] for c in best[kept])
    return {"crops": len(crops), "kept_as_index": float(kept.mean()), "read_as_card": float(made.mean()),
            "read": dict(read.most_common(5))}


def main() -> None:
    from datasets.decks import PROCEDURAL_PREFIX, load_deck

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_weights_and_decks(parser, "100-111")
    parser.add_argument("--per-joker", type=int, default=40, help="crops per joker and deck")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--look", choices=list(LOOKS), default="webcam")
    args = parser.parse_args()

    names = deck_names(args.procedural)
    folders = {"a": args.a} | ({"b": args.b} if args.b else {})
    readers = {k: Reader(f) for k, f in folders.items()}
    rows = {}
    for name in names:
        deck = load_deck(name)
        if not deck.jokers:
            continue
        crops = {side: joker_crops(deck, side, args.seed, args.per_joker, args.look)
                 for side in {r.classifier.size for r in readers.values()}}
        rows[name] = {k: read_jokers(r, crops[r.classifier.size]) for k, r in readers.items()}
    keys = list(folders)
    summary = report(rows, keys, ("kept_as_index", "read_as_card"), COLUMNS)
    for label, by_key in summary.items():
        group = [n for n in rows if n.startswith(PROCEDURAL_PREFIX) == (label == "procedural")]
        for k in keys:
            by_key[k]["read"] = dict(sum((Counter(rows[n][k]["read"]) for n in group), Counter()).most_common(8))
            print(f"{label}, {k}: most read {by_key[k]['read']}")
    if args.json:
        args.json.write_text(json.dumps({"folders": {k: str(v) for k, v in folders.items()}, "seed": args.seed,
                                         "per_joker": args.per_joker, "look": args.look, "decks": rows,
                                         "summary": summary}, indent=2))


if __name__ == "__main__":
    main()
