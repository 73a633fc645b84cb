"""The scoresheet of real games, kept in SQLite so that nothing is lost.

The rules of the table (roles, rotation, scoring) are :mod:`engine.table`'s; this package
only stores games and their hands and replays them.
"""

from scoresheet.store import Scoresheet, ScoresheetError, default_path

__all__ = ["Scoresheet", "ScoresheetError", "default_path"]
