"""Fixtures of the app's tests: a temporary scoresheet, the fake card reader, and AppTest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.fakes import FakeReader

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGES = {
    "live": "ui/pages/live.py",
    "my_hand": "ui/pages/my_hand.py",
    "showdown": "ui/pages/showdown.py",
    "game": "ui/pages/game.py",
    "help": "ui/pages/help.py",
}


@pytest.fixture
def db(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "scoresheet.sqlite3"
    monkeypatch.setenv("GINSIGHT_DB", str(path))
    return path


@pytest.fixture
def reader(monkeypatch) -> FakeReader:
    import ui.reader

    fake = FakeReader()
    monkeypatch.setattr(ui.reader, "load_reader", lambda: fake)
    return fake


@pytest.fixture
def no_reader(monkeypatch) -> None:
    import ui.reader

    def missing():
        raise FileNotFoundError("no card detector shipped in models/")

    monkeypatch.setattr(ui.reader, "load_reader", missing)


@pytest.fixture(autouse=True)
def _webrtc_outside_a_server(monkeypatch) -> None:
    # AppTest's runtime is a mock without sessions: streamlit-webrtc then works as in a
    # script run with no session (it only skips its stale-context check).
    import streamlit_webrtc.component

    monkeypatch.setattr(streamlit_webrtc.component, "get_this_session_info", lambda: None)


@pytest.fixture
def app(db):
    """The app on a page: ``app("showdown")`` runs it and switches there."""

    def open_page(page: str = "my_hand") -> AppTest:
        at = AppTest.from_file(APP, default_timeout=60).run()
        if page != "my_hand":
            at.switch_page(PAGES[page]).run()
        return at

    return open_page


# --- driving the pages ------------------------------------------------------------------


def type_cards(at: AppTest, slot: str, text: str) -> AppTest:
    """Choose "Type" for ``slot`` (when there is a choice), type ``text`` and use it."""
    sources = [r for r in at.radio if r.key == f"{slot}.source"]
    if sources and sources[0].value != "Type":
        sources[0].set_value("Type").run()
    at.text_input(key=f"{slot}.typed").input(text)
    return at.button(key=f"{slot}.use_typed").click().run()


def upload(at: AppTest, slot: str, data: bytes, name: str = "cards.png", mime: str = "image/png") -> AppTest:
    sources = [r for r in at.radio if r.key == f"{slot}.source"]
    if sources and sources[0].value != "Photo":
        sources[0].set_value("Photo").run()
    return at.file_uploader(key=f"{slot}.upload").set_value((name, data, mime)).run()


def cards(at: AppTest, slot: str) -> list[str]:
    """The cards of ``slot`` as the correction box shows them."""
    return list(at.multiselect(key=f"{slot}.cards.widget").value)


def text(at: AppTest) -> str:
    """Everything the page says in words: headings, markdown, captions, alerts, metrics, image captions."""
    parts = [h.value for h in (*at.title, *at.header, *at.subheader)]
    parts += [m.value for m in at.markdown] + [c.value for c in at.caption]
    for alerts in (at.error, at.warning, at.info, at.success):
        parts += [a.value for a in alerts]
    parts += [f"{m.label}: {m.value}" for m in at.metric]
    parts += [caption for image in at.image for caption in image.captions]
    return re.sub(r":(?:red|gray)\[([^\]]*)\]", r"\1", "\n".join(parts))  # a colour is not a word


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def ok(at: AppTest) -> AppTest:
    """No exception shown (the app never shows a traceback)."""
    assert not at.exception, [e.value for e in at.exception]
    assert not [e for e in errors(at) if "Something went wrong" in e], errors(at)
    return at
