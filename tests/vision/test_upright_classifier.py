"""A classifier of crops turned upright first (``ginsight train --cls-upright``): trained on
crops turned upright by the way their index faces, it is given the photo's crops turned upright
by the way-up reader's angle and reads each once."""

import shutil
from types import SimpleNamespace

import numpy as np
import pytest

from tests.models.test_way_up import bar_above_ink, tee


class _Net:
    """An index classifier that keeps what it is given."""

    size, classes = 32, 53

    def __init__(self, upright):
        self.upright, self.seen = upright, []

    def __call__(self, crops, turns=1):
        self.seen.append((crops, turns))
        return np.full((len(crops), 53), 1 / 53, np.float32)


def _reader(net, asked):
    from vision.reader import Reader, Settings

    reader = Reader.__new__(Reader)
    reader.settings, reader.classifier = Settings(cls_turns=4, cls_up_tilts=(0.0,)), net  # one read a look
    reader.way_up = SimpleNamespace(degrees=lambda patches: asked.append(len(patches)) or np.full(len(patches), 180.0))
    return reader


def _photo():
    """A 200 px photo with one 48 px T upside down (bar below) at (76, 76), its box and crop."""
    from vision.crops import crop_square

    img = np.full((200, 200, 3), 225, np.uint8)
    img[76:124, 76:124] = tee(48, 180.0)
    box = np.array([[80.0, 80.0, 120.0, 120.0]], np.float32)
    return img, box, np.stack([crop_square(img, tuple(box[0]), 32)])


def test_an_upright_classifier_reads_every_look_turned_upright_by_the_way_up_readers_angle_once():
    img, box, crops = _photo()
    asked = []
    net = _Net(upright=True)
    reader = _reader(net, asked)
    assert reader.classifier_probs(img, box, crops).shape == (1, 53)
    (seen, turns), = net.seen
    assert turns == 1 and len(seen) == len(reader.settings.cls_margins) == 3  # the three framings, one batch
    assert all(bar_above_ink(c) for c in seen)  # each turned upright
    assert asked == [1]  # the way-up reader asked once, about the training-margin crop
    net.seen.clear()
    reader.classifier_probs(img, box, crops, degrees=np.array([180.0]))  # ways already asked: not again
    assert asked == [1] and all(bar_above_ink(c) for c in net.seen[0][0])


def test_a_classifier_of_crops_at_any_turn_reads_them_as_cut_at_its_turns():
    img, box, crops = _photo()
    asked = []
    net = _Net(upright=False)
    _reader(net, asked).classifier_probs(img, box, crops)
    (seen, turns), = net.seen
    assert turns == 4 and not any(bar_above_ink(c) for c in seen) and asked == []


def test_turned_looks_are_each_asked_their_own_way_up():
    # cls_tilts: a look cut from the photo turned faces another way than the crop's
    from vision.reader import Settings

    img, box, crops = _photo()
    asked = []
    net = _Net(upright=True)
    reader = _reader(net, asked)
    reader.settings = Settings(cls_margins=(1.15,), cls_tilts=(45.0,), cls_up_tilts=(0.0,))
    reader.classifier_probs(img, box, crops)
    assert asked == [1, 1] and len(net.seen[0][0]) == 2


def test_a_weights_folder_with_an_upright_classifier_and_no_way_up_reader_is_refused(tmp_path):
    from models.classifier import build_model, export_onnx
    from vision.reader import DEFAULT_WEIGHTS, Reader

    shutil.copy(DEFAULT_WEIGHTS / "detector.onnx", tmp_path / "detector.onnx")
    export_onnx(build_model(), tmp_path / "classifier.onnx", metadata={"upright": "true"})
    with pytest.raises(FileNotFoundError, match=r"way_up\.onnx.*classifier"):
        Reader(tmp_path)
    shutil.copy(DEFAULT_WEIGHTS / "way_up.onnx", tmp_path / "way_up.onnx")
    reader = Reader(tmp_path)
    assert reader.classifier.upright and Reader(DEFAULT_WEIGHTS).classifier.upright  # shipped since session 43
    from pathlib import Path

    photo = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "real-dev" / "images").glob("*.jpg"))[0]
    asked = []
    cos_sin = reader.way_up.cos_sin
    reader.way_up.cos_sin = lambda patches: asked.append(len(patches)) or cos_sin(patches)
    assert reader.read(str(photo)).indices is not None and asked  # a photo read end to end, the way-up reader asked


def _tee_crops(folder, n=64, seed=0, up=True):
    """Crops of upside-down Ts, recorded so (``up`` 180), of random cards; and
    false alarms (class 52) in a file that records no way up, as ``datasets.mix`` links them."""
    rng = np.random.default_rng(seed)
    for split in ("train", "val"):
        x = np.stack([tee(32, 180.0)] * n)
        y = rng.integers(0, 52, n).astype(np.int16)
        np.savez_compressed(folder / f"{split}-0000.npz", x=x, y=y,
                            **({"up": np.full(n, 180.0, np.float32)} if up else {}))
        np.savez_compressed(folder / f"{split}-neg-0000.npz", x=x[:8], y=np.full(8, 52, np.int16))


