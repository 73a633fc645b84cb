"""The app end to end in a real browser: `streamlit run app.py` on a free localhost port, driven
by Playwright in Debian's headless Chromium (`make setup` installs it), with the real card reader.

- My hand: a real photo uploaded, the cards read found on the page, the hand completed to 11
  cards in the correction box, the advice found.
- Game and Showdown: a game started, a showdown typed, settled and added to the game with one
  click; the Game page shows it, and still does after a reload.
- Live: Chromium's fake camera plays a clip made from the photo; frames are read and the page
  reports them; then the snapshot mode takes a photo with the same camera.

Screenshots of each page go to docs/ (shown in the README).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
# Real photos (CC BY 4.0, credited in the README of each folder): the lead's copies in the
# repository first, else the shared validation set beside the checkout.
PHOTO_FOLDERS = (
    ROOT / "tests" / "fixtures" / "real-dev",
    ROOT.parent / "shared" / "real-dev",
    Path("/work/shared/real-dev"),
)
PREFERRED = "webcam_WIN__WIN_20240627_12_09_15_Pro_jpg.jpg"  # nine cards fanned on a table
FILLERS = ["K♦", "Q♦", "J♦", "K♥", "Q♥", "J♥", "K♠", "Q♠", "J♠", "K♣", "Q♣"]
WAIT = 90_000  # ms: the first read loads the models


def label_count(photo: Path) -> int:
    """Distinct cards in a photo's YOLO label file (``labels/`` beside ``images/``), or 0."""
    for labels in (photo.parent.parent / "labels", photo.parent / "labels", photo.parent):
        path = labels / (photo.stem + ".txt")
        if path.is_file():
            return len({line.split()[0] for line in path.read_text().splitlines() if line.strip()})
    return 0


def real_photo() -> Path:
    """The photo to upload: the preferred one, else the one showing most cards (at most 11)."""
    for folder in PHOTO_FOLDERS:
        photos = sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
        if not photos:
            continue
        preferred = [p for p in photos if p.name == PREFERRED]
        if preferred:
            return preferred[0]
        return max(photos, key=lambda p: (label_count(p) if label_count(p) <= 11 else -1, p.name))
    pytest.fail("no real photo to upload: expected tests/fixtures/real-dev/ (or ../shared/real-dev/)", pytrace=False)


def fake_camera_clip(photo: Path, path: Path, frames: int = 10) -> Path:
    """A Y4M clip (I420) of ``photo`` held still, for Chromium's fake camera."""
    image = Image.open(photo).convert("RGB")
    width, height = image.width // 2 * 2, image.height // 2 * 2
    y, cb, cr = image.crop((0, 0, width, height)).convert("YCbCr").split()
    half = (width // 2, height // 2)
    frame = y.tobytes() + cb.resize(half).tobytes() + cr.resize(half).tobytes()
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            out.write(b"FRAME\n" + frame)
    return path


@pytest.fixture(scope="module")
def real_reader() -> None:
    """The photo and camera tests need the shipped models: a clear failure, never a skip."""
    why = None
    try:
        import vision

        vision.Reader()
    except Exception as exc:
        why = f"{type(exc).__name__}: {exc}"
    if why is not None:
        pytest.fail(f"the end-to-end test needs the real card reader, and vision.Reader() cannot load: {why}",
                    pytrace=False)


SERVER_LOGS: list[Path] = []  # the app server's output, shown when a test fails on it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """The app as users run it, on a free port, with a scoresheet of its own; always stopped."""
    tmp = tmp_path_factory.mktemp("app")
    port = free_port()
    env = {**os.environ, "GINSIGHT_DB": str(tmp / "scoresheet.sqlite3"), "PYTHONUNBUFFERED": "1",
           "GINSIGHT_WEBRTC_LOG": "DEBUG"}  # streamlit-webrtc's signalling and ICE log, for why_not
    log = (tmp / "streamlit.log").open("w")
    SERVER_LOGS.append(tmp / "streamlit.log")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"streamlit did not start: {(tmp / 'streamlit.log').read_text()[-3000:]}", pytrace=False)
            time.sleep(0.5)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=15)
        log.close()


