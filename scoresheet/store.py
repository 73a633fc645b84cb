"""SQLite storage of games: every change is one transaction; a table is its hands replayed.

A crash (or a closed browser) between two changes leaves the file as it was after the
last complete one: SQLite's journal rolls back a half-done write on the next open. A file
that is not a ginsight scoresheet is refused with a clear error, never reset.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.errors import GinsightError
from engine.rules import Rules
from engine.table import HandResult, Roles, Table

APPLICATION_ID = 0x47494E53  # "GINS", in the file header: marks a ginsight scoresheet
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    players TEXT NOT NULL,          -- JSON list of three names
    box INTEGER NOT NULL, captain INTEGER NOT NULL, sitter INTEGER NOT NULL,
    role_draw TEXT NOT NULL,        -- how the first roles were settled, for the history
    target INTEGER NOT NULL, knock_limit INTEGER NOT NULL,
    gin_bonus INTEGER NOT NULL, undercut_bonus INTEGER NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE hands (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('knock', 'undercut', 'gin', 'draw')),
    knocker TEXT, winner TEXT,
    points INTEGER NOT NULL,
    knocker_deadwood INTEGER, defender_deadwood INTEGER,
    detail TEXT,                    -- JSON: the showdown's cards, when entered from them
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, number)
);
"""


class ScoresheetError(GinsightError):
    """The scoresheet file cannot be used, or a game/hand asked for does not exist."""


def default_path() -> Path:
    """``$GINSIGHT_DB``, else ``$XDG_DATA_HOME/ginsight/scoresheet.sqlite3`` (``~/.local/share``)."""
    env = os.environ.get("GINSIGHT_DB")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "ginsight" / "scoresheet.sqlite3"


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    name: str
    players: tuple[str, str, str]
    role_draw: str
    created: str
    table: Table


