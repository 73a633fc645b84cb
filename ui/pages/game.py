"""Game: three players, the role draw, who is in the box, captain and sitting out this hand,
the totals to 100, the history; a past hand corrected or the last one undone (each after a
yes); the scoresheet as CSV or a printable page. Kept in the SQLite scoresheet, so a refresh
or a restart loses nothing.

Each message shows beside the form or button that made it, never above the page: an element
added above would move everything under it, and Streamlit would draw those afresh (a form
closed, fields emptied).
"""

import streamlit as st

from engine.rules import Rules
from scoresheet import default_path
from scoresheet.export import csv_text, printable_html, table_json
from ui import cardtext, games, state
from ui.state import widget_key, widget_value

ROLE_NAMES = {"box": "in the box", "captain": "captain", "sitter": "sits out"}
HOW = {"draw": "Draw cards for us", "cards": "Enter the cards we drew", "roles": "Enter the roles"}
KINDS = {"knocked": "Someone knocked", "draw": "Draw (two cards left)"}


def hand_fields(prefix: str, players, roles) -> str:
    """How a hand ended: a draw, or who knocked and the two counts; returns the kind. The keys
    carry ``prefix``, which names the game and the hand, so that the fields start afresh
    for every hand and the knocker is always named with the seats of that hand."""
    kind = st.radio("How it ended", tuple(KINDS), key=f"{prefix}.kind", horizontal=True, format_func=KINDS.get)
    if kind == "knocked":
        c1, c2, c3 = st.columns(3)
        c1.selectbox("Who knocked", ("box", "captain"), key=f"{prefix}.knocker",
                     format_func=lambda s: f"{players[getattr(roles, s)]} ({ROLE_NAMES[s]})")
        c2.number_input("Knocker's count", 0, 100, 0, key=f"{prefix}.knocker_count")
        c3.number_input("Defender's count, after layoffs", 0, 100, 0, key=f"{prefix}.defender_count")
    return kind


def hand_values(prefix: str) -> tuple[str, str, int, int]:
    """The fields of :func:`hand_fields` as a button's callback reads them: (kind, knocker's
    seat, knocker's count, defender's count)."""
    kind = widget_value(f"{prefix}.kind")
    if kind != "knocked":
        return kind, "box", 0, 0
    return (kind, widget_value(f"{prefix}.knocker"), int(widget_value(f"{prefix}.knocker_count")),
            int(widget_value(f"{prefix}.defender_count")))


def add_hand(game_id: int, prefix: str, hands: int) -> None:
    kind, seat, knocker_count, defender_count = hand_values(prefix)
    if kind == "draw":
        games.add_draw(game_id, hands)
    else:
        games.add_counts(game_id, seat, knocker_count, defender_count, hands)


def correct_hand(info, prefix: str) -> None:
    number = widget_value(f"{prefix}.number")
    games.ask_edit(info, number, *hand_values(f"{prefix}.{number}"))


st.title("Game")
sheet = games.open_sheet()
read = games.read_games(sheet) if sheet is not None else None
if read is None:
    st.caption(f"Scoresheet file: {default_path()} (set GINSIGHT_DB to use another file)")
    st.stop()
all_games, info = read

if len(all_games) > 1 and info is not None:
    ids = [g.id for g in all_games]
    st.selectbox(
        "Game", ids, key=widget_key("game.select", info.id), on_change=games.choose_game,
        args=("game.select",), format_func=lambda i: f"{i}: {all_games[ids.index(i)].name}",
    )

