"""Live: the webcam page (streamlit-webrtc) and its snapshot mode; the frame callback that
runs on the video thread, with results passed back through a queue."""

import av
import numpy as np

from tests.app.conftest import cards, errors, ok, text
from tests.app.fakes import FakeReader, photo
from ui.live import RTC_CONFIGURATION, LiveFeed, LiveRead

GIN_11 = "AS 2S 3S 4S 7H 7D 7C 9C TC JC KD"


def test_live_page_waits_for_the_camera(app, reader):
    at = ok(app("live"))
    assert "Press START and allow the camera" in text(at)
    assert at.selectbox(key="live.upcard").value == "—"
    assert [b for b in at.button if b.key == "live.send"]


def test_snapshot_mode_reads_a_camera_photo(app, reader):
    at = app("live")
    at.toggle(key="live.snapshot").set_value(True).run()
    assert "Hold your cards up to the camera" in text(ok(at))
    at.camera_input(key="snapshot.camera").set_value(("snap.jpg", photo(GIN_11), "image/jpeg")).run()
    assert cards(ok(at), "snapshot") == GIN_11.split()
    assert "Knock: gin" in text(at) and len(at.image) == 1


def test_snapshot_of_something_else(app, reader):
    at = app("live")
    at.toggle(key="live.snapshot").set_value(True).run()
    at.camera_input(key="snapshot.camera").set_value(("snap.jpg", b"\xff\xd8\xff garbage", "image/jpeg")).run()
    assert any("could not be read as a photo" in e for e in errors(ok(at)))


def test_live_without_a_reader(app, no_reader):
    at = ok(app("live"))
    assert any("The card reader is not available" in e and "My hand" in e for e in errors(at))


def test_no_ice_servers_are_fetched():
    assert RTC_CONFIGURATION == {"iceServers": []}


def frame(width=64, height=48) -> av.VideoFrame:
    return av.VideoFrame.from_ndarray(np.full((height, width, 3), 90, np.uint8), format="bgr24")


def test_frame_callback_reads_draws_and_queues():
    feed = LiveFeed(FakeReader())
    out = feed.on_frame(frame())
    assert isinstance(out, av.VideoFrame)
    drawn = out.to_ndarray(format="bgr24")
    assert drawn.shape == (48, 64, 3) and drawn[0, 0, 2] == 200  # the reader's drawing came back
    read = feed.next(timeout=1)
    assert read == LiveRead(tuple(FakeReader.live_codes), (), 1, 12.0)
    assert feed.next(timeout=0.01) is None


def test_only_the_newest_result_waits():
    feed = LiveFeed(FakeReader())
    for _ in range(3):
        feed.on_frame(frame())
    assert feed.next(timeout=1).frame == 3
    assert feed.next(timeout=0.01) is None and feed.latest.frame == 3


def test_a_frame_that_cannot_be_read_goes_through():
    class Broken(FakeReader):
        def stable(self, window=8):
            class S:
                def update(self, image):
                    raise ValueError("bad frame")

            return S()

    feed = LiveFeed(Broken())
    f = frame()
    assert feed.on_frame(f) is f and feed.next(timeout=0.01) is None


def test_send_the_live_cards_to_my_hand(app, reader):
    at = app("live")
    feed = at.session_state["live.feed"]
    feed.on_frame(frame())  # as the video thread does
    at.button(key="live.send").click().run()
    assert "10 cards sent to My hand." in text(ok(at))
    at.switch_page("ui/pages/my_hand.py").run()
    assert cards(ok(at), "hand") == FakeReader.live_codes


def test_webrtc_log_is_off_unless_asked_and_refuses_a_bad_level(capfd):
    import logging

    import pytest

    from ui.live import LOG_ENV, webrtc_logging

    logger = logging.getLogger("streamlit_webrtc")
    level, handlers = logger.level, list(logger.handlers)
    try:
        assert webrtc_logging({}) is False and logger.handlers == handlers
        assert webrtc_logging({LOG_ENV: "debug"}) is True
        assert webrtc_logging({LOG_ENV: "DEBUG"}) is True  # twice: still one handler
        assert len(logger.handlers) == len(handlers) + 1 and logger.level == logging.DEBUG
        logging.getLogger("streamlit_webrtc.component").debug("Reset the stopped WebRTC context")
        assert "streamlit_webrtc.component: Reset the stopped WebRTC context" in capfd.readouterr().err
        with pytest.raises(ValueError, match=f"{LOG_ENV}='LOUD' is not a logging level"):
            webrtc_logging({LOG_ENV: "loud"})
    finally:
        logger.handlers[:] = handlers
        logger.setLevel(level)
