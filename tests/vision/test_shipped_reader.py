"""The shipped networks (models/weights) read real photos from tests/fixtures/real-dev.

The reader's accuracy on real photos is below its targets (see models/MODEL_CARD.md): these
tests pin what the shipped weights do today (21 cards right at least and 3 wrong at most on
these eight photos), so that a change that breaks reading is seen; tighten them as the model
improves.
"""

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import Reader, StableReader
from vision.evaluate import iou, load_truth
from vision.looks import mirrored_box
from vision.networks import WayUpReader
from vision.reader import DEFAULT_WEIGHTS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real-dev"
TABLE = "webcam_WIN__WIN_20240627_12_09_15"
TWO = "phone_IMG_date__IMG_20220921_193944"  # a phone close-up of the two of hearts


@pytest.fixture(scope="module")
def reader():
    return Reader()


def _photo(prefix: str):
    (truth,) = [t for t in load_truth(FIXTURES) if t.image.name.startswith(prefix)]
    return truth


def _flipped(img: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(img[:, ::-1])


def test_reads_every_fixture_photo(reader):
    truths = load_truth(FIXTURES)
    assert len(truths) == 8
    for t in truths:
        reading = reader.read(t.image)
        assert (reading.width, reading.height) == (640, 640)
        assert reading.ms < 2000
        assert len(set(reading.codes())) == len(reading.codes())  # one deck: each card once
        for card in reading.cards:
            assert 0.5 <= card.confidence <= 1 and card.boxes


def test_reads_a_right_card_on_the_table_photo(reader):
    table = _photo(TABLE)
    right = set(reader.read(table.image).codes()) & table.codes
    assert {"AD", "AS", "8S"} <= right and len(right) >= 5


def test_reads_the_phone_close_up_and_the_held_card_exactly(reader):
    for prefix in (TWO, "webcam_cardname_uuid__10d-65cfb2cc"):
        truth = _photo(prefix)
        assert set(reader.read(truth.image).codes()) == truth.codes, prefix


def test_black_and_white_phone_photos_read_exactly(reader):
    # red suits in a black-and-white photo: read by shape (grey crops in training)
    for prefix in ("phone_IMG_date__IMG_20220921_200123", "phone_IMG_date__IMG_20220921_200200"):
        truth = _photo(prefix)
        assert set(reader.read(truth.image).codes()) == truth.codes, prefix


def test_cards_on_a_table_read_with_one_wrong_at_most(reader):
    table = _photo("webcam_WIN__WIN_20240627_12_29_57")
    read = set(reader.read(table.image).codes())
    assert len(read & table.codes) >= 5 and len(read - table.codes) <= 1, read


def test_right_and_wrong_over_the_fixtures(reader):
    right = wrong = 0
    for t in load_truth(FIXTURES):
        read = set(reader.read(t.image).codes())
        right += len(read & t.codes)
        wrong += len(read - t.codes)
    # the table photo's QC is read as QS (flagged), and its TC, whose other index reads TS, is
    # read with it as TS (the two together barely surer of it than of TC, flagged): reported
    # in models/MODEL_CARD.md, not tuned away
    assert right >= 21 and wrong <= 3, (right, wrong)


def test_the_shipped_suit_reader_is_loaded_and_reads_the_table_photos_clubs(reader):
    # the suit reader gives the black suit with the classifier; without it, this photo's 2C,
    # QC and TC were read as spades. Its QC and TC are read as spades, flagged (above).
    suit = reader.networks.suit
    assert suit is not None and (suit.size, suit.classes) == (48, 2) and suit.upright
    table = _photo(TABLE)
    cards = {c.card: c for c in reader.read(table.image).cards}
    assert {"2C", "6C"} <= set(cards)
    for club in ("QC", "TC"):  # read right, or the wrong read flagged
        assert club in cards or cards[club[0] + "S"].uncertain, club


def test_the_shipped_reader_reads_a_black_and_white_photo(reader):
    close_up = _photo(TWO)  # a colour photo, made black and white
    grey = cv2.cvtColor(cv2.imread(str(close_up.image)), cv2.COLOR_BGR2GRAY)
    assert set(reader.read(grey).codes()) == close_up.codes


def test_the_way_up_reader_is_asked_about_each_crop_once(reader, monkeypatch):
    # its answer turns the crops upright for the classifier and the suit reader, and tells
    # the grouping which way each index faces: one answer serves all
    table = _photo(TABLE)
    asked = []
    cos_sin = WayUpReader.cos_sin

    def counting(self, patches):
        asked.extend(p.tobytes() for p in patches)
        return cos_sin(self, patches)

    monkeypatch.setattr(WayUpReader, "cos_sin", counting)
    # as it is only: the aspect probe cuts crops of its own and asks their way again
    plain = Reader(networks=reader.networks, settings=reader.settings.changed(looks__aspects=()))
    reading = plain.read(table.image)
    assert asked and len(asked) == len(set(asked))  # each crop once
    assert reading.cards == reader.read(table.image, aspect=1.0).cards


def test_the_aspect_probe_asks_the_classifier_only_about_each_stretched_photo(reader, monkeypatch):
    # the probe's figure for the photo as it is comes from each index's own `top`, kept by the
    # first read; each stretch asks about its own photo
    import vision.reader as module

    asked = []
    top_prob = module.top_prob

    def counting(classifier, way_up, img, boxes, tilts):
        asked.append(img.shape[:2])
        return top_prob(classifier, way_up, img, boxes, tilts)

    monkeypatch.setattr(module, "top_prob", counting)
    for prefix in (TABLE, TWO):
        asked.clear()
        reading = reader.read(cv2.imread(str(_photo(prefix).image)))
        assert reading.indices and all(i.top is not None for i in reading.indices)
        assert asked == [(640, 1139), (853, 640), (1138, 640)], prefix  # each stretched photo only


def test_the_networks_threads_do_not_spin_between_runs(reader):
    # onnxruntime's worker threads spin after each run by default, taking the core that the
    # reader's Python steps need on a 2-core laptop: off
    n = reader.networks
    for net in (n.detector, n.classifier, n.suit, n.way_up):
        options = net.session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
        assert options.intra_op_num_threads == 2


def test_a_video_stream_reads_as_its_frames_with_every_look_read(reader):
    """The live video takes the looks on one frame in four and reads the frames between at the
    aspect they chose: a still hand then shows the cards a full read of it gives."""
    frame = cv2.imread(str(_photo(TABLE).image))
    full = reader.read(frame)
    at = reader.read(frame, aspect=full.aspect)
    assert at.codes() == full.codes() and at.aspect == full.aspect
    stable = StableReader(reader, window=8)
    shown = [sorted(stable.update(frame).codes()) for _ in range(5)]
    assert shown == [sorted(full.codes())] * 5


def test_the_settings_change_what_the_shipped_networks_read(reader):
    # a reader of the same networks with a bar raised reads fewer cards
    table = _photo(TABLE)
    strict = Reader(networks=reader.networks, settings=replace(reader.settings, grouping=replace(
        reader.settings.grouping, min_card=0.99)))
    assert len(strict.read(table.image).cards) < len(reader.read(table.image).cards)


# --- a mirrored photo (a selfie camera's) is read flipped back ----------------------------------
#
# The shipped networks never learnt mirrored indices and read many as other codes: flipped
# left-right, the fixtures' two of hearts reads as the five, the table photo keeps 3 of its 9
# cards. With the check, each flipped fixture photo reads the cards of the photo itself, its
# boxes where the indices lie in the flipped photo; the photos as they are are not turned.


def test_flipped_fixture_photos_read_as_the_photos(reader):
    turned = unlike = 0
    for t in load_truth(FIXTURES):
        img = cv2.imread(str(t.image))
        as_is = reader.read(img)
        assert not as_is.mirrored, t.image.name
        flipped = reader.read(_flipped(img))
        assert set(flipped.codes()) <= set(as_is.codes()), t.image.name  # no card read otherwise
        unlike += flipped.codes() != as_is.codes()
        turned += flipped.mirrored
        # each card's boxes lie on its labelled indices where the flipped photo has them
        labels = [(code, mirrored_box(box, img.shape[1])) for code, box in t.boxes]
        for card in flipped.cards:
            if card.card in t.codes:
                assert any(code == card.card and iou(box, b) >= 0.3 for b in card.boxes for code, box in labels), \
                    (t.image.name, card.card)
    assert unlike <= 1  # a held-up ten, small and blurred, is not read flipped
    assert turned >= 6  # all but the eight of hearts (alike both ways) and a held-up ten read as a ten mirrored too


def test_the_mirror_check_can_be_switched_off(reader, tmp_path):
    for f in DEFAULT_WEIGHTS.glob("*.onnx"):
        (tmp_path / f.name).symlink_to(f)
    (tmp_path / "reader.json").write_text(json.dumps({"looks": {"mirror": False}}))
    off = Reader(tmp_path)
    img = _flipped(cv2.imread(str(_photo(TWO).image)))
    assert reader.read(img).codes() == ["2H"] and reader.read(img).mirrored
    plain = off.read(img)
    assert not plain.mirrored and plain.codes() != ["2H"]  # the networks misread it (as the five)
    assert reader.read(img, mirror=False).codes() == plain.codes()


def test_an_empty_table_is_not_read_flipped(reader):
    reading = reader.read(np.full((480, 640, 3), 90, np.uint8))
    assert reading.cards == () and not reading.mirrored
