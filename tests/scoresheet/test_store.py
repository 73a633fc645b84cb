"""The SQLite scoresheet: durable, transactional, and never resetting a file it does not own."""

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from engine.rules import Rules
from engine.table import GameError, HandResult, Roles
from scoresheet import Scoresheet, ScoresheetError

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("Ann", "Bob", "Cy")


def new_game(sheet):
    return sheet.new_game(PLAYERS, Roles(0, 1, 2), "roles entered", Rules())


def test_hands_survive_reopening_and_undo(tmp_path):
    db = tmp_path / "s.db"
    with Scoresheet(db) as sheet:
        g = new_game(sheet)
        sheet.add_hand(g, HandResult.from_counts("box", 4, 30))
        sheet.add_hand(g, HandResult("draw"))
        sheet.add_hand(g, HandResult.from_counts("captain", 2, 9), {"note": "x"})
    with Scoresheet(db) as sheet:
        t = sheet.game(g).table
        assert t.scores == (26, 0, 7) and len(t.history) == 3
        assert sheet.hand_details(g) == [None, None, {"note": "x"}]
        t = sheet.undo(g)
        assert t.scores == (26, 0, 0) and t.roles == Roles(0, 2, 1)
    with Scoresheet(db) as sheet:
        assert len(sheet.game(g).table.history) == 2
        sheet.undo(g)
        sheet.undo(g)
        with pytest.raises(GameError, match="no hand to undo"):
            sheet.undo(g)


def test_several_games_and_current(tmp_path):
    with Scoresheet(tmp_path / "s.db") as sheet:
        with pytest.raises(ScoresheetError, match="no games yet"):
            sheet.current_game()
        a, b = new_game(sheet), new_game(sheet)
        assert sheet.current_game() == b
        for _ in range(3):
            sheet.add_hand(b, HandResult.from_counts("box", 0, 10))  # 35 each: 105 after three
        assert sheet.game(b).table.over and sheet.current_game() == a
        with pytest.raises(GameError, match="the game is over: Ann reached 100"):
            sheet.add_hand(b, HandResult("draw"))
        assert len(sheet.game(b).table.history) == 3
        assert [g.id for g in sheet.games()] == [a, b]
        with pytest.raises(ScoresheetError, match="no game 99"):
            sheet.game(99)


def test_refused_hand_writes_nothing(tmp_path):
    with Scoresheet(tmp_path / "s.db") as sheet:
        g = new_game(sheet)
        with pytest.raises(GameError):
            sheet.add_hand(g, HandResult("knock", "box", "captain", 5))
        assert sheet.game(g).table.history == ()


@pytest.mark.parametrize(
    ("content", "needle"),
    [(b"hello, not a database", "not a ginsight scoresheet or is damaged"),
     (b"SQLite format 3\x00" + b"\x00" * 100, "not a ginsight scoresheet or is damaged")],
)
def test_corrupt_file_gives_a_clear_error_and_is_left_untouched(tmp_path, content, needle):
    db = tmp_path / "s.db"
    db.write_bytes(content)
    with pytest.raises(ScoresheetError, match=needle):
        Scoresheet(db)
    assert db.read_bytes() == content


def test_truncated_scoresheet(tmp_path):
    db = tmp_path / "s.db"
    with Scoresheet(db) as sheet:
        g = new_game(sheet)
        for _ in range(50):
            sheet.add_hand(g, HandResult("draw"))
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    with pytest.raises(ScoresheetError), Scoresheet(db) as sheet:
        sheet.game(g)


def test_foreign_sqlite_file_is_refused(tmp_path):
    db = tmp_path / "other.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE photos (id INTEGER)")
    con.commit()
    con.close()
    before = db.read_bytes()
    with pytest.raises(ScoresheetError, match=r"another program .*photos"):
        Scoresheet(db)
    assert db.read_bytes() == before


def test_folder_is_refused(tmp_path):
    with pytest.raises(ScoresheetError, match="is a folder"):
        Scoresheet(tmp_path)


