"""models.suit: the suit reader's data (black crops only) and a tiny training run, offline."""

import numpy as np
import pytest

from engine.cards import CODES
from models import suit


def test_black_only_keeps_spades_and_clubs_labelled_spade_0_club_1():
    y = np.array([CODES.index(c) for c in ("AS", "AH", "KC", "5D", "TS", "2C")] + [52])
    x = np.arange(len(y))[:, None, None, None] * np.ones((1, 48, 48, 3), np.uint8)
    xb, yb = suit.black_only(x, y)
    assert yb.tolist() == [0, 1, 0, 1]
    assert xb[:, 0, 0, 0].tolist() == [0, 2, 4, 5]


def _shards(folder, side, rng):
    folder.mkdir()
    for split, n in (("train", 64), ("val", 16)):
        y = rng.choice([CODES.index(c) for c in ("7S", "7C", "7H")], n).astype(np.int16)
        x = np.full((n, side, side, 3), 230, np.uint8)
        # a spade: a bar across; a club: a bar down (the network need only tell them apart)
        for i, k in enumerate(y):
            if CODES[k].endswith("S"):
                x[i, side // 2 - 3:side // 2 + 3, 8:-8] = 20
            else:
                x[i, 8:-8, side // 2 - 3:side // 2 + 3] = 20
        np.savez_compressed(folder / f"{split}-0000.npz", x=x, y=y, up=np.zeros(n, np.float32))  # drawn upright


def test_a_tiny_run_writes_weights_onnx_and_metrics(tmp_path):
    from vision.networks import IndexClassifier

    _shards(tmp_path / "crops", 48, np.random.default_rng(0))
    metrics = suit.train([tmp_path / "crops"], tmp_path / "out", minutes=0.15, epochs=2, batch=16, log=lambda *_: None)
    assert metrics["history"] and metrics["side"] == 48
    assert set(metrics["train_crops"]) == {str(tmp_path / "crops")}
    net = IndexClassifier(tmp_path / "out" / "suit.onnx")
    assert (net.size, net.channels, net.classes) == (48, 1, 2)
    assert net.upright
    p = net(np.full((3, 48, 48, 3), 200, np.uint8))
    assert p.shape == (3, 2) and np.allclose(p.sum(1), 1, atol=1e-5)
    assert net(np.zeros((0, 48, 48, 3), np.uint8)).shape == (0, 2)


def test_crops_of_another_side_are_refused(tmp_path):
    _shards(tmp_path / "crops", 32, np.random.default_rng(0))
    with pytest.raises(ValueError, match="48-px"):
        suit.train([tmp_path / "crops"], tmp_path / "out", minutes=0.1, log=lambda *_: None)


def test_export_weights_writes_an_onnx_that_reads_as_the_checkpoint(tmp_path):
    import torch

    from vision.networks import IndexClassifier

    model = suit.build_model().eval()
    torch.save({"model": model.state_dict(), "history": []}, tmp_path / "suit.pt")
    out = suit.export_weights(tmp_path / "suit.pt")
    assert out == tmp_path / "suit.onnx"
    x = np.random.default_rng(1).integers(0, 255, (4, 48, 48, 3), dtype=np.uint8)
    from vision.crops import normalise, to_grey

    with torch.no_grad():
        want = torch.softmax(model(torch.from_numpy(normalise(to_grey(x)))), 1).numpy()
    assert np.allclose(IndexClassifier(out)(x), want, atol=1e-4)


def test_resume_goes_on_from_the_weights_and_carries_the_history(tmp_path):
    import torch

    _shards(tmp_path / "crops", 48, np.random.default_rng(0))
    quiet = {"batch": 16, "log": lambda *_: None}
    first = suit.train([tmp_path / "crops"], tmp_path / "a", minutes=0.1, epochs=1, **quiet)
    start = torch.load(tmp_path / "a" / "suit.pt")["model"]
    again = suit.train([tmp_path / "crops"], tmp_path / "b", minutes=0.1, epochs=1, lr=0.0, resume=tmp_path / "a" / "suit.pt",
                       **quiet)
    assert [row["epoch"] for row in again["history"]] == [1, 2]
    assert again["history"][0] == first["history"][0] and again["history"][1]["resumed"].endswith("suit.pt")
    # lr 0 (weight decay included): the weights it went on from are the weights it ends with
    end = torch.load(tmp_path / "b" / "suit.pt")["model"]
    assert all(torch.equal(start[k], end[k]) for k in start if "running" not in k and "num_batches" not in k)


def test_resume_from_a_missing_file_is_refused_by_name(tmp_path, capsys):
    with pytest.raises(SystemExit):
        suit.main(["--data", str(tmp_path), "--out", str(tmp_path / "o"), "--minutes", "1", "--resume",
                   str(tmp_path / "nowhere.pt")])
    assert "--resume: no " + str(tmp_path / "nowhere.pt") in capsys.readouterr().err


def turned_shards(folder, with_up=True):
    """Black and red 7s as T's (a spade's bar across the top, a club's down the middle: only
    upright do they differ by where the bar is), each turned some way, that way recorded."""
    from tests.models.test_way_up import tee

    folder.mkdir()
    for split, n in (("train", 32), ("val", 8)):
        up = np.linspace(0, 350, n).astype(np.float32)
        x = np.stack([tee(48, float(a)) for a in up])
        y = np.array([CODES.index(c) for c in ("7S", "7C", "7H", "7D")] * (n // 4), np.int16)
        np.savez_compressed(folder / f"{split}-0000.npz", x=x, y=y, **({"up": up} if with_up else {}))


def test_the_crops_are_turned_upright_by_their_recorded_way_and_refused_without_it(tmp_path):
    from tests.models.test_way_up import bar_above_ink

    turned_shards(tmp_path / "crops")
    x, y, counts = suit.load([tmp_path / "crops"], "train")
    assert counts == [16] and set(y.tolist()) == {0, 1}  # the black ones only: spade 0, club 1
    assert all(bar_above_ink(c) for c in x)
    turned_shards(tmp_path / "old", with_up=False)
    with pytest.raises(ValueError, match="which way"):
        suit.load([tmp_path / "old"], "train")


def test_a_run_says_its_crops_are_upright_in_its_weights_and_onnx_and_export_keeps_it(tmp_path):
    import torch

    from vision.networks import IndexClassifier

    turned_shards(tmp_path / "crops")
    suit.train([tmp_path / "crops"], tmp_path / "out", minutes=0.1, epochs=1, batch=8, log=lambda *_: None)
    assert torch.load(tmp_path / "out" / "suit.pt")["upright"]
    assert IndexClassifier(tmp_path / "out" / "suit.onnx").upright
    (tmp_path / "out" / "suit.onnx").unlink()
    assert IndexClassifier(suit.export_weights(tmp_path / "out" / "suit.pt")).upright


def test_going_on_from_a_reader_of_crops_at_any_turn_trains_it_upright_and_says_so(tmp_path):
    import torch

    from vision.networks import IndexClassifier

    turned_shards(tmp_path / "crops")
    torch.save({"model": suit.build_model().state_dict(), "history": []}, tmp_path / "old.pt")
    assert not IndexClassifier(suit.export_weights(tmp_path / "old.pt")).upright  # exported as it was trained
    logs = []
    suit.train([tmp_path / "crops"], tmp_path / "out", minutes=0.1, epochs=1, batch=8, resume=tmp_path / "old.pt",
               log=logs.append)
    assert any("at any turn; it goes on with crops turned upright" in line for line in logs)
    assert IndexClassifier(tmp_path / "out" / "suit.onnx").upright
