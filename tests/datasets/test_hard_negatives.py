"""Hard negatives: the detector's boxes on training photos that touch no labelled index."""

import json

import cv2
import numpy as np

from datasets.hard_negatives import false_alarms, main, mine, read_as_card


def test_a_box_on_a_labelled_index_is_not_a_false_alarm():
    truth = [(10.0, 10.0, 30.0, 30.0)]
    boxes = np.array([[12, 12, 31, 29], [60, 60, 80, 80], [25, 25, 45, 45]], np.float32)
    # the third overlaps the index by 25 of 775 pixels: IoU 0.03, under MAX_IOU
    assert false_alarms(boxes, truth) == [1, 2]
    assert false_alarms(boxes, []) == [0, 1, 2]


def _data(tmp_path):
    names = json.dumps(["AS", "2S"])
    (tmp_path / "data.yaml").write_text(f"path: {tmp_path}\ntrain: images/train\nval: images/val\nnames: {names}\n")
    (tmp_path / "summary.json").write_text(json.dumps({"size": 64}))
    for split in ("train", "val"):
        (tmp_path / "images" / split).mkdir(parents=True)
        (tmp_path / "labels" / split).mkdir(parents=True)
        img = np.full((64, 64, 3), 200, np.uint8)
        img[40:60, 40:60] = 30  # something dark where no index is labelled
        cv2.imwrite(str(tmp_path / "images" / split / "p.png"), img)
        (tmp_path / "labels" / split / "p.txt").write_text("0 0.25 0.25 0.25 0.25\n")  # AS at 8..24
    return tmp_path


def fake_detector(img, conf, scales):
    assert conf == 0.2 and scales == (1.0,)
    return np.array([[8, 8, 24, 24], [40, 40, 60, 60]], np.float32), np.array([0.9, 0.5], np.float32)


def test_false_alarms_are_cut_from_training_photos_only(tmp_path):
    data = _data(tmp_path)
    seen = []
    x, counts = mine(data, fake_detector, 16, conf=0.2, scales=(1.0,), progress=lambda d, t: seen.append((d, t)))
    assert counts == {"photos": 1, "boxes": 2, "false_alarms": 1, "kept": 1} and seen == [(1, 1)]
    assert x.shape == (1, 16, 16, 3) and x[0, 8, 8].max() == 30  # the dark square, not the index


def test_the_command_writes_a_shard_of_no_index_crops(tmp_path, monkeypatch):
    import vision.networks

    data = _data(tmp_path)

    class Detector:
        def __init__(self, path):
            pass

        def __call__(self, img, conf, scales, iou=0.5):
            return fake_detector(img, 0.2, (1.0,))

    class Classifier:
        size = 16

        def __init__(self, path):
            pass

    monkeypatch.setattr(vision.networks, "IndexDetector", Detector)
    monkeypatch.setattr(vision.networks, "IndexClassifier", Classifier)
    assert main(["--data", str(data), "--weights", str(tmp_path)]) == 0
    shard = np.load(data / "crops-neg" / "train-neg-0000.npz")
    assert shard["x"].shape == (1, 16, 16, 3) and shard["y"].tolist() == [52]
    assert json.loads((data / "crops-neg" / "summary.json").read_text())["false_alarms"] == 1

    # With the classifier in the loop, asked as the reader asks it: kept only when it reads a card
    # there, written --repeat times. The reader's own networks mine and keep: none loaded twice.
    import vision.reader

    loaded = []

    class Counted(Detector):
        def __init__(self, path):
            loaded.append(path)

    monkeypatch.setattr(vision.networks, "IndexDetector", Counted)
    monkeypatch.setattr(vision.networks, "IndexClassifier", Counted)

    from types import SimpleNamespace

    class Reader:
        read_as = 3
        networks = SimpleNamespace(detector=Detector(None), classifier=Classifier(None))

        def __init__(self, path):
            assert path == tmp_path

        def crop_probs(self, crops):
            return np.eye(53, dtype=np.float32)[[self.read_as] * len(crops)]

    monkeypatch.setattr(vision.reader, "Reader", Reader)
    out = tmp_path / "neg2"
    assert main(["--data", str(data), "--weights", str(tmp_path), "--read-as-card", "--repeat", "3",
                 "--out", str(out)]) == 0
    shard = np.load(out / "train-neg-0000.npz")
    assert shard["x"].shape == (3, 16, 16, 3) and shard["y"].tolist() == [52] * 3
    summary = json.loads((out / "summary.json").read_text())
    assert summary["kept"] == 1 and summary["written"] == 3 and summary["read_as_card"] is True
    Reader.read_as = 52
    assert main(["--data", str(data), "--weights", str(tmp_path), "--read-as-card", "--out", str(out)]) == 0
    assert np.load(out / "train-neg-0000.npz")["x"].shape == (0, 16, 16, 3)
    assert loaded == []


def test_skip_passes_over_the_photos_an_earlier_round_mined(tmp_path):
    data = _data(tmp_path)
    x, counts = mine(data, fake_detector, 16, conf=0.2, scales=(1.0,), skip=1)
    assert counts == {"photos": 0, "boxes": 0, "false_alarms": 0, "kept": 0} and x.shape == (0, 16, 16, 3)


def test_keep_chooses_among_the_false_alarms(tmp_path):
    data = _data(tmp_path)
    got = []

    def keep(crops, scores):
        got.append((crops.shape, scores.tolist()))
        return np.zeros(len(crops), bool)

    x, counts = mine(data, fake_detector, 16, conf=0.2, scales=(1.0,), keep=keep)
    assert got == [((1, 16, 16, 3), [0.5])]  # only the false alarm, with its detector score
    assert counts["false_alarms"] == 1 and counts["kept"] == 0 and len(x) == 0


def test_read_as_card_keeps_what_the_reader_would_report():
    from vision.settings import Settings

    def classifier(crops):
        p = np.zeros((3, 53), np.float32)
        p[0, 5] = 0.9   # a card, sure: sqrt(0.5 x 0.9) = 0.67 -> reported
        p[1, 52] = 0.9  # "no index"
        p[2, 7] = 0.2   # a card, unsure: sqrt(0.5 x 0.2) = 0.32 < min_index 0.35
        return p

    keep = read_as_card(classifier, Settings())
    assert keep(np.zeros((3, 8, 8, 3), np.uint8), np.full(3, 0.5, np.float32)).tolist() == [True, False, False]
