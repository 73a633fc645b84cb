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
    assert "10 cards sent to My hand: A♠ 2♠ 3♠ 7♥ 7♦ 7♣ 9♣ 10♣ J♣ K♦." in text(ok(at))
    at.run()  # the stream's own reruns: the message stays, in its place
    assert "10 cards sent to My hand: A♠" in text(ok(at))
    at.switch_page("ui/pages/my_hand.py").run()
    assert cards(ok(at), "hand") == FakeReader.live_codes


def test_live_cards_sent_to_my_hand_replace_its_photo_too(app, reader):
    at = app()
    at.file_uploader(key="hand.upload").set_value(("cards.png", photo(GIN_11, unsure="KD"), "image/png")).run()
    assert len(at.image) == 1 and "K♦: check it" in text(ok(at))
    at.switch_page("ui/pages/live.py").run()
    at.session_state["live.feed"].on_frame(frame())
    at.button(key="live.send").click().run()
    at.switch_page("ui/pages/my_hand.py").run()
    assert cards(ok(at), "hand") == FakeReader.live_codes
    assert len(at.image) == 0 and "check it" not in text(at)  # the old photo's, gone
    assert reader.reads == 1  # the photo still in the uploader is not read again


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


class FakeWorker:
    def __init__(self) -> None:
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True


def camera_context(monkeypatch):
    """streamlit-webrtc's own context lookup, run outside Streamlit: its session state a dict,
    Streamlit's count of finished runs a number the test moves. Returns (state, count, lookup)."""
    from types import SimpleNamespace

    from streamlit_webrtc import component

    from ui.live import CAMERA_KEY

    state: dict = {}
    count = {"runs": 5}
    monkeypatch.setattr(component, "st", SimpleNamespace(session_state=state))
    monkeypatch.setattr(component, "get_this_session_info", lambda: object())
    monkeypatch.setattr(component, "get_script_run_count", lambda info: count["runs"])
    return state, count, lambda: component._get_or_create_context(CAMERA_KEY)


def test_a_lagging_run_count_does_not_stop_a_starting_stream(monkeypatch):
    from ui.live import keep_camera

    state, count, lookup = camera_context(monkeypatch)
    context = lookup()
    worker = FakeWorker()
    context._set_worker(worker)
    # Two runs' ends counted at once (the count lags while signalling reruns the page): alone,
    # streamlit-webrtc takes the gap for a visit to another page and stops the stream ...
    count["runs"] += 2
    lookup()
    assert worker.stopped and context._get_worker() is None
    # ... which keep_camera prevents while no run has said that it did not draw the camera.
    worker = FakeWorker()
    context._set_worker(worker)
    count["runs"] += 2
    keep_camera(state)
    assert lookup() is context and context._get_worker() is worker and not worker.stopped


def test_the_stream_is_reset_after_a_run_without_the_camera(monkeypatch):
    from ui.live import camera_not_drawn, keep_camera

    state, count, lookup = camera_context(monkeypatch)
    context = lookup()
    worker = FakeWorker()
    context._set_worker(worker)
    camera_not_drawn(state)  # e.g. the user went to My hand and came back
    keep_camera(state)
    lookup()  # even with the run count not moved on
    assert worker.stopped and context._get_worker() is None
    keep_camera(state)  # the note is used once
    worker = FakeWorker()
    context._set_worker(worker)
    count["runs"] += 3
    lookup()
    assert not worker.stopped


def test_keep_camera_before_the_first_draw_and_with_a_foreign_context():
    from ui.live import CAMERA_KEY, camera_not_drawn, keep_camera

    state: dict = {}
    keep_camera(state)  # nothing drawn yet: nothing to do
    camera_not_drawn(state)
    state[CAMERA_KEY] = object()  # a streamlit-webrtc without the field: left alone
    keep_camera(state)
    assert list(state) == [CAMERA_KEY]


def test_other_pages_and_snapshot_mode_say_the_camera_was_not_drawn(app, reader):
    at = ok(app("live"))
    assert "live.camera.away" not in at.session_state
    at.switch_page("ui/pages/my_hand.py").run()
    assert ok(at).session_state["live.camera.away"] is True
    at.switch_page("ui/pages/live.py").run()
    assert "live.camera.away" not in ok(at).session_state
    at.toggle(key="live.snapshot").set_value(True).run()
    assert ok(at).session_state["live.camera.away"] is True


def camera_place(at) -> tuple:
    """Where the camera (streamlit-webrtc's component) sits in the page's tree."""

    def walk(node, path=()):
        for key, child in getattr(node, "children", {}).items():
            yield (*path, key), child
            yield from walk(child, (*path, key))

    return next(path for path, node in walk(at.main) if getattr(node, "type", "") == "component_instance")


def test_sending_the_cards_leaves_the_camera_in_its_place(app, reader):
    """A message drawn above the camera moved it, and the browser drew it afresh: the stream stopped."""
    at = ok(app("live"))
    place = camera_place(at)
    at.session_state["live.feed"].on_frame(frame())
    at.button(key="live.send").click().run()
    assert "10 cards sent to My hand" in text(ok(at)) and camera_place(at) == place
    at.selectbox(key="live.upcard").set_value("QH").run()
    assert camera_place(ok(at)) == place


def test_no_camera_is_said_plainly_with_the_ways_on(app, reader):
    at = ok(app("live"))
    (check,) = [h for h in at.get("html") if "ginsight-no-camera" in h.proto.body]
    assert check.proto.unsafe_allow_javascript
    assert "Live video cannot start" in check.proto.body and "Snapshot mode" in check.proto.body
    assert "My hand page" in check.proto.body and "Press START" in check.proto.body  # hidden, then
