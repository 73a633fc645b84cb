"""From index reads to cards, voting over video frames, drawing: no model needed."""

import itertools
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import CODES
from vision.crops import half_turn_likeness
from vision.draw import annotate
from vision.reader import IndexRead, Settings, group_indices, reported_indices, suit_twin
from vision.types import CardRead, Reading
from vision.video import StableReader


def ix(code, x, y, conf=0.9, size=20):
    return IndexRead((x, y, x + size * 0.6, y + size), code, conf, np.zeros(53))


def test_two_indices_of_one_card_make_one_card():
    cards = group_indices([ix("QS", 10, 10), ix("QS", 90, 120), ix("7H", 300, 40, 0.8)])
    assert [c.card for c in cards] == ["QS", "7H"]  # deck order: spades, hearts, diamonds, clubs
    qs = cards[0]
    assert len(qs.boxes) == 2 and not qs.uncertain
    assert abs(qs.confidence - (1 - 0.1 * 0.1)) < 1e-9


def test_far_apart_indices_of_one_code_are_kept_once_and_flagged():
    cards = group_indices([ix("QS", 10, 10, 0.95), ix("QS", 600, 600, 0.9)])
    assert len(cards) == 1 and cards[0].uncertain and len(cards[0].boxes) == 1


def test_low_confidence_dropped_or_flagged():
    s = Settings()
    assert group_indices([ix("2C", 0, 0, 0.3)], s) == []
    (card,) = group_indices([ix("2C", 0, 0, (s.min_card + s.uncertain_below) / 2)], s)  # reported, flagged
    assert card.uncertain


def test_shipped_flag_catches_cards_read_under_0_8():
    # session 44: the classifier of upright crops reads surer, so the flag moved 0.75 -> 0.8
    # (models/weights/flag-rules-session44*.json); a card read at 0.78 is shown and flagged
    (unsure,) = group_indices([ix("2C", 0, 0, 0.78)])
    (sure,) = group_indices([ix("2C", 0, 0, 0.82)])
    assert unsure.uncertain and unsure.confidence == pytest.approx(0.78)
    assert not sure.uncertain and sure.confidence == pytest.approx(0.82)


class FakeReader:
    def __init__(self, frames):
        self.frames = iter(frames)

        self.zooms = []

    def read(self, frame, zoom=True, aspect=None, empty_looks=True, mirror=True):
        self.zooms.append(zoom)
        codes = next(self.frames)
        cards = tuple(CardRead(c, 0.9, ((0, 0, 10, 10),), False) for c in codes)
        return Reading(cards, 5.0, 640, 480)


def test_stable_reader_votes_out_flicker():
    frames = [["AS", "2S"], ["AS", "2S"], ["AS", "KD"], ["AS", "2S"], ["AS"], ["AS", "2S"]]
    stable = StableReader(FakeReader(frames), window=4)
    shown = [stable.update(None).codes() for _ in frames]
    assert shown[0] == ["2S", "AS"] or shown[0] == ["AS", "2S"]
    assert all("KD" not in s for s in shown[3:])  # one stray frame never shows once the window fills
    assert all("AS" in s and "2S" in s for s in shown)  # a card missed in one frame stays


def test_stable_reader_keeps_a_card_read_in_about_half_the_frames_steady():
    """The vote's defaults (newest frames weigh most; a shown card stays until it is under a
    quarter of the weights) hold a card read off and on; the plain count showed it three times."""
    frames = [["AS", "2S"]] * 8 + [["AS", "2S"] if c == "+" else ["AS"] for c in "---++-+-+---"]
    shown = {}
    for name, kw in (("default", {}), ("plain", {"share": 0.5, "decay": 1.0, "keep": 0.5})):
        stable = StableReader(FakeReader(frames), window=8, **kw)
        shown[name] = ["2S" in stable.update(None).codes() for _ in frames]
    flips = {k: sum(a != b for a, b in itertools.pairwise(v)) for k, v in shown.items()}
    assert flips == {"default": 0, "plain": 3} and all(shown["default"])


def test_stable_reader_follows_a_new_hand_as_soon_as_the_plain_count():
    """A new hand shows from its 4th frame and the old one is gone from its 5th (window 8)."""
    frames = [["AS", "2S"]] * 8 + [["KD"]] * 6
    stable = StableReader(FakeReader(frames), window=8)
    shown = [stable.update(None).codes() for _ in frames][8:]
    assert shown == [["2S", "AS"]] * 3 + [["2S", "AS", "KD"]] + [["KD"]] * 2
    stable.reset()
    assert stable.shown == set() and not stable.frames


def plain_count_vote(frames, share):
    """The vote before session 40, as it was written: a card shown when read in ceil(share * n)
    of the n frames, its confidence the sum over n, its boxes the newest frame's, flagged when
    a frame missed it (the reference the new vote must equal at decay 1 and keep = share)."""
    counts, latest, conf_sum = {}, {}, {}
    for r in frames:
        for c in r.cards:
            counts[c.card] = counts.get(c.card, 0) + 1
            conf_sum[c.card] = conf_sum.get(c.card, 0.0) + c.confidence
            latest[c.card] = c
    need = max(1, int(np.ceil(share * len(frames))))
    return sorted(((code, conf_sum[code] / len(frames), latest[code].boxes, latest[code].uncertain or n < len(frames))
                   for code, n in counts.items() if n >= need))


