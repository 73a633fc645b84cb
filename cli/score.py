"""``ginsight score``: the scoresheet of a real game (new, add, edit, undo, show, list, export)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from engine.cards import parse_cards
from engine.errors import GinsightError
from engine.rules import Rules
from engine.showdown import settle
from engine.table import (
    GameError,
    HandResult,
    Roles,
    Table,
    draw_roles,
    format_draw,
    roles_from_draw,
)
from scoresheet import Scoresheet
from scoresheet.export import csv_text, printable_html, table_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", help="scoresheet file (default: $GINSIGHT_DB or the user data folder)")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))

    new = sub.add_parser("new", help="start a game")
    new.add_argument("--players", required=True, metavar="A,B,C", help="three names, comma-separated")
    how = new.add_mutually_exclusive_group()
    how.add_argument("--draw", metavar="DRAW",
                     help='the cards drawn for roles, e.g. "Ann:KS Bob:7H Cy:7C,2D" (redraws after a comma); '
                          "default: the program draws")
    how.add_argument("--roles", metavar="BOX,CAPTAIN,SITTER", help="the first hand's roles, by name")
    new.add_argument("--seed", type=int, help="seed for the program's draw")
    new.add_argument("--name", help="a name for the game")
    defaults = Rules()
    new.add_argument("--target", type=int, default=defaults.target, metavar="N")
    new.add_argument("--gin-bonus", type=int, default=defaults.gin_bonus, metavar="N")
    new.add_argument("--undercut-bonus", type=int, default=defaults.undercut_bonus, metavar="N")
    new.add_argument("--knock-limit", type=int, default=defaults.knock_limit, metavar="N")

    add = sub.add_parser("add", help="record a hand: a draw, the two counts, or the showdown's cards")
    add.add_argument("--game", type=int, metavar="ID", help="default: the newest game not yet won")
    _hand_arguments(add)

    edit = sub.add_parser("edit", help="correct a past hand: the totals and roles after it are worked out again")
    edit.add_argument("--game", type=int, metavar="ID", help="default: the newest game not yet won")
    edit.add_argument("--hand", type=int, required=True, metavar="N", help="the hand to correct (1 = the first)")
    _hand_arguments(edit)

    export = sub.add_parser("export", help="the scoresheet as CSV, JSON or a printable HTML page")
    export.add_argument("--game", type=int, metavar="ID", help="default: the newest game not yet won")
    export.add_argument("--format", choices=("csv", "json", "html"), default="csv")
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")

    for name, text, default in (
        ("undo", "remove the last hand", "default: the game of the hand entered last"),
        ("show", "the table: totals, roles, history", "default: the newest game not yet won"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("--game", type=int, metavar="ID", help=default)
        p.add_argument("--json", action="store_true")
    lst = sub.add_parser("list", help="the games kept")
    lst.add_argument("--json", action="store_true")


def _hand_arguments(parser: argparse.ArgumentParser) -> None:
    """How a hand ended: a draw, the two counts, or the showdown's cards (``add`` and ``edit``)."""
    parser.add_argument("--draw", action="store_true", help="the hand was a draw")
    parser.add_argument("--knocker", metavar="WHO", help="who knocked: a name, 'box' or 'captain'")
    parser.add_argument("--knocker-count", type=int, metavar="N")
    parser.add_argument("--defender-count", type=int, metavar="N", help="after layoffs")
    parser.add_argument("--knocker-cards", metavar="CARDS", help="the knocker's 10 cards (settles the showdown)")
    parser.add_argument("--defender-cards", metavar="CARDS")
    parser.add_argument("--knocker-melds", metavar="MELDS")
    parser.add_argument("--result", choices=("knock", "undercut", "gin"), help="cross-check: refuse if it differs")


def _players(text: str) -> tuple[str, str, str]:
    names = tuple(n.strip() for n in text.split(","))
    if len(names) != 3 or not all(names):
        raise GinsightError(f"--players needs three names separated by commas, got {text!r}")
    return names  # type: ignore[return-value]


def _index(players: tuple[str, ...], name: str) -> int:
    folded = [p.casefold() for p in players]
    if name.strip().casefold() not in folded:
        raise GinsightError(f"{name!r} is not one of the players ({', '.join(players)})")
    return folded.index(name.strip().casefold())


