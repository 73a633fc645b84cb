"""The reader's second look at a photo stretched back to its aspect (Settings.aspects): a photo
squeezed to a square by its export is read again widened (or heightened), and the reading whose
cards score best is kept, its boxes in the photo's own pixels."""

import numpy as np
import pytest

from vision.image import stretch
from vision.reader import IndexRead, Reader, Settings, aspect_score, stretch_scale, unstretch_box, unstretch_index
from vision.types import CardRead


class _Reads(Reader):
    """A reader whose photos read as a table of widths says: the photo as it is reads one club as
    a spade, weakly; widened 1.78x it reads the club surely, and one more card."""

    def __init__(self, **settings):
        # no classifier to probe with; min_card 0.5, under the weak spade's 0.6 (the shipped min_card, 0.6 since
        # session 43, would leave the spade no margin)
        self.settings = Settings(**{"aspect_probe": -1.0, "min_card": 0.5, **settings})
        self.widths = []

    def read_indices(self, img, zoom=True):
        w = img.shape[1]
        self.widths.append(w)
        if w == 100:
            return [IndexRead((10, 10, 20, 30), "7S", 0.6, np.zeros(53))]
        return [IndexRead((17.8, 10, 35.6, 30), "7C", 0.9, np.zeros(53), up=np.array([1.0, 0.0], np.float32)),
                IndexRead((89, 40, 106.8, 60), "8H", 0.8, np.zeros(53))]


IMG = np.full((100, 100, 3), 200, np.uint8)


def test_off_reads_the_photo_as_it_is_only():
    reader = _Reads(aspects=())
    reading = reader.read(IMG)
    assert reading.codes() == ["7S"]
    assert reading.aspect == 1.0
    assert reader.widths == [100]


def test_the_aspect_whose_cards_score_best_is_kept_with_its_boxes_in_the_photos_pixels():
    reader = _Reads(aspects=(1.78,))
    reading = reader.read(IMG)
    assert reader.widths == [100, 178]
    assert sorted(reading.codes()) == ["7C", "8H"]
    club = next(c for c in reading.cards if c.card == "7C")
    assert club.boxes == ((10.0, 10, 20.0, 30),)
    assert reading.indices[0].box == pytest.approx((10, 10, 20, 30))
    assert (reading.width, reading.height) == (100, 100)
    assert reading.aspect == 1.78  # which stretch the cards were read at


def test_another_aspect_must_win_by_more_than_the_gain():
    # sum: 0.6 as it is, 1.7 widened; mean: 0.6 v 0.85
    assert sorted(_Reads(aspects=(1.78,), aspect_gain=1.0).read(IMG).codes()) == ["7C", "8H"]
    assert _Reads(aspects=(1.78,), aspect_gain=1.2).read(IMG).codes() == ["7S"]
    assert sorted(_Reads(aspects=(1.78,), aspect_score="mean", aspect_gain=0.2).read(IMG).codes()) == ["7C", "8H"]
    assert _Reads(aspects=(1.78,), aspect_score="mean", aspect_gain=0.3).read(IMG).codes() == ["7S"]


def test_aspect_score_sums_or_averages_the_cards_confidences():
    cards = [CardRead("7C", 0.9, (), False), CardRead("8H", 0.5, (), True)]
    assert aspect_score(cards, "sum") == pytest.approx(1.4)
    assert aspect_score(cards, "mean") == pytest.approx(0.7)
    assert aspect_score([], "sum") == aspect_score([], "mean") == 0.0


def test_boxes_and_ways_found_stretched_are_given_back_in_the_photos_pixels():
    assert unstretch_box((20, 10, 40, 30), (2.0, 1.0)) == (10, 10, 20, 30)
    assert unstretch_box((20, 10, 40, 30), (1.0, 2.0)) == (20, 5, 40, 15)
    read = unstretch_index(IndexRead((20, 10, 40, 30), "AS", 0.9, np.zeros(53),
                                     up=np.array([0.6, 0.8], np.float32)), (2.0, 1.0))
    assert read.box == (10, 10, 20, 30)
    assert read.up == pytest.approx(np.array([0.3, 0.8]) / np.hypot(0.3, 0.8))


def test_the_stretch_scale_is_the_photos_true_sides_not_the_nominal_factor():
    img = np.zeros((640, 640, 3), np.uint8)
    assert stretch_scale(img, stretch(img, 1.78)) == (1139 / 640, 1.0)
    assert stretch_scale(img, stretch(img, 0.75)) == (1.0, 853 / 640)


