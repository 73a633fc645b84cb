"""A past hand corrected: the totals and the roles after it worked out again, in the table
and in the file."""

import pytest

from engine.rules import DEFAULT_RULES, Rules
from engine.table import HandResult, Roles, Table
from scoresheet import Scoresheet, ScoresheetError
from scoresheet.history import with_hand_changed

PLAYERS = ("Ann", "Bob", "Cy")


def played(*results: HandResult, rules: Rules = DEFAULT_RULES) -> Table:
    table = Table(PLAYERS, Roles(0, 1, 2), rules)
    for r in results:
        table = table.record(r)
    return table


def test_a_changed_first_hand_moves_the_roles_of_the_hands_after_it():
    # Ann (box) knocks 4 v 30 and wins 26: Ann stays in the box, Cy becomes captain; Cy then
    # knocks 2 v 9 as captain and wins 7.
    table = played(HandResult.from_counts("box", 4, 30), HandResult.from_counts("captain", 2, 9))
    assert table.scores == (26, 0, 7) and table.roles == Roles(2, 1, 0)
    # Hand 1 was an undercut (5 v 5): Bob, the captain, wins 10 and the box moves to him; hand 2
    # was still won by the captain, who is now Cy: Cy 7, and the box moves on to Cy.
    fixed = with_hand_changed(table, 1, HandResult.from_counts("box", 5, 5))
    assert [r.roles for r in fixed.history] == [Roles(0, 1, 2), Roles(1, 2, 0)]
    assert fixed.scores == (0, 10, 7) and fixed.roles == Roles(2, 0, 1)
    assert [r.result.result for r in fixed.history] == ["undercut", "knock"]


def test_a_hand_changed_to_a_draw_keeps_the_roles():
    table = played(HandResult.from_counts("box", 4, 30), HandResult("draw"))
    fixed = with_hand_changed(table, 1, HandResult("draw"))
    assert fixed.scores == (0, 0, 0) and fixed.roles == Roles(0, 1, 2)


@pytest.mark.parametrize(("number", "needle"), [(0, "no hand 0: the game has 1 hand"),
                                                (2, "no hand 2: the game has 1 hand")])
def test_no_such_hand(number, needle):
    with pytest.raises(ScoresheetError, match=needle):
        with_hand_changed(played(HandResult("draw")), number, HandResult("draw"))


def test_a_change_that_ends_the_game_early_is_refused():
    table = played(HandResult.from_counts("box", 0, 30), HandResult.from_counts("box", 4, 10), rules=Rules(target=60))
    with pytest.raises(ScoresheetError, match="with hand 1 changed, the game is over: Ann reached 60 before hand 2"):
        with_hand_changed(table, 1, HandResult.from_counts("box", 0, 50))


def test_edit_hand_is_stored_and_guarded(tmp_path):
    db = tmp_path / "s.db"
    with Scoresheet(db) as sheet:
        g = sheet.new_game(PLAYERS, Roles(0, 1, 2), "roles entered", Rules())
        sheet.add_hand(g, HandResult.from_counts("box", 4, 30), {"knocker_cards": "..."})
        sheet.add_hand(g, HandResult.from_counts("captain", 2, 9))
        with pytest.raises(ScoresheetError, match="has 2 hands, not the 1 shown here"):
            sheet.edit_hand(g, 1, HandResult("draw"), hands=1)
        table = sheet.edit_hand(g, 1, HandResult.from_counts("box", 5, 5), hands=2)
        assert table.scores == (0, 10, 7)
    with Scoresheet(db) as sheet:  # kept in the file; the corrected hand's showdown cards are gone
        assert sheet.game(g).table.scores == (0, 10, 7)
        assert sheet.game(g).table.roles == Roles(2, 0, 1)
        assert sheet.hand_details(g) == [None, None]
