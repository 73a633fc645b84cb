"""``ginsight dataset``: write synthetic, YOLO-labelled photos of cards (and index crops)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli.extras import require_train_extra
from engine.errors import GinsightError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--n", type=int, required=True, metavar="N", help="number of photos")
    parser.add_argument("--seed", type=int, default=0, metavar="S")
    parser.add_argument("--size", type=int, default=640, help="photo side in pixels (default 640)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--val", type=float, default=0.1, help="share kept for validation (default 0.1)")
    parser.add_argument("--procedural", type=int, default=12, help="procedurally drawn decks to add (default 12)")
    parser.add_argument("--procedural-from", type=int, default=0, metavar="S",
                        help="the first procedural deck's seed (default 0; e.g. 200: decks no training set has)")
    parser.add_argument("--decks", help="comma-separated deck names (default: every fetched deck; "
                                        "none: the procedural decks alone)")
    parser.add_argument("--fetch", action="store_true", help="fetch the deck artwork from the registries first")
    parser.add_argument("--no-crops", action="store_true", help="skip the classifier's index crops")
    parser.add_argument("--val-only", action="store_true",
                        help="write only the validation photos of the N (the same as in the whole set)")
    parser.add_argument("--kind", action="append", metavar="KIND",
                        help="only this kind of scene (repeatable; fan, spread, single, showdown, closeup); "
                             "default: every kind at its share")
    parser.add_argument("--jokers", type=float, default=None, metavar="P",
                        help="chance that a photo has a joker among its cards, unlabelled (default 0.15; "
                             "0 writes the photos of sets made before jokers were drawn)")
    parser.add_argument("--backlit", type=float, default=None, metavar="P",
                        help="chance that a photo of cards held up is backlit: darker and flatter than the room "
                             "behind, the colour off (default 0.25; 0 writes the photos of sets made before)")
    parser.add_argument("--room-webcam", type=float, default=None, metavar="P",
                        help="chance that a photo of cards held up is seen by a webcam in a lit room: bright, "
                             "contrasted and warm, a single card 0.15-0.45 of the frame high, never backlit "
                             "(default 0)")
    parser.add_argument("--crop", type=int, default=32, metavar="PX",
                        help="side of the index crops in pixels (default 32; a classifier reads at its crops' side)")


def run(args: argparse.Namespace) -> int:
    require_train_extra("dataset")
    from datasets.build import build
    from datasets.decks import available_decks, fetch_decks, fetched_decks

    if args.n < 1:
        raise GinsightError("--n must be at least 1")
    if not 0 <= args.val < 1:
        raise GinsightError("--val must be in [0, 1)")
    if not 8 <= args.crop <= 256:
        raise GinsightError("--crop must be 8 to 256 pixels")
    if not 96 <= args.size <= 4096:  # under 96 px a photo's indices are too small to label (none are)
        raise GinsightError("--size must be 96 to 4096 pixels")
    if args.workers is not None and args.workers < 0:
        raise GinsightError("--workers must be 1 or more (0, the default: all cores)")
    if args.procedural < 0:
        raise GinsightError("--procedural must be 0 or more")
    from datasets.build import BACKLIT, JOKERS, ROOM_WEBCAM

    jokers = JOKERS if args.jokers is None else args.jokers
    if not 0 <= jokers <= 1:
        raise GinsightError("--jokers must be a chance between 0 and 1")
    backlit = BACKLIT if args.backlit is None else args.backlit
    if not 0 <= backlit <= 1:
        raise GinsightError("--backlit must be a chance between 0 and 1")
    room_webcam = ROOM_WEBCAM if args.room_webcam is None else args.room_webcam
    if not 0 <= room_webcam <= 1:
        raise GinsightError("--room-webcam must be a chance between 0 and 1")
    from datasets.scenes import KINDS, unknown_kinds

    unknown = unknown_kinds(args.kind)
    if unknown:
        raise GinsightError(f"--kind: unknown scene kind(s) {', '.join(unknown)} (known: {', '.join(KINDS)})")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise GinsightError(f"--out {out} is a file, not a folder")
    if out.exists() and any((out / "images").glob("*/*.jpg")):
        raise GinsightError(f"{out} already holds a data set: pick an empty folder")
    if args.fetch:
        fetch_decks(quiet=False)
    decks = ([] if args.decks == "none" else args.decks.split(",")) if args.decks else None
    if decks == [] and args.procedural < 1:
        raise GinsightError("--decks none wants procedural decks (--procedural N)")
    if args.procedural_from < 0:
        raise GinsightError("--procedural-from must be 0 or more")
    if decks:
        known = set(available_decks())
        unknown = [d for d in decks if d not in known]
        if unknown:
            raise GinsightError(f"unknown deck(s): {', '.join(unknown)} (available: {', '.join(sorted(known))})")
    if decks is None and not fetched_decks():
        print("ginsight dataset: no deck artwork fetched, so the photos are drawn with procedural decks alone; "
              "add --fetch to fetch the real decks first", file=sys.stderr)
    try:  # a folder it cannot make or write in, named now rather than by a worker's trace
        out.mkdir(parents=True, exist_ok=True)
        (out / ".writable").touch()
        (out / ".writable").unlink()
    except OSError as exc:
        raise GinsightError(f"--out {out}: cannot write there ({exc.strerror or exc})") from None
    summary = build(out, args.n, args.seed, size=args.size, val_fraction=args.val, workers=args.workers,
                    decks=decks, procedural=args.procedural, crops=not args.no_crops, crop=args.crop,
                    val_only=args.val_only, kinds=args.kind, jokers=jokers, backlit=backlit,
                    procedural_from=args.procedural_from, room_webcam=room_webcam)
    print(json.dumps(summary))
    return 0
