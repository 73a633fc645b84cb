"""Showdown: the knocker's and the defender's hands (photos or typed) -> both arrangements,
the layoffs, the outcome and the points, explained line by line; one click adds the result to
the current game, as ``ginsight score add --knocker-cards ... --defender-cards ...`` does."""

import streamlit as st

from engine.cards import CODES
from engine.errors import GinsightError
from engine.rules import DEFAULT_RULES
from engine.showdown import settle
from ui import cardinput, cardtext, games, show, state

st.title("Showdown")

game = None
sheet = games.open_sheet()  # a broken scoresheet is reported; the showdown still settles
read = games.read_games(sheet) if sheet is not None else None
if read is not None:
    game = read[1]
rules = game.table.rules if game is not None else DEFAULT_RULES
knocker_codes = " ".join(state.cards("knocker"))
defender_codes = " ".join(state.cards("defender"))
added = games.added_showdown(game.id, knocker_codes, defender_codes) if game is not None else None

names: tuple[str, str] | None = None  # the players, when a game says who they are
seat = None
if game is not None:
    table = game.table
    if added is not None:  # name the players as they sat in that hand
        number, seat = added
        roles = table.history[number - 1].roles if number <= len(table.history) else table.roles
        st.caption(f"Game {game.id} ({game.name}), hand {number}.")
    elif not table.over:
        roles = table.roles
        st.caption(f"Game {game.id} ({game.name}), hand {len(table.history) + 1}: {table.describe_roles()}.")
        seat = st.radio("Who knocked?", ("box", "captain"), key="showdown.seat", horizontal=True,
                        format_func=lambda s: f"{table.players[getattr(roles, s)]} ({s})")
    if seat is not None:
        other = "captain" if seat == "box" else "box"
        names = (table.players[getattr(roles, seat)], table.players[getattr(roles, other)])
if game is None or (table.over and added is None):
    st.caption(f"Settled with {'the default scoring' if game is None else 'the last game’s scoring'} "
               f"(gin bonus {rules.gin_bonus}). Start a game on the Game page to add hands to it.")

left, right = st.columns(2, gap="large")
with left:
    st.subheader(f"{names[0]}: the knocker" if names else "The knocker")
    knocker = cardinput.card_input("knocker", "knocker's hand")
with right:
    st.subheader(f"{names[1]}: the defender" if names else "The defender")
    defender = cardinput.card_input("defender", "defender's hand")
if (" ".join(state.cards("knocker")), " ".join(state.cards("defender"))) != (knocker_codes, defender_codes):
    # Typed or photographed cards came in this run, after the header above was drawn for
    # the cards before them (whether the hand is already recorded, who sat where): draw the
    # page again for the new cards, or a new hand would be shown as recorded and not added.
    st.rerun()

st.divider()
if not knocker or not defender:
    st.info("Enter both hands: 10 cards each, the knocker's after the discard.")
    st.stop()
try:
    result = settle(knocker, defender, None, rules)
except GinsightError as exc:  # 9 or 11 cards, a card in both hands, a count too high to knock
    st.error(f"This showdown cannot be settled: {cardtext.player_text(str(exc))}. Correct the cards above.")
    st.stop()
show.settlement(result, rules, names or ("Knocker", "Defender"))


def next_showdown() -> None:
    for slot in ("knocker", "defender"):
        state.set_cards(slot, [])
        state.photo(slot).reset(state.photo(slot).digest)


if game is not None and added is not None:
    history, players = game.table.history, game.table.players
    said = f": {games.hand_summary(history[added[0] - 1], players)}" if added[0] <= len(history) else ""
    if game.table.over and added[0] == len(history):
        said += f". {players[game.table.winner]} wins the game with {game.table.scores[game.table.winner]}!"
    st.success(f"Recorded as hand {added[0]} of game {game.id}{said}.".replace("!.", "!"))
    st.button("Next showdown", key="showdown.next", on_click=next_showdown)
elif game is not None and not game.table.over:
    st.button(
        f"Add this hand to game {game.id}", type="primary", key="showdown.add",
        on_click=games.add_showdown,
        args=(game.id, seat, " ".join(CODES[c] for c in knocker), " ".join(CODES[c] for c in defender),
              len(game.table.history)),
    )
elif game is not None:
    st.info(f"Game {game.id} is over: start a new one on the Game page to add this hand.")
games.show_flash(games.SHOWDOWN)
