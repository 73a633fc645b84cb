"""From index reads to cards (vision.grouping): pure functions of plain values, no networks.

The hands here are index reads written out as values: a code, where its box lies, how surely
it was read, the classifier's probabilities where they matter and the way it faces where
that matters; each test names the cards, confidences and flags that must come out."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import CODES
from tests.vision.stubs import DOWN, LEFT, RIGHT, UP, index, probs, read
from vision.grouping import (
    apart,
    card_frame,
    code_card,
    detector_score,
    face_one_way,
    group_indices,
    index_read,
    lie_as_one_card,
    may_share_card,
    one_card_per_code,
    pair_odds,
    read_again,
    read_as_pairs,
    suit_twin,
)
from vision.settings import Grouping
from vision.types import CardRead

MIN_INDEX = 0.35  # the shipped Classification.min_index
G = Grouping()


def cards_of(indices, s: Grouping = G, min_index: float = MIN_INDEX):
    return group_indices(indices, s, min_index)[0]


def summary(cards):
    """Each card as (code, confidence to 4 places, boxes, uncertain)."""
    return [(c.card, round(c.confidence, 4), len(c.boxes), c.uncertain) for c in cards]


# --- one card per code: a table of hands ------------------------------------------------------

HANDS = [
    # two indices of one card: one card, 1 - (1 - 0.9)(1 - 0.9); deck order (spades, hearts, ...)
    ([index("QS", 10, 10), index("QS", 90, 120), index("7H", 300, 40, 0.8)],
     [("QS", 0.99, 2, False), ("7H", 0.8, 1, False)]),
    # one index alone at 0.78: shown, flagged (under uncertain_below 0.8); at 0.82 not flagged
    ([index("2C", 0, 0, 0.78)], [("2C", 0.78, 1, True)]),
    ([index("2C", 0, 0, 0.82)], [("2C", 0.82, 1, False)]),
    # under min_card 0.64: not reported
    ([index("2C", 0, 0, 0.3)], []),
    ([index("2C", 0, 0, 0.63)], []),
    ([index("2C", 0, 0, 0.64)], [("2C", 0.64, 1, True)]),
    # two weak indices of one card together make it: 1 - 0.55^2
    ([index("7H", 10, 10, 0.45), index("7H", 90, 120, 0.45)], [("7H", 0.6975, 2, True)]),
    # three near indices: all three boxes, the confidence from the two strongest
    ([index("8S", 10, 10, 0.9), index("8S", 60, 90, 0.8), index("8S", 120, 10, 0.7)], [("8S", 0.98, 3, False)]),
    # far apart (no probabilities to read the other again by): kept once, flagged
    ([index("QS", 10, 10, 0.95), index("QS", 600, 600, 0.9)], [("QS", 0.95, 1, True)]),
    # deck order across the four suits
    ([index("2C", 0, 0), index("AD", 100, 0), index("KH", 200, 0), index("TS", 300, 0)],
     [("TS", 0.9, 1, False), ("KH", 0.9, 1, False), ("AD", 0.9, 1, False), ("2C", 0.9, 1, False)]),
    ([], []),
]


@pytest.mark.parametrize("hand, want", HANDS)
def test_hands_of_index_reads_make_these_cards(hand, want):
    assert summary(cards_of(hand)) == want


def test_the_shipped_grouping_settings():
    assert (G.min_card, G.uncertain_below, G.far_apart, G.one_deck) == (0.64, 0.8, 9.0, True)
    assert (G.way_up_apart, G.way_up_same) == (3.0, 0.5)
    assert (G.pair_share, G.pair_each, G.pair_cos, G.pair_along, G.pair_across) == (
        0.5, 0.1, -0.5, (1.5, 5.5), (0.0, 4.0))


def test_a_card_made_of_its_two_indices_carries_their_boxes_in_strength_order():
    weak, strong = index("QS", 90, 120, 0.7), index("QS", 10, 10, 0.9)
    (card,) = cards_of([weak, strong])
    assert card.boxes == (strong.box, weak.box)
    assert card.confidence == pytest.approx(1 - 0.1 * 0.3)


# --- one deck: a far duplicate read again as its suit twin ------------------------------------


def test_suit_twins():
    assert [suit_twin(c) for c in ("8S", "8C", "QH", "QD", "TS", "2C")] == ["8C", "8S", "QD", "QH", "TC", "2S"]


def test_a_far_duplicate_is_read_again_as_its_suit_twin_and_both_flagged():
    # 8S read twice, far apart: the stronger keeps 8S; the weaker, which the classifier thought
    # might be 8C, becomes 8C (its probability given that it is not 8S), flagged.
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95, "8C": 0.03}))
    weak = read("8S", 600, 600, 0.9, probs(**{"8S": 0.6, "8C": 0.35}))
    cards = cards_of([strong, weak])
    assert [(c.card, c.boxes, c.uncertain) for c in cards] == [("8S", (strong.box,), True), ("8C", (weak.box,), True)]
    assert cards[1].confidence == pytest.approx(np.sqrt(0.9 * 0.35 / (1 - 0.6)))
    # off: the weaker index is dropped
    assert [c.card for c in cards_of([strong, weak], replace(G, one_deck=False))] == ["8S"]


def test_a_red_far_duplicate_is_read_as_the_other_red_suit():
    strong = read("QH", 10, 10, 0.9, probs(QH=0.95))
    weak = read("QH", 600, 600, 0.9, probs(QH=0.5, QD=0.4))
    assert [c.card for c in cards_of([strong, weak])] == ["QH", "QD"]


def test_a_far_duplicate_is_read_only_as_its_twin_never_as_another_code():
    lowered = replace(G, min_card=0.5)
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95}))
    # its next code is 9S, not its twin: read 8C where 8C is likelier than "no index"; the 8C
    # has sqrt(0.9 x 0.15 / 0.5) = 0.5196
    other = read("8S", 600, 600, 0.9, probs(**{"8S": 0.5, "9S": 0.3, "8C": 0.15}))
    assert summary(cards_of([strong, other], lowered)) == [("8S", 0.9247, 1, True), ("8C", 0.5196, 1, True)]
    unlikely = read("8S", 600, 600, 0.9, probs(**{"8S": 0.5, "9S": 0.3, "8C": 0.01}))
    assert [c.card for c in cards_of([strong, unlikely], lowered)] == ["8S"]


def test_a_far_duplicate_is_not_given_a_code_already_in_the_photo_nor_kept_when_no_index_is_likelier():
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95}))
    eight_c = read("8C", 300, 10, 0.9, probs(**{"8C": 0.95}))
    weak = read("8S", 600, 600, 0.9, probs(**{"8S": 0.5, "8C": 0.3, "9S": 0.15}))
    assert [c.card for c in cards_of([strong, eight_c, weak])] == ["8S", "8C"]  # its twin taken
    stray = read("8S", 600, 600, 0.9, probs(**{"8S": 0.5, "8C": 0.05}))
    assert [c.card for c in cards_of([strong, stray])] == ["8S"]  # "no index" likelier than 8C


def test_both_indices_of_a_misread_card_make_one_card_again():
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95}))
    p = probs(**{"8S": 0.55, "8C": 0.4})
    twins = [read("8S", 600, 600, 0.8, p), read("8S", 650, 680, 0.8, p)]
    cards = cards_of([strong, *twins])
    assert [(c.card, len(c.boxes), c.uncertain) for c in cards] == [("8S", 1, True), ("8C", 2, True)]
    assert cards[1].confidence == pytest.approx(1 - (1 - np.sqrt(0.8 * 0.4 / 0.45)) ** 2)


def test_the_indices_reported_carry_the_code_they_were_read_again_as():
    # ginsight eval counts the index figures and confusions from Reading.indices: an index read
    # again as its suit twin is counted as the code its card reports, not as first read
    lowered = replace(G, min_card=0.5)
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95}))
    weak = read("8S", 600, 600, 0.9, probs(**{"8S": 0.6, "8C": 0.35}))
    queen = read("QH", 300, 300, 0.9, probs(QH=0.9))
    far_queen = read("QH", 900, 20, 0.5, probs(QH=0.5, QD=0.01))  # "no index" likelier than QD: dropped
    cards, out = group_indices([strong, weak, queen, far_queen], lowered, MIN_INDEX)
    assert [c.card for c in cards] == ["8S", "QH", "8C"]
    assert [r.card for r in out] == ["8S", "8C", "QH", "QH"]  # the one dropped keeps its read
    assert out[1].box == weak.box and out[0] is strong and out[3] is far_queen
    _, plain = group_indices([strong, weak, queen, far_queen], replace(lowered, one_deck=False), MIN_INDEX)
    assert [r.card for r in plain] == ["8S", "8S", "QH", "QH"]


READ_AGAIN = [
    # (probabilities, codes taken, the code read again and its share of what is left, or None)
    ({"8S": 0.6, "8C": 0.35}, set(), ("8C", 0.35 / 0.4)),
    ({"8S": 0.5, "9S": 0.3, "8C": 0.15}, set(), ("8C", 0.15 / 0.5)),
    ({"8S": 0.5, "9S": 0.3, "8C": 0.15}, {"9S"}, ("8C", 0.15 / 0.2)),  # taken codes left out
    ({"8S": 0.5, "8C": 0.3}, {"8C"}, None),  # its twin taken
    ({"8S": 0.5, "8C": 0.05}, set(), None),  # "no index" (0.45) likelier
    ({"8S": 0.5, "8C": 0.25}, set(), ("8C", 0.5)),  # even with "no index": kept
    ({"8S": 1.0}, set(), None),  # nothing left
]


@pytest.mark.parametrize("mass, taken, want", READ_AGAIN)
def test_read_again_gives_an_index_its_suit_twins_share_of_what_is_left(mass, taken, want):
    ix = read("8S", 600, 600, 0.9, probs(**mass), up=UP)
    again = read_again(ix, taken, 0.0)
    if want is None:
        assert again is None
        return
    code, share = want
    assert again.card == code and again.box == ix.box and again.up is ix.up
    assert again.confidence == pytest.approx(np.sqrt(0.9 * share))
    assert again.probs[CODES.index(code)] == pytest.approx(share) and again.probs.sum() == pytest.approx(share)


def test_read_again_keeps_min_index_and_leaves_an_index_with_no_probability_of_its_code():
    ix = read("8S", 600, 600, 0.9, probs(**{"8S": 0.5, "8C": 0.1, "9S": 0.3}))  # 8C: 0.1 / 0.5
    assert read_again(ix, set(), 0.4).confidence == pytest.approx(np.sqrt(0.9 * 0.2))
    assert read_again(ix, set(), 0.45) is None
    assert read_again(index("8S", 0, 0), set(), 0.0) is None  # no probabilities at all


# --- way up: two indices of one code facing one way are two cards -----------------------------


def test_two_indices_of_one_code_facing_one_way_are_two_cards():
    # two rows of cards laid out the same way up, four index sizes apart: a club read as the
    # spade above it faces as it does, so is another card, read again as its suit twin; a
    # card's own other index faces the other way and stays with it
    p = probs(**{"8S": 0.6, "8C": 0.35})
    spade = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95}), up=UP)
    club = read("8S", 10, 90, 0.9, p, up=UP)
    assert [(c.card, c.uncertain) for c in cards_of([spade, club])] == [("8S", True), ("8C", True)]
    (card,) = cards_of([spade, read("8S", 10, 90, 0.9, p, up=DOWN)])
    assert len(card.boxes) == 2 and not card.uncertain
    # a quarter turn apart is not one way (cos 0 < way_up_same 0.5)
    assert [c.card for c in cards_of([spade, read("8S", 10, 90, 0.9, p, up=LEFT)])] == ["8S"]
    # off, nearer than way_up_apart, or without ways up: one card
    assert [c.card for c in cards_of([spade, club], replace(G, way_up_apart=0.0))] == ["8S"]
    assert [c.card for c in cards_of([spade, club], replace(G, way_up_apart=5.0))] == ["8S"]
    assert [c.card for c in cards_of([spade, read("8S", 10, 90, 0.9, p)])] == ["8S"]


SHARE = [
    # (the other index's place and way, may it be the other index of a card at (10, 10) facing up)
    ((10, 40, DOWN), True),  # 1.5 sizes below, facing the other way
    ((10, 40, UP), True),  # 1.5 sizes: nearer than way_up_apart, its way not asked
    ((10, 90, UP), False),  # 4 sizes, facing one way: two cards
    ((10, 90, LEFT), True),  # a quarter turn apart is not one way
    ((10, 90, RIGHT), True),
    ((10, 90, None), True),  # its way not known
    ((10, 190, DOWN), True),  # 9 sizes: as far as far_apart
    ((10, 200, DOWN), False),  # 9.5 sizes: further
]


@pytest.mark.parametrize("where, shares", SHARE)
def test_may_share_card(where, shares):
    x, y, up = where
    assert may_share_card(index("8S", 10, 10, up=UP), index("8S", x, y, up=up), G) is shares


def test_apart_is_in_sizes_of_the_larger_box():
    assert apart(index("8S", 0, 0, size=20), index("8S", 0, 60, size=20)) == pytest.approx(3.0)
    assert apart(index("8S", 0, 0, size=10), index("8S", 0, 60, size=30)) == pytest.approx(np.hypot(6, 70) / 30)


@given(st.floats(0, 360), st.floats(-40, 40), st.floats(-300, 300), st.floats(-300, 300))
@settings(max_examples=200, deadline=None)
def test_facing_one_way_is_symmetric_and_never_holds_for_opposite_ways(angle, off, dx, dy):
    def way(deg):
        r = np.radians(deg)
        return np.array([-np.sin(r), -np.cos(r)])

    a = index("8S", 100, 100, up=way(angle))
    b = index("8S", 100 + dx, 100 + dy, up=way(angle + off))
    assert face_one_way(a, b, G) == face_one_way(b, a, G)
    assert face_one_way(a, b, G)  # within 40 degrees: one way, wherever they lie
    c = index("8S", 100 + dx, 100 + dy, up=way(angle + 180 + off))
    assert not face_one_way(a, c, G)  # a card's other corner faces the other way


# --- a stray stronger than its code's real card -----------------------------------------------


def test_a_code_whose_strongest_index_makes_too_weak_a_card_is_dropped_whole():
    # a stray box read alone as 7H at 0.6 (under min_card 0.64) is the code's strongest index:
    # the code's card is too weak, and its other indices go with it
    stray = index("7H", 500, 500, 0.6)
    real = [index("7H", 10, 10, 0.45), index("7H", 90, 120, 0.45)]
    assert cards_of([stray, *real]) == []
    (card,) = cards_of([index("7H", 500, 500, 0.9), *real])
    assert card.card == "7H" and card.uncertain  # the strong one, flagged: 7H read far away too


def test_code_card_and_one_card_per_code_name_the_indices_left_far_away():
    near, far = index("8S", 10, 10, 0.9), index("8S", 600, 600, 0.8)
    card, used = code_card("8S", [near, far], G)
    assert (card.card, card.boxes, card.uncertain) == ("8S", (near.box,), True) and used == [near]
    assert code_card("8S", [index("8S", 0, 0, 0.5)], G)[0] is None  # under min_card
    cards, left = one_card_per_code([far, near, index("2D", 100, 100)], G)
    assert [c.card for c, _ in cards] == ["8S", "2D"] and left == [far]  # not yet in deck order
    assert [len(used) for _, used in cards] == [1, 1]


def test_each_card_names_the_likeliest_other_card_its_indices_read_not_in_the_photo():
    two_of_clubs = probs(**{"2C": 0.55, "2S": 0.35, "3C": 0.1})
    alone = cards_of([index("2C", 10, 10, 0.9, p=two_of_clubs)])
    assert [(c.card, c.alternative) for c in alone] == [("2C", "2S")]
    with_2s = cards_of([index("2C", 10, 10, 0.9, p=two_of_clubs), index("2S", 300, 300, 0.9)])
    assert [(c.card, c.alternative) for c in with_2s] == [("2S", None), ("2C", "3C")]  # 2S taken; no odds
    flagged = CardRead("2C", 0.7, ((0.0, 0.0, 9.0, 9.0),), True, "2S")
    assert flagged.to_json()["alternative"] == "2S"
    assert "alternative" not in CardRead("2C", 0.9, ((0.0, 0.0, 9.0, 9.0),), False, "2S").to_json()


def test_a_card_whose_indices_were_read_together_unsurely_is_flagged():
    sure = [index("8S", 10, 10, 0.9, paired_share=0.9), index("8S", 30, 40, 0.9, paired_share=0.9)]
    unsure = [replace(ix, paired_share=0.6) for ix in sure]
    assert summary(cards_of(sure)) == [("8S", 0.99, 2, False)]
    assert summary(cards_of(unsure)) == [("8S", 0.99, 2, True)]


# --- an index read --------------------------------------------------------------------------


INDEX_READS = [
    # (detector score, probabilities, code, confidence) or None for no index
    (1.0, probs(AS=0.81), ("AS", 0.9)),
    (0.64, probs(KD=1.0), ("KD", 0.8)),
    (0.9, probs(KD=0.3, none=0.7), None),  # "no index" likeliest
    (0.3, probs(KD=0.4, KH=0.3, none=0.3), None),  # sqrt(0.12) = 0.346, under min_index 0.35
    (0.3, probs(KD=0.41, KH=0.3, none=0.29), ("KD", np.sqrt(0.3 * 0.41))),
]


@pytest.mark.parametrize("score, p, want", INDEX_READS)
def test_index_read_takes_the_likeliest_class_and_sqrt_score_times_probability(score, p, want):
    got = index_read((1.0, 2.0, 3.0, 4.0), score, p, MIN_INDEX, np.array(UP), 0.5)
    if want is None:
        assert got is None
        return
    assert (got.card, got.box, got.top) == (want[0], (1.0, 2.0, 3.0, 4.0), 0.5)
    assert got.confidence == pytest.approx(want[1])
    assert got.up.tolist() == [0.0, -1.0] and got.paired_share is None


def test_detector_score_undoes_the_confidence():
    ix = index_read((0, 0, 1, 1), 0.64, probs(KD=0.5), 0.0)
    assert detector_score(ix) == pytest.approx(0.64)


def test_an_index_box_must_have_four_sides():
    with pytest.raises(ValueError, match="x1 y1 x2 y2"):
        index_read((0.0, 0.0, 1.0), 0.9, probs(AS=1.0), 0.0)


# --- one card's two indices read as two codes, read together ----------------------------------


def _upright_and_turned(pa, pb, conf=0.9, b_up=DOWN):
    """An upright index at (0, 0) and another 3 sizes below and 2 to its right facing ``b_up``,
    each read as its likeliest code with confidence ``conf`` x sqrt(probability)."""

    def at(box, p, up):
        k = int(p[:52].argmax())
        return replace(index(CODES[k], 0, 0, conf * float(np.sqrt(p[k])), p=p, up=up), box=box)

    return [at((0, 0, 6, 10), pa, UP), at((20, 30, 26, 40), pb, b_up)]


def test_card_frame_of_an_upright_card():
    # upright, on screen: the second index lies down (y grows) and to the right (x grows)
    assert card_frame((0, 0, 6, 10), (0, -1), (20, 30, 26, 40), (0, 1)) == pytest.approx((-1, 3, 2))


@settings(max_examples=200, deadline=None)
@given(st.floats(-180, 180), st.floats(20, 400), st.floats(20, 400), st.floats(1, 5), st.floats(0.5, 4),
       st.floats(8, 40))
def test_card_frame_reads_one_cards_two_indices_alike_from_either_end(angle, x, y, down, right, size):
    """A card turned ``angle``: its second index ``down`` sizes below and ``right`` sizes to the
    right of the first, facing the other way; card_frame finds that from either index."""
    t = np.radians(angle)
    up = np.array([np.sin(t), -np.cos(t)])  # (0, -1), the image's up, turned by angle
    to_right = np.array([-up[1], up[0]])
    a = (x, y, x + size * 0.6, y + size)
    c = np.array([x + size * 0.3, y + size / 2]) + size * (-up * down + to_right * right)
    b = (c[0] - size * 0.3, c[1] - size / 2, c[0] + size * 0.3, c[1] + size / 2)
    for frame in (card_frame(a, up, b, -up), card_frame(b, -up, a, up)):
        assert frame == pytest.approx((-1.0, down, right), abs=1e-6)


LIE = [
    # (where the second index lies and faces, one card's two indices?)
    (((20, 30, 26, 40), DOWN), True),
    (((20, 30, 26, 40), UP), False),  # facing one way
    (((20, 30, 26, 40), LEFT), False),  # a quarter turn
    (((60, 0, 66, 10), DOWN), False),  # to the right, not below
    (((0, 30, 6, 40), DOWN), True),  # straight below, 3 sizes: across 0, within pair_across
    (((0, 60, 6, 70), DOWN), False),  # 6 sizes below: further along than pair_along's 5.5
    (((-20, 30, -14, 40), DOWN), False),  # to the left of it
]


@pytest.mark.parametrize("other, lies", LIE)
def test_lie_as_one_card(other, lies):
    box, up = other
    a = replace(index("8S", 0, 0, up=UP), box=(0, 0, 6, 10))
    b = replace(index("8C", 0, 0, up=up), box=box)
    assert lie_as_one_card(a, b, G) is lies and lie_as_one_card(b, a, G) is lies


def test_pair_odds_multiply_the_two_reads_over_the_52_codes():
    k, share, both = pair_odds(probs(**{"8S": 0.9, "8C": 0.1}), probs(**{"8C": 0.6, "8S": 0.4}))
    assert CODES[k] == "8S" and share == pytest.approx(0.36 / 0.42) and both.sum() == pytest.approx(1.0)
    assert pair_odds(probs(AS=1.0), probs(KD=1.0))[1] == 0.0  # nothing in common


def test_two_indices_lying_as_one_cards_read_as_twins_are_read_together_as_one_card():
    s = replace(G, pair_share=0.8)
    reads = _upright_and_turned(probs(**{"8S": 0.9, "8C": 0.1}), probs(**{"8C": 0.6, "8S": 0.4}))
    assert [c.card for c in cards_of(reads, s)] == ["8S", "8C"]  # as read: two cards, one wrong
    both = read_as_pairs(reads, s)
    assert [r.card for r in both] == ["8S", "8S"]
    share = 0.36 / (0.36 + 0.06)
    assert both[0].probs[CODES.index("8S")] == pytest.approx(share) and both[0].probs[52] == 0
    assert both[0].paired_share == pytest.approx(share)
    # each keeps the detector's score: confidence sqrt(score x share) where it was sqrt(score x p)
    assert both[1].confidence == pytest.approx(np.sqrt(0.9 ** 2 * share), rel=1e-5)
    assert summary(cards_of(both, s)) == [("8S", round(1 - (1 - 0.9 * np.sqrt(share)) ** 2, 4), 2, False)]
    # two indices only a little surer together of one code than of the other: one card, flagged
    close = read_as_pairs(_upright_and_turned(probs(**{"8S": 0.6, "8C": 0.4}), probs(**{"8C": 0.55, "8S": 0.45})), G)
    assert [r.card for r in close] == ["8S", "8S"] and close[0].paired_share == pytest.approx(0.27 / 0.49)
    (card,) = cards_of(close)
    assert card.card == "8S" and card.uncertain and card.confidence > G.uncertain_below
    assert read_as_pairs(reads, replace(G, pair_share=0.0)) is reads  # 0: off
    assert read_as_pairs(reads[:1], G) == reads[:1]


def test_two_cards_each_sure_of_its_own_code_facing_one_way_or_not_lying_so_stay_two():
    sure = _upright_and_turned(probs(**{"8S": 0.98, "8C": 0.02}), probs(**{"8C": 0.97, "8S": 0.03}))
    assert [r.card for r in read_as_pairs(sure, G)] == ["8S", "8C"]  # 8C gives 8S under pair_each
    unsure = (probs(**{"8S": 0.9, "8C": 0.1}), probs(**{"8C": 0.6, "8S": 0.4}))
    assert [r.card for r in read_as_pairs(_upright_and_turned(*unsure, b_up=UP), G)] == ["8S", "8C"]
    beside = _upright_and_turned(*unsure)
    beside[1] = replace(beside[1], box=(60, 0, 66, 10))  # to its right, not below
    assert [r.card for r in read_as_pairs(beside, G)] == ["8S", "8C"]
    far = _upright_and_turned(*unsure)
    assert [r.card for r in read_as_pairs(far, replace(G, far_apart=2.0))] == ["8S", "8C"]  # 3.6 sizes apart


def test_an_index_whose_card_has_its_two_indices_is_not_read_with_a_third():
    reads = _upright_and_turned(probs(**{"8S": 0.9, "8C": 0.1}), probs(**{"8C": 0.6, "8S": 0.4}))
    # the 8C index has another 8C index lying as its card's other one would (4 sizes below it
    # and 1 to its right, as it faces): the 8C card is whole, and the 8S index stays a card
    top = replace(index("8C", 0, 0, 0.9, p=probs(**{"8C": 0.9}), up=UP), box=(10, -10, 16, 0))
    assert card_frame(reads[1].box, reads[1].up, top.box, top.up) == pytest.approx((-1, 4, 1))
    assert [r.card for r in read_as_pairs([*reads, top], G)] == ["8S", "8C", "8C"]
    assert [r.card for r in read_as_pairs(reads, G)] == ["8S", "8S"]  # without it, read together


def test_of_two_pairs_an_index_could_join_the_surer_is_read():
    a, b = _upright_and_turned(probs(**{"8S": 0.9, "8C": 0.1}), probs(**{"8C": 0.6, "8S": 0.4}))
    # a third index where b's card's other index could also lie: a and b together are 0.857
    # sure of 8S; b and c, whose odds share 8C alone, wholly sure of 8C: b is read with c
    c = replace(index("8D", 0, 0, 0.8, p=probs(**{"8D": 0.7, "8C": 0.3}), up=UP), box=(10, -10, 16, 0))
    out = read_as_pairs([a, b, c], G)
    assert [r.card for r in out] == ["8S", "8C", "8C"] and out[0] is a
    assert out[1].paired_share == out[2].paired_share == pytest.approx(1.0)