def test_bad_aspect_settings_are_named():
    with pytest.raises(ValueError, match="aspects"):
        Settings(aspects=(0.0,))
    with pytest.raises(ValueError, match="aspect_score"):
        Settings(aspect_score="max")


def test_a_photo_of_any_shape_is_stretched_unless_told_squares_only():
    wide = np.full((100, 178, 3), 200, np.uint8)
    reader = _Reads(aspects=(1.78,))
    reader.read(wide)
    assert reader.widths == [178, 317]
    reader = _Reads(aspects=(1.78,), aspect_squares_only=True)
    reader.read(wide)
    assert reader.widths == [178]


def test_the_probe_decides_which_photos_are_read_again():
    for probe, gain, widths in ((0.1, 0.05, [100, 178]), (0.1, 0.2, [100]), (0.0, -1.0, [100, 178])):
        reader = _Reads(aspects=(1.78,), aspect_probe=gain)
        reader.aspect_probe = lambda img, wide, indices, here=None, probe=probe: probe
        reader.top_prob = lambda img, indices: 0.0
        reader.read(IMG)
        assert reader.widths == widths, (probe, gain)


def test_the_probe_cuts_the_indices_where_they_lie_in_the_stretched_photo():
    class Sure(Reader):  # sure of dark crops, unsure of light ones
        classifier = type("C", (), {"size": 8})()

        def __init__(self):
            self.settings = Settings()

        def _classify(self, crops):
            probs = np.zeros((len(crops), 53))
            probs[:, 0] = 1 - crops.reshape(len(crops), -1).mean(1) / 255
            return probs

    img = np.zeros((100, 100, 3), np.uint8)
    img[:, :35] = 255  # the left third white; the index lies in the dark right
    index = IndexRead((60, 40, 80, 60), "AS", 0.9, np.zeros(53))
    # Unscaled, its box would reach into the stretched photo's white part (0-70): a lower probe.
    assert Sure().aspect_probe(img, stretch(img, 2.0), [index]) == pytest.approx(0.0, abs=0.05)
    assert Sure().aspect_probe(img, stretch(img, 0.5), [index]) == pytest.approx(0.0, abs=0.05)


def test_the_shipped_reader_reads_a_photo_again_widened_16_9_or_taller_3_4_or_9_16_where_the_probe_says():
    s = Settings()
    assert s.aspects == (1.78, 0.75, 0.5625) and s.aspect_probe == 0.03 and not s.aspect_squares_only


def test_of_several_aspects_the_best_reading_is_kept_a_taller_one_included():
    class ByShape(_Reads):  # as it is 7S 0.6; widened 7C 0.9 + 8H 0.8 (1.7); taller 3 cards (2.4)
        def read_indices(self, img, zoom=True):
            if img.shape[0] > img.shape[1]:
                self.widths.append(img.shape[1])
                return [IndexRead((10, 13.3, 20, 40), "7C", 0.8, np.zeros(53)),
                        IndexRead((40, 40, 50, 66.7), "8H", 0.8, np.zeros(53)),
                        IndexRead((70, 80, 80, 106.7), "9D", 0.8, np.zeros(53))]
            return super().read_indices(img, zoom)

    reading = ByShape(aspects=(1.78, 0.75)).read(IMG)
    assert sorted(reading.codes()) == ["7C", "8H", "9D"] and reading.aspect == 0.75
    nine = next(c for c in reading.cards if c.card == "9D")
    assert nine.boxes[0] == pytest.approx((70, 80 / 1.33, 80, 106.7 / 1.33))  # y over the true 133 / 100
    assert ByShape(aspects=(1.78,)).read(IMG).aspect == 1.78  # without the taller look, the widened read


def test_the_photo_as_it_is_is_probed_once_for_every_aspect():
    reader = _Reads(aspects=(1.78, 0.75), aspect_probe=0.03)
    shapes = []

    def top_prob(img, indices, scale=(1.0, 1.0)):
        shapes.append(img.shape[:2])
        return 0.5

    reader.top_prob = top_prob
    reader.read(IMG)
    assert shapes == [(100, 100), (100, 178), (133, 100)]  # as it is once, then each stretched photo