def test_stable_reader_at_decay_1_is_the_plain_count_card_for_card():
    import random

    rng = random.Random(40)
    for window in (1, 2, 3, 5, 8, 11):
        for share in (0.375, 0.5, 0.625):
            stable = StableReader(None, window=window, share=share, decay=1.0, keep=share)
            frames = []
            for n in range(60):
                if n == 30:
                    stable.reset()
                    frames.clear()
                reading = Reading(tuple(
                    CardRead(code, round(rng.random(), 3), ((n, n, n + 5, n + 5),), rng.random() < 0.2)
                    for code in ("AS", "2C", "3D", "QH") if rng.random() < 0.55), 5.0, 640, 480)
                frames.append(reading)
                got = stable.push(reading)
                want = plain_count_vote(frames[-window:], share)
                assert [(c.card, c.confidence, c.boxes, c.uncertain) for c in got.cards] == want


def test_stable_reader_weighs_the_newest_frames_most():
    """At decay 0.8 the frames weigh 1, 0.8, 0.64, 0.512 from the newest. KD read in the first
    frame alone holds 1, then 0.8 / 1.8, 0.64 / 2.44 (0.26: kept, over keep 0.25) and 0.512 /
    2.952 (0.17: gone); AS holds 1 / 1.8 (0.56: not yet, under share 0.6), then 1.8 / 2.44 and
    2.44 / 2.952, its confidence 0.9 x that."""
    stable = StableReader(None, window=4)
    card = lambda code: CardRead(code, 0.9, ((0, 0, 1, 1),), False)  # noqa: E731
    shown = [stable.push(Reading(tuple(card(c) for c in codes), 1.0, 10, 10)).cards
             for codes in (["KD"], ["AS"], ["AS"], ["AS"])]
    assert [[c.card for c in cards] for cards in shown] == [["KD"], ["KD"], ["AS", "KD"], ["AS"]]
    assert [(c.card, round(c.confidence, 6), c.uncertain) for c in shown[-1]] == \
        [("AS", round(0.9 * 2.44 / 2.952, 6), True)]
    with pytest.raises(ValueError, match="keep"):
        StableReader(None, share=0.5, keep=0.6)
    with pytest.raises(ValueError, match="decay"):
        StableReader(None, decay=0)
    for window in (0, -1):  # 0 had voted over no frame at all
        with pytest.raises(ValueError, match=f"window {window} must be 1 frame or more"):
            StableReader(None, window=window)


def test_stable_reader_draws_a_kept_card_where_it_lies_after_the_stream_shrinks():
    """A browser lowers a webcam's resolution when the line is slow: a card the vote keeps from
    an older, larger frame is given in the new frame's pixels, not the old ones."""
    stable = StableReader(None, window=4)
    big = Reading((CardRead("QS", 0.9, ((1000, 600, 1040, 660),), False),), 1.0, 1280, 720)
    for _ in range(3):
        stable.push(big)
    voted = stable.push(Reading((), 1.0, 640, 360))  # QS not read in the smaller frame: kept
    assert voted.codes() == ["QS"] and (voted.width, voted.height) == (640, 360)
    assert voted.cards[0].boxes == ((500, 300, 520, 330),)
    # the same size: the boxes as read
    assert stable.push(Reading((CardRead("QS", 0.9, ((10, 20, 30, 40),), False),), 1.0, 640, 360)
                       ).cards[0].boxes == ((10, 20, 30, 40),)


def test_stable_reader_zooms_on_one_frame_in_a_few():
    reader = FakeReader([[]] * 9)
    stable = StableReader(reader, window=4, zoom_every=4)
    for _ in range(9):
        stable.update(None)
    assert reader.zooms == [True, False, False, False, True, False, False, False, True]


def test_annotate_draws_without_touching_the_input():
    img = np.full((200, 300, 3), 255, np.uint8)
    reading = Reading((CardRead("QS", 0.9, ((10, 10, 40, 60),), False),
                       CardRead("7H", 0.6, ((100, 100, 130, 150),), True)), 1.0, 300, 200)
    out = annotate(img, reading)
    assert (img == 255).all()
    assert (out != 255).any(axis=2).sum() > 100
    assert tuple(out[10, 25]) != (255, 255, 255)


def probs(**p):
    """A classifier's output with the given probabilities (the rest on "no index")."""
    out = np.zeros(53)
    for code, v in p.items():
        out[CODES.index(code)] = v
    out[52] = 1 - out.sum()
    return out


def read(code, x, y, score, p, size=20):
    """An index read as the reader makes it: confidence = sqrt(detector score x probability)."""
    return IndexRead((x, y, x + size * 0.6, y + size), code, float(np.sqrt(score * p[CODES.index(code)])), p)


