"""The reader's pipeline end to end on stand-in networks (tests/vision/stubs.py): photos of
painted patches that the stand-ins read as indices, so that each test's photo decides what is
read. The closer looks, the stretched looks, the mirror check, the suit reader and the
reading of a card's two indices together, each as the reader strings them together."""

import cv2
import numpy as np
import pytest

from engine.cards import CODES
from tests.vision.stubs import (
    PAPER,
    Classifier,
    Detector,
    WayUp,
    colour_of,
    ink_boxes,
    paint,
    photo,
    probs,
    reader,
    sure,
)
from vision import ImageError
from vision.reader import Networks, Reader, unread_boxes
from vision.settings import Settings
from vision.types import CardRead

ACE = (40, 60, 200)  # the colour of a patch read as the ace of spades


def ace_photo(box=(10, 10, 30, 40), height=100, width=120):
    return paint(photo(height, width), box, ACE)


def test_a_reader_is_built_of_the_networks_and_settings_given():
    nets = Networks(detector=Detector(), way_up=WayUp(), classifier=Classifier({ACE: sure("AS")}))
    plain = Reader("/no/such/folder", networks=nets, settings=Settings())  # no file read
    assert plain.networks is nets and plain.settings == Settings()
    assert Reader(networks=nets).settings == Settings()  # the shipped folder's settings
    reading = plain.read(ace_photo())
    assert reading.codes() == ["AS"] and (reading.width, reading.height) == (120, 100) and reading.ms >= 0
    (card,) = reading.cards
    assert card.boxes == ((10.0, 10.0, 30.0, 40.0),) and card.confidence == pytest.approx(np.sqrt(0.9))
    assert not card.uncertain and reading.aspect == 1.0 and not reading.mirrored
    (ix,) = reading.indices
    assert ix.card == "AS" and ix.box == card.boxes[0] and ix.up.tolist() == pytest.approx([0, -1])
    assert ix.top == pytest.approx(1.0)


def test_a_photo_is_read_from_a_path_or_bytes_and_bad_input_is_named(tmp_path):
    r = reader(classifier=Classifier({ACE: sure("AS")}))
    path = tmp_path / "ace.png"
    cv2.imwrite(str(path), ace_photo())
    assert r.read(path).codes() == r.read(str(path)).codes() == r.read(path.read_bytes()).codes() == ["AS"]
    with pytest.raises(ImageError):
        r.read(b"not a photo")


# --- the crops --------------------------------------------------------------------------------


@pytest.mark.parametrize("side", [32, 48])
def test_crops_are_cut_at_the_classifiers_side_three_framings_at_three_tilts_in_one_batch(side):
    img = paint(ace_photo(), (50, 20, 70, 50), ACE)
    net, way_up = Classifier({ACE: sure("AS")}, size=side), WayUp()
    r = reader(classifier=net, way_up=way_up, looks__aspects=(), looks__mirror=False)
    assert r.read(img).codes() == ["AS"]
    assert [c.shape for c in net.seen] == [(2 * 3 * 3, side, side, 3)]  # 2 indices x 3 margins x 3 tilts
    assert way_up.asked == [2]  # each index's way asked once