def test_a_path_under_a_file_is_refused_and_the_file_left_as_it_was(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me")
    with pytest.raises(ScoresheetError, match=f"{notes} is a file, not a folder"):
        Scoresheet(notes / "games" / "sheet.sqlite3")  # had been a FileExistsError from mkdir
    assert notes.read_text() == "keep me"


def test_a_file_that_cannot_be_created_is_named_as_such_not_as_damaged(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(sqlite3, "connect", refuse)  # a read-only folder, a full disk
    with pytest.raises(ScoresheetError, match=r"cannot create the scoresheet .*sheet\.sqlite3") as caught:
        Scoresheet(tmp_path / "sheet.sqlite3")
    assert "damaged" not in str(caught.value)


def test_a_row_changed_outside_ginsight_is_named_and_left_as_it_is(tmp_path):
    path = tmp_path / "sheet.sqlite3"
    with Scoresheet(path) as sheet:
        game = new_game(sheet)
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET players = '[\"Ann\", \"Ann\", \"Cy\"]'")
    db.commit()
    db.close()
    before = path.read_bytes()
    with Scoresheet(path) as sheet, pytest.raises(ScoresheetError, match=r"game 1 in .* cannot be read back "
                                                  r"\(player names must differ\): the file was changed outside"):
        sheet.game(game)
    assert path.read_bytes() == before


def test_a_file_another_program_holds_is_named_in_use_not_damaged(tmp_path, monkeypatch):
    """Another program holding the file past the wait: opening it, or a change to it, is
    refused as "in use" (try again), never as damaged (move it away); nothing is changed."""
    monkeypatch.setattr(Scoresheet, "BUSY_TIMEOUT", 0.2)
    path = tmp_path / "sheet.sqlite3"
    with Scoresheet(path) as sheet:
        game = new_game(sheet)
    opened = Scoresheet(path)  # open before the other program takes the file
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(ScoresheetError, match=r"is in use by another program .*nothing was changed") as caught:
            Scoresheet(path)
        assert "damaged" not in str(caught.value)
        with pytest.raises(ScoresheetError, match=r"is in use by another program"):
            opened.add_hand(game, HandResult("draw"))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert opened.game(game).table.history == ()  # and it still works once let go
    opened.add_hand(game, HandResult("draw"))
    opened.close()


CHILD = textwrap.dedent(
    """
    import random, sys, time
    sys.path.insert(0, {root!r})
    from engine.rules import Rules
    from engine.table import HandResult, Roles
    from scoresheet import Scoresheet

    class SlowCommit:
        # Wraps the connection so that a commit can be made to wait (to be killed there).
        def __init__(self, db, hang):
            self.db, self.hang = db, hang
        def execute(self, sql, *args):
            if sql == "COMMIT" and self.hang:
                print("in-transaction", flush=True)
                time.sleep(60)
            return self.db.execute(sql, *args)
        def close(self):
            self.db.close()

    sheet = Scoresheet(sys.argv[1])
    game = sheet.current_game() if sheet.games() else sheet.new_game(
        ("Ann", "Bob", "Cy"), Roles(0, 1, 2), "entered", Rules(target=10**6))
    hang = sys.argv[2] == "hang"
    sheet._db = SlowCommit(sheet._db, hang)
    rng = random.Random()
    print("ready", flush=True)
    while True:
        if rng.random() < 0.5:
            sheet.add_hand(game, HandResult("draw"))
        else:
            sheet.add_hand(game, HandResult.from_counts(rng.choice(["box", "captain"]), rng.randint(0, 10),
                                                        rng.randint(0, 60)))
        if rng.random() < 0.2 and sheet.game(game).table.history:
            sheet.undo(game)
    """
)


def _consistent(db: Path) -> int:
    with Scoresheet(db) as sheet:
        (g,) = sheet.games()
        numbers = [r[0] for r in sheet._db.execute("SELECT number FROM hands ORDER BY number")]
        assert numbers == list(range(1, len(numbers) + 1))
        assert sheet._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        t = g.table
        assert len(t.history) == len(numbers)
        assert sum(t.scores) == sum(r.result.points for r in t.history)
        return len(numbers)


@pytest.mark.slow
def test_killed_process_leaves_a_consistent_database(tmp_path):
    db = tmp_path / "s.db"
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(root=str(ROOT)))
    counts = []
    for i in range(6):
        proc = subprocess.Popen([sys.executable, str(script), str(db), "run"], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.05 + 0.07 * i)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        counts.append(_consistent(db))
    assert counts[-1] > 0

    # Killed inside a transaction, between the write and its commit: the hand is not there.
    before = _consistent(db)
    proc = subprocess.Popen([sys.executable, str(script), str(db), "hang"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    assert proc.stdout.readline().strip() == "in-transaction"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert _consistent(db) == before