def test_one_index_boxed_twice_counts_once_with_same_index_iou():
    once, twice = ix("QD", 10, 10, 0.58), ix("QD", 12, 11, 0.55)
    other = ix("QD", 90, 120, 0.7)  # the card's other index, at the opposite corner
    off = group_indices([once, twice], Settings(min_card=0.6))
    assert [(c.card, round(c.confidence, 3), len(c.boxes)) for c in off] == [("QD", 0.811, 2)]  # 1 - 0.42 x 0.45
    on = Settings(min_card=0.6, same_index_iou=0.3)
    assert group_indices([once, twice], on) == []  # 0.58 alone is under min_card
    card = group_indices([twice, other, once], on)[0]
    assert card.boxes == (other.box, once.box) and abs(card.confidence - (1 - 0.3 * 0.42)) < 1e-9


def test_a_far_duplicate_is_read_again_as_its_next_code_when_one_deck_is_on():
    # 8S is read twice, far apart: the stronger keeps 8S; the weaker, which the classifier
    # thought might be 8C, becomes 8C (its probability given that it is not 8S), flagged.
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95, "8C": 0.03}))
    weak = read("8S", 600, 600, 0.9, probs(**{"8S": 0.6, "8C": 0.35}))
    cards = group_indices([strong, weak], Settings(one_deck=True, one_deck_rule="any"))
    assert [c.card for c in cards] == ["8S", "8C"]
    eight_s, eight_c = cards
    assert eight_s.uncertain and eight_s.boxes == (strong.box,)
    assert eight_c.uncertain and eight_c.boxes == (weak.box,)
    assert abs(eight_c.confidence - np.sqrt(0.9 * 0.35 / (1 - 0.6))) < 1e-9
    # Off: the weaker index is dropped, as before.
    assert [c.card for c in group_indices([strong, weak], Settings(one_deck=False))] == ["8S"]


def test_a_far_duplicate_is_not_given_a_code_already_in_the_photo_nor_kept_when_weak():
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95}))
    eight_c = read("8C", 300, 10, 0.9, probs(**{"8C": 0.95}))
    # Next best are 8C (taken) then 9S: 9S given neither 8S nor 8C.
    weak = read("8S", 600, 600, 0.9, probs(**{"8S": 0.5, "8C": 0.3, "9S": 0.15}))
    codes = [c.card for c in group_indices([strong, eight_c, weak], Settings(one_deck=True, one_deck_rule="any"))]
    assert codes == ["8S", "9S", "8C"]
    # "No index" is the likelier rest: nothing added.
    stray = read("8S", 600, 600, 0.9, probs(**{"8S": 0.5, "8C": 0.05}))
    assert [c.card for c in group_indices([strong, stray], Settings(one_deck=True, one_deck_rule="any"))] == ["8S"]


def test_both_indices_of_a_misread_card_make_one_card_again():
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95}))
    p = probs(**{"8S": 0.55, "8C": 0.4})
    twins = [read("8S", 600, 600, 0.8, p), read("8S", 650, 680, 0.8, p)]
    cards = group_indices([strong, *twins], Settings(one_deck=True, one_deck_rule="any"))
    assert [c.card for c in cards] == ["8S", "8C"]
    assert len(cards[1].boxes) == 2


def test_suit_twins():
    assert [suit_twin(c) for c in ("8S", "8C", "QH", "QD", "TS")] == ["8C", "8S", "QD", "QH", "TC"]


def test_the_suit_rule_reads_a_far_duplicate_only_as_its_suit_twin():
    # min_card 0.5: the 8C read below has sqrt(0.9 x 0.15 / 0.5) = 0.5196.
    suit = Settings(one_deck=True, one_deck_rule="suit", min_card=0.5)
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95}))
    # Its twin 8C is its next code: kept, as under "any", with the same confidence.
    weak = read("8S", 600, 600, 0.9, probs(**{"8S": 0.6, "8C": 0.35}))
    cards = group_indices([strong, weak], suit)
    assert [c.card for c in cards] == ["8S", "8C"] and cards[1].uncertain
    assert abs(cards[1].confidence - np.sqrt(0.9 * 0.35 / (1 - 0.6))) < 1e-9
    # Its next code is 9S, not its twin: "any" reads 9S, "suit" reads 8C where 8C is likelier
    # than "no index", and drops it otherwise.
    other = read("8S", 600, 600, 0.9, probs(**{"8S": 0.5, "9S": 0.3, "8C": 0.15}))
    assert [c.card for c in group_indices([strong, other], Settings(one_deck=True, one_deck_rule="any", min_card=0.5))] == ["8S", "9S"]
    assert [c.card for c in group_indices([strong, other], suit)] == ["8S", "8C"]
    unlikely = read("8S", 600, 600, 0.9, probs(**{"8S": 0.5, "9S": 0.3, "8C": 0.01}))
    assert [c.card for c in group_indices([strong, unlikely], suit)] == ["8S"]
    # The twin already in the photo: dropped.
    eight_c = read("8C", 300, 10, 0.9, probs(**{"8C": 0.95}))
    codes = [c.card for c in group_indices([strong, eight_c, weak], suit)]
    assert codes == ["8S", "8C"]


