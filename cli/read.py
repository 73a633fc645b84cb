"""``ginsight read``: the cards in photos."""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import GinsightError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photos", nargs="+", metavar="PHOTO")
    parser.add_argument("--json", action="store_true", help="one JSON object per photo per line")
    parser.add_argument("--weights", metavar="DIR", help="model folder (default: the shipped models/weights)")
    parser.add_argument("--annotate", metavar="DIR", help="also write each photo with its cards drawn into DIR")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    import cv2

    from vision import ImageError, Reader, WeightsError, annotate, load_image

    try:
        reader = Reader(args.weights)
    except (FileNotFoundError, WeightsError) as exc:  # no network, a damaged one, a bad reader.json
        raise GinsightError(str(exc)) from None
    failed = 0
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir:
        if out_dir.exists() and not out_dir.is_dir():
            raise GinsightError(f"--annotate {out_dir} is a file, not a folder")
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise GinsightError(f"--annotate {out_dir}: cannot make that folder ({exc.strerror or exc})") from None
    for photo in args.photos:
        try:
            image = load_image(photo)
            reading = reader.read(image)
        except ImageError as exc:
            failed += 1
            if args.json:
                print(json.dumps({"image": photo, "error": str(exc)}))
            else:
                print(f"{photo}: error: {exc}", file=sys.stderr)
            continue
        if out_dir:
            drawn = out_dir / (Path(photo).stem + ".jpg")
            if not cv2.imwrite(str(drawn), annotate(image, reading)):  # the cards are still printed
                print(f"{photo}: warning: could not write the drawn photo {drawn}", file=sys.stderr)
        if args.json:
            print(json.dumps(reading.to_json(photo)))
        else:
            shown = " ".join(c.card + ("?" if c.uncertain else "") for c in reading.cards) or "(no cards)"
            print(f"{photo}: {shown}  [{reading.ms:.0f} ms]")
    return 2 if failed == len(args.photos) else 0
