"""The SQLite scoresheet as the pages use it: open it (saying why not), pick the game, and the
buttons' actions, which are :class:`scoresheet.Scoresheet` calls like ``ginsight score``'s.

Each action runs as a button's callback, before the page is drawn, so the page shows the
table as it is after the change; it opens the file, makes one transaction and closes it, so a
refresh or a restart loses nothing. Refused actions write nothing and leave a message.
"""

from __future__ import annotations

import random
import sqlite3

import streamlit as st

from engine.cards import parse_cards
from engine.errors import GinsightError
from engine.rules import Rules
from engine.showdown import settle
from engine.table import HandResult, RoleDrawTie, Roles, Table, draw_roles, format_draw, roles_from_draw
from scoresheet import Scoresheet, default_path
from scoresheet.store import GameInfo
from ui import state

SHEET_ERRORS = (GinsightError, OSError, sqlite3.Error)


def open_sheet() -> Scoresheet | None:
    """The scoresheet, or ``None`` after showing why it cannot be used (the file is left as it is)."""
    try:
        return Scoresheet(default_path())
    except SHEET_ERRORS as exc:
        st.error(f"The scoresheet cannot be used: {exc}")
        return None


def read_games(sheet: Scoresheet) -> tuple[list[GameInfo], GameInfo | None] | None:
    """Every game, each replayed once, and the current one: the game chosen on the Game page,
    else the newest game not yet won (None with no games). ``None`` after showing why the
    scoresheet cannot be read (a row changed outside ginsight; the file is left as it is)."""
    try:
        with sheet:
            games = sheet.games()
    except SHEET_ERRORS as exc:
        st.error(f"The scoresheet cannot be used: {exc}")
        return None
    chosen = state.game_choice().game_id
    current = next((g for g in games if g.id == chosen), None) if chosen is not None else None
    return games, current or Scoresheet.newest_open(games)


def _say(kind: str, text: str) -> None:
    state.flash().append((kind, text))


def _run(action, *args) -> None:
    try:
        with Scoresheet(default_path()) as sheet:
            action(sheet, *args)
    except SHEET_ERRORS as exc:
        _say("error", f"Nothing recorded: {exc}")


def _recorded(table: Table, result: HandResult) -> None:
    rec = table.history[-1]
    if result.result == "draw":
        _say("success", f"Hand {rec.number}: draw, nobody scores; the same roles again.")
    else:
        winner = table.players[rec.winner_player]
        _say("success", f"Hand {rec.number}: {result.result}, {winner} scores {result.points}.")
    if table.over:
        _say("success", f"{table.players[table.winner]} wins the game with {table.scores[table.winner]}!")


# --- the buttons' actions ---------------------------------------------------------------


def new_game(players: tuple[str, str, str], how: str, rules: Rules, roles_by_name: tuple[str, str, str],
             draws_text: tuple[str, str, str]) -> None:
    """Start a game; ``how`` is 'draw' (the program draws), 'cards' (the cards each drew) or 'roles'."""

    def start(sheet: Scoresheet) -> None:
        names = tuple(n.strip() for n in players)
        Table(names, Roles(0, 1, 2), rules)  # check the names before drawing
        if how == "roles":
            folded = [n.casefold() for n in names]
            unknown = [n for n in roles_by_name if n.strip().casefold() not in folded]
            if unknown:
                raise GinsightError(f"{unknown[0]!r} is not one of the players ({', '.join(names)})")
            roles = Roles(*(folded.index(n.strip().casefold()) for n in roles_by_name))
            described = "roles entered"
        elif how == "cards":
            draws = [parse_cards(text, what=f"{name}'s draw") for name, text in zip(names, draws_text, strict=True)]
            missing = [n for n, d in zip(names, draws, strict=True) if not d]
            if missing:
                raise GinsightError(f"no card drawn for {', '.join(missing)}")
            try:
                drawn = roles_from_draw(draws)
            except RoleDrawTie as tie:
                tied = " and ".join(names[p] for p in tie.players)
                raise GinsightError(f"tie in the role draw: {tied} must draw again (enter their next card after "
                                    "the first, e.g. 7C 2D)") from None
            roles, described = drawn.roles, format_draw(drawn, names)
        else:
            drawn = draw_roles(random.Random())
            roles, described = drawn.roles, format_draw(drawn, names)
        game_id = sheet.new_game(names, roles, described, rules)  # type: ignore[arg-type]
        state.game_choice().game_id = game_id
        info = sheet.game(game_id)
        _say("success", f"Game {game_id} started: {info.name}. {described}. First hand: {info.table.describe_roles()}.")

    _run(start)


def add_counts(game_id: int, knocker: int, knocker_count: int, defender_count: int,
               hands: int | None = None) -> None:
    """Record a hand from the two counts (the defender's after layoffs); ``knocker`` a player index.
    ``hands`` (here and below): the hands the page showed, so that a page drawn before another
    tab changed the game changes nothing (Scoresheet.add_hand)."""

    def add(sheet: Scoresheet) -> None:
        table = sheet.game(game_id).table
        seat = table.roles.role_of(knocker)
        if seat == "sitter":
            raise GinsightError(f"{table.players[knocker]} sits out this hand and cannot have knocked")
        result = HandResult.from_counts(seat, knocker_count, defender_count, table.rules)
        _recorded(sheet.add_hand(game_id, result, hands=hands), result)

    _run(add)


def add_draw(game_id: int, hands: int | None = None) -> None:
    def add(sheet: Scoresheet) -> None:
        result = HandResult("draw")
        _recorded(sheet.add_hand(game_id, result, hands=hands), result)

    _run(add)


def add_showdown(game_id: int, seat: str, knocker: str, defender: str, hands: int | None = None) -> None:
    """Settle the showdown with the game's rules and record it, the cards kept with the hand
    (as ``ginsight score add --knocker-cards ... --defender-cards ...`` does)."""
    done = state.showdowns_added().added
    key = (game_id, knocker, defender)
    if key in done:
        _say("info", f"This showdown is already hand {done[key][0]} of game {game_id}: nothing added.")
        return

    def add(sheet: Scoresheet) -> None:
        table = sheet.game(game_id).table
        s = settle(knocker, defender, None, table.rules)
        result = HandResult.from_counts(seat, s.knocker.deadwood, s.defender.deadwood, table.rules)
        detail = {"knocker_cards": knocker, "defender_cards": defender, "knocker_melds": None,
                  "settlement": s.to_json()}
        table = sheet.add_hand(game_id, result, detail, hands=hands)
        done[key] = (len(table.history), seat)
        _recorded(table, result)

    _run(add)


def undo(game_id: int, hands: int | None = None) -> None:
    def remove(sheet: Scoresheet) -> None:
        table = sheet.undo(game_id, hands)
        done = state.showdowns_added().added
        for key, (number, _) in list(done.items()):
            if key[0] == game_id and number > len(table.history):
                del done[key]
        _say("success", f"Removed hand {len(table.history) + 1} of game {game_id}. "
                        f"Next hand: {table.describe_roles()}.")

    _run(remove)


def added_showdown(game_id: int, knocker: str, defender: str) -> tuple[int, str] | None:
    """(hand number, knocker's seat) when this showdown was added to the game, else None."""
    return state.showdowns_added().added.get((game_id, knocker, defender))


def choose_game(key: str) -> None:
    state.game_choice().game_id = state.widget_value(key)


def show_flash() -> None:
    for kind, text in state.pop_flash():
        {"success": st.success, "info": st.info}.get(kind, st.error)(text)
