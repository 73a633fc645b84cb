"""The app as a whole: its pages, its settings, and the thinness of app.py."""

import ast
import tomllib
from pathlib import Path

import pytest

from tests.app.conftest import APP, PAGES, ok

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_opens(app, reader, page):
    at = ok(app(page))
    assert at.title[0].value == {"live": "Live", "my_hand": "My hand", "showdown": "Showdown", "game": "Game"}[page]


def test_settings_listen_on_localhost_with_an_upload_limit():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"
    assert config["server"]["headless"] is True
    assert 1 <= config["server"]["maxUploadSize"] <= 50
    assert config["browser"]["gatherUsageStats"] is False


def test_app_imports_no_rules_and_no_vision():
    """app.py is navigation only (with ui.state's note of which page ran); pages reach vision
    through ui.reader alone (lazily)."""
    imports = {
        alias.name.split(".")[0]
        for node in ast.walk(ast.parse(Path(APP).read_text()))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])
    }
    assert imports <= {"__future__", "logging", "streamlit", "ui"}
    for path in (ROOT / "ui").rglob("*.py"):
        tree = ast.parse(path.read_text())
        top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
        names = {a.name for n in top_level if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module for n in top_level if isinstance(n, ast.ImportFrom)}
        assert not {m for m in names if m and m.split(".")[0] in ("vision", "cv2", "torch", "ultralytics")}, path


def test_the_reader_is_loaded_once(monkeypatch):
    """One CardReader per process, shared by every session (st.cache_resource)."""
    import ui.reader

    made = []

    class Stub:
        def __init__(self):
            made.append(self)

    monkeypatch.setattr(ui.reader, "CardReader", Stub)
    ui.reader.load_reader.clear()
    try:
        first, _ = ui.reader.get_reader()
        second, _ = ui.reader.get_reader()
        assert first is second and len(made) == 1
    finally:
        ui.reader.load_reader.clear()
