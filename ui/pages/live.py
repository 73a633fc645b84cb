"""Live: the webcam read continuously (streamlit-webrtc), each card drawn on the video, the
melds, deadwood and advice following the hand; a snapshot mode (``st.camera_input``) for
browsers where live video fails.

The page's elements keep their places from run to run (messages go into slots drawn every
run): an element added above the camera would move it, and the browser would draw it afresh,
stopping the stream.
"""

import streamlit as st
from streamlit_webrtc import WebRtcMode, webrtc_streamer

from engine.cards import parse_card
from ui import cardinput, cardtext, doubt, show, state
from ui import reader as card_reader
from ui.live import (
    CAMERA_KEY,
    MEDIA_CONSTRAINTS,
    NO_CAMERA_CHECK,
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
        photo.reset(photo.digest)  # My hand's photo and its questions were of other cards; not read again
        photo.doubts = list(read.unsure)  # asked there, where a card can be swapped for its likeliest other
        state.live_sent().said = (f"{len(read.codes)} cards sent to My hand: "
                                  + " ".join(cardtext.card_label(c) for c in read.codes) + "."
                                  + (" Check the unsure ones there." if read.unsure else ""))
    else:
        state.live_sent().said = "No cards in view to send."


feed = state.live_feed(lambda: LiveFeed(reader))
left, right = st.columns([5, 6], gap="large")
with left:
    state.keep_camera()
    ctx = webrtc_streamer(
        key=CAMERA_KEY, mode=WebRtcMode.SENDRECV, rtc_configuration=RTC_CONFIGURATION,
        media_stream_constraints=MEDIA_CONSTRAINTS, video_frame_callback=feed.on_frame, async_processing=True,
    )
    status = st.empty()
    st.html(NO_CAMERA_CHECK, unsafe_allow_javascript=True)  # says so when the browser has no camera
    st.button("Use these cards on My hand", key="live.send", on_click=send_to_my_hand)
    sent = state.live_sent().said
    st.caption(sent or "The cards in view go to My hand, for a closer look.")
with right:
    upcard = show.upcard_select("live.upcard")
    board = st.empty()


def draw(read: LiveRead | None) -> None:
    """The board afresh: emptied first, so that nothing of the last drawing stays behind
    greyed out (this run does not end while the stream plays, and Streamlit clears what a
    run left over only when the run ends)."""
    board.empty()
    with board.container():
        unread = doubt.unread_text(read.unread) if read is not None else ""
        if read is None or not read.codes:
            st.info(" ".join(("No cards in view.", unread)).strip())
            return
        st.markdown("**In view**: " + " ".join(cardtext.card_label(c) for c in read.codes))
        st.caption("Unsure: " + "; ".join(doubt.question(d, read.codes) for d in read.unsure) if read.unsure else " ")
        if unread:
            st.caption(unread)
        view = show.hand_view([parse_card(c) for c in read.codes])
        show.draw_hand(view, "live", strict=False, upcard=upcard)


if not ctx.state.playing:
    status.info("Press START and allow the camera: the cards in view are read as they change.")
    if feed.latest is not None:
        draw(feed.latest)
else:
    draw(feed.latest)  # at once: the upcard or anything else just changed
    shown, said = feed.latest.seen() if feed.latest else None, "Waiting for frames…"
    while True:  # until the stream stops: then the page reruns and this run is dropped
        read = feed.next(timeout=1.0)
        if read is not None:
            said = (f"Live: {len(read.codes)} card{'s' if len(read.codes) != 1 else ''} in view "
                    f"(frame {read.frame}, {read.ms:.0f} ms a frame)")
        status.caption(said)  # also lets Streamlit stop this run when the page changes
        if read is not None and read.seen() != shown:
            shown = read.seen()
            draw(read)
