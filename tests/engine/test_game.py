"""Scripted hands through the state machine, each rule with exact scores and roles."""

import pytest

from engine.cards import DECK, parse_card, parse_cards
from engine.errors import GinsightError, IllegalActionError
from engine.game import ACTION_KINDS, Action, HandState, Phase
from engine.table import HandResult, Roles, Seat, Table


def deck_for(captain: str, box: str, upcard: str, stock_top: str = "") -> list:
    """A deck that deals exactly these hands; ``stock_top`` is drawn first, in order."""
    cap, bx = parse_cards(captain), parse_cards(box)
    up, top = parse_card(upcard), parse_cards(stock_top)
    deck = [c for pair in zip(cap, bx, strict=True) for c in pair] + [up] + top
    return deck + [c for c in DECK if c not in deck]


CAPTAIN = "AS 2S 3S 7H 7D 7C 9C TC JC 4D"  # count 4
BOX = "KS KH QD QC JS 5H 6H 8D 9D 4C"


def test_deal_order():
    s = HandState.from_deck(deck_for(CAPTAIN, BOX, "2D", "KD"))
    assert sorted(s.hands["captain"]) == sorted(parse_cards(CAPTAIN))
    assert sorted(s.hands["box"]) == sorted(parse_cards(BOX))
    assert s.pile == [parse_card("2D")] and s.stock[-1] == parse_card("KD")
    assert len(s.stock) == 31 and s.card_count() == 52


def test_actions_read_from_text():
    texts = ("take", "pass", "stock", "pile", "discard QS", "knock 7H")
    assert tuple(Action.parse(t).kind for t in texts) == ACTION_KINDS
    assert Action.parse(" KNOCK  7h ") == Action("knock", parse_card("7H"))
    assert [str(Action.parse(t)) for t in texts] == list(texts)


@pytest.mark.parametrize(("text", "needle"), [("", "empty action"), ("draw", "not an action"),
                                              ("take AS", "not an action"), ("discard", "not an action"),
                                              ("knock 1S", "unknown rank")])
def test_bad_action_text(text, needle):
    with pytest.raises(GinsightError, match=needle):
        Action.parse(text)


def test_the_seats_take_turns():
    s = HandState.from_deck(deck_for(CAPTAIN, BOX, "KC", "2H"))
    assert (s.to_play, s.opponent) == (Seat.CAPTAIN, Seat.BOX)
    s.apply("pass")
    assert (s.to_play, s.opponent) == (Seat.BOX, Seat.CAPTAIN)
    view = s.view("captain")
    assert view.seat is Seat.CAPTAIN and sorted(view.hand) == sorted(parse_cards(CAPTAIN))


def test_upcard_refused_by_both_then_captain_draws_from_stock():
    s = HandState.from_deck(deck_for(CAPTAIN, BOX, "KC", "2H"))
    s.apply("pass")
    assert (s.phase, s.to_play) == (Phase.FIRST_BOX, "box")
    s.apply("pass")
    assert (s.phase, s.to_play) == (Phase.DRAW, "captain")
    assert [str(a) for a in s.legal_actions()] == ["stock"]
    with pytest.raises(IllegalActionError, match="must draw from the stock"):
        s.apply("pile")
    s.apply("stock")
    assert parse_card("2H") in s.hands["captain"]
    s.apply("discard 4D")
    assert (s.phase, s.to_play) == (Phase.DRAW, "box")
    assert [str(a) for a in s.legal_actions()] == ["stock", "pile"]


def test_box_takes_upcard_after_captain_passes():
    s = HandState.from_deck(deck_for(CAPTAIN, BOX, "7S"))
    s.apply("pass").apply("take")
    assert s.to_play == "box" and s.phase is Phase.DISCARD and parse_card("7S") in s.hands["box"]
    with pytest.raises(IllegalActionError, match="just taken from the pile"):
        s.apply("discard 7S")
    s.apply("discard KS")
    assert (s.phase, s.to_play) == (Phase.DRAW, "captain")


def test_knock_on_the_first_turn():
    s = HandState.from_deck(deck_for(CAPTAIN, BOX, "2D"))
    s.apply("take")  # the captain takes the upcard
    assert "knock 4D" in [str(a) for a in s.legal_actions()]
    s.apply("knock 4D")  # melds A23S 777 9TJC, deadwood 2D
    o = s.outcome
    assert s.phase is Phase.OVER
    assert (o.result, o.knocker, o.winner, o.knocker_deadwood) == ("knock", Seat.CAPTAIN, Seat.CAPTAIN, 2)
    assert o.defender_deadwood == 72  # QC laid off onto 9-10-J of clubs
    assert o.points == 70 and o.stock_left == 31


def test_knock_above_the_limit_is_refused():
    s = HandState.from_deck(deck_for("AS 2S 3S 7H 7D 7C 9C TC 5D 4D", BOX, "KD"))
    s.apply("take")
    with pytest.raises(IllegalActionError, match="count 34 is above 10"):
        s.apply("knock 4D")
    assert "knock 4D" not in [str(a) for a in s.legal_actions()]