def test_the_indices_reported_carry_the_code_the_one_deck_rule_read_them_again_as():
    # ginsight eval counts the index figures and confusions from Reading.indices: an index read
    # again as its suit twin must be counted as the code its card reports, not as first read.
    suit = Settings(one_deck=True, one_deck_rule="suit", min_card=0.5)
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95}))
    weak = read("8S", 600, 600, 0.9, probs(**{"8S": 0.6, "8C": 0.35}))
    dropped = read("QH", 300, 300, 0.9, probs(**{"QH": 0.9}))
    far_dropped = read("QH", 900, 20, 0.5, probs(**{"QH": 0.5, "QD": 0.01}))
    reads = [strong, weak, dropped, far_dropped]
    cards = group_indices(reads, suit)
    assert [c.card for c in cards] == ["8S", "QH", "8C"]
    out = reported_indices(reads, suit)
    assert [r.card for r in out] == ["8S", "8C", "QH", "QH"]  # the one dropped keeps its read
    assert out[1].box == weak.box and out[0] is strong and out[3] is far_dropped
    assert [r.card for r in reported_indices(reads, Settings(one_deck=False))] == ["8S", "8S", "QH", "QH"]


def test_a_red_far_duplicate_is_read_as_the_other_red_suit():
    suit = Settings(one_deck=True, one_deck_rule="suit")
    strong = read("QH", 10, 10, 0.9, probs(**{"QH": 0.95}))
    weak = read("QH", 600, 600, 0.9, probs(**{"QH": 0.5, "QD": 0.4}))
    assert [c.card for c in group_indices([strong, weak], suit)] == ["QH", "QD"]


def test_an_unknown_one_deck_rule_is_named_when_the_settings_are_made(tmp_path):
    with pytest.raises(ValueError, match="one_deck_rule 'twin'"):
        Settings(one_deck=True, one_deck_rule="twin")
    (tmp_path / "reader.json").write_text('{"one_deck_rule": "twin"}')
    with pytest.raises(ValueError, match="one_deck_rule 'twin'"):
        Settings.load(tmp_path)
    (tmp_path / "reader.json").write_text('{"one_deck": false}')
    assert not Settings.load(tmp_path).one_deck and Settings.load(tmp_path).one_deck_rule == "suit"


def test_an_unknown_suit_rule_is_named_when_the_settings_are_made(tmp_path):
    for name in ("suit_rule", "grey_suit_rule"):
        with pytest.raises(ValueError, match=f"unknown {name} 'mean': one of product, replace"):
            Settings(**{name: "mean"})
    (tmp_path / "reader.json").write_text('{"grey_suit_rule": "replace"}')
    s = Settings.load(tmp_path)
    assert (s.grey_suit_rule, s.suit_rule) == ("replace", "product")


def test_the_reader_reads_far_duplicates_by_the_suit_rule_by_default():
    s = Settings()
    assert s.one_deck and s.one_deck_rule == "suit"


def test_a_third_index_near_a_card_is_another_card_when_a_card_shows_two():
    two = Settings(card_indices=2)
    # 8S's two indices, and a third near them that the classifier thought might be 8C.
    pair = [read("8S", 10, 10, 0.9, probs(**{"8S": 0.95})), read("8S", 60, 90, 0.9, probs(**{"8S": 0.9}))]
    third = read("8S", 120, 10, 0.9, probs(**{"8S": 0.5, "8C": 0.4}))
    cards = group_indices([*pair, third], two)
    assert [c.card for c in cards] == ["8S", "8C"]
    assert cards[0].boxes == tuple(ix.box for ix in pair) and cards[0].uncertain and cards[1].uncertain
    # No limit (the default): one card of three boxes.
    (card,) = group_indices([*pair, third], Settings())
    assert len(card.boxes) == 3
    # A third box on a kept index is that index boxed twice: dropped, not another card.
    twice = read("8S", 11, 11, 0.9, probs(**{"8S": 0.5, "8C": 0.4}))
    (card,) = group_indices([*pair, twice], two)
    assert card.boxes == tuple(ix.box for ix in pair) and not card.uncertain


def glyph(turned=False, shift=0):
    """A grey 32 px index crop: a rank stroke above a suit blob (not the same turned half a
    turn), optionally turned half a turn or shifted right."""
    a = np.full((32, 32), 230, np.float32)
    a[4:7, 10 + shift:21 + shift] = 30  # the rank: a 7's bar
    a[4:16, 18 + shift:21 + shift] = 30  # and its stem
    a[19:27, 9 + shift:15 + shift] = 30  # the suit, off to one side
    return a[::-1, ::-1].copy() if turned else a


def test_half_turn_likeness_tells_a_cards_other_index_from_another_card():
    a = glyph()
    assert half_turn_likeness(a, glyph(turned=True)) < -0.3  # the same card's other corner
    assert half_turn_likeness(a, glyph(shift=1)) > 0.3  # another card lying the same way up
    assert half_turn_likeness(a, np.full((32, 32), 200, np.float32)) == 0.0  # a flat patch has no say