if info is not None:
    table = info.table
    players = table.players
    st.subheader(f"Game {info.id}: {info.name} (to {table.rules.target})")
    cols = st.columns(3)
    for i, name in enumerate(players):
        with cols[i]:
            role = "" if table.over else ROLE_NAMES[table.roles.role_of(i)]
            st.metric(f"{name}{' · ' + role if role else ''}", table.scores[i])
            st.progress(min(table.scores[i] / table.rules.target, 1.0))
    if table.over:
        st.success(f"{players[table.winner]} won the game with {table.scores[table.winner]}.")
    else:
        st.markdown(f"**Hand {len(table.history) + 1}**: {table.describe_roles()}; the box deals.")
    st.caption(f"First roles: {cardtext.role_draw_text(info.role_draw)}. Gin bonus {table.rules.gin_bonus}, "
               f"undercut bonus {table.rules.undercut_bonus}, knock with {table.rules.knock_limit} or less.")

    with st.container(border=True):
        hands = len(table.history)
        if not table.over:
            st.markdown("**Record this hand** (or settle it from the cards on the Showdown page)")
            prefix = f"game.hand.{info.id}.{hands}"
            kind = hand_fields(prefix, players, table.roles)
            st.button("Add the hand" if kind == "knocked" else "Add the draw", type="primary",
                      key="game.add" if kind == "knocked" else "game.add_draw", on_click=add_hand,
                      args=(info.id, prefix, hands))
        games.show_flash(games.HAND)

    st.markdown("**History**")
    rows = table_json(info)["hands"]
    if rows:
        st.table([
            {"hand": h["hand"], "box": h["box"], "captain": h["captain"], "sits out": h["sitter"],
             "result": h["result"], "knocker": h["knocker"] or "—", "winner": h["winner"] or "—",
             "points": h["points"], **{f"{p} total": h["scores"][p] for p in players}}
            for h in rows
        ], hide_index=True)
        c1, c2, c3 = st.columns(3)
        c1.button(f"Undo hand {len(rows)}", key="game.undo", on_click=games.ask_undo, args=(info,))
        c2.download_button("Scoresheet (CSV)", csv_text(info), file_name=f"ginsight-game-{info.id}.csv",
                           mime="text/csv", key="game.csv", on_click="ignore")
        c3.download_button("Printable scoresheet", printable_html(info), file_name=f"ginsight-game-{info.id}.html",
                           mime="text/html", key="game.print", on_click="ignore",
                           help="A page to open in the browser and print.")
        with st.expander("Correct a past hand"):
            prefix = f"game.edit.{info.id}.{hands}"
            number = st.selectbox("Hand", [h["hand"] for h in rows], index=len(rows) - 1, key=f"{prefix}.number",
                                  format_func=lambda n: f"{n}: {games.hand_summary(table.history[n - 1], players)}")
            hand_fields(f"{prefix}.{number}", players, table.history[number - 1].roles)
            st.button(f"Change hand {number}", key="game.edit", on_click=correct_hand, args=(info, prefix))
    else:
        st.caption("No hands yet.")
    pending = state.pending()
    if pending.question and pending.args and pending.args[0] == info.id:
        with st.container(border=True):
            st.warning(pending.question)
            c1, c2 = st.columns(2)
            c1.button("Yes, do it", type="primary", key="game.confirm", on_click=games.confirm)
            c2.button("Cancel", key="game.cancel", on_click=games.cancel)
    games.show_flash(games.HISTORY)

form = state.new_game_form()
with st.expander("New game", expanded=form.open if form.open is not None else info is None,
                 key=widget_key("game.new.open", form.open if form.open is not None else info is None),
                 on_change=games.new_game_toggled, args=("game.new.open",)):
    cols = st.columns(3)
    for i in range(3):
        cols[i].text_input(f"Player {i + 1}", key=f"game.new.p{i}", placeholder=("Ann", "Bob", "Cy")[i])
    names = tuple(widget_value(f"game.new.p{i}") or "" for i in range(3))
    how = st.radio("Roles for the first hand", tuple(HOW), key="game.new.how", horizontal=True, format_func=HOW.get)
    if how == "cards":
        cols = st.columns(3)
        for i in range(3):
            cols[i].text_input(f"{names[i] or f'Player {i + 1}'} drew", key=f"game.new.draw{i}",
                               placeholder="e.g. K♠ or KS, or 7C 2D after a tie")
        st.caption("Highest card: in the box; middle: captain; lowest: sits out (K high, A low). "
                   "Tied players draw again: enter their cards in order.")
    elif how == "roles":
        cols = st.columns(3)
        for i, role in enumerate(("box", "captain", "sitter")):
            cols[i].selectbox(ROLE_NAMES[role].capitalize(), [n for n in names if n.strip()] or ["—"],
                              index=min(i, max(len([n for n in names if n.strip()]) - 1, 0)),
                              key=f"game.new.role.{role}")
    defaults = Rules()
    cols = st.columns(4)
    cols[0].number_input("Play to", 1, 10_000, defaults.target, key="game.new.target")
    cols[1].selectbox("Gin bonus", (25, 20), key="game.new.gin_bonus")
    cols[2].number_input("Undercut bonus", 0, 100, defaults.undercut_bonus, key="game.new.undercut")
    cols[3].number_input("Knock with at most", 0, 100, defaults.knock_limit, key="game.new.knock_limit")

    def start_game() -> None:
        rules = Rules(
            knock_limit=int(widget_value("game.new.knock_limit")), gin_bonus=int(widget_value("game.new.gin_bonus")),
            undercut_bonus=int(widget_value("game.new.undercut")), target=int(widget_value("game.new.target")),
        )
        games.new_game(
            tuple(widget_value(f"game.new.p{i}") or "" for i in range(3)), widget_value("game.new.how"), rules,
            tuple(widget_value(f"game.new.role.{r}") or "" for r in ("box", "captain", "sitter")),
            tuple(widget_value(f"game.new.draw{i}") or "" for i in range(3)),
        )

    st.button("Start the game", key="game.new.start", on_click=start_game)
    games.show_flash(games.NEW_GAME)

st.caption(f"Scoresheet file: {default_path()} (set GINSIGHT_DB to use another file)")
