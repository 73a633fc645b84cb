import pytest

from engine.cards import parse_cards
from engine.errors import DuplicateCardError, HandSizeError, IllegalKnockError, InvalidMeldError
from engine.rules import Rules
from engine.showdown import best_defence, parse_melds, score, settle


def layoffs(result):
    return [(x.card.code, " ".join(x.meld.codes)) for x in result.defender.layoffs]


def test_defender_breaks_the_eights_and_undercuts():
    r = settle("5S 6S 7S 9C TC JC KS KC KD JD", "2S 8S 9S AC 2C 7C 8C 2D 8D 2H",
               "5S 6S 7S | 9C TC JC | KS KC KD")
    assert layoffs(r) == [("8S", "5S 6S 7S"), ("9S", "5S 6S 7S"), ("8C", "9C TC JC"), ("7C", "9C TC JC")]
    assert r.knocker.deadwood == 10
    assert r.defender.deadwood == 9
    assert [m.codes for m in r.defender.arrangement.melds] == [["2S", "2H", "2D", "2C"]]
    assert (r.outcome, r.winner, r.points) == ("undercut", "defender", 11)


def test_plain_knock():
    r = settle("AS 2S 3S 7H 7D 7C 9C TC JC 2D", "KS KH QD QC JS 5H 6H 8D 9D 4C")
    assert layoffs(r) == [("QC", "9C TC JC")]
    assert (r.knocker.deadwood, r.defender.deadwood) == (2, 72)
    assert (r.outcome, r.winner, r.points) == ("knock", "knocker", 70)


def test_gin_no_layoffs_and_bonus_setting():
    knocker = "AS 2S 3S 7H 7D 7C 9C TC JC QC"
    defender = "4S 5S 7S KC 2H 3H 5D 6D 8D 9H"  # 4S 5S would go onto A-2-3S, KC onto 9-QC
    r = settle(knocker, defender)
    assert r.defender.layoffs == ()
    assert (r.outcome, r.winner, r.defender.deadwood) == ("gin", "knocker", 4 + 5 + 7 + 10 + 2 + 3 + 5 + 6 + 8 + 9)
    assert r.points == 25 + r.defender.deadwood
    assert settle(knocker, defender, rules=Rules(gin_bonus=20)).points == 20 + r.defender.deadwood


def test_gin_against_gin_defender_scores_nothing():
    r = settle("AS 2S 3S 7H 7D 7C 9C TC JC QC", "4D 5D 6D 8H 8C 8S KH KD KC KS")
    assert (r.outcome, r.winner, r.points) == ("gin", "knocker", 25)


def test_equal_counts_undercut():
    r = settle("AS 2S 3S 7H 7D 7C 9C TC JC 5D", "4H 4C 4D KH KC KD 8S 8H 8C 5H")
    assert (r.outcome, r.winner, r.points) == ("undercut", "defender", 10)


def test_set_of_three_takes_fourth_and_chained_run_layoffs():
    r = settle("6S 7S 8S 4H 4D 4C AC 2C 3C 2D", "9S TS 4S KH KD QS QH 5D 6H 7C")
    assert sorted(layoffs(r)) == [("4S", "4H 4D 4C"), ("9S", "6S 7S 8S"), ("TS", "6S 7S 8S")]


def test_no_layoff_onto_set_of_four():
    r = settle("4S 4H 4D 4C 5H 6H 7H 2C 3C AD", "8H 5S 5C 9D QD KD TS JS 2D 3D", "4S 4H 4D 4C | 5H 6H 7H")
    assert layoffs(r) == [("8H", "5H 6H 7H")]


def test_card_kept_in_own_meld_rather_than_laid_off():
    # 8S could go onto 5-7S, but it earns more in the defender's own 8S 8H 8D 8C.
    r = settle("5S 6S 7S 9C TC JC KS KC KD 2D", "8S 8H 8D 8C QH QD 3H 4D 6C 7D")
    assert r.defender.layoffs == ()
    assert r.defender.deadwood == 10 + 10 + 3 + 4 + 6 + 7