def test_two_indices_of_one_code_lying_the_same_way_up_are_two_cards():
    # Two rows of cards laid out the same way up, about six index sizes apart: a club read
    # as the spade above it. Its crop matches the spade's as it is, not turned: another card,
    # read again as its suit twin. A card's own second index (turned) stays with it.
    p = probs(**{"8S": 0.6, "8C": 0.35})
    spade = replace_patch(read("8S", 10, 10, 0.9, probs(**{"8S": 0.95})), glyph())
    club = replace_patch(read("8S", 10, 130, 0.9, p), glyph(shift=1))
    turned = replace_patch(read("8S", 10, 130, 0.9, p), glyph(turned=True))
    on = Settings(same_turn_apart=5.0, same_turn_margin=0.1)
    assert [c.card for c in group_indices([spade, club], on)] == ["8S", "8C"]
    (card,) = group_indices([spade, turned], on)
    assert card.card == "8S" and len(card.boxes) == 2 and not card.uncertain
    # Off, or nearer than same_turn_apart, or with no crops: one card, as before.
    assert [c.card for c in group_indices([spade, club], Settings(same_turn_apart=0.0))] == ["8S"]
    assert [c.card for c in group_indices([spade, club], Settings(same_turn_apart=7.0))] == ["8S"]
    bare = read("8S", 10, 130, 0.9, p)
    assert [c.card for c in group_indices([spade, bare], on)] == ["8S"]


def replace_patch(index, patch):
    index.patch = patch
    return index


UP, DOWN, LEFT = np.array([0.0, -1.0]), np.array([0.0, 1.0]), np.array([-1.0, 0.0])


def facing(index, way):
    index.up = np.asarray(way, np.float64)
    return index


def test_two_indices_of_one_code_facing_one_way_are_two_cards():
    # Two rows of cards laid out the same way up, four index sizes apart (nearer than the
    # crops' likeness is trusted): a club read as the spade above it faces the same way as
    # it, so is another card, read again as its suit twin; a card's own other index faces the
    # other way and stays with it.
    p = probs(**{"8S": 0.6, "8C": 0.35})
    spade = facing(read("8S", 10, 10, 0.9, probs(**{"8S": 0.95})), UP)
    club = facing(read("8S", 10, 90, 0.9, p), UP)
    other_corner = facing(read("8S", 10, 90, 0.9, p), DOWN)
    on = Settings(way_up_apart=3.0, same_turn_apart=0.0)
    assert [c.card for c in group_indices([spade, club], on)] == ["8S", "8C"]
    (card,) = group_indices([spade, other_corner], on)
    assert len(card.boxes) == 2 and not card.uncertain
    # a quarter turn apart is not one way (cos 0 < way_up_same 0.5)
    assert [c.card for c in group_indices([spade, facing(read("8S", 10, 90, 0.9, p), LEFT)], on)] == ["8S"]
    # off, nearer than way_up_apart, or without ways up: one card, as before
    assert [c.card for c in group_indices([spade, club], Settings(way_up_apart=0.0, same_turn_apart=0.0))] == ["8S"]
    assert [c.card for c in group_indices([spade, club], Settings(way_up_apart=5.0, same_turn_apart=0.0))] == ["8S"]
    bare = read("8S", 10, 90, 0.9, p)
    assert [c.card for c in group_indices([spade, bare], on)] == ["8S"]


def test_with_way_up_along_two_indices_side_by_side_facing_one_way_stay_one_card():
    # A deck with four indices shows two of one card side by side, both upright: with
    # way_up_along they are one card; one above the other, two cards.
    p = probs(**{"8S": 0.6, "8C": 0.35})
    spade = facing(read("8S", 10, 10, 0.9, probs(**{"8S": 0.95})), UP)
    beside = facing(read("8S", 110, 10, 0.9, p), UP)
    below = facing(read("8S", 14, 110, 0.9, p), UP)
    along = Settings(way_up_apart=3.0, way_up_along=0.7, same_turn_apart=0.0)
    (card,) = group_indices([spade, beside], along)
    assert len(card.boxes) == 2
    assert [c.card for c in group_indices([spade, below], along)] == ["8S", "8C"]
    assert [c.card for c in group_indices([spade, beside], Settings(way_up_apart=3.0, same_turn_apart=0.0))] == [
        "8S", "8C"]


