"""The classifier's data handling (no training here: see test_train_smoke)."""

import numpy as np
import pytest

from models.classifier import CHANNELS, augment, load_crops


def _write(folder, x):
    np.savez_compressed(folder / "train-0000.npz", x=x, y=np.zeros(len(x), np.int16))


def test_grey_crops_of_an_old_data_set_are_refused_by_name(tmp_path):
    _write(tmp_path, np.zeros((5, 32, 32), np.uint8))
    with pytest.raises(ValueError, match="write the data set again"):
        load_crops(tmp_path, "train")


def test_colour_crops_load(tmp_path):
    _write(tmp_path, np.zeros((5, 32, 32, CHANNELS), np.uint8))
    x, y = load_crops(tmp_path, "train")
    assert x.shape == (5, 32, 32, CHANNELS) and y.dtype == np.int64


def test_augment_keeps_shape_and_does_not_invert():
    rng = np.random.default_rng(0)
    batch = np.full((64, 32, 32, 3), 230, np.uint8)  # a white card face
    batch[:, 10:20, 10:20] = (20, 20, 200)  # with a red glyph
    out = augment(rng, batch)
    assert out.shape == batch.shape and out.dtype == np.uint8
    # The face stays the lighter part in every crop: no polarity flip.
    assert (out[:, 2:6, 2:6].mean((1, 2, 3)) > out[:, 12:18, 12:18].mean((1, 2, 3))).all()


def test_learning_rate_warms_up_then_anneals():
    from models.classifier import lr_at

    assert lr_at(0, 1.0) == pytest.approx(1 / 25)
    assert lr_at(0.15, 1.0) == pytest.approx(1.0)
    assert lr_at(1.0, 1.0) == pytest.approx(1e-4)
    assert lr_at(2.0, 1.0) == lr_at(1.0, 1.0)  # past the budget: stays at the floor
    rising = [lr_at(p / 100, 1.0) for p in range(16)]
    falling = [lr_at(p / 100, 1.0) for p in range(15, 101)]
    assert rising == sorted(rising) and falling == sorted(falling, reverse=True)


def _tiny_crops(folder, n=96, seed=0):
    """Random crops that record which way their indices face (training turns them upright)."""
    rng = np.random.default_rng(seed)
    for split in ("train", "val"):
        y = rng.integers(0, 53, n).astype(np.int16)
        x = rng.integers(0, 255, (n, 32, 32, CHANNELS)).astype(np.uint8)
        np.savez_compressed(folder / f"{split}-0000.npz", x=x, y=y, up=rng.uniform(0, 360, n).astype(np.float32))


def test_a_time_budget_stops_training_and_workers_augment(tmp_path):
    from models.classifier import train_classifier

    _tiny_crops(tmp_path)
    metrics = train_classifier(tmp_path, tmp_path / "out", epochs=10_000, batch=32, threads=1, workers=1,
                               minutes=0.05, export=False, log=lambda _: None)
    epochs = len(metrics["history"])
    assert 1 <= epochs < 10_000 and 0 <= metrics["val_top1"] <= 1
    assert (tmp_path / "out" / "classifier.pt").exists() and not (tmp_path / "out" / "classifier.onnx").exists()


def test_a_budget_spent_between_epochs_records_no_empty_epoch(tmp_path, monkeypatch):
    # A budget that runs out after the next epoch has begun, before its first batch, leaves an
    # epoch that trained nothing: no row for it (not a row of 0 crops seen).
    import types

    import models.classifier as classifier

    _tiny_crops(tmp_path)
    budget = 60.0  # seconds: minutes=1
    clock = {"now": 0.0, "step": 0.001, "late": False}

    def now() -> float:
        t = clock["now"]
        clock["now"] += clock["step"]
        return t

    def log(line: str) -> None:  # after the first epoch's row: the budget runs out one call later
        if '"epoch"' in line and not clock["late"]:
            clock.update(now=budget - 1.5, step=1.0, late=True)

    monkeypatch.setattr(classifier, "time", types.SimpleNamespace(time=now))
    metrics = classifier.train_classifier(tmp_path, tmp_path / "out", epochs=5, batch=32, threads=1, minutes=1,
                                          export=False, log=log)
    assert [row["crops_seen"] for row in metrics["history"]] == [96]
    assert metrics["epochs_run"] == 1 and metrics["val_top1"] == metrics["history"][0]["val_top1"]