def _first_roles(args: argparse.Namespace, players: tuple[str, str, str]) -> tuple[Roles, str]:
    if args.roles:
        names = [n.strip() for n in args.roles.split(",")]
        if len(names) != 3:
            raise GinsightError("--roles needs three names: box, captain, sitter")
        roles = Roles(*(_index(players, n) for n in names))
        return roles, "roles entered"
    if args.draw:
        draws: list[list] = [[], [], []]
        for part in args.draw.split():
            if ":" not in part:
                raise GinsightError(f"--draw entries look like Name:KS (or Name:7C,2D), got {part!r}")
            name, cards = part.split(":", 1)
            who = _index(players, name)
            if draws[who]:
                raise GinsightError(f"{players[who]} appears twice in --draw: give each player's cards once "
                                    "(redraws after a comma, e.g. Ann:7C,2D)")
            draws[who] = parse_cards(cards, what=f"{name}'s draw")
        if any(not d for d in draws):
            missing = [players[i] for i in range(3) if not draws[i]]
            raise GinsightError(f"no card drawn for {', '.join(missing)}")
        drawn = roles_from_draw(draws)
        return drawn.roles, format_draw(drawn, players)
    drawn = draw_roles(random.Random(args.seed))
    return drawn.roles, format_draw(drawn, players)


def _seat(table: Table, who: str) -> str:
    if who.lower() in ("box", "captain"):
        return who.lower()
    player = _index(table.players, who)
    seat = table.roles.role_of(player)
    if seat == "sitter":
        raise GinsightError(f"{table.players[player]} sits out this hand and cannot have knocked")
    return seat


def _export(args: argparse.Namespace, info) -> int:
    text = {"csv": csv_text, "html": printable_html,
            "json": lambda i: json.dumps(table_json(i), indent=2) + "\n"}[args.format](info)
    if not args.output:
        sys.stdout.write(text)
        return 0
    path = Path(args.output)
    try:
        path.write_text(text, encoding="utf-8", newline="")
    except OSError as exc:
        raise GinsightError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(f"Game {info.id} written to {path} ({args.format}, {len(info.table.history)} hands).")
    return 0


def _result(args: argparse.Namespace, table: Table) -> tuple[HandResult, dict | None]:
    if args.draw:
        if any(x is not None for x in (args.knocker, args.knocker_count, args.knocker_cards)):
            raise GinsightError("a draw takes no knocker, counts or cards")
        return HandResult("draw"), None
    if not args.knocker:
        raise GinsightError("say who knocked (--knocker NAME) or that the hand was a --draw")
    seat = _seat(table, args.knocker)
    detail = None
    if args.knocker_cards or args.defender_cards:
        if not (args.knocker_cards and args.defender_cards):
            raise GinsightError("a showdown needs both --knocker-cards and --defender-cards")
        if args.knocker_count is not None or args.defender_count is not None:
            raise GinsightError("give the showdown's cards or the counts, not both")
        s = settle(args.knocker_cards, args.defender_cards, args.knocker_melds, table.rules)
        k, d = s.knocker.deadwood, s.defender.deadwood
        detail = {"knocker_cards": args.knocker_cards, "defender_cards": args.defender_cards,
                  "knocker_melds": args.knocker_melds, "settlement": s.to_json()}
    else:
        if args.knocker_count is None or args.defender_count is None:
            raise GinsightError("give --knocker-count and --defender-count, or the showdown's cards")
        k, d = args.knocker_count, args.defender_count
    result = HandResult.from_counts(seat, k, d, table.rules)
    if args.result and args.result != result.result:
        raise GinsightError(f"those counts make the hand {result.result!r}, not {args.result!r}: nothing recorded")
    return result, detail