def test_knock_above_limit_refused():
    # J-Q-K of spades or three kings: count 20 either way, too high to knock.
    with pytest.raises(IllegalKnockError, match="count is 20"):
        settle("JS QS KS KH KD AC 2C 3C 4C 5C", "2S 3S 4S 5D 6D 7D 8H 9H TH 6C")


def test_tie_choice_between_run_and_set():
    # Knocker holds 7S 8S 9S 9H 9D + A-2-3C + A-2H: count 9+9 = 18 as run (9H 9D dead)
    # or 9S 9H 9D set (7S 8S dead, 15): not a tie. Build a tie with equal values:
    # TS JS QS + QH QD: run (QH QD = 20) vs set (TS JS = 20): tie, but too high to knock.
    # With knock_limit 30 it is legal, and the defender holds JH? no: TH/9S for the run
    # or QC for the set. The defender holds 9S and TH: the run takes 9S, the set nothing.
    knocker = "TS JS QS QH QD AC 2C 3C 4C 5C"
    defender = "9S 8S KH KC 2D 3D 4H 6D 7H 9C"
    r = settle(knocker, defender, rules=Rules(knock_limit=20))
    assert [m.codes for m in r.knocker.melds if len(set(c[0] for c in m.codes)) == 1] == [["QS", "QH", "QD"]]
    assert r.defender.layoffs == ()


@pytest.mark.parametrize(
    ("knocker", "defender", "melds", "error", "needle"),
    [
        ("AS 2S 3S", "4S 5S 6S 7S 8S 9S TS JS QS KS", None, HandSizeError, "knocker's hand has 3 cards"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "TS 2H 3H 4H 5H 6H 7H 8H 9H TH", None, DuplicateCardError, "TS"),
        ("AS 2S 3S 7H 7D 7C 9C TC JC KD", "2H 3H 4H 5H 6H 8H 9H KH QH 4D", "AS 2S | 7H 7D 7C", InvalidMeldError, "not a meld"),
        ("AS 2S 3S 7H 7D 7C 9C TC JC KD", "2H 3H 4H 5H 6H 8H 9H KH QH 4D", "AS 2S 3S | 4S 5S 6S", InvalidMeldError, "not in the knocker's hand"),
        ("AS 2S 3S 7H 7D 7C 9C TC JC KD", "2H 3H 4H 5H 6H 8H 9H KH QH 4D", "AS 2S 3S", IllegalKnockError, "count is 60"),
        ("AS 2S 3S 7H 7D 7C 9C TC QC KD", "2H 3H 4H 5H 6H 8H 9H KH QH 4D", None, IllegalKnockError, "count is 39"),
    ],
)
def test_bad_showdowns(knocker, defender, melds, error, needle):
    with pytest.raises(error, match=needle):
        settle(knocker, defender, melds)


def test_declared_melds_may_be_worse_than_best():
    r = settle("AS 2S 3S 4S 7H 7D 7C 9C TC JC", "2H 3H 4H 5H 6H 8H 9H KH QH 4D", "AS 2S 3S | 7H 7D 7C | 9C TC JC")
    assert r.knocker.deadwood == 4
    assert [c.code for c in r.knocker.deadwood_cards] == ["4S"]


def test_parse_melds_forms():
    assert [m.codes for m in parse_melds("AS 2S 3S | 7H 7D 7C")] == [["AS", "2S", "3S"], ["7H", "7D", "7C"]]
    assert [m.codes for m in parse_melds([["AS", "2S", "3S"]])] == [["AS", "2S", "3S"]]


@pytest.mark.parametrize(
    ("k", "d", "expected"),
    [(0, 0, ("gin", "knocker", 25)), (0, 30, ("gin", "knocker", 55)), (5, 5, ("undercut", "defender", 10)),
     (10, 3, ("undercut", "defender", 17)), (3, 10, ("knock", "knocker", 7))],
)
def test_score(k, d, expected):
    assert score(k, d) == expected


def test_best_defence_direct():
    melds = parse_melds("6S 7S 8S")
    result = best_defence(melds, parse_cards("9S TS 5S 4S KH QH 2D 3D 4D 9C"))
    assert sorted(x.card.code for x in result.layoffs) == ["4S", "5S", "9S", "TS"]
