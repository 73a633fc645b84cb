"""Game: a game started (roles drawn, from the cards drawn, or entered), hands added from the
counts or as draws, undo, totals to 100; everything in the scoresheet, so a restart keeps it."""

import pytest

from engine.rules import Rules
from engine.table import HandResult, Roles
from scoresheet import Scoresheet
from tests.app.conftest import errors, ok, text


def start(at, names=("Ann", "Bob", "Cy"), how="roles", draws=None, **settings):
    at.expander[0]  # the "New game" form
    for i, name in enumerate(names):
        at.text_input(key=f"game.new.p{i}").input(name)
    at.run()
    at.radio(key="game.new.how").set_value(how).run()
    for i, cards in enumerate(draws or ()):
        at.text_input(key=f"game.new.draw{i}").input(cards)
    for key, value in settings.items():
        widget = at.selectbox(key=f"game.new.{key}") if key == "gin_bonus" else at.number_input(key=f"game.new.{key}")
        widget.set_value(value)
    return at.button(key="game.new.start").click().run()


def add_counts(at, knocker, knocker_count, defender_count):
    at.radio(key="game.kind").set_value("knocked").run()
    at.selectbox(key="game.knocker").set_value(knocker)
    at.number_input(key="game.knocker_count").set_value(knocker_count)
    at.number_input(key="game.defender_count").set_value(defender_count)
    return at.button(key="game.add").click().run()


def metrics(at) -> dict[str, int]:
    return {m.label: int(m.value) for m in at.metric}


def test_no_game_yet(app):
    at = ok(app("game"))
    assert "No games" not in text(at)
    assert at.expander[0].label == "New game"
    assert "Scoresheet file:" in text(at)


def test_start_with_roles_entered_then_hands_and_undo(app, db):
    at = ok(start(app("game")))
    assert "Game 1 started: Ann v Bob v Cy. roles entered. First hand: box Ann, captain Bob, sits out Cy." in text(at)
    assert metrics(at) == {"Ann · in the box": 0, "Bob · captain": 0, "Cy · sits out": 0}
    assert "**Hand 1**: box Ann, captain Bob, sits out Cy; the box deals." in text(at)

    at = ok(add_counts(at, 0, 4, 30))  # Ann (box) knocks with 4 against 30
    assert "Hand 1: knock, Ann scores 26." in text(at)
    assert metrics(at) == {"Ann · in the box": 26, "Bob · sits out": 0, "Cy · captain": 0}
    at.radio(key="game.kind").set_value("draw").run()
    at.button(key="game.add_draw").click().run()
    assert "Hand 2: draw, nobody scores; the same roles again." in text(ok(at))
    at = ok(add_counts(at, 2, 5, 5))  # Cy (captain) knocks with 5 against 5: undercut by Ann
    assert "Hand 3: undercut, Ann scores 10." in text(at)
    rows = at.table[0].value
    assert list(rows["result"]) == ["knock", "draw", "undercut"]
    assert list(rows["Ann total"]) == [26, 26, 36]

    at.button(key="game.undo").click().run()
    assert "Removed hand 3 of game 1. Next hand: box Ann, captain Cy, sits out Bob." in text(ok(at))
    assert metrics(at)["Ann · in the box"] == 26
    with Scoresheet(db) as sheet:
        assert len(sheet.game(1).table.history) == 2


def test_refused_hand_records_nothing(app, db):
    at = start(app("game"))
    at = ok(add_counts(at, 0, 12, 30))  # a knock needs 10 or less
    assert any("Nothing recorded: the knocker's count 12 is above the knock limit 10" in e for e in errors(at))
    with Scoresheet(db) as sheet:
        assert sheet.game(1).table.history == ()


def test_a_restart_loses_nothing(app, db):
    with Scoresheet(db) as sheet:
        game = sheet.new_game(("Ann", "Bob", "Cy"), Roles(1, 0, 2), "draw: Ann 7H, Bob KS, Cy 2C", Rules())
        sheet.add_hand(game, HandResult.from_counts("box", 4, 30))
    at = ok(app("game"))  # a new session, as after a refresh or a restart
    assert metrics(at) == {"Ann · sits out": 0, "Bob · in the box": 26, "Cy · captain": 0}
    assert "First roles: draw: Ann 7H, Bob KS, Cy 2C." in text(at)


def test_game_to_100(app, db):
    with Scoresheet(db) as sheet:
        game = sheet.new_game(("Ann", "Bob", "Cy"), Roles(0, 1, 2), "roles entered", Rules())
        for _ in range(2):
            sheet.add_hand(game, HandResult.from_counts("box", 0, 10))  # Ann: 35, 70
    at = ok(add_counts(app("game"), 0, 0, 10))
    assert "Ann wins the game with 105!" in text(at)
    assert "Ann won the game with 105." in text(at)
    assert not [b for b in at.button if b.key == "game.add"]  # the game is over


