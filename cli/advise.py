"""``ginsight advise``: take or draw with 10 cards; discard and knock with 11."""

from __future__ import annotations

import argparse
import json
import sys

from engine.advice import DEFAULT_SAMPLES, advise_draw, advise_turn
from engine.cards import parse_card, parse_cards
from engine.errors import GinsightError
from engine.hand import analyse_hand
from engine.rules import Rules


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--hand", metavar="CARDS", help="10 cards (with --upcard) or 11")
    source.add_argument("--photo", metavar="PHOTO", help="read the hand from a photo, then advise")
    parser.add_argument("--upcard", metavar="CARD", help="the top of the discard pile (10-card advice)")
    parser.add_argument("--discards", default="", metavar="CARDS", help="the discard pile under the top card")
    parser.add_argument("--opponent-took", default="", metavar="CARDS",
                        help="cards the opponent took from the pile and still holds")
    parser.add_argument("--taken", metavar="CARD", help="the card just taken from the pile (may not be discarded)")
    parser.add_argument("--stock", type=int, metavar="N", help="cards left in the stock, when known")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, metavar="N",
                        help=f"opponent hands sampled for the undercut risk (default {DEFAULT_SAMPLES})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--knock-limit", type=int, default=Rules().knock_limit, metavar="N")
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    rules = Rules(knock_limit=args.knock_limit)
    read = None
    if args.photo:
        read = _read_photo(args.photo)
        hand = parse_cards(read, sizes=(10, 11), what=f"the hand read from {args.photo}")
    else:
        hand = parse_cards(args.hand, sizes=(10, 11))
    discards = parse_cards(args.discards, what="discards")
    took = parse_cards(args.opponent_took, what="opponent's cards")
    if args.samples < 1 or args.samples > 100_000:
        raise GinsightError("--samples must be between 1 and 100000")
    if len(hand) == 10:
        if not args.upcard:
            raise GinsightError("with 10 cards, give the --upcard to advise taking it or drawing")
        advice = advise_draw(hand, parse_card(args.upcard), discards, took, rules)
        out = {"hand": analyse_hand(hand, rules).to_json(), "advice": advice.to_json()}
    else:
        if args.upcard:
            raise GinsightError("with 11 cards the card is already taken: drop --upcard (use --taken X)")
        taken = parse_card(args.taken) if args.taken else None
        advice = advise_turn(hand, discards, took, taken_from_pile=taken, stock_size=args.stock,
                             samples=args.samples, seed=args.seed, rules=rules)
        out = {"hand": analyse_hand(hand, rules).to_json(), "advice": advice.to_json()}
    if read is not None:
        out["read"] = read
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        if read is not None:
            print(f"Read: {' '.join(read)}")
        print(advice.reasons)
    return 0


def _read_photo(photo: str) -> list[str]:
    from vision import ImageError, Reader, WeightsError

    try:
        reading = Reader().read(photo)
    except (FileNotFoundError, WeightsError) as exc:  # no network, a damaged one, a bad reader.json
        raise GinsightError(str(exc)) from None
    except ImageError as exc:
        raise GinsightError(f"{photo}: {exc}") from None
    unsure = [c.card for c in reading.cards if c.uncertain]
    if unsure:
        print(f"ginsight: warning: not sure of {' '.join(unsure)} in {photo}: check them", file=sys.stderr)
    return reading.codes()