def test_the_reader_asks_the_way_up_reader_only_about_indices_of_one_code_far_enough_apart():
    from vision.reader import Reader

    asked = []

    def way_up(patches):
        asked.append(len(patches))
        return np.tile(UP, (len(patches), 1))

    reader = Reader.__new__(Reader)
    reader.settings, reader.way_up = Settings(way_up_apart=3.0, far_apart=9.0), way_up
    patch = np.full((32, 32), 200, np.uint8)

    def at(code, y):  # a 10 px index at (0, y)
        return IndexRead((0, y, 10, y + 10), code, 0.9, np.zeros(53), patch)

    # 8S at 0 and 50 (5 sizes apart: asked), 8C at 20 (its twin: not), QH at 0 and 20 (2 sizes:
    # nearer than way_up_apart), 2D at 0 and 200 (20 sizes: further than far_apart)
    reads = [at("8S", 0), at("8C", 20), at("QH", 0), at("8S", 50), at("QH", 20), at("2D", 0), at("2D", 200)]
    def ups_of(rows, reads=reads):  # as the reader asks: about the patches of those rows
        return way_up(np.stack([reads[i].patch for i in rows]))

    out = reader._with_way_up(reads, ups_of)
    assert asked == [2]
    assert [r.up is not None for r in out] == [True, False, False, True, False, False, False]
    assert reader._with_way_up(reads[1:3], ups_of) == reads[1:3] and asked == [2]  # none to ask


def test_with_twin_rank_an_index_read_again_is_as_sure_of_its_twin_as_of_its_rank_and_colour():
    # 8S twice, far apart; the weaker's rest is mostly on other ranks (9S, 6S): its twin's
    # share of what is left is small, its share of "an eight, black" is not.
    strong = read("8S", 10, 10, 0.9, probs(**{"8S": 0.95}))
    weak = read("8S", 600, 600, 0.9, probs(**{"8S": 0.6, "8C": 0.06, "9S": 0.2, "6S": 0.1}))
    assert [c.card for c in group_indices([strong, weak], Settings(one_deck_rule="suit"))] == ["8S"]  # too weak
    left = Settings(one_deck_rule="suit", min_card=0.0, min_index=0.0)
    (_, eight_c) = group_indices([strong, weak], left)
    assert eight_c.card == "8C" and abs(eight_c.confidence - np.sqrt(0.9 * 0.06 / 0.4)) < 1e-9
    (_, eight_c) = group_indices([strong, weak], Settings(one_deck_rule="suit", twin_rank=0.001))
    assert eight_c.card == "8C"
    (_, eight_c) = group_indices([strong, weak], replace(left, twin_rank=0.001))
    assert eight_c.card == "8C" and eight_c.uncertain
    assert abs(eight_c.confidence - np.sqrt(0.9 * 0.66)) < 1e-9
    # the twin already in the photo, or "no index" likelier than it: still nothing
    eight_c_there = read("8C", 300, 10, 0.9, probs(**{"8C": 0.95}))
    codes = [c.card for c in group_indices([strong, eight_c_there, weak], replace(left, twin_rank=0.001))]
    assert codes == ["8S", "8C"]
    stray = read("8S", 600, 600, 0.9, probs(**{"8S": 0.6, "8C": 0.01}))
    assert [c.card for c in group_indices([strong, stray], replace(left, twin_rank=0.001))] == ["8S"]
    # under a share of its rank and colour of twin_rank (0.66 < 0.9): its share of what is left
    (_, eight_c) = group_indices([strong, weak], replace(left, twin_rank=0.9))
    assert abs(eight_c.confidence - np.sqrt(0.9 * 0.06 / 0.4)) < 1e-9


@given(st.floats(0, 360), st.floats(-40, 40), st.floats(-300, 300), st.floats(-300, 300), st.floats(0, 0.9))
@settings(max_examples=200, deadline=None)
def test_same_way_up_is_symmetric_and_never_holds_for_opposite_ways(angle, off, dx, dy, along):
    from vision.reader import same_way_up

    def way(deg):
        r = np.radians(deg)
        return np.array([-np.sin(r), -np.cos(r)])

    s = Settings(way_up_along=along)
    a = facing(ix("8S", 100, 100), way(angle))
    b = facing(ix("8S", 100 + dx, 100 + dy), way(angle + off))
    assert same_way_up(a, b, s) == same_way_up(b, a, s)
    if along == 0:
        assert same_way_up(a, b, s)  # within 40 degrees: one way, wherever they lie
    c = facing(ix("8S", 100 + dx, 100 + dy), way(angle + 180 + off))
    assert not same_way_up(a, c, s)  # a card's other corner faces the other way


@settings(max_examples=200, deadline=None)
@given(st.floats(-180, 180), st.floats(20, 400), st.floats(20, 400), st.floats(1, 5), st.floats(0.5, 4), st.floats(8, 40))
def test_card_frame_reads_one_cards_two_indices_alike_from_either_end(angle, x, y, down, right, size):
    """A card turned ``angle``: its second index ``down`` sizes below and ``right`` sizes to the
    right of the first, facing the other way; card_frame finds that from either index."""
    from vision.reader import card_frame

    t = np.radians(angle)
    up = np.array([np.sin(t), -np.cos(t)])  # (0, -1), the image's up, turned by angle
    to_right = np.array([-up[1], up[0]])
    a = (x, y, x + size * 0.6, y + size)
    c = np.array([x + size * 0.3, y + size / 2]) + size * (-up * down + to_right * right)
    b = (c[0] - size * 0.3, c[1] - size / 2, c[0] + size * 0.3, c[1] + size / 2)
    for frame in (card_frame(a, up, b, -up), card_frame(b, -up, a, up)):
        assert frame == pytest.approx((-1.0, down, right), abs=1e-6)
    # upright, on screen: the second index lies down (y grows) and to the right (x grows)
    assert card_frame((0, 0, 6, 10), (0, -1), (20, 30, 26, 40), (0, 1)) == pytest.approx((-1, 3, 2))


