"""Thin helpers of the Streamlit app (``app.py``): widgets, one cached card reader, and calls
into :mod:`engine`, :mod:`scoresheet` and :mod:`vision`. No rules and no vision logic here.

- :mod:`ui.state`: every ``st.session_state`` key, each with the one helper that owns it.
- :mod:`ui.reader`: the card reader, loaded once (``st.cache_resource``), imported lazily.
- :mod:`ui.cardinput`: cards from a photo, the camera or typing, each card correctable.
- :mod:`ui.show`: drawing cards, melds, hand reports, advice and showdowns.
- :mod:`ui.games`: the SQLite scoresheet as the pages use it.
- :mod:`ui.live`: the live video's frame callback and its queue.
- ``ui/pages/``: the four pages, run by ``st.navigation`` in ``app.py``.
"""
