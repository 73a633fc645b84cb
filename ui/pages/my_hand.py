"""My hand: a photo (upload or camera) or typed cards -> the read cards drawn on the photo,
each correctable; the melds in colour, the deadwood, the knock, the best discard, take-or-draw
advice with the upcard chosen, and the undercut risk with its reasons."""

import streamlit as st

from ui import cardinput, show

st.title("My hand")
st.caption("Photograph your cards or type them: melds, deadwood, knock and advice follow.")
left, right = st.columns([5, 6], gap="large")
with left:
    cards = cardinput.card_input("hand", "hand")
with right:
    if cards:
        known = cardinput.known_cards("hand", cards)
        show.hand_report(cards, "hand", known)
    else:
        st.info("No cards yet: read a photo, take one with the camera, or type your 10 or 11 cards.")
