"""``ginsight train``'s (and ``dataset``'s) bad usage: one line naming what is wrong, exit 2 (no training here)."""

import pytest

from cli.main import main


def test_train_without_data_says_so(capsys):
    assert main(["train"]) == 2
    err = capsys.readouterr().err
    assert "--data DIR is required" in err and err.count("\n") == 1


def test_train_on_a_folder_without_data_yaml(tmp_path, capsys):
    assert main(["train", "--data", str(tmp_path)]) == 2
    assert "has no data.yaml" in capsys.readouterr().err
    assert main(["train", "--data", str(tmp_path), "--what", "detector"]) == 2
    assert "has no data.yaml" in capsys.readouterr().err


def test_the_classifier_trains_from_crops_alone(tmp_path, capsys):
    # a folder of linked crops (python -m datasets.mix) has no data.yaml: what it lacks is crops
    assert main(["train", "--data", str(tmp_path), "--what", "classifier"]) == 2
    err = capsys.readouterr().err
    assert "crops has no training crops" in err and "data.yaml" not in err


def test_export_without_weights_says_so(tmp_path, monkeypatch, capsys):
    import models.train as train

    monkeypatch.setattr(train, "WEIGHTS", tmp_path)
    assert main(["train", "--export"]) == 2
    assert "no " + str(tmp_path / "detector.pt") in capsys.readouterr().err


def test_a_classifier_budget_must_be_positive(tmp_path, capsys):
    (tmp_path / "data.yaml").write_text("names: []\n")
    assert main(["train", "--data", str(tmp_path), "--cls-minutes", "0"]) == 2
    assert "--cls-minutes must be more than 0" in capsys.readouterr().err


def test_export_writes_every_onnx_file(tmp_path, monkeypatch):
    import shutil

    import torch

    import models.train as train

    for name in ("detector.pt", "classifier.pt", "suit.pt"):
        shutil.copy(train.MODELS / "weights" / name, tmp_path / name)
    from models import way_up

    torch.save({"model": way_up.build_model().state_dict(), "history": []}, tmp_path / "way_up.pt")
    monkeypatch.setattr(train, "WEIGHTS", tmp_path)
    assert main(["train", "--export"]) == 0
    import onnxruntime as ort

    for name in ("detector.onnx", "classifier.onnx", "suit.onnx", "way_up.onnx"):
        assert ort.InferenceSession(str(tmp_path / name)).get_inputs(), name
    assert ort.InferenceSession(str(tmp_path / "suit.onnx")).get_outputs()[0].shape[-1] == 2
    assert ort.InferenceSession(str(tmp_path / "way_up.onnx")).get_outputs()[0].shape[-1] == 2


def test_dataset_refuses_a_crop_side_out_of_range_by_name(tmp_path, capsys):
    assert main(["dataset", "--out", str(tmp_path / "d"), "--n", "2", "--crop", "4"]) == 2
    assert "--crop must be 8 to 256 pixels" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()  # nothing written


def test_weights_folder_is_where_export_reads_and_writes(tmp_path):
    # --weights DIR: a candidate folder (a copy of the shipped one) is exported in place and the
    # shipped folder is left alone.
    import shutil

    import models.train as train

    for name in ("detector.pt", "classifier.pt"):
        shutil.copy(train.MODELS / "weights" / name, tmp_path / name)
    shipped = {p.name: p.stat().st_mtime_ns for p in (train.MODELS / "weights").glob("*.onnx")}
    assert main(["train", "--export", "--weights", str(tmp_path)]) == 0
    assert (tmp_path / "detector.onnx").exists() and (tmp_path / "classifier.onnx").exists()
    assert not (tmp_path / "suit.onnx").exists()  # no suit.pt there, none exported
    assert {p.name: p.stat().st_mtime_ns for p in (train.MODELS / "weights").glob("*.onnx")} == shipped


def test_weights_folder_must_exist(tmp_path, capsys):
    assert main(["train", "--export", "--weights", str(tmp_path / "nowhere")]) == 2
    assert "--weights: " + str(tmp_path / "nowhere") + " is not a folder" in capsys.readouterr().err


