import json
import random

import pytest

from engine.cards import parse_card
from engine.errors import GameError, RoleDrawTie
from engine.table import HandResult, Roles, Seat, Table, draw_roles, roles_from_draw


def test_each_seat_plays_against_the_other():
    assert Seat.BOX.other() is Seat.CAPTAIN
    assert Seat.CAPTAIN.other() is Seat.BOX
    assert list(Seat) == [Seat.BOX, Seat.CAPTAIN]


def test_a_seat_is_the_word_for_it():
    assert Seat("box") is Seat.BOX and Seat.CAPTAIN == "captain"
    assert f"{Seat.BOX}" == "box" and {"captain": 1}[Seat.CAPTAIN] == 1
    assert json.dumps({Seat.BOX: Seat.CAPTAIN}) == '{"box": "captain"}'


def test_roles_name_the_player_in_each_seat():
    roles = Roles(box=2, captain=0, sitter=1)
    assert (roles.player(Seat.BOX), roles.player(Seat.CAPTAIN)) == (2, 0)
    assert [roles.role_of(p) for p in range(3)] == ["captain", "sitter", "box"]


def test_a_result_written_as_words_holds_seats():
    r = HandResult("undercut", "box", "captain", 12)
    assert r.knocker is Seat.BOX and r.winner is Seat.CAPTAIN
    assert HandResult.from_counts("captain", 3, 20).winner is Seat.CAPTAIN
    assert HandResult.from_counts(Seat.BOX, 8, 6).winner is Seat.CAPTAIN


def test_a_table_replays_its_hands_for_roles_and_scores():
    t = Table(("Ann", "Bob", "Cy"), Roles(0, 1, 2))
    t = t.record(HandResult.from_counts("captain", 3, 20)).record(HandResult("draw"))
    t = t.record(HandResult.from_counts("box", 0, 8))
    assert [r.roles for r in t.history] == [Roles(0, 1, 2), Roles(1, 2, 0), Roles(1, 2, 0)]
    assert t.scores == (0, 50, 0) and t.roles == Roles(1, 0, 2)
    assert t.player_of(Seat.CAPTAIN) == 0


def cards(*codes):
    return [parse_card(c) for c in codes]


def test_role_draw_high_box_middle_captain_low_sits_out():
    assert roles_from_draw([cards("7H"), cards("KS"), cards("AC")]).roles == Roles(box=1, captain=0, sitter=2)


def test_ace_is_low_and_suits_do_not_count():
    assert roles_from_draw([cards("AS"), cards("2C"), cards("3D")]).roles == Roles(box=2, captain=1, sitter=0)


def test_ties_draw_again():
    with pytest.raises(RoleDrawTie) as tie:
        roles_from_draw([cards("9H"), cards("9S"), cards("2C")])
    assert tie.value.players == (0, 1)
    d = roles_from_draw([cards("9H", "3D"), cards("9S", "JC"), cards("2C")])
    assert d.roles == Roles(box=1, captain=0, sitter=2)
    assert len(d.rounds) == 2


def test_three_way_tie_then_two_way():
    d = roles_from_draw([cards("5H", "8C", "2S"), cards("5S", "8D", "QH"), cards("5C", "3C")])
    assert d.roles == Roles(box=1, captain=0, sitter=2)


def test_extra_cards_and_duplicates_refused():
    with pytest.raises(GameError, match="more cards than the ties"):
        roles_from_draw([cards("KH", "2C"), cards("QS"), cards("2D")])
    with pytest.raises(GameError, match="drawn twice"):
        roles_from_draw([cards("KH"), cards("KH"), cards("2D")])


def test_program_draw_is_seeded_and_complete():
    for seed in range(200):
        d = draw_roles(random.Random(seed))
        assert d == draw_roles(random.Random(seed))
        first = {p: c for p, c in d.rounds[0]}
        assert first[d.roles.box].rank >= first[d.roles.captain].rank >= first[d.roles.sitter].rank


@pytest.mark.parametrize("names", [("A", "B"), ("A", "a", "B"), ("A", " ", "B")])
def test_bad_players(names):
    with pytest.raises(GameError):
        Table(names, Roles(0, 1, 2))
