"""The shipped models (models/weights) read real photos from tests/fixtures/real-dev.

The reader's accuracy on real photos is below its targets (see models/MODEL_CARD.md): these
tests pin what the shipped weights do today (23 cards right, 2 wrong on these eight photos;
session 15's: 22 and 3; session 13's, without the suit reader: 18 and 5), so
that a change that breaks reading is seen; tighten them as the model improves.
"""

from pathlib import Path

import cv2
import pytest

from vision import Reader, StableReader
from vision.evaluate import load_truth

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real-dev"


@pytest.fixture(scope="module")
def reader():
    return Reader()


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


def _photo(prefix: str):
    (truth,) = [t for t in load_truth(FIXTURES) if t.image.name.startswith(prefix)]
    return truth


def test_reads_a_right_card_on_the_table_photo(reader):
    table = _photo("webcam_WIN__WIN_20240627_12_09_15")
    right = set(reader.read(table.image).codes()) & table.codes
    assert {"AD", "AS", "8S"} <= right and len(right) >= 5


def test_reads_the_phone_close_up_and_the_held_card_exactly(reader):
    for prefix in ("phone_IMG_date__IMG_20220921_193944", "webcam_cardname_uuid__10d-65cfb2cc"):
        truth = _photo(prefix)
        assert set(reader.read(truth.image).codes()) == truth.codes, prefix


def test_black_and_white_phone_photos_read_exactly(reader):
    # Red suits in a black-and-white photo: read by shape (session 3: grey crops in training).
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
    # Session 19's classifier (trained on jokers too; kept on synthetic photos, whose
    # precision-recall curves it shares with session 13's) reads the WIN table photo's QC as QS:
    # 22 right and 3 wrong here, 22 and 2 before. Session 24's upright suit reader (kept on
    # synthetic photos: 30 fewer wrong cards in 1,600) reads a TS that is not there on a WIN
    # table photo: 22 and 4. Reported, not tuned away (models/MODEL_CARD.md). Session 26's
    # classifier (trained on 1,600 more procedural decks' crops, kept on synthetic photos) reads
    # the QC as a club again and one spade less that is not there: 23 and 2. Session 28's
    # reading of a card's two indices together (kept on synthetic photos: 150 fewer wrong cards
    # and 23 more missed in 3,200) reads the first WIN photo's TC, whose other index reads TS,
    # as TS (a coin flip, flagged uncertain, below): 22 and 2. Session 33's detector (trained
    # on a lent GPU, kept on synthetic photos: a better curve, 15 fewer missed and 83 fewer
    # wrong in 3,200 at min_card 0.5) boxes that photo's QC so that it reads QS (flagged): 21
    # and 3, real-dev as a whole even (318 right, 17 wrong; 319 and 17 before).
    assert right >= 21 and wrong <= 3, (right, wrong)


def test_the_shipped_suit_reader_is_loaded_and_reads_the_table_photos_clubs(reader):
    # Session 15: the suit reader gives the black suit with the classifier; without it, this
    # photo's 2C, QC and TC were read as spades; session 16's (trained on) reads its 6C too.
    # With session 19's classifier its QC is read as QS again (above); with session 26's, QC.
    # Since session 28 its TC is read with its other index, which reads TS, as one card: TS,
    # the two together barely surer of it than of TC (0.51), so flagged for the player to check.
    # With session 33's detector the QC is read as QS again, flagged (above).
    assert reader.suit is not None and (reader.suit.size, reader.suit.classes) == (48, 2)
    table = _photo("webcam_WIN__WIN_20240627_12_09_15")
    cards = {c.card: c for c in reader.read(table.image).cards}
    assert {"2C", "6C"} <= set(cards)
    for club in ("QC", "TC"):  # read right, or the wrong read flagged
        assert club in cards or cards[club[0] + "S"].uncertain, club


def test_the_shipped_grey_photo_suit_reader_reads_black_and_white_photos(reader):
    # Session 18: a photo with no colour has every suit read by the four-suit grey reader.
    import cv2

    from vision.image import is_grey

    assert reader.grey_suit is not None and (reader.grey_suit.size, reader.grey_suit.classes) == (48, 4)
    assert reader.settings.grey_suit_rule == "replace"
    for prefix in ("phone_IMG_date__IMG_20220921_200123", "phone_IMG_date__IMG_20220921_200200"):
        assert is_grey(cv2.imread(str(_photo(prefix).image))), prefix
    close_up = _photo("phone_IMG_date__IMG_20220921_193944")  # a colour photo, made black and white
    grey = cv2.cvtColor(cv2.imread(str(close_up.image)), cv2.COLOR_BGR2GRAY)
    assert set(reader.read(grey).codes()) == close_up.codes


def test_the_way_up_reader_is_asked_about_each_index_once(reader, monkeypatch):
    # The upright suit reader turns black indices by their way up, and the pairing of indices
    # asks about those with another of their code 3-9 sizes away: one answer serves both.
    from dataclasses import replace

    from vision.onnx import WayUpReader
    from vision.reader import WayAnswers

    table = _photo("webcam_WIN__WIN_20240627_12_09_15")
    asked = []
    cos_sin = WayUpReader.cos_sin

    def counting(self, patches):
        asked.extend(p.tobytes() for p in patches)
        return cos_sin(self, patches)

    monkeypatch.setattr(WayUpReader, "cos_sin", counting)
    # Read as it is only: the aspect probe (Settings.aspect_probe) cuts crops of its own and, with
    # the classifier of upright crops (session 43), asks their way again (a few tiny runs a photo).
    monkeypatch.setattr(reader, "settings", replace(reader.settings, aspects=()))
    shared = reader.read(table.image)
    assert asked and len(asked) == len(set(asked))  # each crop once
    # the same reading as when each asks on its own
    monkeypatch.setattr(WayAnswers, "_cos_sin", lambda self, rows: self.net.cos_sin(self.crops[[int(r) for r in rows]]))
    asked.clear()
    alone = reader.read(table.image)
    assert len(asked) > len(set(asked))  # this photo has indices both ask about
    assert shared.cards == alone.cards
    assert [(i.card, i.confidence) for i in shared.indices] == [(i.card, i.confidence) for i in alone.indices]


