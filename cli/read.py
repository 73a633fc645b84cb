"""``ginsight read``: the cards in photos.

Each photo is read on its own: one that cannot be read is named (on stderr, or as an
``error`` line with ``--json``) and the others are still read. The exit status is 2 when any
photo could not be read, else 0.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import GinsightError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photos", nargs="+", metavar="PHOTO",
                        help="photos, or folders: every photo in a folder (any depth), in name order")
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
    photos = expand(args.photos)
    names: set[str] = set()  # drawn photos' names so far: two photos of one name are both kept
    for photo, problem in photos:
        if problem is None:
            try:
                image = load_image(photo)
                reading = reader.read(image)
            except ImageError as exc:
                problem = str(exc)
        if problem is not None:
            failed += 1
            if args.json:
                print(json.dumps({"image": photo, "error": problem}))
            else:
                print(f"{photo}: error: {problem}", file=sys.stderr)
            continue
        if out_dir:
            drawn = out_dir / drawn_name(Path(photo).stem, names)
            if not cv2.imwrite(str(drawn), annotate(image, reading)):  # the cards are still printed
                print(f"{photo}: warning: could not write the drawn photo {drawn}", file=sys.stderr)
        if args.json:
            print(json.dumps(reading.to_json(photo)))
        else:
            print("\n".join(plain_lines(photo, reading)))
    return 2 if failed else 0  # as batch tools do: any photo not read fails the run, the others still read


def plain_lines(photo: str, reading) -> list[str]:
    """A photo's reading as the plain output says it: its cards (``2C?`` for one read unsure,
    ``2C?(2S)`` where the likeliest other card is the two of spades), the time, and a second
    line when index boxes were found but not read.

    >>> from vision.types import CardRead, Reading
    >>> plain_lines("a.jpg", Reading((CardRead("2C", 0.4, (), True, "2S"), CardRead("KD", 0.9, (), False)),
    ...                               41.0, 640, 480, unread=((1, 2, 3, 4),)))
    ['a.jpg: 2C?(2S) KD  [41 ms]', 'a.jpg: 1 index box not read']
    """
    shown = " ".join(_card(c) for c in reading.cards) or "(no cards)"
    mirrored = "  (a mirrored photo, read flipped back)" if reading.mirrored else ""
    lines = [f"{photo}: {shown}  [{reading.ms:.0f} ms]{mirrored}"]
    if reading.unread:
        n = len(reading.unread)
        lines.append(f"{photo}: {n} index {'box' if n == 1 else 'boxes'} not read")
    return lines


def _card(read) -> str:
    if not read.uncertain:
        return read.card
    return read.card + "?" + (f"({read.alternative})" if read.alternative else "")


def expand(paths: list[str]) -> list[tuple[str, str | None]]:
    """Each path as given, except a folder: the photos in it (any depth, in name order,
    vision.image.image_files), or, where it has none, the folder with what is wrong with it."""
    from pathlib import Path

    from vision.image import image_files

    out: list[tuple[str, str | None]] = []
    for path in paths:
        if not Path(path).is_dir():
            out.append((path, None))
            continue
        found = image_files(path)
        if not found:
            out.append((path, f"{path} is a folder with no photos in it (.jpg, .jpeg, .png, .bmp or .webp)"))
        out.extend((str(f), None) for f in found)
    return out


def drawn_name(stem: str, taken: set[str]) -> str:
    """The drawn photo's file name: ``stem``.jpg, or ``stem``-2.jpg, -3 ... where an earlier
    photo of this run (from another folder) took it."""
    name, n = f"{stem}.jpg", 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}.jpg"
    taken.add(name)
    return name
