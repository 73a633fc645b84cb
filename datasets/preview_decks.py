"""Contact sheets of decks with their index boxes drawn, for a person to check the boxes.

    python -m datasets.preview_decks --deck svg-cards out/svg-cards.png
    python -m datasets.preview_decks --indices --deck gnome-anglo out/anglo-indices.png
    python -m datasets.preview_decks --all out/previews/
    python -m datasets.preview_decks --fetch --all out/previews/   # fetch the artwork first

A sheet is the 52 faces in a 13 x 4 grid (spades, hearts, diamonds, clubs; A to K), each index
box outlined in magenta. ``--indices`` shows instead every index box enlarged (3x, with a few
pixels around it), which is where a box that is a pixel too loose or too tight shows.

With ``--fetch --all`` on an empty cache this is also the end-to-end timing of fetching and
rendering every deck.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from PIL import Image, ImageDraw

from datasets.decks import Deck, available_decks, fetch_decks, load_deck
from engine.cards import CODES as CARD_CODES

BACKGROUND = (40, 110, 60, 255)
BOX = (255, 0, 255, 255)


def contact_sheet(deck: Deck, gap: int = 4) -> Image.Image:
    """The deck's 52 faces in a 13 x 4 grid with their index boxes outlined."""
    w, h = deck.size
    sheet = Image.new("RGBA", (13 * (w + gap) + gap, 4 * (h + gap) + gap), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    for i, code in enumerate(CARD_CODES):
        x, y = gap + (i % 13) * (w + gap), gap + (i // 13) * (h + gap)
        face = Image.fromarray(deck.faces[code])
        sheet.alpha_composite(face, (x, y))
        for x1, y1, x2, y2 in deck.index_boxes[code]:
            # Outline drawn just outside the box, so that the box's own pixels stay visible.
            draw.rectangle((x + x1 - 1, y + y1 - 1, x + x2, y + y2), outline=BOX)
    return sheet


def index_sheet(deck: Deck, zoom: int = 3, margin: int = 4) -> Image.Image:
    """Every index box of the deck, enlarged, with ``margin`` pixels of the face around it."""
    w, h = deck.size
    tiles = []
    for code in CARD_CODES:
        face = Image.new("RGBA", (w, h), BACKGROUND)
        face.alpha_composite(Image.fromarray(deck.faces[code]))
        for x1, y1, x2, y2 in deck.index_boxes[code]:
            crop = face.crop((x1 - margin, y1 - margin, x2 + margin, y2 + margin))
            tile = crop.resize((crop.width * zoom, crop.height * zoom), Image.Resampling.NEAREST)
            ImageDraw.Draw(tile).rectangle(
                (margin * zoom - 1, margin * zoom - 1, (x2 - x1 + margin) * zoom, (y2 - y1 + margin) * zoom),
                outline=BOX,
            )
            tiles.append(tile)
    per_row = 13 * len(deck.index_boxes[CARD_CODES[0]])
    tw, th = max(t.width for t in tiles), max(t.height for t in tiles)
    rows = -(-len(tiles) // per_row)
    sheet = Image.new("RGBA", (per_row * (tw + 2), rows * (th + 2)), (0, 0, 0, 255))
    for i, tile in enumerate(tiles):
        sheet.paste(tile, ((i % per_row) * (tw + 2), (i // per_row) * (th + 2)))
    return sheet


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, nargs="?", help="PNG to write; with --all, a folder")
    parser.add_argument("--deck", help="the deck to show (see --list)")
    parser.add_argument("--all", action="store_true", help="a sheet per available deck, named after it")
    parser.add_argument("--indices", action="store_true", help="enlarged index boxes instead of whole faces")
    parser.add_argument("--height", type=int, default=320, help="face height in pixels (default 320)")
    parser.add_argument("--cache", type=Path, default=None, help="deck cache (default: default_cache_dir())")
    parser.add_argument("--list", action="store_true", help="list the available decks and stop")
    parser.add_argument("--fetch", action="store_true", help="fetch the deck artwork first (see fetch_decks)")
    args = parser.parse_args(argv)
    if args.fetch:
        fetch_decks(args.cache, quiet=False)
    if args.list:
        print("\n".join(available_decks(args.cache)))
        return
    if args.out is None or args.all == bool(args.deck):
        parser.error("give --deck NAME and a PNG, or --all and a folder")
    if args.all:
        suffix = "-indices" if args.indices else ""
        jobs = [(name, args.out / f"{name}{suffix}.png") for name in available_decks(args.cache)]
    else:
        jobs = [(args.deck, args.out)]
    start = time.perf_counter()
    for name, out in jobs:
        deck = load_deck(name, args.cache, args.height)
        sheet = index_sheet(deck) if args.indices else contact_sheet(deck)
        out.parent.mkdir(parents=True, exist_ok=True)
        sheet.save(out)
        print(f"{out}  {deck!r}  ({time.perf_counter() - start:.0f} s so far)")


if __name__ == "__main__":
    main()