def render_table(game_id: int, info, table: Table) -> str:
    p = table.players
    width = max(8, *(len(n) for n in p))
    lines = [f"Game {game_id}: {info.name} (to {table.rules.target})", f"First roles: {info.role_draw}", ""]
    head = f"{'#':>3}  {'box':<{width}} {'captain':<{width}} {'result':<9} {'winner':<{width}} {'points':>6}"
    lines.append(head + "  " + "  ".join(f"{n:>{max(5, len(n))}}" for n in p))
    for r in table.history:
        winner = p[r.winner_player] if r.winner_player is not None else "-"
        row = (f"{r.number:>3}  {p[r.roles.box]:<{width}} {p[r.roles.captain]:<{width}} {r.result.result:<9} "
               f"{winner:<{width}} {r.result.points:>6}")
        lines.append(row + "  " + "  ".join(f"{r.scores[i]:>{max(5, len(n))}}" for i, n in enumerate(p)))
    if not table.history:
        lines.append("  (no hands yet)")
    lines += ["", "Totals: " + ", ".join(f"{p[i]} {table.scores[i]}" for i in range(3))]
    if table.over:
        lines.append(f"Winner: {p[table.winner]} with {table.scores[table.winner]}")
    else:
        lines.append(f"Next hand: {table.describe_roles()}")
    return "\n".join(lines)


def _said(result: HandResult, table: Table, number: int) -> str:
    if result.result == "draw":
        return "draw, nobody scores."
    return f"{result.result}, {table.players[table.history[number - 1].winner_player]} scores {result.points}."


def run(args: argparse.Namespace) -> int:
    try:
        with Scoresheet(args.db) as sheet:
            return _run(args, sheet)
    except GameError as exc:
        raise GinsightError(f"{exc}: nothing recorded") from None


def _run(args: argparse.Namespace, sheet: Scoresheet) -> int:
    if args.action == "new":
        players = _players(args.players)
        try:
            rules = Rules(args.knock_limit, args.gin_bonus, args.undercut_bonus, args.target)
        except ValueError as exc:
            raise GinsightError(str(exc)) from None
        Table(players, Roles(0, 1, 2), rules)  # check the names before drawing
        roles, how = _first_roles(args, players)
        game_id = sheet.new_game(players, roles, how, rules, args.name)
        info = sheet.game(game_id)
        print(f"Game {game_id} started: {info.name}. {how}.")
        print(f"First hand: {info.table.describe_roles()}")
        return 0
    if args.action == "list":
        games = sheet.games()
        if args.json:
            print(json.dumps([table_json(g) for g in games]))
        elif not games:
            print(f"No games in {sheet.path}")
        for g in games if not args.json else []:
            state = f"won by {g.players[g.table.winner]}" if g.table.over else f"{len(g.table.history)} hands"
            scores = ", ".join(f"{g.players[i]} {g.table.scores[i]}" for i in range(3))
            print(f"{g.id:>4}  {g.created}  {g.name}: {scores} ({state})")
        return 0
    if args.game is not None:
        game_id = args.game
    elif args.action == "undo":  # the hand entered last, even when its game has just been won
        game_id = sheet.last_hand_game()
    else:
        game_id = sheet.current_game()
    info = sheet.game(game_id)
    if args.action == "export":
        return _export(args, info)
    if args.action == "edit":
        history = info.table.history
        if not 1 <= args.hand <= len(history):
            raise GinsightError(f"no hand {args.hand} in game {game_id}: it has {len(history)} hands")
        # The knocker is named by seat or by who sat there in that hand.
        at_hand = Table(info.table.players, history[args.hand - 1].roles, info.table.rules)  # its seats then
        result, detail = _result(args, at_hand)
        table = sheet.edit_hand(game_id, args.hand, result, detail)
        print(f"Hand {args.hand} is now: {_said(result, table, args.hand)}")
        print(render_table(game_id, info, table).split("\n\n")[-1])
        return 0
    if args.action == "add":
        result, detail = _result(args, info.table)
        table = sheet.add_hand(game_id, result, detail)
        rec = table.history[-1]
        if result.result == "draw":
            print(f"Hand {rec.number}: draw, nobody scores; the same roles again.")
        else:
            print(f"Hand {rec.number}: {result.result}, {table.players[rec.winner_player]} scores {result.points}.")
        print(render_table(game_id, info, table).split("\n\n")[-1])
        return 0
    if args.action == "undo":
        table = sheet.undo(game_id)
        print(f"Removed hand {len(table.history) + 1} of game {game_id}.")
    else:
        table = info.table
    if getattr(args, "json", False):
        print(json.dumps(table_json(info, table)))
    else:
        print(render_table(game_id, info, table))
    return 0