def test_the_aspect_probe_asks_nothing_again_for_the_photo_as_it_is(reader, monkeypatch):
    # The probe's figure for the photo as it is comes from each index's own `top`, kept by the
    # first read: the same number, to the bit, as asking the classifier again (top_prob).
    asked = []
    top_prob = reader.top_prob

    def counting(img, indices, scale=(1.0, 1.0)):
        asked.append(img.shape[:2])
        return top_prob(img, indices, scale)

    for prefix in ("webcam_WIN__WIN_20240627_12_09_15", "phone_IMG_date__IMG_20220921_193944"):
        img = cv2.imread(str(_photo(prefix).image))
        indices = reader._read_cards(img, True).indices
        assert indices and all(i.top is not None for i in indices)
        assert reader.here_prob(img, indices) == top_prob(img, indices)
        monkeypatch.setattr(reader, "top_prob", counting)
        asked.clear()
        reader.read(img)
        assert asked == [(640, 1139), (853, 640), (1138, 640)], prefix  # each stretched photo only
        monkeypatch.setattr(reader, "top_prob", top_prob)


def test_with_pair_weak_weak_indices_are_offered_to_the_pairing_and_kept_only_when_lifted(monkeypatch):
    from dataclasses import replace

    import vision.reader as module

    weak_reader = Reader()
    # min_index raised so that these photos have weak indices (few read under 0.35)
    weak_reader.settings = replace(weak_reader.settings, pair_weak=0.15, min_index=0.8)
    offered = []
    pair = module.read_as_pairs
    monkeypatch.setattr(module, "read_as_pairs", lambda reads, s: offered.extend(reads) or pair(reads, s))
    least = weak_reader.settings.min_index
    for truth in load_truth(FIXTURES):
        reading = weak_reader.read(truth.image)
        assert all(r.confidence >= least for r in reading.indices)  # none kept unlifted
    assert any(r.confidence < least for r in offered)  # these photos have weak indices
    assert all(r.confidence >= 0.15 for r in offered)


def test_the_networks_threads_do_not_spin_between_runs(reader):
    # onnxruntime's worker threads spin after each run by default, taking the core that the
    # reader's Python steps need on a 2-core laptop (benchmarks/ort_options.py --option spinning): off.
    sessions = [reader.detector.session, reader.classifier.session, reader.suit.session,
                reader.grey_suit.session, reader.way_up.session]
    for session in sessions:
        options = session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
        assert options.intra_op_num_threads == 2


def _twice(folder: Path, net: str):
    """Readers of the shipped weights with ``net``.onnx twice (copied into ``folder`` with a
    copy of ``net``.onnx as ``net``2.onnx) and once, and what each reads in the WIN photo."""
    import shutil

    from vision.reader import DEFAULT_WEIGHTS

    for f in DEFAULT_WEIGHTS.iterdir():
        if f.is_file():
            shutil.copy(f, folder / f.name)
    shutil.copy(DEFAULT_WEIGHTS / f"{net}.onnx", folder / f"{net}2.onnx")
    two, one = Reader(folder), Reader(DEFAULT_WEIGHTS)
    table = _photo("webcam_WIN__WIN_20240627_12_09_15")
    return two, one, two.read(table.image).cards, one.read(table.image).cards


def test_a_second_detector_beside_the_first_joins_it(tmp_path):
    # A weights folder with detector2.onnx asks both detectors (vision.onnx.DetectorGroup).
    # The same detector twice: each index's candidates twice, so the same fused boxes (to
    # float rounding, which may move a crop's edge a pixel) and scores, and the same cards read
    # as by the one detector alone.
    two, one, got, alone = _twice(tmp_path, "detector")
    assert two.detectors == 2 and one.detectors == 1
    assert [c.card for c in got] == [c.card for c in alone] and got
    assert [c.confidence for c in got] == pytest.approx([c.confidence for c in alone], abs=0.01)


def test_a_second_classifier_beside_the_first_joins_it(tmp_path):
    # A weights folder with classifier2.onnx reads each index with both, their probabilities
    # averaged (vision.onnx.ClassifierGroup): the same classifier twice reads exactly as one.
    two, one, got, alone = _twice(tmp_path, "classifier")
    assert two.classifiers == 2 and one.classifiers == 1
    assert [(c.card, c.confidence) for c in got] == [(c.card, c.confidence) for c in alone] and got


def test_a_video_stream_reads_as_its_frames_with_every_look_read(reader):
    """The live video takes the looks on one frame in four and reads the frames between at the
    aspect they chose: a still hand then shows the cards a full read of it gives."""
    table = _photo("webcam_WIN__WIN_20240627_12_09_15")
    frame = cv2.imread(str(table.image))
    full = reader.read(frame)
    at = reader.read(frame, aspect=full.aspect)
    assert at.codes() == full.codes() and at.aspect == full.aspect
    stable = StableReader(reader, window=8)
    shown = [sorted(stable.update(frame).codes()) for _ in range(5)]
    assert shown == [sorted(full.codes())] * 5