def test_undercut():
    captain = "AS 2S 3S 7H 7D 7C 9C TC JC 5D"  # knocks with 5D
    box = "4H 4C 4D KH KC KD 8S 8H 8C 3H"
    s = HandState.from_deck(deck_for(captain, box, "QS", "2D"))
    s.apply("pass").apply("pass").apply("stock")  # captain draws 2D
    s.apply("knock 2D")  # count 5 (5D)
    o = s.outcome
    assert (o.result, o.winner, o.knocker_deadwood, o.defender_deadwood, o.points) == ("undercut", "box", 5, 3, 12)


def test_gin_no_layoffs():
    captain = "AS 2S 3S 7H 7D 7C 9C TC JC QC"
    box = "4S 5S 6D KC 2H 3H 5D 9D 8D 9H"  # 4S could go onto A-2-3S, KC onto 9-QC: not onto gin
    s = HandState.from_deck(deck_for(captain, box, "KD", "2D"))
    s.apply("pass").apply("pass").apply("stock").apply("knock 2D")
    o = s.outcome
    assert (o.result, o.winner, o.knocker_deadwood) == ("gin", "captain", 0)
    assert o.settlement.defender.layoffs == ()
    assert o.points == 25 + 4 + 5 + 6 + 10 + 2 + 3 + 5 + 9 + 8 + 9


def test_draw_when_two_cards_left():
    s = HandState.from_deck(deck_for(CAPTAIN, BOX, "KC"))
    s.apply("pass").apply("pass")
    while s.phase is not Phase.OVER:
        s.apply("stock")
        drawn = s.hands[s.to_play][-1]
        s.apply(f"discard {drawn.code}")
    assert len(s.stock) == 2
    assert s.outcome.result == "draw" and s.outcome.points == 0 and s.outcome.stock_left == 2
    assert s.card_count() == 52
    with pytest.raises(IllegalActionError, match="the hand is over"):
        s.apply("stock")


@pytest.mark.parametrize("bad", ["discard AS", "stock", "knock", "fly"])
def test_bad_actions_on_first_turn(bad):
    s = HandState.from_deck(deck_for(CAPTAIN, BOX, "KC"))
    with pytest.raises(IllegalActionError):
        s.apply(bad)
    assert s.phase is Phase.FIRST_CAPTAIN  # nothing changed


def test_discard_card_not_in_hand():
    s = HandState.from_deck(deck_for(CAPTAIN, BOX, "KC"))
    s.apply("take")
    with pytest.raises(IllegalActionError, match="KS is not in the captain's hand"):
        s.apply("discard KS")


# --- rotation and scoring on the table -------------------------------------------------
def table() -> Table:
    return Table(("Ann", "Bob", "Cy"), Roles(box=0, captain=1, sitter=2))


def test_box_wins_keeps_seat_captain_and_sitter_swap():
    t = table().record(HandResult.from_counts("box", 4, 30))
    assert t.scores == (26, 0, 0)
    assert t.roles == Roles(box=0, captain=2, sitter=1)


def test_box_loses_sits_out_captain_to_box_sitter_to_captain():
    t = table().record(HandResult.from_counts("captain", 3, 20))
    assert t.scores == (0, 17, 0)  # the team's points go to the captain
    assert t.roles == Roles(box=1, captain=2, sitter=0)


def test_box_undercut_by_captain():
    t = table().record(HandResult.from_counts("box", 8, 6))
    assert (t.history[-1].result.result, t.scores) == ("undercut", (0, 12, 0))
    assert t.roles == Roles(box=1, captain=2, sitter=0)


def test_draw_nobody_moves():
    t = table().record(HandResult("draw"))
    assert t.scores == (0, 0, 0) and t.roles == Roles(0, 1, 2)


def test_game_ends_at_target_and_refuses_more():
    t = table()
    for _ in range(3):
        t = t.record(HandResult.from_counts("box", 0, 8))  # gin: 33 each time, box keeps the seat
    assert t.scores == (99, 0, 0) and not t.over
    t = t.record(HandResult.from_counts("box", 5, 6))
    assert t.scores == (100, 0, 0) and t.over and t.winner == 0
    with pytest.raises(Exception, match="the game is over"):
        t.record(HandResult("draw"))


def test_undo_replays():
    t = table().record(HandResult.from_counts("captain", 3, 20)).record(HandResult("draw"))
    u = t.undo()
    assert len(u.history) == 1 and u.roles == Roles(box=1, captain=2, sitter=0)
    assert u.undo().roles == Roles(0, 1, 2)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [({"result": "knock", "knocker": "sitter", "winner": "sitter", "points": 3}, "'box' or 'captain'"),
     ({"result": "knock", "knocker": "box", "winner": "captain", "points": 3}, "winner is the box"),
     ({"result": "draw", "points": 4}, "a draw has no"),
     ({"result": "win"}, "result must be")],
)
def test_bad_results(kwargs, needle):
    with pytest.raises(Exception, match=needle):
        HandResult(**kwargs)
