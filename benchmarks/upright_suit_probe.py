"""Would the black suit reader read better if each index were turned upright first? A probe,
not a reader setting: every club and spade index of every deck as a camera sees it
(``datasets.index_crops.camera_crop``, as ``webcam_reads.py --look camera``), read as the reader
reads it (the classifier as the reader asks it, then the suit reader at four turns, rule "product"),
and again with the suit reader's 48-pixel crop first turned upright: by the way the index truly
faces (recorded when the crop is drawn), or by the way the way-up reader (``way_up.onnx``) reads
it from the classifier's 32-pixel crop; each at four turns and at one.

The suit reader learnt every turn, so turning its crop upright helps only if some turns read
worse than others; a reader trained on upright crops alone is another question (not asked
here). Synthetic data only; nothing here is chosen on ``../shared/real-dev``.

    python benchmarks/upright_suit_probe.py --a models/weights --procedural 200-319 [--per-card 2] [--json OUT]
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
from benchmarks.webcam_reads import BLACK  # noqa: E402
from datasets.index_crops import LOOKS  # noqa: E402
from engine.cards import CODES  # noqa: E402
from vision.crops import to_grey, turn_upright  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.suits import apply_suit_reader  # noqa: E402

WAYS = ("as_read", "upright_true_4", "upright_true_1", "upright_read_4", "upright_read_1")
COLUMNS = tuple((w, w.replace("_", " "), ".3f") for w in WAYS)


def deck_crops(deck, sides: tuple[int, ...], seed: int, per_card: int) -> tuple[dict, np.ndarray, np.ndarray]:
    """``per_card`` camera-look crops of each black index of ``deck``, one view cut at each of
    ``sides`` (the same draws: only the crop's size differs), with the way each faces."""
    from datasets.backgrounds import Backgrounds

    crop, blur = LOOKS["camera"]
    backgrounds = Backgrounds()
    xs = {s: [] for s in sides}
    ys, ups = [], []
    for i, code in enumerate(BLACK):
        for j in range(per_card):
            for s in sides:
                rng = np.random.default_rng([seed, i, j])
                x, up = crop(rng, deck, code, backgrounds.sample(rng, 160), s, blur, way_up=True)
                xs[s].append(x)
            ys.append(CODES.index(code))
            ups.append(up)
    return {s: np.stack(v) for s, v in xs.items()}, np.array(ys), np.array(ups)


def probed_reader(parser: argparse.ArgumentParser, folder: Path) -> Reader:
    """The reader of ``folder``, refused (``parser.error``) unless it has a way-up reader and a
    suit reader of crops at any turn: this probe and ``upright_suit_train.py`` read that suit
    reader at four turns, not its way once it reads crops turned upright."""
    reader = Reader(folder)
    if reader.suit is None or reader.way_up is None:
        parser.error(f"{folder} needs suit.onnx and way_up.onnx")
    if reader.suit.upright:
        parser.error(f"{folder}'s suit reader already reads crops turned upright (shipped so since session 24): "
                     "the question these probes ask is answered; give --a a folder whose suit reader reads "
                     "crops at any turn")
    return reader


def read_deck(reader: Reader, crops: dict, y: np.ndarray, ups: np.ndarray) -> dict:
    small = crops[reader.classifier.size]
    big = crops[reader.suit.size]
    read_ups = reader.way_up.degrees(to_grey(small))
    probs = reader.crop_probs(small)
    true, read = turn_upright(big, ups), turn_upright(big, read_ups)
    views = {"as_read": (big, 4), "upright_true_4": (true, 4), "upright_true_1": (true, 1),
             "upright_read_4": (read, 4), "upright_read_1": (read, 1)}
    out = {}
    for name, (x, turns) in views.items():
        p = apply_suit_reader(probs, lambda mask, x=x, turns=turns: reader.suit(x[mask], turns=turns),
                              reader.settings.suit_rule, "SC")
        out[name] = float((p.argmax(1) == y).mean())
    return out


def main() -> None:
    from datasets.decks import load_deck

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_weights_and_decks(parser, "200-319")
    parser.add_argument("--no-real", action="store_true", help="leave out the real designs")
    parser.add_argument("--per-card", type=int, default=2, help="crops per black card and deck")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    reader = probed_reader(parser, args.a)
    names = deck_names(args.procedural, real=not args.no_real)
    if not names:
        parser.error("no decks: fetch the real designs or give --procedural")
    sides = tuple(sorted({reader.classifier.size, reader.suit.size}))
    rows = {}
    for name in names:
        crops, y, ups = deck_crops(load_deck(name), sides, args.seed, args.per_card)
        rows[name] = {"a": read_deck(reader, crops, y, ups)}
    summary = report(rows, ["a"], WAYS, COLUMNS)
    if args.json:
        args.json.write_text(json.dumps({"weights": str(args.a), "seed": args.seed, "per_card": args.per_card,
                                         "look": "camera", "decks": rows, "summary": summary}, indent=2))


if __name__ == "__main__":
    main()
