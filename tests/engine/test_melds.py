import pytest

from engine.cards import parse_cards
from engine.errors import InvalidMeldError
from engine.masks import min_deadwood
from engine.melds import Meld, all_best_arrangements, best_arrangement


def codes(arrangement):
    return sorted(" ".join(m.codes) for m in arrangement.melds)


@pytest.mark.parametrize(
    ("hand", "deadwood"),
    [
        ("QS KS AS 2H 3H 4H 5D 6D 7D 9C", 30),  # Q-K-A is no run: ace is low only
        ("7S 7C 7D 8S 9S 2H 3H 4H KD KC", 34),  # the run 7-8-9S beats the set of 7s
        ("4S 4C 4D 4H 2S 3S 5C 6C 9H 9D", 23),  # 4S 4H 4D + 4C 5C 6C beats A-2-3-4S
        ("AS 2S 3S AC AD 2C 3C 4C 5H KH", 16),
        ("KS AS 2S 3S 4H 5H 6H 7H 8H 9H", 10),  # K-A-2 is no run
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS", 0),
        ("2S 3S 4S 5S 5H 5D 6D 7D 8D 9C", 9),  # 5D into the run 5-8D, not the set
        ("AS AH AD AC 2S 2H 2D 2C 3S 3H", 3),  # AS AD AC + A-2-3H + 2S 2D 2C, 3S left
        ("2S 4S 6S 8S TS 2H 4H 6H 8H TH", 60),
    ],
)
def test_min_deadwood(hand, deadwood):
    assert min_deadwood(parse_cards(hand)) == deadwood
    assert best_arrangement(parse_cards(hand)).deadwood == deadwood


def test_best_arrangement_melds():
    a = best_arrangement(parse_cards("4S 4C 4D 4H 2S 3S 5C 6C 9H 9D"))
    assert codes(a) == ["4C 5C 6C", "4S 4H 4D"]
    assert [c.code for c in a.deadwood_cards] == ["2S", "3S", "9H", "9D"]


def test_long_run_is_one_meld():
    a = best_arrangement(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS"))
    assert codes(a) == ["AS 2S 3S 4S 5S 6S 7S 8S 9S TS"]


def test_ties_are_deterministic_and_all_listed():
    hand = parse_cards("JS QS KS KC KD AH 3D 5C 7H 9D")
    first = best_arrangement(hand)
    assert codes(first) == codes(best_arrangement(list(reversed(hand))))
    tied = all_best_arrangements(hand)
    assert {tuple(codes(a)) for a in tied} == {("JS QS KS",), ("KS KD KC",)}
    assert codes(tied[0]) == codes(first)
    assert all(a.deadwood == 45 for a in tied)


def test_all_best_merges_split_runs():
    tied = all_best_arrangements(parse_cards("AS 2S 3S 4S 5S 6S 9H 9D 9C KC"))
    assert [codes(a) for a in tied] == [["9H 9D 9C", "AS 2S 3S 4S 5S 6S"]]


@pytest.mark.parametrize("bad", ["AS 2S", "AS 2S 4S", "AS 2H 3S", "5S 5H 5D 5C 5S", "QS KS AS"])
def test_invalid_melds(bad):
    with pytest.raises(InvalidMeldError):
        Meld.from_cards(parse_cards(bad) if len(set(bad.split())) == len(bad.split()) else [])


@pytest.mark.parametrize("good", ["AS 2S 3S", "5S 5H 5D", "5S 5H 5D 5C", "9C TC JC QC KC"])
def test_valid_melds(good):
    meld = Meld.from_cards(parse_cards(good))
    assert sorted(meld.codes) == sorted(good.split())
