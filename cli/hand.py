"""``ginsight hand``: analyse 10 or 11 cards."""

from __future__ import annotations

import argparse
import sys

from cli.hand_stream import run_jsonl
from engine.cards import PRETTY, parse_cards
from engine.errors import GinsightError
from engine.hand import HAND_SIZES, HandReport, analyse_hand, hand_json_text
from engine.rules import Rules


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", nargs="*", metavar="CARD", help="10 or 11 cards, e.g. AS 2s 10h q♠")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="read one hand a line on stdin, write one JSON object a line",
    )
    parser.add_argument("--knock-limit", type=int, default=Rules().knock_limit, metavar="N")


def run(args: argparse.Namespace) -> int:
    rules = Rules(knock_limit=args.knock_limit)
    if args.jsonl:
        if args.cards:
            raise GinsightError("--jsonl reads hands from stdin; give no cards on the command line")
        return run_jsonl(sys.stdin, sys.stdout, rules.knock_limit)
    if not args.cards:
        raise GinsightError("no cards given (10 or 11 cards, e.g. ginsight hand AS 2S 3S ...)")
    cards = parse_cards(args.cards, sizes=HAND_SIZES)
    if args.json:
        print(hand_json_text(cards, rules))
    else:
        print(render(analyse_hand(cards, rules), rules))
    return 0


def _cards(cards) -> str:
    return " ".join(PRETTY[c] for c in cards) or "-"


def render(report: HandReport, rules: Rules) -> str:
    """A readable report with suit symbols."""
    lines = [f"Hand      {_cards(report.cards)}"]
    if report.options:
        lines.append(f"Discard   {PRETTY[report.discard]}")
    a = report.arrangement
    lines.append("Melds     " + (" | ".join(str(m) for m in a.melds) or "-"))
    lines.append(f"Deadwood  {_cards(a.deadwood_cards)}  = {a.deadwood}")
    if report.gin:
        verdict = "gin"
    elif report.can_knock:
        verdict = f"can knock ({a.deadwood} <= {rules.knock_limit})"
    else:
        verdict = f"cannot knock ({a.deadwood} > {rules.knock_limit})"
    lines.append(f"Knock     {verdict}")
    if report.options:
        lines += ["", "Discard  Deadwood  Melds / deadwood cards"]
        for o in report.options:
            melds = " | ".join(str(m) for m in o.arrangement.melds) or "-"
            lines.append(
                f"{PRETTY[o.discard]:<8} {o.deadwood:>8}  {melds}  ; {_cards(o.arrangement.deadwood_cards)}"
            )
    return "\n".join(lines)