@pytest.fixture(scope="module")
def playwright():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: run `make setup` (apt-get install chromium chromium-driver)",
                    pytrace=False)
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright, tmp_path_factory):
    """Headless Chromium from Debian, with a fake camera playing a clip of the real photo."""
    clip = fake_camera_clip(real_photo(), tmp_path_factory.mktemp("camera") / "cards.y4m")
    camera = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
              f"--use-file-for-fake-video-capture={clip}"]
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS + camera)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, base_url=server)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    try:
        yield page
    finally:
        context.close()


def open_page(page, path: str) -> None:
    page.goto(path)
    page.wait_for_selector('[data-testid="stSidebarNav"]')
    settle(page)


def settle(page, quiet_ms: int = 800) -> None:
    """Wait until the script has stopped running (Streamlit's status widget gone for a while)."""
    status = page.locator('[data-testid="stStatusWidget"]')
    deadline = time.monotonic() + WAIT / 1000
    calm_since = None
    while time.monotonic() < deadline:
        if status.count() == 0:
            calm_since = calm_since or time.monotonic()
            if time.monotonic() - calm_since >= quiet_ms / 1000:
                return
        else:
            calm_since = None
        time.sleep(0.1)


def no_exception(page) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0, page.locator("body").inner_text()


def screenshot(page, name: str) -> None:
    """The whole page (Streamlit scrolls inside its main block: grow the window to fit it)."""
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=\"stMain\"], "
        "[data-testid=\"stMainBlockContainer\"]')].map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": 1400, "height": min(max(1000, height + 40), 4000)})
    time.sleep(0.8)
    DOCS.mkdir(exist_ok=True)
    page.screenshot(path=str(DOCS / name))
    page.set_viewport_size({"width": 1400, "height": 1000})


def chips(page) -> list[str]:
    return page.locator('[data-testid="stMultiSelect"] [data-tag]').evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )


def test_my_hand_reads_a_real_photo(page, real_reader):
    open_page(page, "/")
    page.get_by_text("No cards yet").wait_for()
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(real_photo()))
    page.locator('[data-testid="stImageCaption"], [data-testid="stAlertContentError"]').first.wait_for()
    settle(page)
    no_exception(page)
    errors = page.locator('[data-testid="stAlertContentError"]').all_inner_texts()
    assert not [e for e in errors if "photo" in e or "reader" in e], errors
    caption = page.locator('[data-testid="stImageCaption"]').inner_text()
    match = re.match(r"(\d+) cards? read in \d+ ms: (.*)", caption)
    assert match, caption
    read = match.group(2).split()
    assert len(read) == int(match.group(1)) >= 1
    assert chips(page) == read  # each card read is in the correction box

    # Correct the hand to 11 cards (remove extra reads, add cards), then the advice shows.
    while len(chips(page)) > 11:
        page.get_by_role("button", name=f"Remove {chips(page)[-1]}").click()
        settle(page)
    box = page.locator('[data-testid="stMultiSelect"] input')
    for label in [f for f in FILLERS if f not in read][: 11 - len(chips(page))]:
        before = len(chips(page))
        box.click()
        box.fill(label)
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.querySelectorAll('[data-testid=\"stMultiSelect\"] [data-tag]').length > {before}"
        )
        settle(page)
    page.keyboard.press("Escape")
    assert len(chips(page)) == 11
    page.get_by_text("Advice", exact=False).first.wait_for()
    settle(page)
    body = page.locator('[data-testid="stMain"]').inner_text()
    assert re.search(r"Advice: (Knock|Play on)", body), body
    assert "Best discard" in body and "Deadwood" in body
    no_exception(page)
    screenshot(page, "my-hand.png")


