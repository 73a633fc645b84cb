"""A mirrored photo (a selfie camera's) is read flipped back (Settings.mirror_check).

The shipped networks never learnt mirrored indices and read many as other codes: flipped
left-right, the fixtures' two of hearts reads as the five, the table photo keeps 3 of its 9
cards. With the check, each flipped fixture photo reads the cards of the photo itself, its
boxes where the indices lie in the flipped photo; the photos as they are are not turned.
"""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import Reader, StableReader
from vision.evaluate import iou, load_truth
from vision.reader import Settings, asks_mirror, mirror_means, mirrored_box, mirrored_index
from vision.types import CardRead, Reading

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real-dev"
WEIGHTS = Path(__file__).resolve().parents[2] / "models" / "weights"


def test_a_box_mirrored_and_back():
    assert mirrored_box((10, 20, 30, 40), 100) == (70.0, 20.0, 90.0, 40.0)
    assert mirrored_box(mirrored_box((10.5, 2, 31, 4), 64), 64) == (10.5, 2.0, 31.0, 4.0)


def test_json_names_mirrored_only_when_it_is():
    card = CardRead("2H", 0.9, ((1.0, 2.0, 3.0, 4.0),), False)
    plain = Reading((card,), 12.0, 64, 48).to_json("a.jpg")
    assert set(plain) == {"image", "cards", "ms"}  # the contract's keys
    assert Reading((card,), 12.0, 64, 48, mirrored=True).to_json("a.jpg")["mirrored"] is True


def test_settings_default_and_off(tmp_path):
    s = Settings()
    assert s.mirror_check and 0 < s.mirror_least < 1 and s.mirror_ask >= 0
    (tmp_path / "reader.json").write_text(json.dumps({"mirror_check": False, "mirror_ask": 0.1}))
    loaded = Settings.load(tmp_path)
    assert not loaded.mirror_check and loaded.mirror_ask == 0.1


@pytest.fixture(scope="module")
def reader():
    return Reader()


def _flipped(img: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(img[:, ::-1])


def test_flipped_fixture_photos_read_as_the_photos(reader):
    turned = 0
    for t in load_truth(FIXTURES):
        img = cv2.imread(str(t.image))
        as_is = reader.read(img)
        assert not as_is.mirrored, t.image.name
        flipped = reader.read(_flipped(img))
        assert flipped.codes() == as_is.codes(), t.image.name
        turned += flipped.mirrored
        # each card's boxes lie on its labelled indices where the flipped photo has them
        labels = [(code, mirrored_box(box, img.shape[1])) for code, box in t.boxes]
        for card in flipped.cards:
            if card.card in t.codes:
                assert any(code == card.card and iou(box, b) >= 0.3 for b in card.boxes for code, box in labels), \
                    (t.image.name, card.card)
    assert turned >= 6  # all but the eight of hearts (alike both ways) and a held-up ten read as a ten mirrored too


def test_the_check_can_be_switched_off(reader, tmp_path):
    folder = tmp_path / "weights"
    folder.mkdir()
    for f in WEIGHTS.glob("*.onnx"):
        (folder / f.name).symlink_to(f)
    (folder / "reader.json").write_text(json.dumps({"mirror_check": False}))
    off = Reader(folder)
    (two,) = [t for t in load_truth(FIXTURES) if t.image.name.startswith("phone_IMG_date__IMG_20220921_193944")]
    img = _flipped(cv2.imread(str(two.image)))
    assert reader.read(img).codes() == ["2H"] and reader.read(img).mirrored
    plain = off.read(img)
    assert not plain.mirrored and plain.codes() != ["2H"]  # today's networks misread it (as the five)
    assert reader.read(img, mirror=False).codes() == plain.codes()


def test_an_empty_table_is_not_asked(reader):
    img = np.full((480, 640, 3), 90, np.uint8)
    assert reader.mirror_odds(img, None) == (0.0, 0.0)
    reading = reader.read(img)
    assert reading.cards == () and not reading.mirrored
    assert not reader.may_be_mirrored(img, reader.first_look(img))


def test_first_look_is_the_photo_read_last_on_this_thread(reader):
    (two,) = [t for t in load_truth(FIXTURES) if t.image.name.startswith("phone_IMG_date__IMG_20220921_193944")]
    img = cv2.imread(str(two.image))
    reader.read(img)
    boxes, scores, rows = reader.first_look(img)
    assert len(boxes) == len(scores) >= 1 and rows == len(boxes)
    assert reader.first_look(img.copy()) is None  # another photo, even of the same pixels


def test_a_mirrored_index_faces_back():
    from vision.reader import IndexRead
    read = IndexRead((10.0, 20.0, 30.0, 40.0), "2H", 0.9, np.zeros(53, np.float32), None,
                     np.array([0.6, -0.8], np.float32))
    back = mirrored_index(read, 100)
    assert back.box == (70.0, 20.0, 90.0, 40.0) and back.up.tolist() == pytest.approx([-0.6, -0.8])
    assert mirrored_index(IndexRead((0, 0, 1, 1), "2H", 0.9, np.zeros(53, np.float32)), 10).up is None


def test_the_live_video_does_not_check(tmp_path):
    asked = []

    class Recorder:
        def read(self, frame, zoom=True, aspect=None, empty_looks=True, mirror=True):
            asked.append(mirror if aspect is None else None)
            return Reading((), 1.0, 8, 8)

    stable = StableReader(Recorder(), window=2)
    for _ in range(5):
        stable.update(np.zeros((8, 8, 3), np.uint8))
    assert False in asked and True not in asked


def test_mirror_means_leave_out_the_boxes_weak_both_ways():
    as_is = np.array([0.9, 0.1, 0.2, 0.35])
    mirrored = np.array([0.5, 0.15, 0.1, 0.45])
    assert mirror_means(as_is, mirrored) == pytest.approx((0.3875, 0.3))  # every box
    # at 0.4 the two weak boxes (0.1 / 0.15, 0.2 / 0.1) are left out; 0.35 / 0.45 counts (its mirrored read)
    assert mirror_means(as_is, mirrored, 0.4) == pytest.approx((0.625, 0.475))
    assert mirror_means(as_is, mirrored, 0.95) == (0.0, 0.0)  # none left: as for no box
    assert mirror_means(np.zeros(0), np.zeros(0)) == (0.0, 0.0)


def test_mirror_odds_are_the_means_of_the_box_confidences(reader):
    (two,) = [t for t in load_truth(FIXTURES) if t.image.name.startswith("phone_IMG_date__IMG_20220921_193944")]
    img = _flipped(cv2.imread(str(two.image)))
    reader.read(img, mirror=False)
    found, ways = reader._first_look_of(img)
    as_is, mirrored = reader.mirror_confidences(img, found, ways)
    assert len(as_is) == len(mirrored) == len(found[0])
    assert reader.mirror_odds(img, found, ways) == pytest.approx(
        mirror_means(as_is, mirrored, reader.settings.mirror_strong))


def test_the_odds_ask_for_a_flipped_read_at_least_and_within_ask():
    assert asks_mirror((0.5, 0.6), least=0.3, ask=0.0)
    assert not asks_mirror((0.6, 0.6), least=0.3, ask=0.0)  # no surer mirrored: not asked
    assert asks_mirror((0.6, 0.58), least=0.3, ask=0.05)  # within ask of as they lie
    assert not asks_mirror((0.1, 0.25), least=0.3, ask=0.0)  # weak either way: not asked
