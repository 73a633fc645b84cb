"""``ginsight showdown``: settle a showdown, layoffs included."""

from __future__ import annotations

import argparse
import json
import sys

from engine.cards import PRETTY
from engine.errors import GinsightError
from engine.rules import Rules
from engine.showdown import Settlement, settle


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--knocker", metavar="CARDS", help="the knocker's 10 cards, after the discard")
    parser.add_argument("--defender", metavar="CARDS", help="the defender's 10 cards")
    parser.add_argument(
        "--knocker-melds",
        metavar="MELDS",
        help='the melds the knocker laid, e.g. "AS 2S 3S | 7H 7D 7C" (default: the best)',
    )
    defaults = Rules()
    parser.add_argument("--gin-bonus", type=int, default=defaults.gin_bonus, metavar="N")
    parser.add_argument("--undercut-bonus", type=int, default=defaults.undercut_bonus, metavar="N")
    parser.add_argument("--knock-limit", type=int, default=defaults.knock_limit, metavar="N")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help='read objects {"knocker", "defender", "knocker_melds"?} a line on stdin',
    )


def _rules(args: argparse.Namespace) -> Rules:
    try:
        return Rules(
            knock_limit=args.knock_limit, gin_bonus=args.gin_bonus, undercut_bonus=args.undercut_bonus
        )
    except ValueError as exc:
        raise GinsightError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    rules = _rules(args)
    if args.jsonl:
        if args.knocker or args.defender or args.knocker_melds:
            raise GinsightError("--jsonl reads showdowns from stdin; give no hands on the command line")
        return run_jsonl(sys.stdin, sys.stdout, rules)
    if not args.knocker or not args.defender:
        raise GinsightError("both --knocker and --defender are needed (10 cards each)")
    result = settle(args.knocker, args.defender, args.knocker_melds, rules)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(render(result))
    return 0


def _settle_line(line: str, rules: Rules) -> dict:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise GinsightError(f"not a JSON object: {exc.msg}") from None
    if not isinstance(obj, dict):
        raise GinsightError('each line must be a JSON object {"knocker", "defender", "knocker_melds"?}')
    unknown = set(obj) - {"knocker", "defender", "knocker_melds"}
    if unknown:
        raise GinsightError(f"unknown key(s): {', '.join(sorted(unknown))}")
    for key in ("knocker", "defender"):
        value = obj.get(key)
        if isinstance(value, list) and all(isinstance(t, str) for t in value):
            obj[key] = " ".join(value)
        elif not isinstance(value, str):
            raise GinsightError(f"{key!r} must be a card string or a list of card codes")
    melds = obj.get("knocker_melds")
    if melds is not None and not (
        isinstance(melds, str)
        or (isinstance(melds, list) and all(isinstance(m, (list, str)) for m in melds))
    ):
        raise GinsightError("'knocker_melds' must be a string like \"AS 2S 3S | 7H 7D 7C\" or a list of lists")
    return settle(obj["knocker"], obj["defender"], melds, rules).to_json()


def run_jsonl(stdin, stdout, rules: Rules) -> int:
    for line in stdin:
        if not line.strip():
            continue
        try:
            out = _settle_line(line, rules)
        except (GinsightError, ValueError, TypeError) as exc:
            out = {"error": str(exc)}
        stdout.write(json.dumps(out) + "\n")
    stdout.flush()
    return 0


def _cards(cards) -> str:
    return " ".join(PRETTY[c] for c in cards) or "-"


def render(r: Settlement) -> str:
    k, d = r.knocker, r.defender
    lines = [
        "Knocker   melds     " + (" | ".join(str(m) for m in k.melds) or "-"),
        f"          deadwood  {_cards(k.deadwood_cards)}  = {k.deadwood}",
        "Defender  melds     " + (" | ".join(str(m) for m in d.arrangement.melds) or "-"),
    ]
    for x in d.layoffs:
        lines.append(f"          lays off  {PRETTY[x.card]} onto {x.meld}")
    lines.append(f"          deadwood  {_cards(d.arrangement.deadwood_cards)}  = {d.deadwood}")
    who = "knocker" if r.winner == "knocker" else "defender"
    lines.append(f"Outcome   {r.outcome}: {who} scores {r.points}")
    return "\n".join(lines)
