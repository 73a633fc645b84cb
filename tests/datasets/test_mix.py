"""datasets.mix: several crops folders linked into one that the classifier trains on."""

import numpy as np
import pytest

from datasets.mix import link_crops, main
from models.classifier import load_crops


def shard(path, n, side=32, label=0):
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, x=np.full((n, side, side, 3), label, np.uint8), y=np.full(n, label, np.int16))


def test_the_shards_of_every_source_are_linked_by_split(tmp_path):
    shard(tmp_path / "a" / "crops" / "val-0000.npz", 2, label=1)
    shard(tmp_path / "a" / "crops" / "train-0001.npz", 3, label=2)
    shard(tmp_path / "b" / "crops" / "train-0000.npz", 4, label=3)
    shard(tmp_path / "a" / "crops-neg" / "train-neg-0000.npz", 5, label=52)
    out = tmp_path / "mix" / "crops"
    links = link_crops([tmp_path / "a" / "crops", tmp_path / "b" / "crops", tmp_path / "a" / "crops-neg"], out)
    assert sorted(p.name for p in links) == ["train-a-crops-0001.npz", "train-a-crops-neg-neg-0000.npz",
                                           "train-b-crops-0000.npz", "val-a-crops-0000.npz"]
    assert all(p.is_symlink() for p in links)
    _, y = load_crops(out, "train")
    assert np.bincount(y, minlength=53)[[2, 3, 52]].tolist() == [3, 4, 5]
    assert load_crops(out, "val")[0].shape == (2, 32, 32, 3)
    # Linking again replaces the links.
    assert len(link_crops([tmp_path / "a" / "crops"], out)) == 2


def test_bad_sources_are_named(tmp_path, capsys):
    shard(tmp_path / "a" / "crops" / "train-0000.npz", 1)
    shard(tmp_path / "b" / "crops" / "train-0000.npz", 1, side=48)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=r"not all one side: 32 px in .*a/crops, 48 px in .*b/crops"):
        link_crops([tmp_path / "a" / "crops", tmp_path / "b" / "crops"], tmp_path / "out")
    with pytest.raises(ValueError, match="no train"):
        link_crops([tmp_path / "empty"], tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing half made
    assert main(["--out", str(tmp_path / "out"), str(tmp_path / "empty")]) == 2
    assert "error: no train" in capsys.readouterr().err
    assert main(["--out", str(tmp_path / "out"), str(tmp_path / "a" / "crops")]) == 0
    assert "1 training and 0 validation shards linked" in capsys.readouterr().out


def test_with_a_side_the_shards_of_another_side_are_written_resized(tmp_path):
    shard(tmp_path / "a" / "crops" / "train-0000.npz", 3, label=5)
    shard(tmp_path / "b" / "crops" / "train-0000.npz", 2, side=48, label=7)
    out = tmp_path / "mix" / "crops"
    links = link_crops([tmp_path / "a" / "crops", tmp_path / "b" / "crops"], out, side=32)
    kinds = {p.name: p.is_symlink() for p in links}
    assert kinds == {"train-a-crops-0000.npz": True, "train-b-crops-0000.npz": False}
    x, y = load_crops(out, "train")
    assert x.shape == (5, 32, 32, 3) and sorted(y.tolist()) == [5, 5, 5, 7, 7]
    assert (x[y == 7] == 7).all()  # a flat crop stays flat when resized
    assert not list(out.glob(".*"))  # no temporary file left


def test_a_resized_shard_keeps_the_way_its_indices_face(tmp_path):
    src = tmp_path / "b" / "crops" / "train-0000.npz"
    src.parent.mkdir(parents=True)
    np.savez(src, x=np.full((2, 48, 48, 3), 9, np.uint8), y=np.full(2, 9, np.int16), up=np.float32([0, 90]))
    out = tmp_path / "mix" / "crops"
    link_crops([src.parent], out, side=32)
    x, y, up = load_crops(out, "train", way_up=True)
    assert x.shape == (2, 32, 32, 3) and y.tolist() == [9, 9] and up.tolist() == [0.0, 90.0]
