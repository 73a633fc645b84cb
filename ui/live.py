"""The live video: frames are read on streamlit-webrtc's worker thread and the results are
handed to the page's script thread through a one-slot queue (the newest read wins).

The page's script owns nothing the worker touches but the :class:`LiveFeed`; the worker never
calls Streamlit.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import sys
import threading
from dataclasses import dataclass
from typing import Any

from ui.doubt import Doubt, doubts_of

LOG = logging.getLogger(__name__)
LOG_ENV = "GINSIGHT_WEBRTC_LOG"  # e.g. DEBUG: streamlit-webrtc's own log (signalling, ICE, worker) to stderr


def webrtc_logging(environ=os.environ) -> bool:
    """Send streamlit-webrtc's log to stderr at the level named in ``$GINSIGHT_WEBRTC_LOG``
    (Streamlit's ``--logger.level`` covers only its own loggers). For finding why a stream
    stops; the browser test turns it on. True when it is on; an unknown level is refused by name."""
    level = environ.get(LOG_ENV, "").strip().upper()
    if not level:
        return False
    if not isinstance(logging.getLevelName(level), int):
        raise ValueError(f"{LOG_ENV}={level!r} is not a logging level (DEBUG, INFO, WARNING, ERROR)")
    logger = logging.getLogger("streamlit_webrtc")
    logger.setLevel(level)
    if not any(getattr(h, "ginsight", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        handler.ginsight = True
        logger.addHandler(handler)
    return True


CAMERA_KEY = "live.camera"  # the webrtc_streamer's key
_AWAY = "live.camera.away"  # set by a run that does not draw the camera


def camera_not_drawn(session_state: Any) -> None:
    """Note that this script run does not draw the camera (another page, snapshot mode, no
    reader): the next time it is drawn, its stream is stale and starts afresh."""
    session_state[_AWAY] = True


def keep_camera(session_state: Any) -> None:
    """Call just before ``webrtc_streamer``: decide ourselves whether its context is stale.

    streamlit-webrtc 0.79 resets the context (stops the stream) when Streamlit's count of
    finished script runs has moved on by more than one since the camera was last drawn, which it
    takes to mean that the user went to another page and came back. But that count is raised on
    the event loop when a run's end is sent, so a run can read it before the previous run's end
    is counted; while the stream starts, its signalling reruns the page several times within
    milliseconds, and then the next run sees a gap, resets, and the stream it was starting stops
    (CI, 2026-12-01: "Context for key=live.camera was not rendered for 1 script runs"; the browser
    showed "disconnected" and no frame ever came). Here a run that did not draw the camera says
    so (:func:`camera_not_drawn`), and only then is the context reset; otherwise the check is
    switched off for this run. A streamlit-webrtc without that field is left as it is (a test
    names the field, so an upgrade that renames it fails there)."""
    context = session_state.get(CAMERA_KEY)
    away = session_state.pop(_AWAY, False)
    if context is None or not hasattr(context, "_last_rendered_run_count"):
        return
    # None: the check is skipped. -2: any run count is "more than one run later": reset.
    context._last_rendered_run_count = -2 if away else None


# Shown by the browser itself when it has no camera to give (none found, refused, or an address
# that is not secure): streamlit-webrtc tells the page nothing of it, and its own message is the
# browser's raw error. Then "Press START" is hidden and the way on is said plainly.
NO_CAMERA = ("Live video cannot start: {why} Use Snapshot mode (above) if another camera app works, "
             "or type your cards on the My hand page.")
NO_CAMERA_CHECK = """<div class="ginsight-no-camera" role="alert" style="display:none;padding:0.75rem 1rem;
border-radius:0.5rem;background:#fde8e8;color:#7d1a1a;margin:0.25rem 0">""" + NO_CAMERA.replace(
    "{why}", '<span class="why"></span>') + """</div>
<script>
(async () => {
  const boxes = document.querySelectorAll(".ginsight-no-camera");
  const box = boxes[boxes.length - 1];
  if (!box) return;
  let why = null;
  const media = navigator.mediaDevices;
  if (!media || !media.getUserMedia) {
    why = "this browser gives the page no camera (it needs localhost or an https address).";
  } else {
    try {
      const permission = await navigator.permissions.query({name: "camera"});
      if (permission.state === "denied") why = "the browser refused this page the camera (see its address bar).";
    } catch (e) {}
    if (!why) {
      const devices = await media.enumerateDevices();
      if (!devices.some(d => d.kind === "videoinput")) why = "no camera was found on this device.";
    }
  }
  if (!why) return;
  box.querySelector(".why").textContent = why;
  box.style.display = "block";
  const hideStart = () => {
    if (!box.isConnected) { observer.disconnect(); return; }
    for (const alert of document.querySelectorAll('[data-testid="stAlert"]')) {
      if (alert.innerText.includes("Press START")) alert.style.display = "none";
    }
  };
  const observer = new MutationObserver(hideStart);
  observer.observe(document.body, {childList: true, subtree: true});
  hideStart();
})();
</script>"""

# On localhost no STUN server is needed: an empty list means nothing is fetched.
RTC_CONFIGURATION = {"iceServers": []}
MEDIA_CONSTRAINTS = {"video": {"width": {"ideal": 1280}, "height": {"ideal": 720}}, "audio": False}


@dataclass(frozen=True)
class LiveRead:
    """What the video shows now (voted over the recent frames): the cards, those read unsure
    with their likeliest other cards, and the newest frame's index boxes found but not read."""

    codes: tuple[str, ...]
    unsure: tuple[Doubt, ...]
    frame: int
    ms: float
    unread: int = 0

    def seen(self) -> tuple:
        """What the page shows of it (not the frame number or time)."""
        return self.codes, self.unsure, self.unread


class LiveFeed:
    """One video stream's reader: :meth:`on_frame` runs on the worker thread."""

    def __init__(self, reader: Any, window: int = 8) -> None:
        self._reader = reader
        self._stable = reader.stable(window)
        self._lock = threading.Lock()  # the worker may run frames of two streams' reconnects at once
        self.results: queue.Queue[LiveRead] = queue.Queue(maxsize=1)
        self.frames = 0
        self.latest: LiveRead | None = None

    def on_frame(self, frame: Any) -> Any:
        """streamlit-webrtc's ``video_frame_callback``: read, draw the codes, pass the result on."""
        import av  # lazy: only the live page needs PyAV

        image = frame.to_ndarray(format="bgr24")
        try:
            with self._lock:
                reading = self._stable.update(image)
                drawn = self._reader.annotate(image, reading)
                self.frames += 1
                number = self.frames
        except Exception:  # a frame that cannot be read is shown as it came; the stream goes on
            LOG.warning("live frame not read", exc_info=True)
            return frame
        self.publish(LiveRead(
            tuple(dict.fromkeys(r.card for r in reading.cards)),
            doubts_of(reading),
            number,
            reading.ms,
            len(reading.unread),
        ))
        return av.VideoFrame.from_ndarray(drawn, format="bgr24")  # streamlit-webrtc copies pts and time base

    def publish(self, read: LiveRead) -> None:
        self.latest = read
        with contextlib.suppress(queue.Empty):
            self.results.get_nowait()  # drop the older result: only the newest matters
        with contextlib.suppress(queue.Full):  # another frame got in first: it is as new
            self.results.put_nowait(read)

    def next(self, timeout: float) -> LiveRead | None:
        """The newest result, waiting up to ``timeout`` seconds; None when none came."""
        try:
            return self.results.get(timeout=timeout)
        except queue.Empty:
            return None
