"""Help: how to use each page, and three-handed gin in brief, with the full rules (docs/rules.md)."""

from pathlib import Path

import streamlit as st

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

st.title("Help")
st.markdown("""
ginsight reads your cards from a photo or the webcam, or takes them typed, and tells you the
melds, the deadwood, whether you may knock, what to discard and whether to take the upcard. It
settles showdowns and keeps the scoresheet of a three-player game.

### The pages
- **My hand**: upload a photo of your cards, take one with the camera, or type them
  (`AS 2s 10h QD`, any case; `T` or `10`; the suit letter or its symbol). Check the cards read:
  remove a wrong one with ×, add a missed one by typing it in the box (e.g. `10h`, then Enter).
  A card the reader is unsure of ends in "?" on the photo (`2♣?`) and is asked under it: "2♣ or 2♠?"
  swaps it for the likeliest other card in one tap, or keeps it. A grey dashed box with "?" is a card
  corner found but not read: hold the cards closer, or add light.
  With 10 cards, choose the upcard for take-or-draw advice; with 11, you get the discard and
  whether to knock, with the undercut risk. "What else you know" (the discard pile, the
  opponent's pile cards) sharpens the advice.
- **Live**: press START and allow the camera; hold your cards up and the page follows them.
  "Use these cards on My hand" copies them there. No camera, or live video will not start?
  Use **Snapshot mode**, or type your cards on **My hand**.
- **Showdown**: enter the knocker's and the defender's 10 cards (photos or typed). The page lays
  out both hands, the defender's layoffs, the outcome and the points, line by line, and adds the
  hand to the current game with one click.
- **Game**: start a game (draw for roles, enter the cards drawn, or enter the roles), record each
  hand from the two counts or as a draw, correct a past hand or undo the last (each asked first),
  and download the scoresheet as CSV or a printable page. The scoresheet is kept on this
  computer, so a refresh or a restart loses nothing.

### Three-handed gin in brief
- **Two play, one sits out.** The player **in the box** plays alone against the **captain**; the
  third player **sits out**, may advise the captain, and never scores. The box deals every hand.
- **First roles**: each player draws a card; highest goes in the box, middle is captain, lowest
  sits out (K high, A low; ties draw again).
- **After each hand**: if the box won, the box stays and the captain and the sitter swap. If the
  box lost, the box sits out, the captain goes into the box and the sitter becomes captain. After
  a draw (two cards left in the stock, nobody knocked) nobody moves.
- **Melds**: sets of 3 or 4 of a rank, runs of 3 or more in a suit (ace low only). Deadwood counts
  ace 1, 2-10 face value, J Q K 10. Knock with 10 or less after your discard.
- **Scoring**: knock: the knocker scores the difference of the counts, after the defender's
  layoffs. Undercut (the defender's count is not higher): the defender scores 10 plus the
  difference. Gin (no deadwood): 25 (or 20, a setting) plus the defender's count, and no layoffs.
  The team's points go to the captain. First to 100 wins.
""")
st.markdown("The full rules, with the decisions taken where they are silent, are in `docs/rules.md` in the "
            "ginsight folder" + (", shown below." if RULES.is_file() else "."))
if RULES.is_file():
    with st.expander("The full rules"):
        st.markdown(RULES.read_text(encoding="utf-8"))
