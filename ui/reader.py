"""The card reader, loaded once per server process and shared by every session.

:mod:`vision` is imported inside the loader, so that the pages where cards are typed work
even when no model is shipped (or the vision stack is missing): the photo pages then say
why they cannot read.
"""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st

LOG = logging.getLogger(__name__)


class CardReader:
    """:class:`vision.Reader` and its helpers, as the pages use them.

    Images are ``bytes`` (an uploaded file) or BGR arrays (video frames). Bad images raise
    :class:`vision.ImageError`, a ``ValueError`` whose message says what is wrong.
    """

    def __init__(self) -> None:
        import vision  # lazy: heavy, and absent models must not break the typed flows

        self._vision = vision
        self._reader = vision.Reader()

    def read(self, image: Any) -> Any:
        """The :class:`vision.Reading` of a photo or frame."""
        return self._reader.read(image)

    def annotate(self, image: Any, reading: Any) -> Any:
        """A BGR copy of ``image`` with each card read drawn on it, as players write cards
        (:func:`ui.draw.annotate`)."""
        from ui.draw import annotate

        if isinstance(image, bytes | bytearray):
            image = self._vision.load_image(bytes(image))
        return annotate(image, reading)

    def stable(self, window: int = 8) -> Any:
        """A :class:`vision.StableReader` for one video stream (it votes over recent frames)."""
        return self._vision.StableReader(self._reader, window=window)


@st.cache_resource(show_spinner="Loading the card reader…")
def load_reader() -> CardReader:
    """The shared card reader (models loaded once). Raises when it cannot be loaded."""
    return CardReader()


def get_reader() -> tuple[Any | None, str | None]:
    """(reader, None), or (None, why it is not available) for the page to show."""
    try:
        return load_reader(), None
    except Exception as exc:  # any failure to load means: no photos, typed cards still work
        LOG.warning("card reader not available: %s: %s", type(exc).__name__, exc)
        return None, f"{type(exc).__name__}: {exc}"
