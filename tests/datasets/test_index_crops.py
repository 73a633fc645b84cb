"""datasets.index_crops: index crops drawn from the decks with a webcam's look, or a camera's."""

import cv2
import numpy as np
import pytest

from datasets import index_crops
from datasets.decks import Deck, procedural_deck
from engine.cards import CODES
from models.classifier import load_crops

W, H = 100, 140
BOX = (6, 8, 20, 38)  # the index: a black bar on a white card


def bar_deck() -> Deck:
    face = np.zeros((H, W, 4), np.uint8)
    face[..., :3] = 255
    face[..., 3] = 255
    x1, y1, x2, y2 = BOX
    face[y1:y2, x1:x2, :3] = 0
    return Deck("bars", "test", "none", {c: face for c in CODES}, {c: [BOX] for c in CODES})


def background(value=128, side=160):
    return np.full((side, side, 3), value, np.float32)


def test_a_seed_gives_the_same_crop_and_another_seed_another():
    deck = procedural_deck(3, height=240)
    a = index_crops.webcam_crop(np.random.default_rng(7), deck, "8C", background())
    b = index_crops.webcam_crop(np.random.default_rng(7), deck, "8C", background())
    c = index_crops.webcam_crop(np.random.default_rng(8), deck, "8C", background())
    assert a.shape == (32, 32, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("seed", range(12))
def test_the_crop_is_cut_round_the_index(seed, monkeypatch):
    # Without the webcam's blur and light, the index (a black bar) fills the crop's middle,
    # whatever the turn, size and squeeze; the crop's rim is card or table, not ink.
    monkeypatch.setattr(index_crops, "_webcam", lambda rng, img, *_: np.clip(img, 0, 255).astype(np.uint8))
    crop = index_crops.webcam_crop(np.random.default_rng(seed), bar_deck(), "QS", background(), side=48)
    grey = crop.mean(2)
    assert grey[22:26, 22:26].max() < 60
    rim = np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])
    assert (rim > 100).mean() > 0.5


def sharpness(crop: np.ndarray) -> float:
    """The steepest step of ink to paper (the bar's edge), on a lightly smoothed crop so that
    the sensor noise does not count."""
    grey = cv2.GaussianBlur(crop.astype(np.float32).mean(2), (0, 0), 0.7)
    return float(max(np.abs(np.diff(grey, axis=0)).max(), np.abs(np.diff(grey, axis=1)).max()))


def test_a_wider_blur_range_defocuses_more(monkeypatch):
    monkeypatch.setattr(index_crops, "BLURRED", 1.0)
    for seed in range(4):
        sharp = index_crops.webcam_crop(np.random.default_rng(seed), bar_deck(), "QS", background(), blur=(0.3, 0.3))
        soft = index_crops.webcam_crop(np.random.default_rng(seed), bar_deck(), "QS", background(), blur=(2.5, 2.5))
        assert sharpness(soft) < 0.7 * sharpness(sharp)


def test_the_blur_is_capped_by_the_index_length():
    # The defocus is capped (webcam_crop: a fourteenth of the index's length): a wider sigma
    # drawn is cut to the cap.
    img = np.zeros((64, 64, 3), np.float32)
    img[20:44, 28:36] = 255
    capped = index_crops._webcam(np.random.default_rng(0), img, (5.0, 5.0), most_blur=1.0)
    at_cap = index_crops._webcam(np.random.default_rng(0), img, (1.0, 1.0))
    assert np.array_equal(capped, at_cap)


def test_blur_range_parses_and_refuses():
    assert index_crops.blur_range("0.4-3") == (0.4, 3.0)
    for bad in ("3-1", "x", "1", "-1-2"):
        with pytest.raises(Exception, match=r"A-B|A <= B"):
            index_crops.blur_range(bad)


def test_build_writes_labelled_shards_of_both_splits(tmp_path, monkeypatch):
    monkeypatch.setattr(index_crops, "SHARD", 7)
    index_crops.build(tmp_path, 20, 3, deck_names=[], procedural=1, side=24, val_fraction=0.1, workers=1)
    x, y = load_crops(tmp_path, "train")
    xv, yv = load_crops(tmp_path, "val")
    assert x.shape == (18, 24, 24, 3) and xv.shape == (2, 24, 24, 3)
    assert y.min() >= 0 and max(y.max(), yv.max()) < 52
    assert len(list(tmp_path.glob("train-*.npz"))) == 3  # 18 crops, 7 a shard


def test_build_refuses_no_decks(tmp_path):
    with pytest.raises(ValueError, match="no decks"):
        index_crops.build(tmp_path, 5, 0, deck_names=[], procedural=0)


def test_shard_seeds_take_the_list_in_turn_and_cover_it():
    seeds = list(range(1000, 1010))
    assert index_crops.shard_seeds(seeds, 4, 0) == [1000, 1001, 1002, 1003]
    assert index_crops.shard_seeds(seeds, 4, 2) == [1008, 1009, 1000, 1001]  # round the list
    assert set().union(*(index_crops.shard_seeds(seeds, 4, k) for k in range(3))) == set(seeds)
    assert index_crops.shard_seeds(seeds, None, 5) == seeds
    assert index_crops.shard_seeds(seeds, 20, 1) == seeds


