"""ginsight, the app: `make run` (or `.venv/bin/streamlit run app.py`).

Five pages (their code in ``ui/pages/``): Live (the webcam, read continuously), My hand (a
photo or typed cards -> melds, deadwood, knock, discard, advice), Showdown (both hands ->
layoffs, outcome, points, added to the game), Game (the scoresheet of a three-player game) and
Help (the pages and the rules in brief).
The pages call :mod:`engine`, :mod:`scoresheet` and :mod:`vision`; no rules live here.
"""

from __future__ import annotations

import logging

import streamlit as st

from ui import state

st.set_page_config(page_title="ginsight", page_icon="🃏", layout="wide")

PAGES = [
    st.Page("ui/pages/live.py", title="Live", icon=":material/videocam:", url_path="live"),
    st.Page("ui/pages/my_hand.py", title="My hand", icon=":material/back_hand:", url_path="my-hand"),
    st.Page("ui/pages/showdown.py", title="Showdown", icon=":material/balance:", url_path="showdown"),
    st.Page("ui/pages/game.py", title="Game", icon=":material/scoreboard:", url_path="game"),
    st.Page("ui/pages/help.py", title="Help", icon=":material/help:", url_path="help"),
    # The app's root shows My hand too: Streamlit serves its default page at / only, so My hand
    # itself is not the default, and /my-hand works like every other page's own path.
    st.Page("ui/pages/my_hand.py", title="My hand", url_path="start", default=True, visibility="hidden"),
]

page = st.navigation(PAGES)
if page.url_path != "live":
    state.camera_not_drawn()  # the camera's stream, if any, is stale when Live is next shown
st.sidebar.caption("Three-handed gin: the box plays the captain; the third player sits out. First to 100 wins. "
                   "More on the Help page.")
try:
    page.run()
except Exception as exc:  # never a traceback in the page: say what failed, log the rest
    logging.getLogger("ginsight.app").exception("page %s failed", page.title)
    st.error(f"Something went wrong on this page ({type(exc).__name__}: {exc}). "
             "Your cards and the scoresheet are unchanged; try again, or reload the page.")
