"""Showdown: both hands typed or photographed -> arrangements, layoffs, outcome, points line
by line; one click adds the hand to the current game; bad hands answered in the page."""

import pytest

from engine.rules import DEFAULT_RULES, Rules
from engine.table import Roles
from scoresheet import Scoresheet
from tests.app.conftest import errors, ok, text, type_cards, upload
from tests.app.fakes import photo

KNOCKER = "5S 6S 7S 9C TC JC KS KC KD JD"
DEFENDER = "2S 8S 9S AC 2C 7C 8C 2D 8D 2H"


def new_game(db, rules=DEFAULT_RULES) -> int:
    with Scoresheet(db) as sheet:
        return sheet.new_game(("Ann", "Bob", "Cy"), Roles(0, 1, 2), "roles entered", rules)


def settled(at):
    at = type_cards(at, "knocker", KNOCKER)
    return ok(type_cards(at, "defender", DEFENDER))


def test_typed_showdown_explained_line_by_line(app, reader):
    at = settled(app("showdown"))
    t = text(at)
    assert "Undercut: Defender scores 11" in t
    assert "The knocker" in t and "The defender" in t and "Knocker: the knocker" not in t
    assert "Settled with the default scoring (gin bonus 25)" in t
    lines = next(m.value for m in at.markdown if m.value.startswith("1. ")).splitlines()
    assert lines == [
        "1. Knocker's deadwood: J♦ = 10",
        "2. Defender lays off 8♠ onto 5♠ 6♠ 7♠.",
        "3. Defender lays off 9♠ onto 5♠ 6♠ 7♠.",
        "4. Defender lays off 8♣ onto 9♣ 10♣ J♣.",
        "5. Defender lays off 7♣ onto 9♣ 10♣ J♣.",
        "6. Defender's deadwood after layoffs: 8♦ A♣ = 9",
        "7. Undercut: the defender's 9 is not above the knocker's 10: the defender scores the undercut bonus "
        "10 + 10 − 9 = 11.",
    ]
    assert not [b for b in at.button if b.key == "showdown.add"]  # no game to add it to


def test_gin_and_knock_explained(app, reader):
    at = type_cards(app("showdown"), "knocker", "AS 2S 3S 4S 7H 7D 7C 9C TC JC")
    at = ok(type_cards(at, "defender", "KH KD 2H 3D 5C 6C 8H 9H QS QC"))
    assert "Gin: Knocker scores 98" in text(at)
    assert "Gin: the knocker scores the gin bonus 25 + the defender's 73 = 98 points." in text(at)
    assert "Nothing may be laid off onto a gin hand." in text(at)
    at = ok(type_cards(at, "knocker", "AS 2S 3S 7H 7D 7C 9C TC JC 2D"))
    assert "Defender lays off Q♣ onto 9♣ 10♣ J♣." in text(at)
    assert "Knock: the knocker's 2 is lower than the defender's 63: the knocker scores 63 − 2 = 61." in text(at)


def test_add_to_the_game_once(app, reader, db):
    game = new_game(db, Rules(gin_bonus=20))
    at = app("showdown")
    assert "Game 1 (Ann v Bob v Cy), hand 1: box Ann, captain Bob, sits out Cy." in text(at)
    at = settled(at)
    assert "Undercut: Bob scores 11" in text(at) and "Bob lays off 8♠ onto 5♠ 6♠ 7♠." in text(at)
    at.button(key="showdown.add").click().run()
    assert [s.value for s in ok(at).success] == ["Recorded as hand 1 of game 1: undercut, Bob scores 11."]
    assert "Undercut: Bob scores 11" in text(at)  # still named as they sat in hand 1
    assert not [b for b in at.button if b.key == "showdown.add"]
    with Scoresheet(db) as sheet:
        table = sheet.game(game).table
        assert table.scores == (0, 11, 0) and len(table.history) == 1
        detail = sheet.hand_details(game)[0]
        assert detail["knocker_cards"] == KNOCKER and detail["settlement"]["outcome"] == "undercut"
    at.button(key="showdown.next").click().run()
    assert "Enter both hands" in text(ok(at))
    assert "hand 2: box Bob, captain Cy, sits out Ann" in text(at)


def test_a_new_hand_typed_after_one_was_added_is_not_shown_as_recorded(app, reader, db):
    game = new_game(db)
    at = settled(app("showdown"))
    at.button(key="showdown.add").click().run()
    assert "Recorded as hand 1 of game 1: undercut, Bob scores 11." in text(ok(at))
    # The next showdown typed straight in, without "Next showdown": a new hand, not recorded.
    at = ok(type_cards(at, "knocker", "3H 4H 5H 4C 5C 6C QS QH QD 3D"))
    assert "Recorded as hand" not in text(at)
    assert "hand 2: box Bob, captain Cy, sits out Ann" in text(at)
    at.button(key="showdown.add").click().run()
    assert "Recorded as hand 2 of game 1: " in text(ok(at))
    with Scoresheet(db) as sheet:
        assert len(sheet.game(game).table.history) == 2