def test_augment_shows_some_crops_without_colour():
    # Black-and-white photos exist (phone filters, night webcams): a red index must then be
    # read by its shape, so training shows some crops with no colour left.
    rng = np.random.default_rng(1)
    batch = np.full((400, 32, 32, 3), 230, np.uint8)
    batch[:, 10:20, 10:20] = (20, 20, 200)  # a red glyph
    out = augment(rng, batch).astype(int)
    chroma = np.abs(out[..., 2] - out[..., 0]).mean((1, 2))
    assert 0.08 <= (chroma < 3).mean() <= 0.3  # washed-out colour alone keeps more than that


def test_crops_of_two_sides_in_one_folder_are_refused(tmp_path):
    np.savez_compressed(tmp_path / "train-0000.npz", x=np.zeros((2, 32, 32, 3), np.uint8), y=np.zeros(2, np.int16))
    np.savez_compressed(tmp_path / "train-0001.npz", x=np.zeros((2, 48, 48, 3), np.uint8), y=np.zeros(2, np.int16))
    with pytest.raises(ValueError, match="not all one size"):
        load_crops(tmp_path, "train")


def _crops_of_side(folder, side, n=64, seed=0):
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for split in ("train", "val"):
        x = rng.integers(0, 255, (n, side, side, CHANNELS)).astype(np.uint8)
        np.savez_compressed(folder / f"{split}-0000.npz", x=x, y=rng.integers(0, 53, n).astype(np.int16),
                            up=np.zeros(n, np.float32))


@pytest.mark.slow
def test_weights_trained_at_32_go_on_at_48_and_export_a_48_px_input(tmp_path):
    # The network pools globally: a 32-px classifier can go on training on 48-px crops, and the
    # ONNX it exports then asks for 48-px crops, which the reader cuts (IndexClassifier.size).
    from models.classifier import train_classifier
    from vision.networks import IndexClassifier

    _crops_of_side(tmp_path / "c32", 32)
    _crops_of_side(tmp_path / "c48", 48)
    logged = []
    quiet = {"batch": 32, "threads": 1, "log": logged.append}
    first = train_classifier(tmp_path / "c32", tmp_path / "w", epochs=1, **quiet)
    assert first["crop"] == 32 and IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1).size == 32
    assert not any("px crops" in line for line in logged)
    second = train_classifier(tmp_path / "c48", tmp_path / "w", epochs=1, resume=tmp_path / "w" / "classifier.pt",
                              **quiet)
    assert any("last trained on 32-px crops, these are 48 px" in line for line in logged)
    assert second["crop"] == 48 and [h["crop"] for h in second["history"]] == [32, 48]
    clf = IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1)
    assert clf.size == 48
    assert clf(np.zeros((3, 48, 48, 3), np.uint8)).shape == (3, 53)


def test_a_grown_classifier_first_reads_exactly_as_the_one_it_grew_from():
    import torch

    from models.classifier import GROWN, arch_of, build_model, load_model

    torch.manual_seed(0)
    base = build_model()
    for m in base.modules():  # batch-norm statistics that are not the identity
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
    state = {"model": base.state_dict(), "history": []}
    assert arch_of(state) == "base"
    grown = load_model(state, grow=True).eval()
    assert sorted(grown.extra) == sorted(str(i) for i in GROWN)
    x = torch.randn(6, CHANNELS, 32, 32)
    with torch.no_grad():
        assert torch.equal(base.eval()(x), grown(x))
        grown.extra["20"].f[4].weight.fill_(1.0)  # once the blocks have learnt, they change the reading
        assert not torch.allclose(base(x), grown(x))
    again = {"model": grown.state_dict()}
    assert arch_of(again) == "grown" and type(load_model(again, grow=True)).__name__ == "Grown"
    with pytest.raises(ValueError, match="unknown classifier arch 'wide'"):
        build_model(arch="wide")