def _pr(**p):
    """An index read as its likeliest of ``p`` (code -> probability; the rest "no index")."""
    probs = np.zeros(53, np.float32)
    for code, v in p.items():
        probs[CODES.index(code)] = v
    probs[52] = 1 - probs.sum()
    return probs


def _upright_and_turned(pa, pb, conf=0.9, b_up=(0, 1)):
    """An upright index at (0, 0) and another 3 sizes below and 2 to its right facing ``b_up``."""
    from vision.reader import IndexRead

    def read(box, probs, up):
        k = int(probs[:52].argmax())
        return IndexRead(box, CODES[k], conf * float(np.sqrt(probs[k])), probs, None, np.array(up, np.float64))

    return [read((0, 0, 6, 10), pa, (0, -1)), read((20, 30, 26, 40), pb, b_up)]


def test_two_indices_lying_as_one_cards_read_as_twins_are_read_together_as_one_card():
    from vision.reader import read_as_pairs

    s = Settings(pair_share=0.8)
    reads = _upright_and_turned(_pr(**{"8S": 0.9, "8C": 0.1}), _pr(**{"8C": 0.6, "8S": 0.4}))
    assert [c.card for c in group_indices(reads, s)] == ["8S", "8C"]  # as read, two cards, one wrong
    both = read_as_pairs(reads, s)
    assert [r.card for r in both] == ["8S", "8S"]
    share = 0.36 / (0.36 + 0.06)
    assert both[0].probs[CODES.index("8S")] == pytest.approx(share) and both[0].probs[52] == 0
    # each keeps the detector's score: confidence sqrt(score x share) where it was sqrt(score x p)
    assert both[1].confidence == pytest.approx(np.sqrt(0.9 ** 2 * share), rel=1e-5)
    (card,) = group_indices(both, s)
    assert card.card == "8S" and len(card.boxes) == 2 and not card.uncertain
    # two indices that together are only a little surer of one code than of the other: one
    # card, flagged for the player to check
    s = Settings(pair_share=0.5)
    close = read_as_pairs(_upright_and_turned(_pr(**{"8S": 0.6, "8C": 0.4}), _pr(**{"8C": 0.55, "8S": 0.45})), s)
    assert [r.card for r in close] == ["8S", "8S"] and close[0].paired_share == pytest.approx(0.27 / 0.49)
    (card,) = group_indices(close, s)
    assert card.card == "8S" and card.uncertain and card.confidence > s.uncertain_below
    assert read_as_pairs(reads, Settings(pair_share=0)) == reads  # 0: off


def test_two_cards_each_sure_of_its_own_code_facing_one_way_or_not_lying_so_stay_two():
    from vision.reader import read_as_pairs

    s = Settings(pair_share=0.5)
    sure = _upright_and_turned(_pr(**{"8S": 0.98, "8C": 0.02}), _pr(**{"8C": 0.97, "8S": 0.03}))
    assert [r.card for r in read_as_pairs(sure, s)] == ["8S", "8C"]  # 8C gives 8S under pair_each
    unsure = (_pr(**{"8S": 0.9, "8C": 0.1}), _pr(**{"8C": 0.6, "8S": 0.4}))
    same_way = _upright_and_turned(*unsure, b_up=(0, -1))
    assert [r.card for r in read_as_pairs(same_way, s)] == ["8S", "8C"]
    beside = _upright_and_turned(*unsure)
    beside[1] = replace(beside[1], box=(60, 0, 66, 10))  # to its right, not below
    assert [r.card for r in read_as_pairs(beside, s)] == ["8S", "8C"]


def test_an_index_whose_card_has_its_two_indices_is_not_read_with_a_third():
    from vision.reader import IndexRead, card_frame, read_as_pairs

    s = Settings(pair_share=0.5)
    reads = _upright_and_turned(_pr(**{"8S": 0.9, "8C": 0.1}), _pr(**{"8C": 0.6, "8S": 0.4}))
    # the 8C index has another 8C index lying as its card's other one would (4 sizes below
    # it and 1 to its right, as it faces): the 8C card is whole, and the 8S index stays a card
    top = IndexRead((10, -10, 16, 0), "8C", 0.9, _pr(**{"8C": 0.9}), None, np.array([0.0, -1.0]))
    assert card_frame(reads[1].box, reads[1].up, top.box, top.up) == pytest.approx((-1, 4, 1))
    assert [r.card for r in read_as_pairs([*reads, top], s)] == ["8S", "8C", "8C"]
    assert [r.card for r in read_as_pairs(reads, s)] == ["8S", "8S"]  # without it, read together


