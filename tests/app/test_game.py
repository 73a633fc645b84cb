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


def field(widgets, name, form="game.hand"):
    """The field ``name`` of the hand form (its key names the game and the hand)."""
    return next(w for w in widgets if w.key and w.key.startswith(form + ".") and w.key.endswith("." + name))


def add_counts(at, knocker, knocker_count, defender_count):
    """``knocker``: 'box' or 'captain'."""
    field(at.radio, "kind").set_value("knocked").run()
    field(at.selectbox, "knocker").set_value(knocker)
    field(at.number_input, "knocker_count").set_value(knocker_count)
    field(at.number_input, "defender_count").set_value(defender_count)
    return at.button(key="game.add").click().run()


def undo(at):
    at.button(key="game.undo").click().run()
    return at.button(key="game.confirm").click().run()


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

    at = ok(add_counts(at, "box", 4, 30))  # Ann (box) knocks with 4 against 30
    assert "Hand 1: knock, Ann scores 26." in text(at)
    assert metrics(at) == {"Ann · in the box": 26, "Bob · sits out": 0, "Cy · captain": 0}
    field(at.radio, "kind").set_value("draw").run()
    at.button(key="game.add_draw").click().run()
    assert "Hand 2: draw; nobody scores, the same roles again." in text(ok(at))
    at = ok(add_counts(at, "captain", 5, 5))  # Cy (captain) knocks with 5 against 5: undercut by Ann
    assert "Hand 3: undercut, Ann scores 10." in text(at)
    rows = at.table[0].value
    assert list(rows["result"]) == ["knock", "draw", "undercut"]
    assert list(rows["Ann total"]) == [26, 26, 36]

    at = undo(at)
    assert "Removed hand 3 of game 1. Next hand: box Ann, captain Cy, sits out Bob." in text(ok(at))
    assert metrics(at)["Ann · in the box"] == 26
    with Scoresheet(db) as sheet:
        assert len(sheet.game(1).table.history) == 2


def test_refused_hand_records_nothing(app, db):
    at = start(app("game"))
    at = ok(add_counts(at, "box", 12, 30))  # a knock needs 10 or less
    assert any("Nothing recorded: the knocker's count 12 is above the knock limit 10" in e for e in errors(at))
    with Scoresheet(db) as sheet:
        assert sheet.game(1).table.history == ()


def test_a_restart_loses_nothing(app, db):
    with Scoresheet(db) as sheet:
        game = sheet.new_game(("Ann", "Bob", "Cy"), Roles(1, 0, 2), "draw: Ann 7H, Bob KS, Cy 2C", Rules())
        sheet.add_hand(game, HandResult.from_counts("box", 4, 30))
    at = ok(app("game"))  # a new session, as after a refresh or a restart
    assert metrics(at) == {"Ann · sits out": 0, "Bob · in the box": 26, "Cy · captain": 0}
    assert "First roles: draw: Ann 7♥, Bob K♠, Cy 2♣." in text(at)  # cards as players write them


def test_game_to_100(app, db):
    with Scoresheet(db) as sheet:
        game = sheet.new_game(("Ann", "Bob", "Cy"), Roles(0, 1, 2), "roles entered", Rules())
        for _ in range(2):
            sheet.add_hand(game, HandResult.from_counts("box", 0, 10))  # Ann: 35, 70
    at = ok(add_counts(app("game"), "box", 0, 10))
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
    assert "Game 1 started: Ann v Bob v Cy. draw: Ann 7♥, Bob K♠, Cy 7♣; redraw: Ann 3♦, Cy 2♦." in text(at)
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
    at = ok(add_counts(at, "box", 5, 20))
    other = ok(app("game"))  # the second tab

    def draw_in_the_other_tab():
        other.run()
        field(other.radio, "kind").set_value("draw").run()
        other.button(key="game.add_draw").click().run()

    draw_in_the_other_tab()  # hand 2
    field(at.number_input, "knocker_count").set_value(3)
    at.button(key="game.add").click().run()  # drawn with 1 hand and its roles
    assert any("has 2 hands, not the 1 shown here" in e and "changed elsewhere" in e for e in errors(at))
    at.button(key="game.undo").click().run()  # "Undo hand 2?" asked ...
    draw_in_the_other_tab()  # ... hand 3 comes in, while this page shows 2 ...
    at.button(key="game.confirm").click().run()  # ... and the yes comes after it
    assert any("has 3 hands, not the 2 shown here" in e for e in errors(at))
    with Scoresheet(db) as sheet:
        assert [h.result.result for h in sheet.game(1).table.history] == ["knock", "draw", "draw"]
    at = undo(at)  # drawn again, it now undoes hand 3
    assert "Removed hand 3 of game 1." in text(ok(at))


def new_game_form(at):
    return next(x for x in at.expander if x.label == "New game")


