"""Would a black suit reader trained on upright crops read better? A probe: the shipped suit
reader (``models/weights/suit.pt``) goes on for ``--minutes`` on index crops that record which
way they face (``python -m datasets.index_crops ... --suits SC --side 48``), each turned
upright first and then turned only a little (no quarter turns); then the black indices of every
deck with the camera look (as ``upright_suit_probe.py``) are read by the shipped reader as it
reads them and by the candidate on the same crops turned upright, by the true way up and by the
way-up reader's, at one turn. The candidate is written to ``--out`` (``models.suit.train``
with ``upright``; the reader reads such a file upright, ``Reader.suit_probs``). With
``--control``, the same run on the crops as they are, with the usual turns, read as the
shipped reader reads: how much of the gain is only more training. Synthetic data only.

    python benchmarks/upright_suit_train.py --data data/suit-up-camera --out runs/suit-up \\
        --minutes 15 --procedural 200-319 [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.deck_reads import deck_names, report, seeds  # noqa: E402
from benchmarks.upright_suit_probe import deck_crops, probed_reader  # noqa: E402
from models import suit  # noqa: E402
from vision.crops import to_grey, turn_upright  # noqa: E402
from vision.suits import apply_suit_reader  # noqa: E402

WAYS = ("shipped_as_read", "candidate_upright_true", "candidate_upright_read")


def train(folder: Path, out: Path, minutes: float, init: Path, lr: float = 1e-3, batch: int = 256,
          seed: int = 0, log=print, turn: bool = True) -> Path:
    """``models.suit.train`` going on from ``init`` on ``folder``'s crops, turned upright
    (``turn``) or as they are; the candidate's ONNX."""
    suit.train([folder], out, minutes=minutes, lr=lr, batch=batch, seed=seed, resume=init, upright=turn,
               epochs=10**6, log=log)
    return out / "suit.onnx"


def main() -> None:
    from datasets.decks import load_deck
    from vision.onnx import IndexClassifier

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", type=Path, default=ROOT / "models" / "weights",
                        help="the weights folder whose suit reader goes on (default: the shipped one)")
    parser.add_argument("--procedural", type=seeds, action="append", default=[],
                        help="procedural deck seeds to read, e.g. 200-319 (repeatable)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--data", type=Path, required=True, help="crops that record their way up, 48 px")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--minutes", type=float, default=15)
    parser.add_argument("--per-card", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--control", action="store_true",
                        help="train on the crops as they are, with the usual turns, and read them so")
    args = parser.parse_args()
    reader = probed_reader(parser, args.a)  # refused before minutes of training, not after
    candidate = IndexClassifier(train(args.data, args.out, args.minutes, args.a / "suit.pt", turn=not args.control))
    ways = ("shipped_as_read", "candidate_as_read") if args.control else WAYS
    names = deck_names(args.procedural)
    rows = {}
    for name in names:
        crops, y, ups = deck_crops(load_deck(name), (reader.classifier.size, reader.suit.size), args.seed,
                                   args.per_card)
        small, big = crops[reader.classifier.size], crops[reader.suit.size]
        read_ups = reader.way_up.degrees(to_grey(small))
        probs = reader.crop_probs(small)
        views = {"shipped_as_read": (reader.suit, big, 4), "candidate_as_read": (candidate, big, 4),
                 "candidate_upright_true": (candidate, turn_upright(big, ups), 1),
                 "candidate_upright_read": (candidate, turn_upright(big, read_ups), 1)}
        views = {w: views[w] for w in ways}
        row = {}
        for way, (net, x, turns) in views.items():
            p = apply_suit_reader(probs, lambda mask, net=net, x=x, turns=turns: net(x[mask], turns=turns),
                                  reader.settings.suit_rule, "SC")
            row[way] = float((p.argmax(1) == y).mean())
        rows[name] = {"a": row}
    summary = report(rows, ["a"], ways, tuple((w, w.replace("_", " "), ".3f") for w in ways))
    if args.json:
        args.json.write_text(json.dumps({"data": str(args.data), "minutes": args.minutes, "control": args.control,
                                         "seed": args.seed,
                                         "per_card": args.per_card, "decks": rows, "summary": summary}, indent=2))


if __name__ == "__main__":
    main()