def test_the_training_crops_are_turned_upright_by_their_recorded_way(tmp_path):
    from models.classifier import _training_crops

    _tee_crops(tmp_path)
    x, y, x_val, y_val = _training_crops(tmp_path, upright=True)
    cards, alarms = x[y < 52], x[y == 52]
    assert len(cards) == 64 and all(bar_above_ink(c) for c in cards)
    assert len(alarms) == 8 and not all(bar_above_ink(c) for c in alarms)  # turned any way
    assert len(x_val) == 72 and all(bar_above_ink(c) for c in x_val[y_val < 52])
    x, _, _, _ = _training_crops(tmp_path, upright=False)
    assert not any(bar_above_ink(c) for c in x)  # as written
    for f in tmp_path.glob("*.npz"):
        f.unlink()
    _tee_crops(tmp_path, up=False)  # cards that do not say which way they face
    with pytest.raises(ValueError, match="which way its indices face"):
        _training_crops(tmp_path, upright=True)


def test_an_upright_classifier_trains_resumes_and_says_so_in_its_files(tmp_path):
    import torch

    from models.classifier import train_classifier
    from models.train import export_classifier
    from vision.onnx import IndexClassifier

    _tee_crops(tmp_path)
    logs = []
    metrics = train_classifier(tmp_path, tmp_path / "w", epochs=1, batch=32, threads=1, upright=True, log=logs.append)
    state = torch.load(tmp_path / "w" / "classifier.pt", map_location="cpu")
    assert state["upright"] and metrics["upright"] and metrics["history"][-1]["upright"]
    assert IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1).upright
    (tmp_path / "w" / "classifier.onnx").unlink()
    export_classifier(tmp_path / "w" / "classifier.pt", weights=tmp_path / "w")  # ginsight train --export
    assert IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1).upright
    train_classifier(tmp_path, tmp_path / "p", epochs=1, batch=32, threads=1, export=False,
                     resume=tmp_path / "w" / "classifier.pt", log=logs.append)  # back to crops at any turn
    assert not torch.load(tmp_path / "p" / "classifier.pt", map_location="cpu")["upright"]
    assert any("goes on with crops at any turn" in line for line in logs)


def test_an_upright_classifier_reads_each_look_at_each_tilt_off_the_way_up_angle_and_averages():
    from vision.crops import turn_upright
    from vision.reader import Settings

    img, box, crops = _photo()
    asked = []

    class _Dark(_Net):  # its first card's probability is how dark the crop's top rows are
        def __call__(self, crops, turns=1):
            self.seen.append((crops, turns))
            dark = 1 - crops[:, :12].mean((1, 2, 3)) / 255
            return np.column_stack([dark, 1 - dark, np.zeros((len(crops), 51))]).astype(np.float32)

    net = _Dark(upright=True)
    reader = _reader(net, asked)
    reader.settings = Settings(cls_margins=(1.15,), cls_up_tilts=(-20.0, 0.0, 20.0))
    probs = reader.classifier_probs(img, box, crops)
    (seen, turns), = net.seen
    assert turns == 1 and len(seen) == 3 and asked == [1]  # one batch, the way asked once
    for k, t in enumerate((-20.0, 0.0, 20.0)):
        assert np.array_equal(seen[k], turn_upright(crops, np.array([180.0 + t]))[0])
    each = [1 - turn_upright(crops, np.array([180.0 + t]))[0, :12].mean() / 255 for t in (-20.0, 0.0, 20.0)]
    assert probs[0, 0] == pytest.approx(np.mean(each), abs=1e-6)
    with pytest.raises(ValueError, match="cls_up_tilts must hold at least one angle"):
        Settings(cls_up_tilts=())


def test_an_upright_classifier_with_weight_averaging_takes_its_batch_norms_over_upright_batches(tmp_path, monkeypatch):
    # --cls-swa --cls-upright: the averaged network's batch norms are taken again over batches
    # made as its training made them (turned a little), not turned any way
    import models.classifier as classifier

    made = []

    class Spy(classifier._Batches):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self.upright)

    monkeypatch.setattr(classifier, "_Batches", Spy)
    _tee_crops(tmp_path)
    classifier.train_classifier(tmp_path, tmp_path / "w", epochs=2, batch=32, threads=1, swa=True, upright=True,
                                export=False, log=lambda _: None)
    assert made == [True, True, True]  # two epochs' batches, then the batch norms'


def test_an_upright_classifier_refuses_to_read_crops_at_several_turns():
    # it learnt upright crops only: read at four turns, three of every four reads are of crops
    # turned a way it never saw (benchmark scripts did so silently before session 49)
    from vision.onnx import IndexClassifier
    from vision.reader import DEFAULT_WEIGHTS

    net = IndexClassifier(DEFAULT_WEIGHTS / "classifier.onnx", threads=1)
    crops = np.stack([tee(net.size, 0.0)] * 2)
    assert net.upright and net(crops).shape == (2, 53)
    for turns in (2, 4):
        with pytest.raises(ValueError, match=r"turned upright.*Reader\.crop_probs"):
            net(crops, turns=turns)


def test_crop_probs_asks_the_classifier_as_the_reader_does_a_batch_at_a_time():
    asked = []
    net = _Net(upright=True)
    reader = _reader(net, asked)
    crops = np.stack([tee(32, 180.0)] * 5)
    assert reader.crop_probs(crops, batch=2).shape == (5, 53)
    assert asked == [2, 2, 1] and [len(c) for c, _ in net.seen] == [2, 2, 1]  # three batches, each its way asked
    assert all(turns == 1 and all(bar_above_ink(c) for c in seen) for seen, turns in net.seen)  # turned upright
    assert reader.crop_probs(crops[:0]).shape == (0, 53) and asked == [2, 2, 1]  # none: nothing asked
    plain = _Net(upright=False)
    _reader(plain, asked).crop_probs(crops)
    assert [t for _, t in plain.seen] == [4] and asked == [2, 2, 1]  # at cls_turns, as cut
