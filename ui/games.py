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
from engine.table import HandRecord, HandResult, RoleDrawTie, Roles, Table, draw_roles, format_draw, roles_from_draw
from scoresheet import Scoresheet, default_path
from scoresheet.history import with_hand_changed
from scoresheet.store import GameInfo
from ui import cardtext, state

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


# Where each page shows the messages of its actions (ui.state.flash): beside what made them.
NEW_GAME, HAND, HISTORY, SHOWDOWN = "game.new", "game.hand", "game.history", "showdown"


def _say(place: str, kind: str, text: str) -> None:
    state.flash().append((place, kind, cardtext.player_text(text)))


def _run(place: str, action, *args) -> bool:
    """``action(sheet, *args)`` in one transaction; a refusal is said at ``place``. True when done."""
    try:
        with Scoresheet(default_path()) as sheet:
            action(sheet, *args)
    except SHEET_ERRORS as exc:
        _say(place, "error", f"Nothing recorded: {exc}")
        return False
    return True


def hand_summary(rec: HandRecord, players: tuple[str, ...]) -> str:
    """``'knock, Ann scores 26'``, or ``'draw'``."""
    if rec.result.result == "draw":
        return "draw"
    return f"{rec.result.result}, {players[rec.winner_player]} scores {rec.result.points}"


def _recorded(place: str, table: Table) -> None:
    rec = table.history[-1]
    said = f"Hand {rec.number}: {hand_summary(rec, table.players)}"
    said += "; nobody scores, the same roles again." if rec.result.result == "draw" else "."
    if table.over:
        said += f" {table.players[table.winner]} wins the game with {table.scores[table.winner]}!"
    _say(place, "success", said)


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
            seats = [folded.index(n.strip().casefold()) for n in roles_by_name]
            if len(set(seats)) != 3:
                raise GinsightError("choose a different player for each role: in the box, captain, sits out")
            roles = Roles(*seats)
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
        _say(HAND, "success",  # said where the first hand is recorded: the form closes
             f"Game {game_id} started: {info.name}. {described}. First hand: {info.table.describe_roles()}.")

    form = state.new_game_form()
    form.open = None if _run(NEW_GAME, start) else True  # a refused start leaves the form open


def add_counts(game_id: int, seat: str, knocker_count: int, defender_count: int,
               hands: int | None = None) -> None:
    """Record a hand from the two counts (the defender's after layoffs); ``seat``: 'box' or
    'captain' knocked. ``hands`` (here and below): the hands the page showed, so that a page
    drawn before another tab changed the game changes nothing (Scoresheet.add_hand)."""

    def add(sheet: Scoresheet) -> None:
        table = sheet.game(game_id).table
        result = HandResult.from_counts(seat, knocker_count, defender_count, table.rules)
        _recorded(HAND, sheet.add_hand(game_id, result, hands=hands))

    _run(HAND, add)


def add_draw(game_id: int, hands: int | None = None) -> None:
    def add(sheet: Scoresheet) -> None:
        _recorded(HAND, sheet.add_hand(game_id, HandResult("draw"), hands=hands))

    _run(HAND, add)


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
        done[key] = (len(table.history), seat)  # the page then says "Recorded as hand N": no message here

    _run(SHOWDOWN, add)


def _forget_showdowns(game_id: int, numbers) -> None:
    """Showdowns no longer recorded as they were (their hand undone or corrected)."""
    done = state.showdowns_added().added
    for key, (number, _) in list(done.items()):
        if key[0] == game_id and number in numbers:
            del done[key]


def undo(game_id: int, hands: int | None = None) -> None:
    def remove(sheet: Scoresheet) -> None:
        table = sheet.undo(game_id, hands)
        _forget_showdowns(game_id, {len(table.history) + 1})
        _say(HISTORY, "success", f"Removed hand {len(table.history) + 1} of game {game_id}. "
                                 f"Next hand: {table.describe_roles()}.")

    _run(HISTORY, remove)


def hand_result(kind: str, seat: str, knocker_count: int, defender_count: int, table: Table) -> HandResult:
    """A hand's result as the page's fields give it: 'draw', or who knocked and the two counts."""
    if kind == "draw":
        return HandResult("draw")
    return HandResult.from_counts(seat, knocker_count, defender_count, table.rules)


def edit_hand(game_id: int, number: int, result: HandResult, hands: int | None = None) -> None:
    """Correct hand ``number``: the totals and roles after it are worked out again."""

    def edit(sheet: Scoresheet) -> None:
        table = sheet.edit_hand(game_id, number, result, hands=hands)
        _forget_showdowns(game_id, {number})
        rec = table.history[number - 1]
        _say(HISTORY, "success", f"Hand {number} is now: {hand_summary(rec, table.players)}. "
                                 + ("" if table.over else f"Next hand: {table.describe_roles()}."))

    _run(HISTORY, edit)


# --- changes that wait for a yes --------------------------------------------------------


def ask_undo(info: GameInfo) -> None:
    table = info.table
    rec = table.history[-1]
    _ask(f"Remove hand {rec.number} ({hand_summary(rec, table.players)})? The totals and roles go back to "
         "how they were before it.", "undo", info.id, len(table.history))


def ask_edit(info: GameInfo, number: int, kind: str, seat: str, knocker_count: int, defender_count: int) -> None:
    """Check the corrected hand now (a bad count, a game that would end early is said at
    once), then ask before it is stored."""
    table = info.table
    try:
        result = hand_result(kind, seat, knocker_count, defender_count, table)
        after = with_hand_changed(table, number, result)
    except GinsightError as exc:
        _say(HISTORY, "error", f"Hand {number} not changed: {exc}")
        return
    before, now = table.history[number - 1], after.history[number - 1]
    if before.result == now.result:
        _say(HISTORY, "info", f"Hand {number} is already {hand_summary(before, table.players)}: nothing to change.")
        return
    totals = ", ".join(f"{p} {after.scores[i]}" for i, p in enumerate(table.players))
    _ask(f"Change hand {number} from {hand_summary(before, table.players)} to {hand_summary(now, table.players)}? "
         f"The totals and roles after it are worked out again: {totals}.",
         "edit", info.id, number, result, len(table.history))


def _ask(question: str, action: str, *args) -> None:
    pending = state.pending()
    pending.question, pending.action, pending.args = question, action, args


def confirm() -> None:
    pending = state.pending()
    action, args = {"undo": undo, "edit": edit_hand}.get(pending.action or ""), pending.args
    pending.clear()
    if action is not None:
        action(*args)


def cancel() -> None:
    state.pending().clear()


def added_showdown(game_id: int, knocker: str, defender: str) -> tuple[int, str] | None:
    """(hand number, knocker's seat) when this showdown was added to the game, else None."""
    return state.showdowns_added().added.get((game_id, knocker, defender))


def choose_game(key: str) -> None:
    state.game_choice().game_id = state.widget_value(key)
    state.pending().clear()  # a question about another game's hand


def new_game_toggled(key: str) -> None:
    state.new_game_form().open = bool(state.widget_value(key))


def show_flash(place: str) -> None:
    """The messages for ``place``: call where the form or button that made them is drawn."""
    for kind, text in state.pop_flash(place):
        {"success": st.success, "info": st.info}.get(kind, st.error)(text)
