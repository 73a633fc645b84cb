"""A game's hands changed after the fact: one past hand corrected, the hands after it
replayed, so that the totals and the roles (which follow who won each hand) are worked out
again. A pure function of the table; :meth:`scoresheet.Scoresheet.edit_hand` stores it.
"""

from __future__ import annotations

from engine.table import GameError, HandResult, Table
from scoresheet.store import ScoresheetError


def with_hand_changed(table: Table, number: int, result: HandResult) -> Table:
    """``table`` with hand ``number`` (1 = the first) ended as ``result`` instead.

    Results are kept by seat (the box or the captain knocked), so every later hand stays as
    it was played by seat, while who held each seat follows from the corrected hand. Raises
    :class:`ScoresheetError` when there is no such hand, or when the change ends the game
    before its last hand (those hands could not have been played: undo them first).
    """
    if not 1 <= number <= len(table.history):
        hands = len(table.history)
        raise ScoresheetError(f"no hand {number}: the game has {hands} hand{'s' if hands != 1 else ''}")
    replayed = Table(table.players, table.first_roles, table.rules)
    for rec in table.history:
        try:
            replayed = replayed.record(result if rec.number == number else rec.result)
        except GameError as exc:
            raise ScoresheetError(
                f"with hand {number} changed, {exc} before hand {rec.number}; undo the hands after it first"
            ) from None
    return replayed