def test_who_knocked_names_this_hands_seats_and_the_fields_start_afresh(app, db):
    at = ok(start(app("game")))
    knocker = field(at.selectbox, "knocker")
    assert knocker.options == ["Ann (in the box)", "Bob (captain)"] and knocker.value == "box"
    at = ok(add_counts(at, "captain", 3, 20))  # Bob wins as captain: Bob in the box, Cy captain, Ann out
    knocker = field(at.selectbox, "knocker")
    assert knocker.options == ["Bob (in the box)", "Cy (captain)"] and knocker.value == "box"
    assert field(at.number_input, "knocker_count").value == 0  # not the last hand's 3
    assert field(at.number_input, "defender_count").value == 0
    at = undo(at)
    knocker = field(at.selectbox, "knocker")
    assert knocker.options == ["Ann (in the box)", "Bob (captain)"] and knocker.value == "box"


def test_a_refused_new_game_keeps_its_form_open_and_says_why_inside_it(app, db):
    with Scoresheet(db) as sheet:
        sheet.new_game(("Ann", "Bob", "Cy"), Roles(0, 1, 2), "roles entered", Rules())
    at = ok(app("game"))
    assert not new_game_form(at).proto.expanded  # a game is open: the form is closed
    at = ok(start(at, names=("Dee", "", "Fay")))
    form = new_game_form(at)
    assert form.proto.expanded
    assert [e.value for e in form.error] == ["Nothing recorded: player names cannot be empty"]
    at.text_input(key="game.new.p1").input("Eve").run()  # typing on: still open, the message said once
    assert new_game_form(ok(at)).proto.expanded and not errors(at)
    at.selectbox(key="game.new.role.captain").set_value("Fay")
    at = ok(at.button(key="game.new.start").click().run())
    assert [e.value for e in new_game_form(at).error] == [
        "Nothing recorded: choose a different player for each role: in the box, captain, sits out"]
    at.selectbox(key="game.new.role.captain").set_value("Eve")
    at = ok(at.button(key="game.new.start").click().run())
    assert "Game 2 started: Dee v Eve v Fay." in text(at) and not new_game_form(at).proto.expanded


def test_undo_asks_first_and_cancel_keeps_the_hand(app, db):
    at = ok(add_counts(start(app("game")), "box", 4, 30))
    at.button(key="game.undo").click().run()
    assert "Remove hand 1 (knock, Ann scores 26)? The totals and roles go back" in text(ok(at))
    with Scoresheet(db) as sheet:
        assert len(sheet.game(1).table.history) == 1  # nothing yet
    at.button(key="game.cancel").click().run()
    assert "Remove hand 1" not in text(ok(at)) and metrics(at)["Ann · in the box"] == 26
    with Scoresheet(db) as sheet:
        assert len(sheet.game(1).table.history) == 1


def test_correct_a_past_hand_recomputes_totals_and_roles(app, db):
    at = ok(add_counts(start(app("game")), "box", 4, 30))  # Ann (box) wins 26: Ann box, Cy captain
    at = ok(add_counts(at, "captain", 2, 9))  # Cy (captain) wins 7: Cy box, Bob captain, Ann out
    assert metrics(at) == {"Ann · sits out": 26, "Bob · captain": 0, "Cy · in the box": 7}
    at.selectbox(key="game.edit.1.2.number").set_value(1).run()  # hand 1 was an undercut, 5 v 5
    field(at.radio, "kind", "game.edit.1.2").set_value("knocked").run()
    knocker = field(at.selectbox, "knocker", "game.edit.1.2")
    assert knocker.options == ["Ann (in the box)", "Bob (captain)"]  # as they sat in hand 1
    field(at.number_input, "knocker_count", "game.edit.1.2").set_value(5)
    field(at.number_input, "defender_count", "game.edit.1.2").set_value(5)
    at.button(key="game.edit").click().run()
    assert ("Change hand 1 from knock, Ann scores 26 to undercut, Bob scores 10? The totals and roles after it "
            "are worked out again: Ann 0, Bob 10, Cy 7.") in text(ok(at))
    assert metrics(at)["Ann · sits out"] == 26  # not yet
    at.button(key="game.confirm").click().run()
    assert "Hand 1 is now: undercut, Bob scores 10. Next hand: box Cy, captain Ann, sits out Bob." in text(ok(at))
    assert metrics(at) == {"Ann · captain": 0, "Bob · sits out": 10, "Cy · in the box": 7}
    assert list(at.table[0].value["result"]) == ["undercut", "knock"]
    with Scoresheet(db) as sheet:
        assert sheet.game(1).table.scores == (0, 10, 7)


def test_a_correction_the_game_cannot_take_is_refused_at_once(app, db):
    at = ok(add_counts(start(app("game")), "box", 4, 30))
    field(at.radio, "kind", "game.edit.1.1").set_value("knocked").run()
    field(at.number_input, "knocker_count", "game.edit.1.1").set_value(15)
    at.button(key="game.edit").click().run()
    assert any("Hand 1 not changed: the knocker's count 15 is above the knock limit 10" in e for e in errors(ok(at)))
    assert not [b for b in at.button if b.key == "game.confirm"]


def test_the_scoresheet_as_csv_and_printable(app, db):
    at = ok(add_counts(start(app("game")), "box", 4, 30))
    buttons = {b.proto.label: b.proto for b in at.get("download_button")}
    assert set(buttons) == {"Scoresheet (CSV)", "Printable scoresheet"}