def test_merged_looks_keep_the_surest_of_overlapping_indices_and_every_card_one_look_found():
    from vision.reader import merge_looks

    a = [IndexRead((10, 10, 20, 30), "7S", 0.6, np.zeros(53)), IndexRead((70, 70, 80, 90), "2D", 0.95, np.zeros(53))]
    b = [IndexRead((11, 10, 21, 30), "7C", 0.9, np.zeros(53)), IndexRead((50, 40, 60, 60), "8H", 0.8, np.zeros(53))]
    assert [r.card for r in merge_looks([a, b], 0.5)] == ["2D", "7C", "8H"]  # 7S lies under the surer 7C
    assert [r.card for r in merge_looks([a, b], 0.95)] == ["2D", "7C", "8H", "7S"]  # 0.82 overlap: both kept

    class AlsoTwo(_Reads):  # the photo as it is also reads 2D surely, where the widened look misses it
        def read_indices(self, img, zoom=True):
            found = super().read_indices(img, zoom)
            return found + ([IndexRead((70, 70, 80, 90), "2D", 0.95, np.zeros(53))] if img.shape[1] == 100 else [])

    assert sorted(AlsoTwo(aspects=(1.78,)).read(IMG).codes()) == ["7C", "8H"]  # the best reading alone: 2D lost
    merged = AlsoTwo(aspects=(1.78,), aspect_merge="indices").read(IMG)
    assert sorted(merged.codes()) == ["2D", "7C", "8H"]
    seven = next(c for c in merged.cards if c.card == "7C")
    assert seven.boxes[0] == pytest.approx((10, 10, 20, 30), abs=0.1)  # in the photo's own pixels
    with pytest.raises(ValueError, match="aspect_merge"):
        Settings(aspect_merge="all")
    with pytest.raises(ValueError, match="aspect_merge_iou"):
        Settings(aspect_merge_iou=0.0)


def test_a_read_at_one_aspect_takes_that_look_only_with_its_boxes_in_the_photos_pixels():
    reader = _Reads(aspects=(1.78, 0.75))
    wide = reader.read(IMG, aspect=1.78)
    assert reader.widths == [178]  # not the photo as it is, nor the taller look
    assert sorted(wide.codes()) == ["7C", "8H"] and wide.aspect == 1.78
    club = next(c for c in wide.cards if c.card == "7C")
    assert club.boxes == ((10.0, 10, 20.0, 30),)
    assert wide.indices[0].box == pytest.approx((10, 10, 20, 30))
    full = reader.read(IMG)  # the full read's winning look gives the same
    assert full.cards == wide.cards and full.aspect == wide.aspect
    assert [r.box for r in full.indices] == [r.box for r in wide.indices]

    reader.widths.clear()
    as_is = reader.read(IMG, aspect=1.0)
    assert reader.widths == [100] and as_is.codes() == ["7S"] and as_is.aspect == 1.0
    for bad in (0.0, -1.78, float("nan"), float("inf")):  # NaN had passed "<= 0" into OpenCV's resize
        with pytest.raises(ValueError, match="aspect must be a stretch above 0"):
            reader.read(IMG, aspect=bad)


def test_a_photo_that_reads_nothing_as_it_is_is_read_at_each_aspect_only_when_asked():
    class Empty(_Reads):  # as it is, nothing; widened 1.78x the club and the heart
        def read_indices(self, img, zoom=True):
            self.zooms.append(zoom)
            if img.shape[1] == 100:
                self.widths.append(100)
                return []
            return super().read_indices(img, zoom)

    probes = []
    for when_empty, widths, zooms, codes in (("off", [100], [True], []),
                                             ("looks", [100, 178], [True, False], ["7C", "8H"]),
                                             ("zoomed", [100, 178], [True, True], ["7C", "8H"])):
        reader = Empty(aspects=(1.78,), aspect_probe=0.03, aspect_when_empty=when_empty)
        reader.zooms = []
        reader.aspect_probe = lambda *a, **k: probes.append(a) or 1.0
        reading = reader.read(IMG)
        assert reader.widths == widths and reader.zooms == zooms and sorted(reading.codes()) == codes, when_empty
        assert reading.aspect == (1.78 if codes else 1.0)
    assert probes == []  # nothing read as it is: nothing to probe, each look read
    video = Empty(aspects=(1.78,), aspect_probe=0.03)  # the live video asks for none: "looks" skipped
    video.zooms = []
    assert video.read(IMG, empty_looks=False).codes() == [] and video.widths == [100]
    reader = Empty(aspects=(1.78,), aspect_probe=-1.0)  # no probe: every look read, as before
    reader.zooms = []
    assert sorted(reader.read(IMG).codes()) == ["7C", "8H"] and reader.zooms == [True, True]
    assert Settings().aspect_when_empty == "looks"  # shipped in session 53
    with pytest.raises(ValueError, match="aspect_when_empty"):
        Settings(aspect_when_empty="always")