def test_build_with_decks_per_shard_and_a_procedural_share(tmp_path, monkeypatch):
    # Each shard builds its own procedural decks; with share 1 every crop is procedural, so a
    # build with no real designs works, and the same arguments give the same crops.
    monkeypatch.setattr(index_crops, "SHARD", 5)
    built = []
    real_build = index_crops._procedural
    monkeypatch.setattr(index_crops, "_procedural", lambda seeds: built.append(list(seeds)) or real_build(seeds))
    args = dict(deck_names=[], procedural=[1000, 1001, 1002], side=24, val_fraction=0.2, workers=1, per_shard=1,
                procedural_share=1.0)
    index_crops.build(tmp_path / "a", 10, 4, **args)
    assert built == [[1000], [1001], [1002]]  # one val shard, two train shards: one deck each, in turn
    index_crops.build(tmp_path / "b", 10, 4, **args)
    xa, ya = load_crops(tmp_path / "a", "train")
    xb, yb = load_crops(tmp_path / "b", "train")
    assert xa.shape == (8, 24, 24, 3) and np.array_equal(xa, xb) and np.array_equal(ya, yb)


@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(per_shard=0), "decks per shard"),
    (dict(procedural_share=1.5), "procedural share"),
    (dict(blur=(2.0, 1.0)), "blur range"),
])
def test_build_refuses_bad_options(tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message):
        index_crops.build(tmp_path, 5, 0, deck_names=[], procedural=[1000], **kwargs)


def test_build_refuses_the_benchmarks_held_out_decks(tmp_path):
    # Seeds 100-111 and 200-319 are the decks webcam_reads.py and deck_reads.py call unseen.
    for seeds in ([105], list(range(190, 210))):
        with pytest.raises(ValueError, match="held out"):
            index_crops.build(tmp_path, 5, 0, deck_names=[], procedural=seeds)
    with pytest.raises(ValueError, match="held out"):
        index_crops.build(tmp_path, 5, 0, deck_names=[], procedural=150)  # seeds 0-149


def test_the_camera_look_is_seeded_and_sized():
    deck = procedural_deck(3, height=240)
    a = index_crops.camera_crop(np.random.default_rng(7), deck, "8C", background())
    b = index_crops.camera_crop(np.random.default_rng(7), deck, "8C", background())
    c = index_crops.camera_crop(np.random.default_rng(8), deck, "8C", background(), side=48)
    assert a.shape == (32, 32, 3) and a.dtype == np.uint8 and c.shape == (48, 48, 3)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("seed", range(12))
def test_the_camera_crop_is_cut_round_the_index(seed, monkeypatch):
    # Sharp and clean, the camera look's crop holds the index (a black bar) in its middle,
    # whatever the turn, size and squeeze, with card or table round it.
    monkeypatch.setattr(index_crops, "_jpeg", lambda rng, img, quality: img)
    monkeypatch.setattr(index_crops, "_salt_and_pepper", lambda rng, img, amount: None)
    crop = index_crops.camera_crop(np.random.default_rng(seed), bar_deck(), "QS", background(200), side=48,
                                   blur=(0.0, 0.0))
    grey = crop.mean(2)
    assert grey[22:26, 22:26].max() < 90
    rim = np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])
    assert (rim > 100).mean() > 0.5


def test_the_camera_look_squeezes_after_the_blur(monkeypatch):
    # Blurred at the camera's resolution and then shrunk across by half, a round dot comes out
    # of the frame longer than wide (the blur too is squeezed across); shrunk evenly, round.
    monkeypatch.setattr(index_crops, "_jpeg", lambda rng, img, quality: img)
    monkeypatch.setattr(index_crops, "_salt_and_pepper", lambda rng, img, amount: None)
    monkeypatch.setattr(index_crops, "_cut", lambda rng, img, corners, side: img)
    face = np.full((H, W, 4), 255, np.uint8)
    cv2.circle(face, (13, 23), 6, (0, 0, 0, 255), -1)
    dot = Deck("dot", "test", "none", {c: face for c in CODES}, {c: [(3, 13, 23, 33)] for c in CODES})

    def extent(squeezed: bool) -> float:
        monkeypatch.setattr(index_crops, "CAMERA_SQUEEZED", 1.0 if squeezed else 0.0)
        monkeypatch.setattr(index_crops, "SQUEEZE", (0.5, 0.5))
        frame = index_crops.camera_crop(np.random.default_rng(3), dot, "QS", background(255), blur=(0.05, 0.05))
        grey = frame.mean(2)
        ink = grey < (grey.min() + np.median(grey)) / 2  # the dot, whatever the light
        ys, xs = np.nonzero(ink)
        return (ys.max() - ys.min() + 1) / (xs.max() - xs.min() + 1)

    assert 0.8 < extent(False) < 1.25
    assert 1.6 < extent(True) < 2.5