def test_the_captain_knocks_with_the_game_rules(app, reader, db):
    new_game(db, Rules(gin_bonus=20))
    at = app("showdown")
    at.radio(key="showdown.seat").set_value("captain").run()
    at = type_cards(at, "knocker", "AS 2S 3S 4S 7H 7D 7C 9C TC JC")
    at = ok(type_cards(at, "defender", "KH KD 2H 3D 5C 6C 8H 9H QS QC"))
    assert "Gin: Bob scores 93" in text(at)  # the game's gin bonus, 20
    at.button(key="showdown.add").click().run()
    assert "Recorded as hand 1 of game 1: gin, Bob scores 93." in text(ok(at))


def test_photos_of_both_hands(app, reader, db):
    new_game(db)
    at = upload(app("showdown"), "knocker", photo(KNOCKER))
    at = ok(upload(at, "defender", photo(DEFENDER)))
    assert "Undercut: Bob scores 11" in text(at)
    assert len(at.image) == 2


@pytest.mark.parametrize(
    ("knocker", "defender", "needle"),
    [
        (KNOCKER, "2S 8S 9S AC 2C 7C 8C 2D 8D KS",
         "This showdown cannot be settled: card in both hands: K♠. Correct the cards above."),
        ("5S 6S 7S 9C TC JC KS KC KD", DEFENDER, "knocker's hand has 9 cards; expected 10"),
        (KNOCKER, DEFENDER + " 3H 4H", "defender's hand has 12 cards; expected 10"),
        ("5S 6S 7S 9C TC JC KS KC QD JD", DEFENDER, "knocker's count is 40; a knock needs 10 or less"),
    ],
)
def test_bad_showdowns_answered_and_nothing_added(app, reader, db, knocker, defender, needle):
    game = new_game(db)
    at = type_cards(app("showdown"), "knocker", knocker)
    at = ok(type_cards(at, "defender", defender))
    assert any(needle in e for e in errors(at)), errors(at)
    assert not [b for b in at.button if b.key == "showdown.add"]
    with Scoresheet(db) as sheet:
        assert sheet.game(game).table.history == ()


def test_same_card_read_in_both_photos(app, reader, db):
    new_game(db)
    at = upload(app("showdown"), "knocker", photo(KNOCKER))
    at = ok(upload(at, "defender", photo("2S 8S 9S AC 2C 7C 8C 2D 8D KS")))
    assert any("card in both hands: K♠" in e for e in errors(at))  # as players write it


def test_broken_scoresheet_still_settles(app, reader, db):
    db.write_bytes(b"not a database, but someone's notes")
    at = settled(app("showdown"))
    assert any("The scoresheet cannot be used" in e and "not a ginsight scoresheet" in e for e in errors(at))
    assert "Undercut: Defender scores 11" in text(at)
    assert db.read_bytes() == b"not a database, but someone's notes"


def test_a_scoresheet_row_changed_by_hand_is_named_and_the_showdown_still_settles(app, reader, db):
    import sqlite3

    new_game(db)
    raw = sqlite3.connect(db)
    raw.execute("UPDATE games SET players = '[\"Ann\", \"Ann\", \"Cy\"]'")
    raw.commit()
    raw.close()
    at = settled(app("showdown"))
    assert any("The scoresheet cannot be used: game 1 in" in e and "changed outside ginsight" in e for e in errors(at))
    assert "Undercut: Defender scores 11" in text(at)
    at.switch_page("ui/pages/game.py").run()
    assert any("changed outside ginsight" in e for e in errors(ok(at)))


def test_a_layoff_takes_the_colour_of_the_meld_it_joins(app, reader):
    import re

    at = settled(app("showdown"))
    groups = [re.match(r"(#\w+)\"><div[^>]*>([^<]*)</div>(.*)", g).groups()
              for m in at.markdown for g in m.value.split("border-radius:8px;background:")[1:]]
    run = next(colour for colour, caption, cards in groups if caption == "run" and ">5♠<" in cards)
    layoffs = {colour for colour, caption, _ in groups if caption == "laid off onto 5♠ 6♠ 7♠"}
    clubs = {colour for colour, caption, _ in groups if caption == "laid off onto 9♣ 10♣ J♣"}
    assert layoffs == {run} and len(clubs) == 1 and clubs != layoffs


def test_one_success_message_and_no_knocker_knocker(app, reader, db):
    new_game(db)
    at = settled(app("showdown"))
    assert not at.success and not at.warning  # the outcome is a headline, not an alert
    at.button(key="showdown.add").click().run()
    assert len(ok(at).success) == 1
