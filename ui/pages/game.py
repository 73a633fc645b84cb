"""Game: three players, the role draw, who is in the box, captain and sitting out this hand,
the totals to 100, the history and undo; kept in the SQLite scoresheet, so a refresh or a
restart loses nothing."""

import streamlit as st

from cli.score import table_json
from engine.rules import Rules
from scoresheet import default_path
from ui import games
from ui.state import widget_key, widget_value

ROLE_NAMES = {"box": "in the box", "captain": "captain", "sitter": "sits out"}
HOW = {"draw": "Draw cards for us", "cards": "Enter the cards we drew", "roles": "Enter the roles"}

st.title("Game")
games.show_flash()
sheet = games.open_sheet()
read = games.read_games(sheet) if sheet is not None else None
if read is None:
    st.caption(f"Scoresheet file: {default_path()} (set GINSIGHT_DB to use another file)")
    st.stop()
all_games, info = read
game_id = info.id if info is not None else None

if len(all_games) > 1 and game_id is not None:
    ids = [g.id for g in all_games]
    st.selectbox(
        "Game", ids, key=widget_key("game.select", game_id), on_change=games.choose_game,
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
    st.caption(f"First roles: {info.role_draw}. Gin bonus {table.rules.gin_bonus}, "
               f"undercut bonus {table.rules.undercut_bonus}, knock with {table.rules.knock_limit} or less.")

    if not table.over:
        with st.container(border=True):
            st.markdown("**Record this hand** (or settle it from the cards on the Showdown page)")
            kind = st.radio("How it ended", ("knocked", "draw"), key="game.kind", horizontal=True,
                            format_func=lambda k: "Someone knocked" if k == "knocked" else "Draw (two cards left)")
            if kind == "knocked":
                seats = (table.roles.box, table.roles.captain)
                c1, c2, c3 = st.columns(3)
                c1.selectbox("Who knocked", seats, key="game.knocker",
                             format_func=lambda p: f"{players[p]} ({table.roles.role_of(p)})")
                c2.number_input("Knocker's count", 0, 100, 0, key="game.knocker_count")
                c3.number_input("Defender's count, after layoffs", 0, 100, 0, key="game.defender_count")

                def add_counts(game: int = info.id, hands: int = len(table.history)) -> None:
                    games.add_counts(game, widget_value("game.knocker"), int(widget_value("game.knocker_count")),
                                     int(widget_value("game.defender_count")), hands)

                st.button("Add the hand", type="primary", key="game.add", on_click=add_counts)
            else:
                st.button("Add the draw", type="primary", key="game.add_draw", on_click=games.add_draw,
                          args=(info.id, len(table.history)))

    st.markdown("**History**")
    hands = table_json(info.id, info, table)["hands"]
    if hands:
        st.table([
            {"hand": h["hand"], "box": h["box"], "captain": h["captain"], "sits out": h["sitter"],
             "result": h["result"], "knocker": h["knocker"] or "—", "winner": h["winner"] or "—",
             "points": h["points"], **{f"{p} total": h["scores"][p] for p in players}}
            for h in hands
        ], hide_index=True)
        st.button(f"Undo hand {len(hands)}", key="game.undo", on_click=games.undo, args=(info.id, len(hands)))
    else:
        st.caption("No hands yet.")

with st.expander("New game", expanded=info is None):
    cols = st.columns(3)
    for i in range(3):
        cols[i].text_input(f"Player {i + 1}", key=f"game.new.p{i}", placeholder=("Ann", "Bob", "Cy")[i])
    names = tuple(widget_value(f"game.new.p{i}") or "" for i in range(3))
    how = st.radio("Roles for the first hand", tuple(HOW), key="game.new.how", horizontal=True, format_func=HOW.get)
    if how == "cards":
        cols = st.columns(3)
        for i in range(3):
            cols[i].text_input(f"{names[i] or f'Player {i + 1}'} drew", key=f"game.new.draw{i}",
                               placeholder="e.g. KS, or 7C 2D after a tie")
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

st.caption(f"Scoresheet file: {default_path()} (set GINSIGHT_DB to use another file)")