def test_game_and_showdown(page):
    open_page(page, "/game")
    for i, name in enumerate(("Ann", "Bob", "Cy"), 1):
        field = page.get_by_label(f"Player {i}")
        field.fill(name)
        field.press("Tab")
        settle(page)
    page.get_by_text("Enter the roles").click()
    settle(page)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_text("Game 1 started").wait_for()
    settle(page)
    assert "box Ann, captain Bob, sits out Cy" in page.locator('[data-testid="stMain"]').inner_text()

    open_page(page, "/showdown")
    hands = {"knocker's hand": "5S 6S 7S 9C TC JC KS KC KD JD", "defender's hand": "2S 8S 9S AC 2C 7C 8C 2D 8D 2H"}
    for what, cards in hands.items():
        page.locator('[data-testid="stRadio"]').filter(has_text=f"Cards of the {what} from").get_by_text("Type").click()
        settle(page)
        field = page.get_by_label(f"Cards of the {what}", exact=True)
        field.fill(cards)
        field.press("Enter")
        settle(page)
    page.get_by_text("Undercut: Bob scores 11").wait_for()
    body = page.locator('[data-testid="stMain"]').inner_text()
    assert "Bob lays off 8♠ onto 5♠ 6♠ 7♠." in body
    assert "the defender scores the undercut bonus 10 + 10 − 9 = 11" in body
    page.get_by_role("button", name="Add this hand to game 1").click()
    page.get_by_text("Recorded as hand 1 of game 1: undercut, Bob scores 11.").wait_for()
    settle(page)
    no_exception(page)
    screenshot(page, "showdown.png")

    open_page(page, "/game")
    page.get_by_text("History").wait_for()
    for _ in range(2):  # and again after a reload: the scoresheet kept it
        body = page.locator('[data-testid="stMain"]').inner_text()
        assert "undercut" in body and "Hand 2" in body, body
        assert "box Bob, captain Cy, sits out Ann" in body
        page.reload()
        page.get_by_text("History").wait_for()
        settle(page)
    no_exception(page)
    screenshot(page, "game.png")


def frames_read(page) -> int:
    """The frame number the Live page last reported (0 before any)."""
    found = re.findall(r"frame (\d+),", page.locator('[data-testid="stMain"]').inner_text())
    return int(found[-1]) if found else 0


def why_not(page, console: list[str], what: str) -> str:
    """What the page, the browser console and the app server said: for a failure message."""
    text = SERVER_LOGS[-1].read_text() if SERVER_LOGS else "(no server log)"
    webrtc = [line[:300] for line in text.splitlines() if "streamlit_webrtc" in line]
    return (f"{what}\n--- page ---\n{page.locator('body').inner_text()[-2000:]}\n--- browser console ---\n"
            + "\n".join(console[-40:]) + "\n--- streamlit-webrtc (server) ---\n" + "\n".join(webrtc[-40:])
            + f"\n--- streamlit server ---\n{text[-3000:]}")


