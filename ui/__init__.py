"""Thin helpers of the Streamlit app (``app.py``): widgets, one cached card reader, and calls
into :mod:`engine`, :mod:`scoresheet` and :mod:`vision`. No rules and no vision logic here.

- :mod:`ui.state`: every ``st.session_state`` key, each with the one helper that owns it.
- :mod:`ui.reader`: the card reader, loaded once (``st.cache_resource``), imported lazily.
- :mod:`ui.cardinput`: cards from a photo, the camera or typing, each card correctable.
- :mod:`ui.cardtext`: cards as players write them (``10♥``) in labels and messages.
- :mod:`ui.photo`: a photo too big to read whole, decoded smaller.
- :mod:`ui.draw`: the cards read, drawn on the photo or video frame.
- :mod:`ui.show`: a hand's report (computed, then drawn), melds, advice and showdowns.
- :mod:`ui.games`: the SQLite scoresheet as the pages use it.
- :mod:`ui.live`: the live video's frame callback and its queue.
- ``ui/pages/``: the pages (Live, My hand, Showdown, Game, Help), run by ``st.navigation`` in ``app.py``.
"""