def test_dataset_refuses_an_unknown_scene_kind_by_name(tmp_path, capsys):
    assert main(["dataset", "--out", str(tmp_path / "d"), "--n", "2", "--kind", "single", "--kind", "juggling"]) == 2
    assert "--kind: unknown scene kind(s) juggling" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_dataset_refuses_a_jokers_chance_out_of_range_by_name(tmp_path, capsys):
    assert main(["dataset", "--out", str(tmp_path / "d"), "--n", "2", "--jokers", "1.5"]) == 2
    assert "--jokers must be a chance between 0 and 1" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_dataset_refuses_a_backlit_chance_out_of_range_by_name(tmp_path, capsys):
    assert main(["dataset", "--out", str(tmp_path / "d"), "--n", "2", "--backlit", "-0.1"]) == 2
    assert "--backlit must be a chance between 0 and 1" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_dataset_refuses_a_room_lit_webcam_chance_out_of_range_by_name(tmp_path, capsys):
    assert main(["dataset", "--out", str(tmp_path / "d"), "--n", "2", "--room-webcam", "1.5"]) == 2
    assert "--room-webcam must be a chance between 0 and 1" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_dataset_with_no_named_decks_wants_procedural_ones(tmp_path, capsys):
    assert main(["dataset", "--out", str(tmp_path / "d"), "--n", "2", "--decks", "none", "--procedural", "0"]) == 2
    assert "--decks none wants procedural decks" in capsys.readouterr().err
    assert main(["dataset", "--out", str(tmp_path / "d"), "--n", "2", "--procedural-from", "-1"]) == 2
    assert "--procedural-from must be 0 or more" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_dataset_says_when_no_deck_artwork_is_fetched(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GINSIGHT_CACHE", str(tmp_path / "empty-cache"))  # nothing fetched there
    args = ["--n", "1", "--procedural", "1", "--workers", "1", "--no-crops"]
    assert main(["dataset", "--out", str(tmp_path / "d"), *args]) == 0
    assert "no deck artwork fetched" in capsys.readouterr().err
    assert main(["dataset", "--out", str(tmp_path / "e"), "--decks", "none", *args]) == 0  # asked for: no word
    assert "no deck artwork fetched" not in capsys.readouterr().err


def _reaching_the_run(tmp_path, monkeypatch, key: str, *flag_lists: list[str]) -> list:
    """What ``train_classifier_run`` is handed as ``key`` for each list of flags."""
    import models.train as train

    (tmp_path / "crops").mkdir(exist_ok=True)
    (tmp_path / "crops" / "train-0000.npz").write_bytes(b"")
    seen = []
    monkeypatch.setattr(train, "train_classifier_run", lambda crops, **kw: seen.append(kw[key]))
    base = ["train", "--data", str(tmp_path), "--what", "classifier", "--weights", str(tmp_path)]
    for flags in flag_lists:
        assert main([*base, *flags]) == 0
    return seen


def test_the_classifier_seed_reaches_its_training_run(tmp_path, monkeypatch):
    # --cls-seed trains a classifier apart (another start and crop order): the CLI must pass it on
    assert _reaching_the_run(tmp_path, monkeypatch, "seed", [], ["--cls-seed", "41"]) == [0, 41]


def test_the_classifier_swa_flag_reaches_its_training_run(tmp_path, monkeypatch):
    assert _reaching_the_run(tmp_path, monkeypatch, "swa", [], ["--cls-swa"]) == [False, True]


def test_dataset_refuses_an_out_that_is_a_file_or_cannot_be_written(tmp_path, capsys):
    afile = tmp_path / "notes.txt"
    afile.write_text("keep me")
    assert main(["dataset", "--out", str(afile), "--n", "2", "--decks", "none", "--procedural", "1"]) == 2
    assert f"--out {afile} is a file, not a folder" in capsys.readouterr().err and afile.read_text() == "keep me"
    assert main(["dataset", "--out", str(afile / "d"), "--n", "2", "--decks", "none", "--procedural", "1"]) == 2
    assert f"--out {afile / 'd'}: cannot write there" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "needle"), [
    (["--epochs", "0"], "--epochs must be 1 or more"),
    (["--cls-epochs", "-2"], "--cls-epochs must be 1 or more"),
    (["--batch", "0"], "--batch must be 1 or more (or -1: Ultralytics' automatic batch on a GPU)"),
    (["--imgsz", "17"], "--imgsz must be 32 pixels or more, a multiple of 32"),
    (["--imgsz", "500"], "--imgsz must be 32 pixels or more, a multiple of 32"),
    (["--fraction", "0"], "--fraction must be a share in (0, 1]"),
    (["--fraction", "1.5"], "--fraction must be a share in (0, 1]"),
    (["--hours", "-1"], "--hours must be more than 0"),
    (["--threads", "0"], "--threads must be 1 or more"),
    (["--workers", "-1"], "--workers must be 0 or more"),
    (["--cls-lr", "0"], "--cls-lr must be more than 0"),
    (["--warmup-epochs", "-1"], "--warmup-epochs must be 0 or more"),
])
def test_a_training_number_out_of_range_is_named_before_anything_is_read(tmp_path, capsys, argv, needle):
    """Checked first, with no data set at all: an hour's run does not fail at its first epoch."""
    assert main(["train", "--data", str(tmp_path / "none"), *argv]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1, err


@pytest.mark.parametrize(("what", "missing"), [("both", "classifier.pt"), ("classifier", "classifier.pt"),
                                               ("detector", "detector.pt")])
def test_resume_without_the_weights_to_go_on_from_stops_before_any_training(tmp_path, capsys, what, missing):
    """Before, the classifier trained from scratch on --resume without classifier.pt, and with
    --what both the missing detector.pt was found only after the classifier's run."""
    weights = tmp_path / "w"
    weights.mkdir()
    if missing == "classifier.pt" and what == "both":
        (weights / "detector.pt").write_bytes(b"")  # only the classifier's is missing
    assert main(["train", "--data", str(tmp_path / "none"), "--what", what, "--resume", "--weights", str(weights)]) == 2
    assert f"--resume: no {weights / missing} to go on from" in capsys.readouterr().err
    weights.joinpath("classifier.pt").write_bytes(b"")
    if what == "both":  # and the detector's, now that the classifier's is there
        weights.joinpath("detector.pt").unlink()
        assert main(["train", "--data", str(tmp_path / "none"), "--resume", "--weights", str(weights)]) == 2
        assert f"--resume: no {weights / 'detector.pt'} to go on from" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "needle"), [
    (["--size", "0"], "--size must be 96 to 4096 pixels"),  # had failed in OpenCV's resize
    (["--size", "17"], "--size must be 96 to 4096 pixels"),  # had written photos with no label
    (["--workers", "-1"], "--workers must be 1 or more (0, the default: all cores)"),
    (["--procedural", "-1"], "--procedural must be 0 or more"),
])
def test_dataset_refuses_a_number_out_of_range_by_name(tmp_path, capsys, argv, needle):
    assert main(["dataset", "--out", str(tmp_path / "d"), "--n", "2", *argv]) == 2
    assert needle in capsys.readouterr().err
    assert not (tmp_path / "d").exists()