def test_each_crop_is_turned_upright_by_the_way_up_readers_angle():
    # a patch half dark (its top) and half light: the way-up reader says it faces down (180)
    img = photo()
    img[40:50, 30:42] = (200, 200, 60)
    img[30:40, 30:42] = (60, 60, 200)  # the top half in the photo; turned upright, the bottom half

    def read(crop):
        s = crop.shape[0]
        top, bottom = crop[s // 2 - 4, s // 2], crop[s // 2 + 4, s // 2]
        return sure("AS") if top[0] > bottom[0] else sure("KD")  # upright: the light half on top

    net = Classifier(read=read)
    assert reader(classifier=net, looks__aspects=()).read(img).codes() == ["KD"]
    turned = reader(classifier=Classifier(read=read), way_up=WayUp(lambda c: 180.0), looks__aspects=())
    reading = turned.read(img)
    assert reading.codes() == ["AS"] and reading.indices[0].up.tolist() == pytest.approx([0, 1], abs=1e-6)


def test_crop_probs_reads_crops_turned_upright_as_the_reader_does():
    net, way_up = Classifier({ACE: probs(AS=0.8)}), WayUp(lambda c: 90.0)
    r = reader(classifier=net, way_up=way_up)
    crops = np.stack([np.full((32, 32, 3), ACE, np.uint8)] * 5)
    p = r.crop_probs(crops)
    assert p.shape == (5, 53) and np.allclose(p[:, 0], 0.8) and [len(c) for c in net.seen] == [15]  # 3 tilts


# --- the closer looks -------------------------------------------------------------------------


def finds_at(*scales, box=(10, 10, 30, 40)):
    """A detector that finds the ace's box only when asked for one of ``scales``."""
    return Detector(lambda img, asked: [(box, 0.9)] if set(asked) & set(scales) else [])


def test_no_second_look_when_the_first_reads_a_big_index():
    det = finds_at(1.0)
    assert reader(det, Classifier({ACE: sure("AS")}), looks__aspects=()).read(ace_photo()).codes() == ["AS"]
    assert det.asked == [(1.0, 0.5)]


def test_a_photo_that_reads_nothing_is_read_at_each_aspect():
    det = finds_at(3.0)
    assert reader(det, Classifier({ACE: sure("AS")})).read(ace_photo()).codes() == []
    assert det.asked == [(1.0, 0.5)] * (1 + len(Settings().looks.aspects))
    assert det.widths == [120, 214, 120, 120]  # widened 1.78, then two taller looks
    video = finds_at(3.0)  # the live video asks for no look at an empty table
    assert reader(video, Classifier({ACE: sure("AS")})).read(ace_photo(), empty_looks=False).codes() == []
    assert video.asked == [(1.0, 0.5)]


def test_a_photo_of_small_indices_is_read_again_with_the_small_scales_too():
    det = finds_at(1.0)  # the ace found is 30 px high
    r = reader(det, Classifier({ACE: sure("AS")}), looks__aspects=(), detection__small_side=40.0)
    assert r.read(ace_photo()).codes() == ["AS"]
    assert det.asked == [(1.0, 0.5), (1.0, 0.5, 1.25)]  # the shipped small_scales


@pytest.mark.parametrize("settings, zoom", [({"detection__small_side": 25.0}, True),
                                            ({"detection__small_side": 40.0}, False),
                                            ({}, True),  # the shipped small_side, 30: not under it
                                            ({"detection__small_side": 40.0, "detection__small_scales": ()}, True),
                                            ({"detection__small_side": 0.0}, True)])
def test_no_small_look_for_big_indices_without_zoom_or_when_off(settings, zoom):
    det = finds_at(1.0)
    r = reader(det, Classifier({ACE: sure("AS")}), looks__aspects=(), **settings)
    assert r.read(ace_photo(), zoom=zoom).codes() == ["AS"]
    assert det.asked == [(1.0, 0.5)]


def test_the_small_look_reads_what_it_finds_in_place_of_the_first():
    extra = (60, 50, 80, 80)

    def find(img, scales):
        return [((10, 10, 30, 40), 0.9)] + ([(extra, 0.9)] if 1.25 in scales else [])

    img = paint(ace_photo(), extra, (200, 60, 40))
    r = reader(Detector(find), Classifier({ACE: sure("AS"), (200, 60, 40): sure("KH")}), looks__aspects=(),
               detection__small_side=40.0)
    assert r.read(img).codes() == ["AS", "KH"]


def test_the_detectors_bar_is_the_settings():
    det = Detector()
    reader(det, Classifier({ACE: sure("AS")}), detection__conf=0.95, looks__aspects=()).read(ace_photo())
    assert det.confs == [0.95]


# --- the stretched looks ----------------------------------------------------------------------

SEVEN, EIGHT = (60, 200, 60), (200, 60, 40)


def by_shape(crop):
    """A classifier that reads an index surely only where it is about as wide as tall (a photo
    squeezed to a square squeezes its indices): the seven's patch as 7C, the eight's as 8H;
    squeezed, the seven as 7S (half sure) and the eight as no index."""
    c, s = colour_of(crop), crop.shape[0]
    ink = np.abs(crop.astype(int) - PAPER).max(2) > 60
    w, h = int(ink[s // 2].sum()), int(ink[:, s // 2].sum())
    square = 0.7 <= w / h <= 1.1
    if max(abs(a - b) for a, b in zip(c, SEVEN, strict=True)) <= 3:
        return sure("7C") * 0.9 + probs(none=0.1) if square else probs(**{"7S": 0.5})
    if max(abs(a - b) for a, b in zip(c, EIGHT, strict=True)) <= 3:
        return sure("8H") * 0.9 + probs(none=0.1) if square else probs(none=1.0)
    return probs(none=1.0)


def squeezed():
    """A 16:9 photo squeezed to 200x200: its indices 20 wide and 40 tall, 35.6 wide in truth."""
    return paint(paint(photo(200, 200), (20, 20, 40, 60), SEVEN), (120, 80, 140, 120), EIGHT)


def test_the_stretch_whose_cards_score_best_is_kept_with_its_boxes_in_the_photos_pixels():
    det = Detector()
    reading = reader(det, Classifier(read=by_shape), looks__mirror=False).read(squeezed())
    assert reading.codes() == ["8H", "7C"] and reading.aspect == 1.78
    assert det.widths == [200, 356]  # the taller looks read the seven no surer: not looked at
    seven, eight = reading.cards[1], reading.cards[0]
    assert seven.boxes[0] == pytest.approx((20, 20, 40, 60), abs=1) and (reading.width, reading.height) == (200, 200)
    assert eight.boxes[0] == pytest.approx((120, 80, 140, 120), abs=1)
    assert sorted(r.box for r in reading.indices) == sorted([seven.boxes[0], eight.boxes[0]])


def test_off_reads_the_photo_as_it_is_only():
    det = Detector()
    reading = reader(det, Classifier(read=by_shape), looks__aspects=()).read(squeezed())
    assert reading.codes() == ["7S"] and reading.aspect == 1.0 and det.widths == [200]
    assert reading.cards[0].uncertain  # sqrt(0.9 x 0.5) = 0.67


def test_the_probe_decides_which_stretches_are_looked_at():
    # widened, the seven's top probability is 0.9 where it was 0.5: a gain of 0.4
    for probe, widths, codes in ((0.39, [200, 356], ["8H", "7C"]), (0.41, [200], ["7S"])):
        det = Detector()
        assert reader(det, Classifier(read=by_shape), looks__aspect_probe=probe).read(squeezed()).codes() == codes
        assert det.widths == widths, probe


def test_of_several_stretches_the_best_is_kept_a_taller_one_included():
    # squeezed in height: indices 36 wide and 22 tall; heightened 1.78x, 36 x 39
    img = paint(paint(photo(200, 200), (20, 20, 56, 42), SEVEN), (120, 80, 156, 102), EIGHT)
    det = Detector()
    reading = reader(det, Classifier(read=by_shape), looks__mirror=False).read(img)
    assert reading.codes() == ["8H", "7C"] and reading.aspect == 0.5625
    assert reading.cards[1].boxes[0] == pytest.approx((20, 20, 56, 42), abs=1)
    assert det.widths == [200, 200]  # as it is, then heightened 1.78x (356 tall)


def test_a_read_at_one_stretch_takes_that_look_only():
    det = Detector()
    r = reader(det, Classifier(read=by_shape))
    wide = r.read(squeezed(), aspect=1.78)
    assert det.widths == [356] and wide.codes() == ["8H", "7C"] and wide.aspect == 1.78
    full = r.read(squeezed())  # the full read's winning look gives the same
    assert full.cards == wide.cards and full.aspect == wide.aspect
    assert [r.box for r in full.indices] == [r.box for r in wide.indices]
    det.widths.clear()
    as_is = r.read(squeezed(), aspect=1.0)
    assert det.widths == [200] and as_is.codes() == ["7S"] and as_is.aspect == 1.0
    for bad in (0.0, -1.78, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="aspect must be a stretch above 0"):
            r.read(squeezed(), aspect=bad)


def test_a_photo_that_reads_nothing_as_it_is_takes_every_stretched_look_unless_told_not_to():
    det = Detector(lambda img, scales: [(b, 0.9) for b in ink_boxes(img)] if img.shape[1] > 200 else [])
    reading = reader(det, Classifier(read=by_shape)).read(squeezed())
    assert reading.codes() == ["8H", "7C"] and reading.aspect == 1.78
    assert det.asked == [(1.0, 0.5)] * 4
    det.asked.clear()
    assert reader(det, Classifier(read=by_shape)).read(squeezed(), empty_looks=False).codes() == []
    assert det.asked == [(1.0, 0.5)]


# --- the mirror check -------------------------------------------------------------------------


def two_tone(crop):
    """A classifier that reads a patch dark on its left as 2H surely, and the same mirrored
    (dark on its right) as 5H, half sure: as the shipped networks read a mirrored two."""
    s = crop.shape[0]
    grey = crop.astype(np.float32).mean(2)
    if grey.min() > 200:
        return probs(none=1.0)
    return probs(**{"2H": 0.95}) if grey[:, : s // 2].mean() < grey[:, s // 2:].mean() else probs(**{"5H": 0.5})


def two_photo(mirrored=False):
    img = photo()
    img[30:50, 40:46], img[30:50, 46:52] = 30, 120  # dark on the left
    return np.ascontiguousarray(img[:, ::-1]) if mirrored else img


def test_a_photo_as_it_is_is_not_turned():
    reading = reader(classifier=Classifier(read=two_tone)).read(two_photo())
    assert reading.codes() == ["2H"] and not reading.mirrored


def test_a_mirrored_photo_is_read_flipped_back_its_boxes_where_the_indices_lie():
    img = two_photo(mirrored=True)
    box = tuple(float(v) for v in ink_boxes(img)[0])
    reading = reader(classifier=Classifier(read=two_tone)).read(img)
    assert reading.codes() == ["2H"] and reading.mirrored and reading.to_json()["mirrored"] is True
    assert reading.cards[0].boxes == (box,) and reading.indices[0].box == box
    assert reading.cards[0].confidence == pytest.approx(np.sqrt(0.9 * 0.95))


def test_the_mirror_check_can_be_skipped_or_switched_off():
    img = two_photo(mirrored=True)
    for r, kw in ((reader(classifier=Classifier(read=two_tone)), {"mirror": False}),
                  (reader(classifier=Classifier(read=two_tone), looks__mirror=False), {}),
                  (reader(classifier=Classifier(read=two_tone)), {"aspect": 1.0})):
        reading = r.read(img, **kw)
        assert reading.codes() == ["5H"] and not reading.mirrored and reading.cards[0].uncertain


def test_the_mirror_check_weighs_only_boxes_read_surely_one_way_or_the_other():
    # mirrored, the two reads at sqrt(0.9 x 0.95) = 0.92: under mirror_least it is not read flipped
    img = two_photo(mirrored=True)
    assert not reader(classifier=Classifier(read=two_tone), looks__mirror_least=0.95).read(img).mirrored
    assert not reader(classifier=Classifier(read=two_tone), looks__mirror_strong=0.95).read(img).mirrored


def test_an_empty_table_is_not_read_flipped():
    net = Classifier(read=two_tone)
    reading = reader(classifier=net).read(photo())
    assert reading.cards == () and not reading.mirrored and net.seen == []


# --- the suit reader -------------------------------------------------------------------------

SPADE_OR_CLUB = (60, 60, 200)  # read 8S at 0.6, 8C at 0.3
GREY = (90, 90, 90)


def suit_net(*say, size=48):
    return Classifier(read=lambda crop: np.array(say, np.float32), size=size)


def test_the_black_suit_reader_has_its_say_on_black_indices():
    img = paint(photo(), (10, 10, 30, 40), SPADE_OR_CLUB)
    net = Classifier({SPADE_OR_CLUB: probs(**{"8S": 0.6, "8C": 0.3})})
    suit = suit_net(0.1, 0.9)  # spade, club
    assert reader(classifier=net, suit=suit, looks__aspects=()).read(img).codes() == ["8C"]  # 2:1 x 1:9
    assert [c.shape[1:] for c in suit.seen] == [(48, 48, 3)]  # cut at its own side
    assert reader(classifier=net, suit=suit, looks__aspects=(), suits__black=False).read(img).codes() == ["8S"]
    assert reader(classifier=net, looks__aspects=()).read(img).codes() == ["8S"]  # none in the folder


def test_the_black_suit_reader_is_not_asked_about_red_cards():
    img = paint(photo(), (10, 10, 30, 40), SPADE_OR_CLUB)
    suit = suit_net(0.1, 0.9)
    r = reader(classifier=Classifier({SPADE_OR_CLUB: sure("8H")}), suit=suit, looks__aspects=())
    assert r.read(img).codes() == ["8H"] and suit.seen == []


# --- a card's two indices read together -------------------------------------------------------


def test_a_cards_two_indices_read_as_twins_are_read_together_as_one_card():
    top, bottom = (200, 60, 60), (60, 200, 200)
    img = paint(paint(photo(120, 120), (20, 20, 32, 40), top), (52, 80, 64, 100), bottom)
    net = Classifier({top: probs(**{"8S": 0.9, "8C": 0.1}), bottom: probs(**{"8C": 0.6, "8S": 0.4})})
    way_up = WayUp(lambda crop: 180.0 if colour_of(crop) == bottom else 0.0)  # facing the other way
    reading = reader(classifier=net, way_up=way_up, looks__aspects=()).read(img)
    assert reading.codes() == ["8S"] and len(reading.cards[0].boxes) == 2 and not reading.cards[0].uncertain
    assert [r.paired_share for r in reading.indices] == pytest.approx([0.36 / 0.42] * 2)
    alone = reader(classifier=net, way_up=way_up, looks__aspects=(), grouping__pair_share=0.0).read(img)
    assert alone.codes() == ["8S", "8C"]
    same_way = reader(classifier=net, looks__aspects=()).read(img)  # both facing up: two cards
    assert same_way.codes() == ["8S", "8C"]


def test_indices_under_min_index_are_dropped():
    img = paint(photo(), (10, 10, 30, 40), ACE)
    for p, codes in ((0.2, []), (0.9, ["AS"])):  # sqrt(0.9 x 0.2) = 0.42 < 0.5
        r = reader(classifier=Classifier({ACE: probs(AS=p)}), classification__min_index=0.5, grouping__min_card=0.4,
                   looks__aspects=())
        assert r.read(img).codes() == codes
    assert CODES[0] == "AS"


BLOT = (120, 200, 40)  # the colour of a patch the classifier reads as no index


def test_sure_boxes_that_read_no_card_are_reported_unread_in_the_photos_pixels():
    img = paint(paint(photo(), (10, 10, 30, 40), ACE), (60, 50, 80, 80), BLOT)
    r = reader(classifier=Classifier({ACE: sure("AS")}), looks__aspects=())
    reading = r.read(img)
    assert reading.codes() == ["AS"] and reading.unread == ((60.0, 50.0, 80.0, 80.0),)
    assert reading.to_json()["unread"] == [[60.0, 50.0, 80.0, 80.0]]
    flipped = r.read(np.ascontiguousarray(img[:, ::-1]), mirror=False)
    assert flipped.unread == ((40.0, 50.0, 60.0, 80.0),)


def test_boxes_under_the_unread_score_or_on_a_card_are_not_reported():
    img = paint(paint(photo(), (10, 10, 30, 40), ACE), (60, 50, 80, 80), BLOT)
    weak = reader(detector=Detector(score=0.4), classifier=Classifier({ACE: sure("AS")}), looks__aspects=(),
                  grouping__min_card=0.5, classification__min_index=0.5)
    assert weak.read(img).unread == ()
    card = CardRead("AS", 0.9, ((10.0, 10.0, 40.0, 50.0),), False)
    on, off = (15.0, 15.0, 35.0, 45.0), (50.0, 10.0, 70.0, 40.0)
    assert unread_boxes([on, off], [card]) == [off]  # a second box on the card's index is not news
