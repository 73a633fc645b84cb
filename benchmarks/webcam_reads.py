"""The classifier alone on every deck's black indices seen as a webcam over a table sees them
(``datasets.index_crops.webcam_crop``: turned, 24-64 px, often squeezed, soft, dim, JPEG'd; or,
with ``--look camera``, ``camera_crop``: soft at the camera's resolution, then shrunk unevenly):
per deck, the share of club and spade indices read right and the clubs read as spades. A
weights folder with a suit reader (``suit.onnx``) is read as the reader reads: that network
gives the black suit of the indices the classifier reads as black cards.

``--grey``: every index of all four suits, made black and white (as a phone's filter makes a
photo), read as the reader reads a grey photo: a folder's grey-photo suit reader (``suit4.onnx``)
gives every index's suit; a folder without one reads as before. Also the share of indices whose
rank is read right and suit wrong.

Decks: the fetched real designs, and procedural decks by seed (``--procedural 100-111`` are
decks no training set has). The crops are drawn from ``--seed`` (not the seed the training
crops were drawn from). Synthetic data only; nothing here is chosen on ``../shared/real-dev``.

    python benchmarks/webcam_reads.py --a models/weights [--b OTHER] [--procedural 100-111] \\
        [--per-card 6] [--look camera] [--blur 0.4-1.6] [--grey] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.deck_reads import add_weights_and_decks, deck_names, report, scores  # noqa: E402
from datasets.index_crops import LOOKS, blur_range  # noqa: E402
from engine.cards import CODES  # noqa: E402
from vision.crops import to_grey  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.suits import apply_suit_reader  # noqa: E402

BLACK = [c for c in CODES if c[-1] in "SC"]


def deck_crops(deck, side: int, seed: int, per_card: int, blur: tuple[float, float] | None = None,
               look: str = "webcam", grey: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``per_card`` crops of each club and spade index of ``deck`` with ``look`` (a key of
    ``datasets.index_crops.LOOKS``), blurred over ``blur`` (by default the look's own range);
    with ``grey``, of every index, in black and white (still three equal channels)."""
    from datasets.backgrounds import Backgrounds

    crop, default_blur = LOOKS[look]
    blur = default_blur if blur is None else blur
    backgrounds = Backgrounds()
    xs, ys = [], []
    for i, code in enumerate(CODES if grey else BLACK):
        for j in range(per_card):
            rng = np.random.default_rng([seed, i, j])
            xs.append(crop(rng, deck, code, backgrounds.sample(rng, 160), side, blur))
            ys.append(CODES.index(code))
    x = np.stack(xs)
    if grey:
        x = np.repeat(to_grey(x)[..., None], 3, axis=3)
    return x, np.array(ys)


def suit_wrong(read: np.ndarray, y: np.ndarray) -> float:
    """The share of indices whose rank is read right and suit wrong (classes: suit x 13 + rank)."""
    card = read < 52
    return float((card & (read % 13 == y % 13) & (read // 13 != y // 13)).mean())


def read_deck(read, crops: np.ndarray, y: np.ndarray, says=(),
              suit_crops: dict | None = None, suit_probs=None) -> dict:
    """The deck's figures as the reader reads its crops: ``read`` (crops -> probabilities:
    ``Reader.crop_probs``, the classifier at four turns, or an upright one's crops turned), then
    the say of each suit reader in ``says`` (``Reader.suit_says``: network, suits, rule, weight) on the
    indices read as cards of its suits (``suit_crops``: side -> the same indices cut at it),
    as ``suit_probs(net, its crops, the classifier's crops)`` reads them (``Reader.suit_probs``:
    an upright suit reader's crops turned upright first; by default at four turns)."""
    probs = read(crops)
    suit_probs = suit_probs or (lambda net, x, small: net(x, turns=4))
    for net, suits, rule, weight in says:
        probs = apply_suit_reader(probs, lambda mask, net=net: suit_probs(net, suit_crops[net.size][mask], crops[mask]),
                                  rule, suits, weight)
    read = probs.argmax(1)
    return scores(read, y) | {"suit_wrong": suit_wrong(read, y)}


def main() -> None:
    from datasets.decks import load_deck

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_weights_and_decks(parser, "100-111")
    parser.add_argument("--no-real", action="store_true", help="leave out the real designs")
    parser.add_argument("--per-card", type=int, default=6, help="crops per black card and deck")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--look", choices=list(LOOKS), default="webcam",
                        help="webcam: made at the frame's size; camera: at a webcam's resolution, then shrunk")
    parser.add_argument("--grey", action="store_true",
                        help="every index in black and white, read as the reader reads a grey photo")
    parser.add_argument("--blur", type=blur_range, metavar="A-B",
                        help="the blur's range (default the look's own, as in training): a sigma in frame pixels "
                             "for the webcam look, a share of the index's length for the camera look")
    args = parser.parse_args()

    names = deck_names(args.procedural, real=not args.no_real)
    if not names:
        parser.error("no decks: fetch the real designs or give --procedural")
    folders = {"a": args.a} | ({"b": args.b} if args.b else {})
    readers = {k: Reader(f) for k, f in folders.items()}
    says = {k: r.suit_says(args.grey) for k, r in readers.items()}
    sides = {r.classifier.size for r in readers.values()} | {say.net.size for s in says.values() for say in s}
    rows = {}
    for name in names:
        deck = load_deck(name)
        crops = {s: deck_crops(deck, s, args.seed, args.per_card, args.blur, args.look, args.grey) for s in sides}
        suit_crops = {s: x for s, (x, _) in crops.items()}
        rows[name] = {k: read_deck(r.crop_probs, *crops[r.classifier.size], says[k], suit_crops, r.suit_probs)
                      for k, r in readers.items()}
    summary = report(rows, list(folders), ("right", "clubs_read_as_spades", "spades_read_as_clubs", "suit_wrong"))
    if args.json:
        args.json.write_text(json.dumps({"folders": {k: str(v) for k, v in folders.items()}, "seed": args.seed,
                                         "per_card": args.per_card, "look": args.look, "grey": args.grey,
                                         "blur": args.blur or LOOKS[args.look][1], "decks": rows,
                                         "summary": summary}, indent=2))


if __name__ == "__main__":
    main()