def test_program_draws_the_roles(app, db):
    at = ok(start(app("game"), how="draw", gin_bonus=20, target=150))
    assert any(s.value.startswith("Game 1 started: Ann v Bob v Cy. draw: Ann ") for s in at.success)
    assert "Gin bonus 20" in text(at) and "(to 150)" in text(at)
    roles = sorted(label.split(" · ")[1] for label in metrics(at))
    assert roles == ["captain", "in the box", "sits out"]


def test_roles_from_the_cards_drawn(app, db):
    at = ok(start(app("game"), how="cards", draws=("7H 3D", "KS", "7C 2D")))  # Ann and Cy tie, draw again
    assert "Game 1 started: Ann v Bob v Cy. draw: Ann 7H, Bob KS, Cy 7C; redraw: Ann 3D, Cy 2D." in text(at)
    assert metrics(at) == {"Ann · captain": 0, "Bob · in the box": 0, "Cy · sits out": 0}


@pytest.mark.parametrize(
    ("names", "how", "draws", "needle"),
    [
        (("Ann", "Bob", "ann"), "roles", None, "player names must differ"),
        (("Ann", "", "Cy"), "roles", None, "player names cannot be empty"),
        (("Ann", "Bob", "Cy"), "cards", ("7H", "7S", "2C"), "tie in the role draw: Ann and Bob must draw again"),
        (("Ann", "Bob", "Cy"), "cards", ("7H", "XX", "2C"), "unknown rank 'X'"),
        (("Ann", "Bob", "Cy"), "cards", ("7H", "", "2C"), "no card drawn for Bob"),
    ],
)
def test_bad_new_game_is_refused(app, db, names, how, draws, needle):
    at = ok(start(app("game"), names=names, how=how, draws=draws))
    assert any(needle in e for e in errors(at)), errors(at)
    with Scoresheet(db) as sheet:
        assert sheet.games() == []


def test_broken_scoresheet_file(app, db):
    db.write_bytes(b"SQLite format 3\x00" + b"\x07" * 200)
    at = ok(app("game"))
    assert any("The scoresheet cannot be used" in e and "left untouched" in e for e in errors(at)), errors(at)
    assert db.read_bytes() == b"SQLite format 3\x00" + b"\x07" * 200
    assert "GINSIGHT_DB" in text(at)


def test_several_games_choose_one(app, db, reader):
    with Scoresheet(db) as sheet:
        first = sheet.new_game(("Ann", "Bob", "Cy"), Roles(0, 1, 2), "roles entered", Rules())
        sheet.new_game(("Dee", "Eve", "Fay"), Roles(0, 1, 2), "roles entered", Rules())
    at = ok(app("game"))
    assert "Game 2: Dee v Eve v Fay (to 100)" in text(at)
    at.selectbox(key="game.select").set_value(first).run()
    assert "Game 1: Ann v Bob v Cy (to 100)" in text(ok(at))
    at.switch_page("ui/pages/showdown.py").run()
    assert "Game 1 (Ann v Bob v Cy), hand 1" in text(ok(at))  # the Showdown adds to the game chosen


def test_the_game_box_follows_a_game_started_after_a_choice(app, db, reader):
    with Scoresheet(db) as sheet:
        first = sheet.new_game(("Ann", "Bob", "Cy"), Roles(0, 1, 2), "roles entered", Rules())
        sheet.new_game(("Dee", "Eve", "Fay"), Roles(0, 1, 2), "roles entered", Rules())
    at = ok(app("game"))
    at.selectbox(key="game.select").set_value(first).run()
    at = ok(start(at, ("Gus", "Hal", "Ida")))
    assert "Game 3: Gus v Hal v Ida (to 100)" in text(at)
    assert at.selectbox(key="game.select").value == 3  # it had stayed at 1
    at.selectbox(key="game.select").set_value(first).run()  # and picking 1 again had done nothing
    assert "Game 1: Ann v Bob v Cy (to 100)" in text(ok(at))


def test_a_page_drawn_before_another_tab_changed_the_game_changes_nothing(app, db):
    """Two tabs (or a phone and a laptop) on one game: the older page's Add must not record a
    hand with roles that have moved on, nor its Undo remove the hand the other recorded."""
    at = ok(start(app("game")))
    at = ok(add_counts(at, 0, 5, 20))
    other = ok(app("game"))  # the second tab

    def draw_in_the_other_tab():
        other.run()
        other.radio(key="game.kind").set_value("draw").run()
        other.button(key="game.add_draw").click().run()

    draw_in_the_other_tab()  # hand 2
    at.number_input(key="game.knocker_count").set_value(3)
    at.button(key="game.add").click().run()  # drawn with 1 hand and its roles
    assert any("has 2 hands, not the 1 shown here" in e and "changed elsewhere" in e for e in errors(at))
    draw_in_the_other_tab()  # hand 3, while this page shows 2
    at.button(key="game.undo").click().run()  # "Undo hand 2"
    assert any("has 3 hands, not the 2 shown here" in e for e in errors(at))
    with Scoresheet(db) as sheet:
        assert [h.result.result for h in sheet.game(1).table.history] == ["knock", "draw", "draw"]
    at.button(key="game.undo").click().run()  # drawn again, it now undoes hand 3
    assert "Removed hand 3 of game 1." in text(ok(at))
