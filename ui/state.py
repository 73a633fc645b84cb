"""Session state: every key the app keeps, each owned by the one helper here that creates it
when missing. Pages never touch ``st.session_state`` directly.

A page's widgets lose their state when another page is shown, so what must survive a page
change (the cards of a hand, the photo read) lives under keys of its own; widgets bound to it
are refilled from it before they are drawn (:func:`card_widget_key`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from ui.doubt import Doubt

# The places cards are entered: My hand, the two hands of a showdown, the Live page's snapshot.
SLOTS = ("hand", "knocker", "defender", "snapshot")


def _get(key: str, make: Any) -> Any:
    if key not in st.session_state:
        st.session_state[key] = make()
    return st.session_state[key]


# --- the cards of a slot --------------------------------------------------------------


def cards(slot: str) -> list[str]:
    """The cards of ``slot`` as engine codes (``'QS'``), as read or typed and then corrected."""
    return list(_get(f"{slot}.cards", list))


def set_cards(slot: str, codes: list[str]) -> None:
    """Replace the cards of ``slot`` (a new photo read, typed cards, a correction)."""
    _get(f"{slot}.cards", list)
    st.session_state[f"{slot}.cards"] = list(dict.fromkeys(codes))


def card_problems(slot: str) -> list[str]:
    """What was typed into the correction box of ``slot`` and is not a card: shown once,
    under the box, by the page's next run."""
    return _get(f"{slot}.cards.problems", list)


def card_widget_key(slot: str) -> str:
    """The key of the multiselect that shows and corrects the cards of ``slot``, filled from
    :func:`cards` each run (call before drawing the widget)."""
    key = f"{slot}.cards.widget"
    st.session_state[key] = cards(slot)
    return key


def widget_key(key: str, value: Any) -> str:
    """``key``, a widget's, with ``value`` set as its value before it is drawn: a widget with a
    key keeps the value of its own last run and ignores the default it is given, so a choice
    made elsewhere (a new game started) would not show in it."""
    st.session_state[key] = value
    return key


def widget_value(key: str) -> Any:
    """A widget's value, read in its ``on_change`` callback."""
    return st.session_state.get(key)


# --- the photo read for a slot ----------------------------------------------------------


@dataclass
class PhotoRead:
    """The last photo read for a slot: which file, what was drawn, what went wrong, and what
    the reader doubts: the cards it read unsure (each asked until the player answers) and how
    many index boxes it found but could not read."""

    digest: str | None = None
    annotated: Any = None  # BGR image with the cards drawn, or None
    doubts: list[Doubt] = field(default_factory=list)  # cards to check, each with its likeliest other card
    unread: int = 0  # index boxes found but not read
    summary: str = ""
    error: str | None = None

    def reset(self, digest: str | None) -> None:
        self.digest, self.annotated, self.summary, self.error = digest, None, "", None
        self.doubts, self.unread = [], 0


def photo(slot: str) -> PhotoRead:
    """The photo state of ``slot`` (mutable: the reader helper fills it in)."""
    return _get(f"{slot}.photo", PhotoRead)


# --- messages that outlive the run that made them ----------------------------------------


def flash() -> list[tuple[str, str, str]]:
    """Messages (place, kind, text) left by a button's callback for the page to show once, at
    ``place``: beside the form or button that made them, so that nothing above moves."""
    return _get("flash", list)


def pop_flash(place: str) -> list[tuple[str, str]]:
    """The messages for ``place``, (kind, text) each; they are shown once."""
    messages = flash()
    mine = [(kind, text) for where, kind, text in messages if where == place]
    messages[:] = [m for m in messages if m[0] != place]
    return mine


# --- the game and the showdown -----------------------------------------------------------


@dataclass
class GameChoice:
    """The game the pages work on: ``None`` means the scoresheet's current game."""

    game_id: int | None = None


def game_choice() -> GameChoice:
    return _get("game.choice", GameChoice)


@dataclass
class NewGameForm:
    """Whether the Game page's "New game" form is open: ``None`` while the player has not
    said, when it is open only until a game exists; it stays open after a refused start."""

    open: bool | None = None


def new_game_form() -> NewGameForm:
    return _get("game.new.form", NewGameForm)


@dataclass
class Pending:
    """A change to a game that waits for the player's yes (an undo, a corrected hand): the
    question, and the :mod:`ui.games` action with its arguments."""

    question: str | None = None
    action: str | None = None
    args: tuple = ()

    def clear(self) -> None:
        self.question, self.action, self.args = None, None, ()


def pending() -> Pending:
    return _get("game.pending", Pending)


@dataclass
class ShowdownsAdded:
    """Showdowns already added to a game, by (game, knocker's cards, defender's cards): the
    hand number and the knocker's seat. A showdown is added once, however often one clicks."""

    added: dict[tuple[int, str, str], tuple[int, str]] = field(default_factory=dict)


def showdowns_added() -> ShowdownsAdded:
    return _get("showdown.added", ShowdownsAdded)


# --- the live video ----------------------------------------------------------------------


@dataclass
class LiveSent:
    """What "Use these cards on My hand" last sent, said under the button until the next send."""

    said: str | None = None


def live_sent() -> LiveSent:
    return _get("live.sent", LiveSent)


def live_feed(make: Any) -> Any:
    """The live video's :class:`ui.live.LiveFeed`, made by ``make()`` on first use."""
    return _get("live.feed", make)


def camera_not_drawn() -> None:
    """This run does not draw the live camera (another page, snapshot mode, no reader): its
    stream is stale when the camera is next drawn (:func:`ui.live.camera_not_drawn`)."""
    from ui.live import camera_not_drawn as note

    note(st.session_state)


def keep_camera() -> None:
    """Just before the camera is drawn: reset its stream only if a run went without it
    (:func:`ui.live.keep_camera`)."""
    from ui.live import keep_camera as keep

    keep(st.session_state)
