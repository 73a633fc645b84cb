"""Cards from a photo, the camera or typing; the read cards drawn on the photo; each card
correctable (remove a wrong one, add a missed one) in one multiselect.

A photo is read once (by its digest): the corrections then stay until another photo comes.
Bad input (not an image, a damaged or huge one, no cards) is answered in the page and leaves
the cards as they were.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import streamlit as st

from engine.cards import CODES, Card, parse_card, parse_cards
from engine.errors import GinsightError
from ui import cardtext, doubt, show, state
from ui import photo as photos
from ui import reader as card_reader

SOURCES = ("Photo", "Camera", "Type")
EXAMPLE = "AS 2S 3S 7H 7D 7C 9C TC JC KD"


# The largest photo read (the reader's own limit). Streamlit's upload limit
# (.streamlit/config.toml) is set well above it: a file Streamlit refuses itself stays listed
# in the uploader beside the next one, with its message, while one refused here is simply
# replaced by the next.
PHOTO_MB = 64


def max_upload_bytes() -> int:
    return PHOTO_MB * 1024 * 1024


def card_input(slot: str, what: str = "hand", sources: Sequence[str] = SOURCES) -> list[Card]:
    """Draw the inputs of ``slot``; return its cards as they stand after corrections."""
    source = sources[0]
    if len(sources) > 1:
        source = st.radio(f"Cards of the {what} from", sources, key=f"{slot}.source", horizontal=True)
    if source == "Type":
        typed_cards(slot, what)
    else:
        photo_input(slot, what, camera=source == "Camera")
    ask_doubts(slot)  # whatever the source: cards sent from Live bring their questions
    correct_cards(slot, what)
    return [parse_card(code) for code in state.cards(slot)]


def typed_cards(slot: str, what: str) -> None:
    with st.form(f"{slot}.typed.form", border=False):
        text = st.text_input(
            f"Cards of the {what}", key=f"{slot}.typed", placeholder=f"e.g. {EXAMPLE}",
            help="Rank A 2-9 T (or 10) J Q K, then suit S H D C (or ♠ ♥ ♦ ♣); any case; spaces or commas.",
        )
        submitted = st.form_submit_button("Use these cards", key=f"{slot}.use_typed")
    if not submitted:
        return
    if not text.strip():
        st.error(f"Type the cards of the {what} first, e.g. {EXAMPLE}.")
        return
    try:
        cards = parse_cards(text, what=what)
    except GinsightError as exc:  # not a card, or the same card twice
        st.error(f"Those cards were not used: {cardtext.player_text(str(exc))}.")
        return
    state.set_cards(slot, [CODES[c] for c in cards])
    photo = state.photo(slot)
    photo.reset(photo.digest)  # typed cards replace the photo's; the same photo is not read again


def photo_input(slot: str, what: str, *, camera: bool) -> None:
    reader, why = card_reader.get_reader()
    if reader is None:
        st.error(f"The card reader is not available ({why}). Choose “Type” to enter the cards by hand.")
        return
    if camera:
        shot = st.camera_input(f"Photo of the {what}", key=f"{slot}.camera")
    else:
        shot = st.file_uploader(
            f"Photo of the {what} (JPEG or PNG)", key=f"{slot}.upload",
            help="Lay the cards so that a corner of each shows its rank and suit.",
        )
    if shot is not None:
        read_photo(slot, reader, shot.getvalue())
    show_photo(slot)


def read_photo(slot: str, reader, data: bytes) -> None:
    """Read ``data`` unless it was the last photo read for ``slot``; keep what came of it.

    Nothing of the slot changes until the read is done: Streamlit stops a run at its next
    call (here the spinner's end) when the user clicks during the read, and a photo marked as
    read before its cards were kept would never be read again (its drawing shown beside the
    old cards). Stopped so, the photo is read afresh on the next run.
    """
    digest = hashlib.sha256(data).hexdigest()
    photo = state.photo(slot)
    if photo.digest == digest:
        return
    limit = max_upload_bytes()
    if not data:
        photo.reset(digest)
        photo.error = "That file is empty: choose a photo of the cards."
        return
    if len(data) > limit:
        photo.reset(digest)
        photo.error = f"That file is {len(data) / 2**20:.0f} MB; photos up to {limit // 2**20} MB are read."
        return
    try:
        with st.spinner("Reading the cards…"):
            image, shrunk = photos.fit_photo(data, photos.MAX_PIXELS)  # a 108-megapixel photo: read smaller
            reading = reader.read(image)
            annotated = reader.annotate(image, reading)
    except ValueError as exc:  # vision.ImageError: not an image, damaged, too large, ...
        photo.reset(digest)
        photo.error = f"That file could not be read as a photo: {exc}"
        return
    # from here to the end no Streamlit call: the photo's state is kept whole
    photo.reset(digest)
    photo.annotated = annotated
    photo.unread = len(reading.unread)
    codes = list(dict.fromkeys(read.card for read in reading.cards))
    if not codes:
        photo.error = (
            "No cards found in this photo. Try again with the corners of the cards in view and more light, "
            "or choose “Type”. The cards below were left as they were."
        )
        return
    photo.summary = (
        f"{len(codes)} card{'s' if len(codes) != 1 else ''} read in {reading.ms:.0f} ms: "
        + " ".join(cardtext.card_label(c) for c in codes)
        + (" (the photo is mirrored, as a selfie camera may save it: read flipped back)"
           if reading.mirrored else "")
        + (f" ({shrunk})" if shrunk else "")
    )
    photo.doubts = list(doubt.doubts_of(reading))
    state.set_cards(slot, codes)


def show_photo(slot: str) -> None:
    photo = state.photo(slot)
    if photo.error:
        st.error(photo.error)
    if photo.annotated is not None:
        st.image(photo.annotated, channels="BGR", caption=photo.summary or None, width="stretch")
    if photo.unread:
        st.warning(doubt.unread_text(photo.unread))


def ask_doubts(slot: str) -> None:
    """A row for each card the reader was unsure of and the hand still holds: "2♣ or 2♠?"
    with a button for each answer, or "2♣: check it" where no other card is offered."""
    hand = state.cards(slot)
    doubts = [d for d in state.photo(slot).doubts if d.card in hand]
    if doubts:
        st.caption("The reader is unsure of these cards:")
    for d in doubts:
        other = doubt.offered(d, hand)
        with st.container(horizontal=True, vertical_alignment="center"):
            asked = doubt.question(d, hand)
            st.markdown(f"**{asked}**" if other else f"**{asked}.** If it is wrong, correct it in the box below.")
            if other is not None:
                st.button(f"It is {cardtext.card_label(other)}", key=f"{slot}.doubt.{d.card}.swap",
                          on_click=_swap, args=(slot, d.card, other))
            st.button(f"{cardtext.card_label(d.card)} is right", key=f"{slot}.doubt.{d.card}.keep",
                      on_click=_answered, args=(slot, d.card))


def _answered(slot: str, card: str) -> None:
    photo = state.photo(slot)
    photo.doubts = [d for d in photo.doubts if d.card != card]


def _swap(slot: str, card: str, other: str) -> None:
    state.set_cards(slot, doubt.swap(state.cards(slot), card, other))
    _answered(slot, card)


# The chips of the correction box in the colours of their suits. A chip's aria-label is its
# card as players write it, so the suit symbol picks the colour.
CHIP_STYLE = """<style>
[data-testid="stMultiSelect"] [data-tag][aria-label*="♥"],
[data-testid="stMultiSelect"] [data-tag][aria-label*="♦"] { background-color: #b91c1c; color: #fff; }
[data-testid="stMultiSelect"] [data-tag][aria-label*="♠"],
[data-testid="stMultiSelect"] [data-tag][aria-label*="♣"] { background-color: #1f2937; color: #fff; }
</style>"""


def _corrected(slot: str, key: str) -> None:
    """The box's new cards: picked from the list, or typed in any spelling (``2c``, ``TH``,
    ``10h``) and added with Enter; what is not a card is named under the box."""
    codes, problems = [], state.card_problems(slot)
    problems.clear()
    for item in state.widget_value(key) or []:
        if item in CODES:
            codes.append(item)
            continue
        try:
            codes.append(cardtext.typed_card(item))
        except GinsightError as exc:
            problems.append(f"{exc}")
    state.set_cards(slot, codes)


def _clear(slot: str) -> None:
    state.set_cards(slot, [])
    photo = state.photo(slot)
    photo.reset(photo.digest)  # a photo still in the uploader is not read again


def correct_cards(slot: str, what: str) -> None:
    key = state.card_widget_key(slot)
    st.html(CHIP_STYLE)
    st.multiselect(
        f"Cards of the {what}: remove a wrong one (×), add a missed one (type it, e.g. 10h or TH, then Enter)",
        CODES, key=key, format_func=cardtext.card_label, on_change=_corrected, args=(slot, key),
        placeholder="No cards yet", select_all=False, wrap=True, accept_new_options=True,
    )
    problems = state.card_problems(slot)
    if problems:
        st.error("Not added: " + "; ".join(problems) + ".")
        problems.clear()
    if state.cards(slot):
        st.button("Clear these cards", key=f"{slot}.clear", on_click=_clear, args=(slot,))


def known_cards(slot: str, cards: Sequence[Card]) -> show.Known:
    """What else the player knows (optional): the discard pile, the opponent's pile cards, and
    with 11 cards the card just taken from the pile. Typing mistakes are shown and ignored."""
    with st.expander("What else you know (optional: sharper advice)"):
        discards_text = st.text_input("Discard pile, under the upcard", key=f"{slot}.discards",
                                      placeholder="e.g. 4D KC 9H")
        took_text = st.text_input("Cards the opponent took from the pile (and still holds)",
                                  key=f"{slot}.took", placeholder="e.g. 7S")
        taken = None
        if len(cards) == 11:
            options = [show.NO_UPCARD] + [CODES[c] for c in cards]
            code = st.selectbox("The card you just took from the pile (it may not be discarded)", options,
                                key=f"{slot}.taken",
                                format_func=lambda c: c if c == show.NO_UPCARD else cardtext.card_label(c))
            taken = None if code == show.NO_UPCARD else parse_card(code)
    try:
        discards = tuple(parse_cards(discards_text, what="discard pile"))
        took = tuple(parse_cards(took_text, what="opponent's cards"))
    except GinsightError as exc:
        st.error(f"Not used for the advice: {cardtext.player_text(str(exc))}.")
        return show.Known(taken=taken)
    return show.Known(discards, took, taken)
