"""Live: the webcam read continuously (streamlit-webrtc), each card's code drawn on the video,
the melds, deadwood and advice following the hand; a snapshot mode (``st.camera_input``) for
browsers where live video fails."""

import streamlit as st
from streamlit_webrtc import WebRtcMode, webrtc_streamer

from engine.cards import parse_card
from ui import cardinput, cardtext, games, show, state
from ui import reader as card_reader
from ui.live import (
    CAMERA_KEY,
    MEDIA_CONSTRAINTS,
    RTC_CONFIGURATION,
    LiveFeed,
    LiveRead,
    webrtc_logging,
)

webrtc_logging()

st.title("Live")
snapshot = st.toggle("Snapshot mode (for browsers where live video fails)", key="live.snapshot")
reader, why = card_reader.get_reader()
if reader is None:
    state.camera_not_drawn()
    st.error(f"The card reader is not available ({why}). Type your cards on the My hand page instead.")
    st.stop()

if snapshot:
    state.camera_not_drawn()
    left, right = st.columns([5, 6], gap="large")
    with left:
        cards = cardinput.card_input("snapshot", "hand", sources=("Camera",))
    with right:
        if cards:
            show.hand_report(cards, "snapshot", cardinput.known_cards("snapshot", cards))
        else:
            st.info("Hold your cards up to the camera and take a snapshot.")
    st.stop()


def send_to_my_hand() -> None:
    read = feed.latest
    if read is not None and read.codes:
        state.set_cards("hand", list(read.codes))
        photo = state.photo("hand")
        photo.reset(photo.digest)  # My hand's photo and its notes were of other cards; not read again
        state.flash().append(("live.send", "success", f"{len(read.codes)} cards sent to My hand."))


feed = state.live_feed(lambda: LiveFeed(reader))
left, right = st.columns([5, 6], gap="large")
with left:
    state.keep_camera()
    ctx = webrtc_streamer(
        key=CAMERA_KEY, mode=WebRtcMode.SENDRECV, rtc_configuration=RTC_CONFIGURATION,
        media_stream_constraints=MEDIA_CONSTRAINTS, video_frame_callback=feed.on_frame, async_processing=True,
    )
    status = st.empty()
    st.button("Use these cards on My hand", key="live.send", on_click=send_to_my_hand)
    games.show_flash("live.send")
with right:
    upcard = show.upcard_select("live.upcard")
    board = st.empty()


def draw(read: LiveRead) -> None:
    with board.container():
        if not read.codes:
            st.info("No cards in view.")
            return
        st.markdown("**In view**: " + " ".join(cardtext.card_label(c) for c in read.codes))
        if read.unsure:
            st.caption("Unsure: " + " ".join(cardtext.card_label(c) for c in read.unsure))
        show.hand_report([parse_card(c) for c in read.codes], "live", strict=False, upcard=upcard)


if not ctx.state.playing:
    status.info("Press START and allow the camera: the cards in view are read as they change.")
    if feed.latest is not None:
        draw(feed.latest)
else:
    shown, said = None, "Waiting for frames…"
    while True:  # until the stream stops: then the page reruns and this run is dropped
        read = feed.next(timeout=1.0)
        if read is not None:
            said = (f"Live: {len(read.codes)} card{'s' if len(read.codes) != 1 else ''} in view "
                    f"(frame {read.frame}, {read.ms:.0f} ms a frame)")
        status.caption(said)  # also lets Streamlit stop this run when the page changes
        if read is not None and read.codes != shown:
            shown = read.codes
            draw(read)
