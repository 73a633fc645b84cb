import pytest

from engine.cards import parse_cards
from engine.errors import HandSizeError
from engine.hand import analyse_hand, discard_options
from engine.masks import min_deadwood
from engine.rules import Rules


def test_eleven_cards_best_discard():
    r = analyse_hand("4S 4C 4D 4H 5S 5C 5D 6S 2C 3S 3C")
    assert r.discard.code == "6S"
    assert r.deadwood == 3
    assert r.can_knock and not r.gin
    assert len(r.options) == 11
    assert [o.deadwood for o in r.options] == sorted(o.deadwood for o in r.options)


def test_openspiel_greedy_counterexample():
    # OpenSpiel's own 11-card check says 12; discarding 6S leaves 10.
    r = analyse_hand("4C 5C 6S 6D 2S 4D 5D 6C 3D 3S 5H")
    assert (r.discard.code, r.deadwood, r.can_knock) == ("6S", 10, True)


def test_gin_with_eleven():
    r = analyse_hand("AS 2S 3S 4S 7H 7D 7C 9C TC JC KD")
    assert (r.discard.code, r.deadwood, r.gin, r.can_knock) == ("KD", 0, True, True)


def test_ten_cards_have_no_options():
    r = analyse_hand("AS 2S 3S 7H 7D 7C 9C TC JC KD")
    assert r.options == () and r.discard is None
    assert (r.deadwood, r.can_knock, r.gin) == (10, True, False)
    assert not analyse_hand("AS 2S 3S 7H 7D 7C 9C TC JC KD", Rules(knock_limit=9)).can_knock


def test_knock_limit_setting():
    hand = "AS 2S 3S 7H 7D 7C 9C TC 5D 6H KD"  # best discard KD leaves 9C TC 5D 6H = 30
    assert not analyse_hand(hand).can_knock
    assert analyse_hand(hand, Rules(knock_limit=30)).can_knock


@pytest.mark.parametrize("n", [0, 9, 12])
def test_wrong_size(n):
    from engine.cards import DECK

    with pytest.raises(HandSizeError, match=f"has {n} cards"):
        analyse_hand(" ".join(c.code for c in DECK[:n]))


def test_options_agree_with_ten_card_solver():
    cards = parse_cards("4C 5C 6S 6D 2S 4D 5D 6C 3D 3S 5H")
    for option in discard_options(cards):
        rest = [c for c in cards if c != option.discard]
        assert option.deadwood == min_deadwood(rest)