def _locked(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite gave up waiting for another connection's lock on the file."""
    text = str(exc)
    return "locked" in text or "busy" in text


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Scoresheet:
    """The games in one SQLite file. Use as a context manager, or call :meth:`close`."""

    BUSY_TIMEOUT = 10.0  # seconds to wait for another program's lock on the file before giving up

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        if self.path.is_dir():
            raise ScoresheetError(f"{self.path} is a folder, not a scoresheet file")
        blocking = next((p for p in self.path.parents if p.exists() and not p.is_dir()), None)
        if blocking is not None:
            raise ScoresheetError(f"cannot keep a scoresheet at {self.path}: {blocking} is a file, not a folder")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ScoresheetError(f"cannot make the folder of {self.path} ({exc.strerror or exc}): "
                                  "pick another file") from None
        existed = self.path.exists()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=self.BUSY_TIMEOUT)
            self._open()
        except sqlite3.OperationalError as exc:
            self._close_quietly()
            if _locked(exc):
                raise self._in_use(exc) from None
            if existed and "unable to open" not in str(exc):
                raise self._damaged(exc) from None
            raise ScoresheetError(f"cannot {'open' if existed else 'create'} the scoresheet {self.path} ({exc}): "
                                  "pick another file") from None
        except sqlite3.DatabaseError as exc:
            self._close_quietly()
            raise self._damaged(exc) from None

    def _damaged(self, exc: Exception) -> ScoresheetError:
        return ScoresheetError(
            f"{self.path} is not a ginsight scoresheet or is damaged ({exc}); "
            "it was left untouched: move it away or pick another file"
        )

    def _in_use(self, exc: Exception) -> ScoresheetError:
        return ScoresheetError(
            f"{self.path} is in use by another program ({exc}, after waiting {self.BUSY_TIMEOUT:g} s); "
            "nothing was changed: "
            "try again once it lets go of the file"
        )

    def _close_quietly(self) -> None:
        db = getattr(self, "_db", None)
        if db is not None:
            db.close()

    def _open(self) -> None:
        db = self._db
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA foreign_keys = ON")
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id == 0 and not tables:  # a new, empty file: make it ours
            with self._transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return
        if app_id != APPLICATION_ID:
            raise ScoresheetError(
                f"{self.path} is an SQLite file of another program (tables: {', '.join(sorted(tables)) or 'none'}); "
                "it was left untouched: pick another file"
            )
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise ScoresheetError(f"{self.path} has scoresheet version {version}; this ginsight reads {SCHEMA_VERSION}")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok" or not {"games", "hands"} <= tables:
            raise ScoresheetError(f"{self.path} is damaged ({check}); it was left untouched")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed whole, or rolled back whole."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if _locked(exc):  # another program writing, or holding the file
                raise self._in_use(exc) from None
            raise
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        try:
            db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if not _locked(exc):
                raise
            db.execute("ROLLBACK")  # readers held it past the wait: the change is not made
            raise self._in_use(exc) from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Scoresheet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading -------------------------------------------------------------------
    def _game_row(self, game_id: int) -> sqlite3.Row:
        row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise ScoresheetError(f"no game {game_id} in {self.path}")
        return row

    def game(self, game_id: int) -> GameInfo:
        """A game with its table rebuilt from its hands."""
        row = self._game_row(game_id)
        hands = self._db.execute(
            "SELECT * FROM hands WHERE game_id = ? ORDER BY number", (game_id,)
        ).fetchall()
        try:
            players = tuple(json.loads(row["players"]))
            rules = Rules(row["knock_limit"], row["gin_bonus"], row["undercut_bonus"], row["target"])
            table = Table(players, Roles(row["box"], row["captain"], row["sitter"]), rules)  # type: ignore[arg-type]
            for h in hands:
                table = table.record(
                    HandResult(h["result"], h["knocker"], h["winner"], h["points"], h["knocker_deadwood"],
                               h["defender_deadwood"])
                )
        except (GinsightError, ValueError, TypeError, KeyError) as exc:  # a row changed outside ginsight
            raise ScoresheetError(
                f"game {game_id} in {self.path} cannot be read back ({exc}): the file was changed outside "
                "ginsight; it was left untouched"
            ) from None
        return GameInfo(row["id"], row["name"], players, row["role_draw"], row["created"], table)  # type: ignore[arg-type]

    def games(self) -> list[GameInfo]:
        ids = [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY id")]
        return [self.game(i) for i in ids]

    def current_game(self) -> int:
        """The newest game not yet won, else the newest game."""
        game = self.newest_open(self.games())
        if game is None:
            raise ScoresheetError(f"no games yet in {self.path}: start one with `ginsight score new`")
        return game.id

    @staticmethod
    def newest_open(games: list[GameInfo]) -> GameInfo | None:
        """The newest of ``games`` not yet won, else the newest; None when there are none."""
        open_games = [g for g in games if not g.table.over]
        return (open_games or games)[-1] if games else None

    def last_hand_game(self) -> int:
        """The game of the hand entered last (of those still kept), whichever game it is."""
        row = self._db.execute("SELECT game_id FROM hands ORDER BY rowid DESC LIMIT 1").fetchone()
        if row is None:
            raise ScoresheetError(f"no hand to undo in {self.path}")
        return int(row[0])

    # --- changes, each one transaction --------------------------------------------------
    def new_game(self, players: tuple[str, str, str], roles: Roles, role_draw: str, rules: Rules,
                 name: str | None = None) -> int:
        Table(players, roles, rules)  # validates names and roles before anything is written
        with self._transaction() as db:
            cur = db.execute(
                "INSERT INTO games (name, players, box, captain, sitter, role_draw, target, knock_limit, gin_bonus,"
                " undercut_bonus, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (name or " v ".join(players), json.dumps(list(players)), roles.box, roles.captain, roles.sitter,
                 role_draw, rules.target, rules.knock_limit, rules.gin_bonus, rules.undercut_bonus, _now()),
            )
        return int(cur.lastrowid)

    def add_hand(self, game_id: int, result: HandResult, detail: dict | None = None,
                 hands: int | None = None) -> Table:
        """Record a hand; refused (nothing written) when the game is over or the result is bad.
        ``hands``: the number of hands the caller saw in the game (whose roles it recorded the
        hand with); refused when another hand came in or went since (a second browser tab)."""
        with self._transaction() as db:  # the read and the write see the same game
            table = self.game(game_id).table
            self._expect(game_id, table, hands)
            table = table.record(result)
            db.execute(
                "INSERT INTO hands (game_id, number, result, knocker, winner, points, knocker_deadwood,"
                " defender_deadwood, detail, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, len(table.history), result.result, result.knocker, result.winner, result.points,
                 result.knocker_deadwood, result.defender_deadwood,
                 json.dumps(detail) if detail is not None else None, _now()),
            )
        return table

    def undo(self, game_id: int, hands: int | None = None) -> Table:
        """Remove the game's last hand. ``hands``: as for :meth:`add_hand` (the last hand the
        caller saw is the one removed, or nothing is)."""
        with self._transaction() as db:
            table = self.game(game_id).table
            self._expect(game_id, table, hands)
            table = table.undo()
            db.execute("DELETE FROM hands WHERE game_id = ? AND number = ?", (game_id, len(table.history) + 1))
        return table

    def edit_hand(self, game_id: int, number: int, result: HandResult, detail: dict | None = None,
                  hands: int | None = None) -> Table:
        """Correct hand ``number`` of a game: the totals and roles after it are worked out again
        (:func:`scoresheet.history.with_hand_changed`). ``detail`` replaces the hand's showdown
        cards (None: the hand was corrected from its counts). ``hands``: as for :meth:`add_hand`."""
        from scoresheet.history import with_hand_changed

        with self._transaction() as db:
            table = self.game(game_id).table
            self._expect(game_id, table, hands)
            table = with_hand_changed(table, number, result)
            db.execute(
                "UPDATE hands SET result = ?, knocker = ?, winner = ?, points = ?, knocker_deadwood = ?,"
                " defender_deadwood = ?, detail = ? WHERE game_id = ? AND number = ?",
                (result.result, result.knocker, result.winner, result.points, result.knocker_deadwood,
                 result.defender_deadwood, json.dumps(detail) if detail is not None else None, game_id, number),
            )
        return table

    def _expect(self, game_id: int, table: Table, hands: int | None) -> None:
        if hands is not None and len(table.history) != hands:
            raise ScoresheetError(
                f"game {game_id} has {len(table.history)} hands, not the {hands} shown here: it was changed "
                "elsewhere (another tab or device) since this page was drawn; look again before you change it"
            )

    def hand_details(self, game_id: int) -> list[dict | None]:
        rows = self._db.execute("SELECT detail FROM hands WHERE game_id = ? ORDER BY number", (game_id,))
        return [json.loads(r[0]) if r[0] else None for r in rows]
