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
    assert at.title[0].value == {"live": "Live", "my_hand": "My hand", "showdown": "Showdown", "game": "Game",
                                 "help": "Help"}[page]


def test_every_page_has_its_own_path_and_the_root_shows_my_hand():
    """/my-hand works like /game: no page of the menu is served at / alone."""
    tree = ast.parse(Path(APP).read_text())
    pages = [
        {k.arg: ast.literal_eval(k.value) for k in node.keywords} | {"file": ast.literal_eval(node.args[0])}
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Page"
    ]
    shown = [p for p in pages if p.get("visibility") != "hidden"]
    assert [p["url_path"] for p in shown] == ["live", "my-hand", "showdown", "game", "help"]
    assert not [p for p in shown if p.get("default")]
    (root,) = [p for p in pages if p.get("default")]
    assert root["file"] == "ui/pages/my_hand.py" and root["visibility"] == "hidden"


def test_help_explains_the_pages_and_the_rules(app):
    at = ok(app("help"))
    words = "\n".join(m.value for m in at.markdown)
    for needle in ("**My hand**", "**Live**", "Snapshot mode", "**Showdown**", "**Game**", "in the box",
                   "captain", "sits out", "box lost, the box sits out", "Undercut", "First to 100 wins",
                   "docs/rules.md", "\"2♣ or 2♠?\"", "grey dashed box with \"?\""):
        assert needle in words, needle


def test_settings_listen_on_localhost_with_an_upload_limit():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"
    assert config["server"]["headless"] is True
    from ui.cardinput import PHOTO_MB

    # Streamlit's own refusal leaves the refused file listed beside the next one: the app's
    # limit comes first, well under it.
    assert 2 * PHOTO_MB <= config["server"]["maxUploadSize"] <= 500
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


def test_imports_go_one_way_ui_and_cli_never_import_each_other():
    def imported(folder: str) -> set[str]:
        names = set()
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    names |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names.add(node.module.split(".")[0])
        return names

    assert "cli" not in imported("ui") and "ui" not in imported("cli")
    assert not {"ui", "cli"} & imported("scoresheet")


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