def test_live_camera(page, real_reader):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    open_page(page, "/live")
    frame = page.frame_locator('iframe[title="streamlit_webrtc.component.webrtc_streamer"]')
    frame.get_by_role("button", name=re.compile("start", re.I)).click()
    t0 = time.monotonic()
    try:
        page.get_by_text(re.compile(r"cards? in view \(frame \d+")).wait_for(timeout=120_000)
    except PlaywrightTimeout:
        video = frame.locator("video")
        state = video.first.evaluate("v => [v.readyState, v.videoWidth, v.currentTime]") if video.count() else None
        pytest.fail(why_not(page, console, f"no frame read {time.monotonic() - t0:.0f} s after START; "
                                           f"video [readyState, width, time]: {state}"), pytrace=False)
    frame.locator("video").first.wait_for()
    assert frame.locator("video").first.evaluate("v => v.readyState") >= 2  # the drawn frames come back
    time.sleep(3)  # a few more frames: the codes drawn, the melds and advice beside
    no_exception(page)
    screenshot(page, "live.png")

    # Sending the cards to My hand leaves the stream playing and says so for good.
    page.get_by_role("button", name="Use these cards on My hand").click()
    page.get_by_text(re.compile(r"cards sent to My hand: ")).wait_for()
    before = frames_read(page)
    time.sleep(3)
    assert page.get_by_text(re.compile(r"cards sent to My hand: ")).is_visible()
    assert frames_read(page) > before, why_not(page, console, "the stream stopped after sending the cards")
    # Choosing an upcard while it plays leaves nothing greyed behind.
    upcard = page.get_by_role("combobox", name="Upcard (top of the discard pile)")
    upcard.click()
    upcard.fill("Q♥")
    page.keyboard.press("Enter")
    stale = page.locator('[data-testid="stMain"] [data-stale="true"]')
    deadline = time.monotonic() + 30  # the rerun's time on a busy machine; a stale leftover stays for good
    while stale.count() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert stale.count() == 0, why_not(page, console, f"{stale.count()} greyed elements stayed after choosing an upcard")
    frame.get_by_role("button", name=re.compile("stop", re.I)).click()
    settle(page)

    page.get_by_text("Snapshot mode (for browsers").click()
    settle(page)
    page.get_by_role("button", name=re.compile("take photo", re.I)).click()
    page.locator('[data-testid="stImageCaption"], [data-testid="stAlertContentError"]').first.wait_for()
    settle(page)
    no_exception(page)
    assert re.search(r"\d+ cards? read in", page.locator('[data-testid="stMain"]').inner_text())


@pytest.mark.parametrize("path", ["/", "/my-hand", "/live", "/showdown", "/game", "/help"])
def test_every_page_answers_at_its_own_path(page, path):
    open_page(page, path)
    title = {"/": "My hand", "/my-hand": "My hand", "/live": "Live", "/showdown": "Showdown", "/game": "Game",
             "/help": "Help"}[path]
    page.get_by_role("heading", name=title).first.wait_for()
    assert page.get_by_text("Page not found").count() == 0, page.locator("body").inner_text()


def test_correction_box_takes_typed_spellings_and_colours_chips_by_suit(page):
    open_page(page, "/my-hand")
    page.locator('[data-testid="stRadio"]').filter(has_text="Cards of the hand from").get_by_text("Type").click()
    settle(page)
    field = page.get_by_label("Cards of the hand", exact=True)
    field.fill("AS TH")
    field.press("Enter")
    settle(page)
    box = page.locator('[data-testid="stMultiSelect"] input')
    for typed in ("2c", "10d"):
        box.click()
        box.fill(typed)
        page.keyboard.press("Enter")
        settle(page)
    page.keyboard.press("Escape")
    assert chips(page) == ["A♠", "10♥", "2♣", "10♦"]
    colour = page.locator('[data-testid="stMultiSelect"] [data-tag]').evaluate_all(
        "els => els.map(e => getComputedStyle(e).backgroundColor)")
    assert colour == ["rgb(31, 41, 55)", "rgb(185, 28, 28)", "rgb(31, 41, 55)", "rgb(185, 28, 28)"]
    no_exception(page)


def test_live_without_a_camera_says_so_plainly(playwright, server):
    """No camera (a browser without the fake one): the ways on, not the browser's raw error."""
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
    try:
        page = chromium.new_page(base_url=server)
        page.set_default_timeout(WAIT)
        open_page(page, "/live")
        page.get_by_text("Live video cannot start").wait_for()
        body = page.locator('[data-testid="stMain"]').inner_text()
        assert "no camera was found on this device" in body and "Snapshot mode" in body and "My hand" in body
        time.sleep(1)
        assert not page.get_by_text("Press START").first.is_visible()
    finally:
        chromium.close()