def test_a_weak_index_is_read_with_its_cards_other_index_of_its_own_code_and_lifted():
    from vision.reader import read_as_pairs

    s = Settings(pair_share=0.5, pair_weak=0.15)
    # both read 8S, the lower one too weakly to be kept alone (under min_index 0.35)
    a, b = _upright_and_turned(_pr(**{"8S": 0.9, "8C": 0.1}), _pr(**{"8S": 0.5, "8C": 0.2, "9S": 0.3}))
    b = replace(b, confidence=0.3)
    assert b.confidence < s.min_index
    both = read_as_pairs([a, b], s)
    assert [r.card for r in both] == ["8S", "8S"] and all(r.confidence >= s.min_index for r in both)
    # two strong indices of one code are one card already: left as they are
    strong = read_as_pairs([a, replace(b, confidence=0.8)], s)
    assert [r.confidence for r in strong] == [a.confidence, 0.8]
    # a weak index that lies as no card's other index is not lifted
    alone = replace(b, box=(300, 300, 306, 310))
    assert read_as_pairs([a, alone], s)[1].confidence == 0.3


class AspectReader:
    """Reads every frame as the same card; a frame with every look chooses ``chosen``."""

    def __init__(self, chosen):
        self.chosen = chosen
        self.calls = []
        self.empty_looks = []

    def read(self, frame, zoom=True, aspect=None, empty_looks=True, mirror=True):
        self.calls.append(aspect)
        self.empty_looks.append(empty_looks)
        cards = (CardRead("AS", 0.9, ((0, 0, 10, 10),), False),)
        return Reading(cards, 5.0, 640, 480, aspect=self.chosen if aspect is None else aspect)


def test_stable_reader_takes_the_looks_on_one_frame_in_a_few_and_keeps_their_aspect_between():
    reader = AspectReader(1.78)
    stable = StableReader(reader, window=4, looks_every=3)
    for _ in range(7):
        assert stable.update(None).codes() == ["AS"]
    assert reader.calls == [None, 1.78, 1.78, None, 1.78, 1.78, None]  # None: every look
    reader.chosen = 1.0  # the hand moved: from the next frame with every look, read as it is
    for _ in range(4):
        stable.update(None)
    assert reader.calls[7:] == [1.78, 1.78, None, 1.0]
    stable.reset()
    stable.update(None)
    assert reader.calls[-1] is None and stable.aspect == 1.0
    # the frames that take the looks take none for an empty table (Settings.aspect_when_empty)
    assert not any(e for a, e in zip(reader.calls, reader.empty_looks, strict=True) if a is None)


def test_stable_reader_takes_the_looks_on_one_frame_in_four_by_default_or_on_every_one():
    reader = AspectReader(0.75)
    stable = StableReader(reader, window=8)
    for _ in range(5):
        stable.update(None)
    assert reader.calls == [None, 0.75, 0.75, 0.75, None]
    reader.calls.clear()
    stable = StableReader(reader, window=8, looks_every=1)
    for _ in range(3):
        stable.update(None)
    assert reader.calls == [None, None, None]


def test_a_real_card_is_not_lost_behind_a_weaker_stray_of_its_code_with_weak_code_retry():
    # A stray box read alone as 7H at 0.6 (under min_card 0.64) is the code's strongest index;
    # the real 7H elsewhere shows two indices at 0.45 each (together 1 - 0.55^2 = 0.6975).
    stray = ix("7H", 500, 500, 0.6)
    real = [ix("7H", 10, 10, 0.45), ix("7H", 90, 120, 0.45)]
    off = Settings(min_card=0.64, weak_code_retry=False)
    assert group_indices([stray, *real], off) == []  # dropped with the stray
    (card,) = group_indices([stray, *real], replace(off, weak_code_retry=True))
    assert card.card == "7H" and card.boxes == (real[0].box, real[1].box)
    assert card.confidence == pytest.approx(1 - 0.55 ** 2) and card.uncertain  # flagged: 7H read twice
    assert group_indices([stray, *real], Settings(min_card=0.64)) == [card]  # shipped on (session 56)
    # nothing else changes: a strong first card, or no second one strong enough
    assert group_indices([stray, real[0]], replace(off, weak_code_retry=True)) == []
    strong = ix("7H", 500, 500, 0.9)
    assert group_indices([strong, *real], replace(off, weak_code_retry=True)) == group_indices([strong, *real], off)


@given(st.lists(st.tuples(st.sampled_from(["7H", "7D", "QS"]), st.integers(0, 600), st.integers(0, 600),
                          st.floats(0.05, 0.99)), max_size=8))
@settings(max_examples=200, deadline=None)
def test_weak_code_retry_only_adds_cards_of_codes_the_plain_rule_dropped(reads):
    indices = [ix(code, x, y, conf) for code, x, y, conf in reads]
    plain = Settings(min_card=0.64, one_deck=False, weak_code_retry=False)
    off = group_indices(indices, plain)
    on = group_indices(indices, replace(plain, weak_code_retry=True))
    assert [c for c in on if c.card in {d.card for d in off}] == off
    assert len({c.card for c in on}) == len(on)  # still one card per code