@pytest.mark.slow
def test_grown_weights_train_resume_and_export(tmp_path):
    from models.classifier import train_classifier
    from models.train import export_classifier
    from vision.networks import IndexClassifier

    _crops_of_side(tmp_path / "c", 32)
    logged = []
    quiet = {"batch": 32, "threads": 1, "log": logged.append}
    train_classifier(tmp_path / "c", tmp_path / "w", epochs=1, **quiet)
    grown = train_classifier(tmp_path / "c", tmp_path / "w", epochs=1, resume=tmp_path / "w" / "classifier.pt",
                             grow=True, **quiet)
    assert any("grown: residual blocks added" in line for line in logged)
    assert grown["arch"] == "grown" and [h.get("arch") for h in grown["history"]] == ["base", "grown"]
    again = train_classifier(tmp_path / "c", tmp_path / "w", epochs=1, resume=tmp_path / "w" / "classifier.pt",
                             **quiet)  # a grown checkpoint goes on grown, asked or not
    assert again["arch"] == "grown" and len(again["history"]) == 3
    clf = IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1)
    assert clf(np.zeros((2, 32, 32, 3), np.uint8)).shape == (2, 53)
    import models.train as train

    train.WEIGHTS, saved = tmp_path / "exported", train.WEIGHTS
    try:
        assert IndexClassifier(export_classifier(tmp_path / "w" / "classifier.pt"), threads=1).size == 32
    finally:
        train.WEIGHTS = saved


def test_a_seed_gives_its_own_classifier_and_the_same_seed_the_same(tmp_path):
    # a group's members are trained apart by seed (ginsight train --cls-seed): another seed must start
    # (and so end) elsewhere, and one seed must give the same weights again
    import torch

    from models.classifier import train_classifier

    _tiny_crops(tmp_path)
    first = {}
    for name, seed in (("a", 0), ("b", 0), ("c", 41)):
        train_classifier(tmp_path, tmp_path / name, epochs=1, batch=32, threads=1, seed=seed, export=False,
                         log=lambda _: None)
        state = torch.load(tmp_path / name / "classifier.pt", map_location="cpu")["model"]
        first[name] = next(v for k, v in state.items() if k.endswith("weight"))
    assert torch.equal(first["a"], first["b"])
    assert not torch.allclose(first["a"], first["c"])


def test_swa_holds_the_learning_rate_after_a_warm_up():
    from models.classifier import swa_lr

    assert swa_lr(0.0, 1e-3) == pytest.approx(1e-3 / 25)
    assert swa_lr(0.025, 1e-3) == pytest.approx(1e-3 * (1 / 25 + (24 / 25) / 2))
    assert swa_lr(0.05, 1e-3) == swa_lr(0.5, 1e-3) == swa_lr(1.0, 1e-3) == 1e-3


def test_swa_ships_the_average_of_every_epoch_and_keeps_the_last(tmp_path):
    # ginsight train --cls-swa: classifier.pt (and the ONNX) the average, with its batch norms taken
    # again; classifier-last.pt the last epoch's weights; the history says how many epochs were averaged
    import torch

    from models.classifier import load_model, train_classifier
    from vision.networks import IndexClassifier

    _tiny_crops(tmp_path)
    metrics = train_classifier(tmp_path, tmp_path / "w", epochs=3, batch=32, threads=1, swa=True, lr=1e-2,
                               log=lambda _: None)
    last = metrics["history"][-1]
    assert last["swa_epochs"] == 3 and metrics["val_top1"] == last["swa_val_top1"]
    avg = torch.load(tmp_path / "w" / "classifier.pt", map_location="cpu")
    raw = torch.load(tmp_path / "w" / "classifier-last.pt", map_location="cpu")
    assert avg["history"] == [*raw["history"][:-1], last] and len(avg["history"]) == 3
    conv = next(k for k, v in avg["model"].items() if k.endswith("weight") and v.ndim == 4)
    assert not torch.allclose(avg["model"][conv], raw["model"][conv])  # three epochs' mean, not the last
    bn = next(k for k in avg["model"] if k.endswith("running_mean"))
    assert not torch.allclose(avg["model"][bn], raw["model"][bn])  # statistics taken again
    load_model(avg)  # loads as any checkpoint, and goes on training as one
    clf = IndexClassifier(tmp_path / "w" / "classifier.onnx", threads=1)
    x = np.zeros((2, 32, 32, 3), np.uint8)
    assert clf(x, turns=1).shape == (2, 53)
    plain = train_classifier(tmp_path, tmp_path / "p", epochs=1, batch=32, threads=1, export=False,
                             log=lambda _: None)
    assert "swa_epochs" not in plain["history"][-1] and not (tmp_path / "p" / "classifier-last.pt").exists()