def test_build_takes_the_camera_look_and_refuses_an_unknown_one(tmp_path, monkeypatch):
    monkeypatch.setattr(index_crops, "SHARD", 10)
    seen = []
    real_crop = index_crops.camera_crop
    monkeypatch.setitem(index_crops.LOOKS, "camera",
                        (lambda *a, **kw: seen.append(a[-1]) or real_crop(*a, **kw), index_crops.CAMERA_BLUR))
    index_crops.build(tmp_path / "a", 6, 2, deck_names=[], procedural=1, side=24, val_fraction=0.2, workers=1,
                      look="camera")
    assert seen == [index_crops.CAMERA_BLUR] * 6  # every crop, with the look's own blur range
    x, _ = load_crops(tmp_path / "a", "train")
    assert x.shape == (5, 24, 24, 3)
    with pytest.raises(ValueError, match="unknown look"):
        index_crops.build(tmp_path / "b", 5, 0, deck_names=[], procedural=1, look="oil")


def test_the_command_leaves_out_real_designs_and_names_an_unknown_one(tmp_path, monkeypatch, capsys):
    import datasets.decks

    monkeypatch.setattr(datasets.decks, "fetched_decks", lambda: ["gnome-anglo", "kennard"])
    calls = []
    monkeypatch.setattr(index_crops, "build", lambda out, n, seed, **kw: calls.append(kw))
    index_crops.main(["--out", str(tmp_path), "--n", "5", "--look", "camera", "--leave-out", "kennard"])
    assert calls[0]["deck_names"] == ["gnome-anglo"] and calls[0]["look"] == "camera" and calls[0]["blur"] is None
    with pytest.raises(SystemExit):
        index_crops.main(["--out", str(tmp_path), "--n", "5", "--leave-out", "kenard"])
    assert "no such real design: kenard" in capsys.readouterr().err


def test_suits_draws_only_those_suits_and_all_four_draw_as_before(tmp_path):
    kw = dict(deck_names=[], procedural=[3], workers=1)
    index_crops.build(tmp_path / "black", 40, 5, suits="SC", side=48, **kw)
    x, y = load_crops(tmp_path / "black", "train")
    assert x.shape[1:] == (48, 48, 3)
    assert {CODES[k][-1] for k in y} == {"S", "C"}
    index_crops.build(tmp_path / "all", 40, 5, **kw)
    index_crops.build(tmp_path / "all4", 40, 5, suits="SHDC", **kw)
    a, b = load_crops(tmp_path / "all", "train"), load_crops(tmp_path / "all4", "train")
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert {CODES[k][-1] for k in a[1]} > {"S", "C"}
    with pytest.raises(ValueError, match="suits"):
        index_crops.build(tmp_path / "x", 4, 5, suits="SX", **kw)


def t_deck(turned: bool) -> Deck:
    """A deck whose index is a T (a bar across its top, a stem down) in the face's upper-left
    corner, or (``turned``) in its lower-right corner turned half a turn."""
    face = np.full((H, W, 4), 255, np.uint8)
    ink = np.zeros((30, 14), bool)
    ink[:7, :] = True  # the bar
    ink[7:, 5:9] = True  # the stem
    x1, y1 = (W - 20, H - 38) if turned else BOX[:2]
    face[y1:y1 + 30, x1:x1 + 14, :3][ink[::-1, ::-1] if turned else ink] = 0
    return Deck("tees", "test", "none", {c: face for c in CODES}, {c: [(x1, y1, x1 + 14, y1 + 30)] for c in CODES})


@pytest.mark.parametrize("look", ["webcam", "camera"])
@pytest.mark.parametrize("turned", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_way_up_says_which_way_the_index_top_faces(look, turned, seed):
    # Turned back by the angle it gives, the index stands upright: the T's bar (its widest
    # row of ink) lies above the middle of its ink, whatever the turn, squeeze and corner.
    crop_of = index_crops.LOOKS[look][0]
    crop, up = crop_of(np.random.default_rng(seed), t_deck(turned), "QS", background(200), side=48, way_up=True)
    assert 0 <= up < 360
    back = cv2.warpAffine(crop, cv2.getRotationMatrix2D((23.5, 23.5), -up, 1.0), (48, 48),
                          borderMode=cv2.BORDER_REPLICATE)
    grey = back.astype(np.float32).mean(2)
    ink = grey < (grey.min() + grey.max()) / 2
    rows = np.nonzero(ink)[0]
    assert int(ink.sum(1).argmax()) < rows.mean() - 2
    # the crop itself is the one drawn without asking
    again = crop_of(np.random.default_rng(seed), t_deck(turned), "QS", background(200), side=48)
    assert np.array_equal(again, crop)


def test_shards_say_which_way_each_index_faces(tmp_path):
    index_crops.build(tmp_path, 6, 3, deck_names=[], procedural=[5], workers=1)
    d = np.load(tmp_path / "train-0001.npz")
    assert d["up"].shape == (5,) and d["up"].dtype == np.float32
    assert ((d["up"] >= 0) & (d["up"] < 360)).all()
