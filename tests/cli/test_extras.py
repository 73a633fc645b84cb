"""Commands that need the training extra say so in one line when it is missing."""

import pytest

import cli.extras
from cli.main import main


@pytest.mark.parametrize("argv", [["train", "--data", "x"], ["dataset", "--out", "x", "--n", "1"]])
def test_a_missing_training_extra_is_named_with_its_install_command(argv, monkeypatch, capsys):
    real = cli.extras.find_spec
    monkeypatch.setattr(cli.extras, "find_spec", lambda name: None if name == "torch" else real(name))
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"ginsight: error: `ginsight {argv[0]}` needs the training extra (torch is not installed): "
                   ".venv/bin/pip install -e '.[train]'"]


def test_several_missing_modules_are_all_named(monkeypatch):
    monkeypatch.setattr(cli.extras, "find_spec", lambda name: None)
    with pytest.raises(cli.extras.GinsightError, match=r"\(torch, ultralytics, onnx, cairosvg are not installed\)"):
        cli.extras.require_train_extra("train")


def test_nothing_is_said_when_the_extra_is_installed(monkeypatch):
    monkeypatch.setattr(cli.extras, "find_spec", lambda name: object())
    cli.extras.require_train_extra("train")
