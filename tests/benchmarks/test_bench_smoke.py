"""The benchmark script runs (tiny n) and checks itself against RLCard; not a timing test."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "real-dev"  # a few real-dev photos, copied with their credit


def script(name: str):
    """``benchmarks/<name>.py`` loaded as a module (the scripts are run by path, not imported)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_benchmark_script_runs():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_deadwood.py"), "--n", "30", "--e2e-runs", "2"],
        capture_output=True, text=True, check=False, cwd=ROOT, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "| random | 10 |" in proc.stdout
    assert "| mixed_dense | 11 |" in proc.stdout
    assert "ginsight --jsonl" in proc.stdout


def test_threshold_sweep_counts_reads_above_each_threshold():
    module = script("reader_thresholds")
    reads = [[(0.9, True), (0.6, False)], [(0.7, True), (0.4, True)]]  # 4 true cards in all
    rows = module.sweep(reads, 4, thresholds=(0.3, 0.5, 0.8, 0.95))
    assert rows == [(0.3, 0.75, 0.75), (0.5, 2 / 3, 0.5), (0.8, 1.0, 0.25), (0.95, 1.0, 0.0)]


def test_compare_weights_finds_the_crops_of_each_classifier_side(tmp_path):
    import numpy as np

    module = script("compare_weights")
    for folder, side in (("crops", 32), ("crops-48", 48)):
        (tmp_path / folder).mkdir()
        np.savez(tmp_path / folder / "val-0000.npz", x=np.zeros((1, side, side, 3), np.uint8), y=np.zeros(1))
    assert module.crops_for(tmp_path, 32) == tmp_path / "crops"
    assert module.crops_for(tmp_path, 48) == tmp_path / "crops-48"
    assert module.crops_for(tmp_path, 64) is None


def test_compare_weights_counts_black_suits_swapped():
    import numpy as np

    module = script("compare_weights")
    # classes: suit * 13 + rank (0 spades, 3 clubs), 52 "no index"
    y = np.array([39, 40, 41, 42, 0, 1, 52, 13])
    read = np.array([0, 40, 52, 1, 39, 1, 0, 13])  # 2 of 4 clubs as spades (one of them another rank)
    assert module.swapped(read, y, 3, 0) == 0.5
    assert module.swapped(read, y, 0, 3) == 0.5
    assert module.swapped(read, y[:4], 0, 3) is None  # no spades to count


def test_reader_speed_reads_every_photo_with_both_in_alternating_order():
    module = script("reader_speed")
    order = []

    class _Reader:
        def __init__(self, name, ms):
            self.name, self.ms = name, ms

        def read(self, img):
            order.append((self.name, img))
            return type("R", (), {"ms": self.ms})()

    ms_a, ms_b = module.time_side_by_side(_Reader("a", 10.0), _Reader("b", 20.0), [1, 2, 3], warmup=1)
    assert ms_a == [10.0] * 3 and ms_b == [20.0] * 3
    assert order[2:] == [("a", 1), ("b", 1), ("b", 2), ("a", 2), ("a", 3), ("b", 3)]


def test_reader_speed_empty_photos_are_backgrounds_the_same_for_a_seed():
    import numpy as np

    module = script("reader_speed")
    photos = module.empty_photos(3, size=64)
    assert len(photos) == 3 and all(p.shape == (64, 64, 3) and p.dtype == np.uint8 for p in photos)
    assert all((a == b).all() for a, b in zip(photos, module.empty_photos(3, size=64), strict=True))
    assert not (photos[0] == photos[1]).all()


def test_reader_speed_records_the_package_versions_it_ran_with():
    import onnxruntime

    versions = script("reader_speed").packages()
    assert versions["onnxruntime"] == onnxruntime.__version__ and set(versions) == {"onnxruntime", "opencv", "numpy"}


def test_suit_probe_variants_cut_crops_of_the_classifier_side_and_paint_around_the_box():
    import numpy as np

    module = script("suit_probe")
    rng = np.random.default_rng(0)
    img = rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)
    box = (40.0, 30.0, 70.0, 80.0)
    for name, f in module.variants(32).items():
        crop = f(img, box)
        assert crop.shape == (32, 32, 3) and crop.dtype == np.uint8, name
    painted = module.painted_around(img, box)
    assert np.array_equal(painted[30:80, 40:70], img[30:80, 40:70])
    outside = painted[:30].reshape(-1, 3)
    assert (outside == outside[0]).all()  # one colour all round


def test_suit_probe_occlusion_sheet_tints_where_hiding_moves_the_suit():
    from types import SimpleNamespace

    import numpy as np

    module = script("suit_probe")

    def classifier(x, turns):  # "clubs" as sure as the crop's top-left corner is dark
        p = np.zeros((len(x), 53), np.float32)
        p[:, 39] = 1 - x[:, :4, :4].mean(axis=(1, 2, 3)) / 255
        p[:, 0] = 1 - p[:, 39]
        return p

    classifier.size = 32
    reader = SimpleNamespace(classifier=classifier, settings=SimpleNamespace(cls_turns=1))
    img = np.full((100, 100, 3), 255, np.uint8)
    box = (30.0, 30.0, 60.0, 60.0)
    crop_origin = 45 - 30 * 1.15 / 2  # where the crop's top-left corner lies in the photo
    img[:int(crop_origin) + 3, :int(crop_origin) + 3] = 0
    sheet = module.occlusion_sheet(reader, [("p", box, 39)], {"p": img}, scale=4)
    assert sheet.shape == (128, 4 * 256, 3)
    tinted = sheet[:, 128:256].astype(int)
    assert (tinted[20:30, 0:10, 1] > tinted[20:30, 0:10, 2]).all()  # hiding the dark corner lowers "clubs": green


def test_deck_reads_cuts_every_index_on_paper_and_counts_clubs_read_as_spades():
    from types import SimpleNamespace

    import numpy as np
    import pytest

    from engine.cards import CODES

    module = script("deck_reads")
    face = np.zeros((40, 30, 4), np.uint8)  # transparent all over: only the paper shows
    face[5:15, 3:12] = (0, 0, 0, 255)  # a black index in the top-left corner
    deck = SimpleNamespace(faces=dict.fromkeys(CODES, face),
                           index_boxes={c: [(3, 5, 12, 15), (18, 25, 27, 35)] for c in CODES})
    x, y = module.deck_crops(deck, 16)
    assert x.shape == (104, 16, 16, 3) and list(y[:2]) == [0, 0] and y[-1] == CODES.index("KC")
    assert x[0].min() == 0 and (x[1] == module.PAPER).all()  # the second box is bare paper

    def classifier(crops):  # reads every card right, but every club as its spade
        p = np.zeros((len(crops), 53), np.float32)
        p[np.arange(len(crops)), [k - 39 if k >= 39 else k for k in y]] = 1
        return p

    r = module.read_deck(classifier, deck, 16)
    assert r["indices"] == 104 and r["right"] == 0.75
    assert r["clubs_read_as_spades"] == 1.0 and r["spades_read_as_clubs"] == 0.0
    assert module.seeds("0-3") == [0, 1, 2, 3] and module.seeds("7") == [7]
    with pytest.raises(Exception, match="runs backwards"):
        module.seeds("5-2")


def test_compare_weights_counts_the_cards_a_player_would_mend(tmp_path):
    from types import SimpleNamespace

    import cv2
    import numpy as np

    from vision.evaluate import Truth
    from vision.types import CardRead, Reading

    module = script("compare_weights")

    class Reader:  # reads QS (there) and TS (not there); misses 2H
        classifier = SimpleNamespace(size=32)
        settings = SimpleNamespace(cls_turns=4)

        def read(self, image):
            cards = (CardRead("QS", 0.9, ((0, 0, 4, 4),), False), CardRead("TS", 0.8, ((9, 9, 12, 12),), False))
            return Reading(cards, 1.0, 16, 16, ())

    truths = [Truth(tmp_path / "a.png", "val", [("QS", (0, 0, 4, 4)), ("2H", (5, 5, 8, 8))])]
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((16, 16, 3), np.uint8))
    out = module.measure(Reader(), tmp_path, truths, {})
    assert out["crop_top1"] is None  # no crops written: the photos only
    for name in ("photos", "photos_grey"):
        assert (out[name]["cards_true"], out[name]["cards_missed"], out[name]["cards_wrong"]) == (2, 1, 1)
    assert "photos_grey" not in module.measure(Reader(), tmp_path, truths, {}, ("photos",))  # --colour-only


def test_webcam_reads_cuts_each_black_index_per_card_and_counts_clubs_read_as_spades():
    import numpy as np

    from engine.cards import CODES
    from tests.datasets.test_index_crops import bar_deck

    module = script("webcam_reads")
    x, y = module.deck_crops(bar_deck(), 16, seed=1, per_card=2)
    assert x.shape == (52, 16, 16, 3)  # 26 black cards, 2 crops each
    assert {CODES[k][-1] for k in y} == {"S", "C"} and list(y[:2]) == [0, 0]
    assert not np.array_equal(x[0], x[1])  # each crop drawn from its own seed
    soft, _ = module.deck_crops(bar_deck(), 16, seed=1, per_card=2, blur=(3.0, 3.0))
    assert not np.array_equal(soft, x)  # --blur reaches the crops
    camera, y2 = module.deck_crops(bar_deck(), 16, seed=1, per_card=2, look="camera")
    assert camera.shape == x.shape and np.array_equal(y2, y) and not np.array_equal(camera, x)  # --look reaches them

    def classifier(crops):  # reads every spade right, every club as its spade
        p = np.zeros((len(crops), 53), np.float32)
        p[np.arange(len(crops)), [k - 39 if k >= 39 else k for k in y]] = 1
        return p

    r = module.read_deck(classifier, x, y)
    assert r["indices"] == 52 and r["right"] == 0.5
    assert r["clubs_read_as_spades"] == 1.0 and r["spades_read_as_clubs"] == 0.0
    assert r["suit_wrong"] == 0.5  # the clubs: rank right, suit wrong


def test_webcam_reads_grey_cuts_every_index_in_black_and_white_and_asks_the_grey_reader():
    import numpy as np

    from engine.cards import CODES
    from tests.datasets.test_index_crops import bar_deck
    from vision.reader import SuitSay

    module = script("webcam_reads")
    x, y = module.deck_crops(bar_deck(), 16, seed=1, per_card=1, grey=True)
    assert x.shape == (52, 16, 16, 3) and [CODES[k] for k in y] == list(CODES)
    assert (x[..., 0] == x[..., 1]).all() and (x[..., 1] == x[..., 2]).all()

    def classifier(crops):  # every heart read as its spade (0.6 v 0.4), the rest right
        p = np.zeros((len(crops), 53), np.float32)
        p[np.arange(len(crops)), y] = 1
        hearts = (y >= 13) & (y < 26)
        p[hearts, y[hearts]] = 0.4
        p[hearts, y[hearts] - 13] = 0.6
        return p

    plain = module.read_deck(classifier, x, y)
    assert plain["right"] == 0.75 and plain["suit_wrong"] == 0.25

    class GreySuit:  # sure of each index's true suit (S, H, D, C)
        size = 16

        def __call__(self, crops, turns):
            q = np.full((len(crops), 4), 1e-3, np.float32)
            q[np.arange(len(crops)), asked // 13] = 1
            return q

    asked = y
    fixed = module.read_deck(classifier, x, y, [SuitSay(GreySuit(), "SHDC", "product")], {16: x})
    assert fixed["right"] == 1.0 and fixed["suit_wrong"] == 0.0


def test_deck_shapes_relates_each_procedural_decks_reads_to_how_it_is_drawn():
    module = script("deck_shapes")
    reads = {f"procedural-{s}": {"a": {"clubs_read_as_spades": v, "right": 1 - v}} for s, v in ((3, 0.0), (5, 0.5), (9, 1.0))}
    reads["gnome-anglo"] = {"a": {"clubs_read_as_spades": 0.9, "right": 0.1}}  # a real design: not a procedural deck
    rows = module.table(reads, "a")
    assert [r["deck"] for r in rows] == ["procedural-3", "procedural-5", "procedural-9"]
    assert rows[1] == {"deck": "procedural-5", "seed": 5, **module.deck_traits(5), "clubs_read_as_spades": 0.5,
                       "right": 0.5}
    assert module.table(reads, "b") == []
    s = module.summary(rows)
    assert s["decks"] == 3 and s["clubs_read_as_spades"] == 0.5
    assert set(s["correlation"]) == set(module.NUMBERS)
    assert all(v is None or -1 <= v <= 1 for v in s["correlation"].values())
    drawn, glyphs = s["by_kind"]["drawn=True"], s["by_kind"]["drawn=False"]
    assert drawn["decks"] + glyphs["decks"] == 3


def test_wide_frames_cuts_the_middle_band_and_keeps_the_labels_wholly_inside_it():
    import numpy as np

    module = script("wide_frames")
    img = np.zeros((640, 640, 3), np.uint8)
    img[140:500] = 200  # the band: 360 rows from row 140
    boxes = [("AS", (10, 150, 30, 190)),   # inside
             ("2C", (10, 120, 30, 160)),   # over the band's top edge: out
             ("3D", (10, 480, 30, 520)),   # over its bottom edge: out
             ("4H", (600, 490, 620, 500))]  # inside, at its bottom
    frame, codes = module.wide_frame(img, boxes, 1280)
    assert frame.shape == (720, 1280, 3) and (frame == 200).all()
    assert codes == {"AS", "4H"}


def test_wide_frames_sorts_the_cards_only_one_reader_read():
    module = script("wide_frames")
    a = [{"AS", "2C", "3D"}, {"KH"}]
    b = [{"AS"}, {"KH", "QH"}]
    inside = [{"AS", "2C"}, {"KH", "QH"}]
    in_photo = [{"AS", "2C", "3D"}, {"KH", "QH"}]
    assert module.only_in_one(a, b, inside, in_photo) == {"right": 1, "cut_by_the_edge": 1, "wrong": 0}
    assert module.only_in_one(b, a, inside, in_photo) == {"right": 1, "cut_by_the_edge": 0, "wrong": 0}
    assert module.only_in_one([{"9S"}], [set()], [set()], [set()]) == {"right": 0, "cut_by_the_edge": 0, "wrong": 1}


def test_one_deck_rules_counts_what_each_rule_adds(tmp_path, monkeypatch):
    import numpy as np

    from engine.cards import CODES
    from vision.evaluate import Truth
    from vision.reader import IndexRead, Settings

    module = script("one_deck_rules")

    def read(code, x, p):
        probs = np.zeros(53)
        for c, v in p.items():
            probs[CODES.index(c)] = v
        probs[52] = 1 - probs.sum()
        return IndexRead((x, 0, x + 12, 20), code, float(np.sqrt(0.9 * p[code])), probs)

    # 8S read twice far apart; the weaker one is 9S (not 8C) by "any", 8C by "suit"; 8C is there.
    indices = [read("8S", 0, {"8S": 0.95}), read("8S", 600, {"8S": 0.5, "9S": 0.3, "8C": 0.15})]

    class Reader:
        settings = Settings(min_card=0.5)  # the 8C read has sqrt(0.9 x 0.15 / 0.5) = 0.5196

        def read_indices(self, img):
            return indices

    monkeypatch.setattr(module, "synthetic_validation", lambda data, n: [Truth(tmp_path / "a.png", "val",
                                                                           [("8S", (0, 0, 1, 1)), ("8C", (0, 0, 1, 1))])])
    monkeypatch.setattr(module.cv2, "imread", lambda path: np.zeros((8, 8, 3), np.uint8))
    out = module.measure(Reader(), tmp_path, 1, ("off", "any", "suit"))
    assert (out["off"]["cards_missed"], out["off"]["cards_wrong"]) == (1, 0)
    assert (out["any"]["cards_missed"], out["any"]["cards_wrong"]) == (1, 1)
    assert (out["suit"]["cards_missed"], out["suit"]["cards_wrong"]) == (0, 0)


def test_dim_photos_darkens_and_brighten_lifts_the_lightness():
    import numpy as np

    module = script("dim_photos")
    rng = np.random.default_rng(0)
    img = np.tile(np.linspace(60, 230, 64, dtype=np.uint8), (64, 1))[..., None].repeat(3, axis=2)
    dark = module.dim(img, rng)
    assert dark.shape == img.shape and dark.mean() < img.mean() / 2
    bright = module.brighten(dark)
    assert bright.shape == dark.shape and bright.dtype == np.uint8
    assert bright.std() > dark.std()  # contrast stretched


def test_one_deck_rules_names_each_variant_of_the_settings():
    from vision.reader import Settings

    module = script("one_deck_rules")
    base = Settings()
    assert not module.settings_of(base, "off").one_deck
    s = module.settings_of(base, "any")
    assert s.one_deck and s.one_deck_rule == "any" and s.card_indices == 0
    s = module.settings_of(base, "suit@7+2")
    assert (s.one_deck_rule, s.far_apart, s.card_indices) == ("suit", 7.0, 2)
    assert s.same_turn_apart == 0.0  # every rule but "~" is measured with the same-turn check off
    s = module.settings_of(base, "suit~4.5:0.3")
    assert (s.one_deck_rule, s.same_turn_apart, s.same_turn_margin) == ("suit", 4.5, 0.3)
    assert s.way_up_apart == 0.0  # every rule but "^" is measured with the way-up check off
    s = module.settings_of(base, "suit~5:0.2^3:0.5:0.7")
    assert (s.same_turn_apart, s.way_up_apart, s.way_up_same, s.way_up_along) == (5.0, 3.0, 0.5, 0.7)
    assert s.twin_rank == 0.0
    assert module.settings_of(base, "suit~5:0.2^3:0.5:0*").twin_rank == 0.001
    s = module.settings_of(base, "suit~5:0.2^3:0.5:0*0.9")
    assert (s.way_up_apart, s.twin_rank) == (3.0, 0.9)


def test_way_up_reads_cuts_every_index_with_its_way_up_and_measures_the_error():
    import numpy as np

    from tests.datasets.test_index_crops import bar_deck

    module = script("way_up_reads")
    x, ups = module.deck_crops(bar_deck(), seed=1, per_card=1)
    assert x.shape == (52, 32, 32) and ups.shape == (52,)

    class Net:  # reads every index as facing up the crop
        def degrees(self, crops):
            return np.zeros(len(crops), np.float32)

    r = module.read_deck(Net(), x, np.array([0.0, 10.0, 50.0, 90.0, 180.0, 350.0] + [0.0] * 46))
    assert r["within_45"] == 49 / 52 and r["off_60"] == 2 / 52 and r["median_deg"] == 0.0  # 50 is neither


def test_joker_reads_counts_joker_corners_read_as_cards():
    from types import SimpleNamespace

    import numpy as np

    from datasets.decks import procedural_deck
    from vision.reader import Settings

    module = script("joker_reads")
    deck = procedural_deck(1000, height=160)
    x = module.joker_crops(deck, 16, seed=1, per_joker=3)
    assert x.shape == (6, 16, 16, 3)  # two jokers, three crops each
    assert np.array_equal(x, module.joker_crops(deck, 16, seed=1, per_joker=3))

    def classifier(crops, turns):  # crops 0-2: KD (38) with 0.9, 0.6, 0.4; then "no index" thrice
        p = np.zeros((len(crops), 53), np.float32)
        p[0, 38], p[0, 52] = 0.9, 0.1
        p[1, 38], p[1, 52] = 0.6, 0.4
        p[2, 38], p[2, 52], p[2, 0] = 0.4, 0.3, 0.3
        p[3:, 52] = 1
        return p

    reader = SimpleNamespace(classifier=classifier, settings=Settings(min_index=0.35, min_card=0.5))
    r = module.read_jokers(reader, x)
    assert r["crops"] == 6 and r["kept_as_index"] == 0.5 and r["read_as_card"] == pytest.approx(2 / 6)
    assert r["read"] == {"KD": 3}


def test_upright_suit_probe_cuts_one_view_at_each_side():
    from tests.datasets.test_index_crops import bar_deck

    module = script("upright_suit_probe")
    crops, y, ups = module.deck_crops(bar_deck(), (32, 48), seed=1, per_card=1)
    assert crops[32].shape == (26, 32, 32, 3) and crops[48].shape == (26, 48, 48, 3)
    assert len(y) == len(ups) == 26


def test_upright_suit_train_goes_on_from_the_shipped_reader_on_upright_crops(tmp_path):
    import torch

    from tests.models.test_suit import turned_shards
    from vision.onnx import IndexClassifier

    module = script("upright_suit_train")
    turned_shards(tmp_path / "crops")
    onnx = module.train(tmp_path / "crops", tmp_path / "out", 0.05, ROOT / "models" / "weights" / "suit.pt",
                        batch=8, log=lambda *_: None)
    assert onnx.exists() and IndexClassifier(onnx).upright
    state = torch.load(tmp_path / "out" / "suit.pt")
    shipped = torch.load(ROOT / "models" / "weights" / "suit.pt")
    assert state["upright"] and len(state["history"]) > len(shipped["history"])  # went on from it
    control = module.train(tmp_path / "crops", tmp_path / "ctl", 0.05, ROOT / "models" / "weights" / "suit.pt",
                           batch=8, log=lambda *_: None, turn=False)
    assert not IndexClassifier(control).upright


def test_settings_sweep_asks_each_network_once_per_input():
    import numpy as np

    module = script("settings_sweep")

    class Net:
        size = 32

        def __init__(self):
            self.calls = 0

        def __call__(self, x, turns=1):
            self.calls += 1
            return x.sum() * turns

        def degrees(self, x):
            self.calls += 1
            return -int(x.sum())

    net = Net()
    kept = module.Remembered(net)
    a, b = np.ones((2, 3), np.uint8), np.zeros((2, 3), np.uint8)
    assert kept(a, turns=4) == 24 and kept(a, turns=4) == 24 and net.calls == 1
    assert kept(a, turns=1) == 6 and kept(b, turns=4) == 0 and net.calls == 3  # another input or keyword: asked
    assert kept.degrees(a) == -6 and kept.degrees(a) == -6 and net.calls == 4  # methods kept apart from calls
    assert kept.size == 32 and (kept.asked, kept.answered) == (6, 2)


def test_settings_sweep_remembers_each_member_of_a_group_too():
    # A detector group's members are asked once per input, whatever the group's vote.
    import numpy as np

    from vision.onnx import DetectorGroup

    module = script("settings_sweep")

    class Member:
        def __init__(self, score):
            self.score, self.calls = score, 0

        def candidates(self, img, conf, scales=(1.0,), turns=(0,)):
            self.calls += 1
            return np.array([[1, 1, 9, 9]], np.float32), np.array([self.score], np.float32)

    first, second = Member(0.8), Member(0.4)

    class Reader:
        detector = DetectorGroup([first, second])
        classifier = suit = suit_up = grey_suit = way_up = pips = None

    reader = module.remembering(Reader())
    img = np.zeros((12, 12, 3), np.uint8)
    assert reader.detector(img, vote="mean")[1].tolist() == pytest.approx([0.6])
    assert reader.detector(img, vote="max")[1].tolist() == pytest.approx([0.8])
    assert (first.calls, second.calls) == (1, 1)  # the second vote fused the remembered candidates


def test_settings_sweep_reads_the_photos_at_each_value_of_one_setting(tmp_path):
    import argparse

    import cv2
    import numpy as np

    from vision.evaluate import Truth
    from vision.reader import Settings
    from vision.types import CardRead, Reading

    module = script("settings_sweep")
    assert module.parse_set("suit_weight=1,0.5") == ("suit_weight", [1.0, 0.5])
    assert module.parse_set("one_deck=on,off") == ("one_deck", [True, False])
    assert module.parse_set("det_conf=0.2") == ("det_conf", [0.2])
    for bad in ("no_such=1", "suit_weight", "suit_weight="):
        with pytest.raises(argparse.ArgumentTypeError, match="NAME=V1"):
            module.parse_set(bad)
    assert module.parse_set("det_scales=1,0.5") == ("det_scales", [(1.0, 0.5)])
    assert module.parse_set("suit_tilts=0;-8,0,8") == ("suit_tilts", [(0.0,), (-8.0, 0.0, 8.0)])
    assert module.parse_set("zoom_scales=2;") == ("zoom_scales", [(2.0,), ()])
    with pytest.raises(argparse.ArgumentTypeError, match="values split by ';'"):
        module.parse_set("suit_margins=1.15;wide")
    with pytest.raises(argparse.ArgumentTypeError, match="on/off"):
        module.parse_set("one_deck=on,maybe")

    class Reader:  # reads QS always, and TS (not there) when its weight is under 1
        settings = Settings()

        def read(self, image):
            cards = [CardRead("QS", 0.9, ((0, 0, 4, 4),), False)]
            if self.settings.suit_weight < 1:
                cards.append(CardRead("TS", 0.8, ((9, 9, 12, 12),), False))
            return Reading(tuple(cards), 1.0, 16, 16, ())

    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((16, 16, 3), np.uint8))
    truths = [Truth(tmp_path / "a.png", "val", [("QS", (0, 0, 4, 4)), ("2H", (5, 5, 8, 8))])]
    reader = Reader()
    rows = module.sweep(reader, "suit_weight", [1.0, 0.5], truths)
    assert [(r["suit_weight"], r["cards_missed"], r["cards_wrong"]) for r in rows] == [(1.0, 1, 0), (0.5, 1, 1)]
    assert reader.settings == Settings()  # left as it was


def test_way_up_scenes_measures_the_error_on_crops_that_record_their_way_up(tmp_path):
    import numpy as np

    from engine.cards import CODES
    from vision.reader import DEFAULT_WEIGHTS

    module = script("way_up_scenes")
    rng = np.random.default_rng(0)
    y = np.array([CODES.index("8S"), CODES.index("8C"), CODES.index("8H"), 52])
    np.savez(tmp_path / "val-0000.npz", x=rng.integers(0, 255, (4, 48, 48, 3), dtype=np.uint8), y=y,
             up=np.array([0, 90, -90, 0], np.float32))
    out = module.measure(DEFAULT_WEIGHTS, tmp_path)
    assert out["all"]["indices"] == 3 and out["black"]["indices"] == 2  # "no index" left out
    assert 0 <= out["black"]["off_45"] <= out["black"]["off_20"] <= out["black"]["off_10"] <= 1
    assert 0 <= out["suit_right_true_way"] <= 1 and 0 <= out["suit_right_read_way"] <= 1  # the shipped one reads upright
    # the grey-photo reader, every suit: the shipped one upright (session 56), one of crops as
    # they lie read as they lie
    grey = module.measure(DEFAULT_WEIGHTS, tmp_path, grey=True)
    assert grey["all"]["indices"] == 3 and "suit_right_as_lie" not in grey
    assert round(grey["suit_right_read_way"] * 3, 2) in (0, 1, 2, 3)  # a share of the three indices
    import shutil

    from models import suit

    lying = tmp_path / "lying"
    lying.mkdir()
    shutil.copy(DEFAULT_WEIGHTS / "way_up.onnx", lying)
    suit.export_onnx(suit.build_model("SHDC").eval(), lying / "suit4.onnx")
    as_lie = module.measure(lying, tmp_path, grey=True)
    assert "suit_right_true_way" not in as_lie and round(as_lie["suit_right_as_lie"] * 3, 2) in (0, 1, 2, 3)


def test_black_suit_looks_counts_suits_the_suit_reader_alone_read_right():
    module = script("black_suit_looks")
    rows = [{"true": "8C", "read": "8S", "suit_reader_spade": 0.2},  # swapped; the suit reader said club
            {"true": "8C", "read": "8S", "suit_reader_spade": 0.9},  # swapped; it said spade too
            {"true": "KS", "read": "AS", "suit_reader_spade": 0.9},  # the rank wrong
            {"true": "2S", "read": "2S", "suit_reader_spade": 0.8}]
    assert module.tally(rows) == {"black_indices": 4, "read_wrong": 3, "suit_swapped": 2, "suit_reader_alone_right": 1}


def test_black_suit_looks_sheet_shows_each_crop_as_cut_and_as_the_suit_reader_sees_it(tmp_path):
    from types import SimpleNamespace

    import cv2
    import numpy as np

    module = script("black_suit_looks")
    seen = []
    # the way the way-up reader said (asked once, in looks()) is handed on, not asked again
    reader = SimpleNamespace(suit="net", suit_view=lambda net, big, small, degrees: seen.append((net, degrees)) or 255 - big)
    big, small = np.zeros((1, 48, 48, 3), np.uint8), np.zeros((1, 32, 32, 3), np.uint8)
    rows = [{"true": "8C", "read": "8S", "suit_reader_spade": 0.2, "_crops": (big, small, np.array([90.0]))}] * 7
    module.sheet(reader, rows, tmp_path / "sheet.png")
    out = cv2.imread(str(tmp_path / "sheet.png"))
    assert out.shape == (2 * 110, 6 * 192, 3) and [(n, float(d[0])) for n, d in seen] == [("net", 90.0)] * 7
    assert out[60, 40].max() == 0 and out[60, 140].min() == 255  # as cut (black), as seen (turned white)


def test_card_pairs_tells_one_cards_two_indices_from_two_cards_and_counts_what_a_rule_takes(tmp_path):
    from types import SimpleNamespace

    import cv2
    import numpy as np

    from engine.cards import CODES
    from vision.evaluate import Truth
    from vision.reader import IndexRead

    module = script("card_pairs")

    def probs(**p):
        out = np.zeros(53, np.float32)
        for code, v in p.items():
            out[CODES.index(code)] = v
        return out

    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.full((100, 100, 3), 200, np.uint8))
    # an 8S whose lower index is read as 8C, and a 5H: upright, to the right
    truth = Truth(photo, "val", [("8S", (0, 0, 6, 10)), ("8S", (20, 30, 26, 40)), ("5H", (60, 0, 66, 10))])
    reads = [IndexRead((0, 0, 6, 10), "8S", 0.9, probs(**{"8S": 0.9, "8C": 0.1})),
             IndexRead((20, 30, 26, 40), "8C", 0.8, probs(**{"8C": 0.6, "8S": 0.4})),
             IndexRead((60, 0, 66, 10), "5H", 0.9, probs(**{"5H": 1.0}))]
    ups = np.array([[0, -1], [0, 1], [0, -1]], np.float32)
    reader = SimpleNamespace(read_indices=lambda img: reads, classifier=SimpleNamespace(size=32),
                             way_up=lambda crops: ups[:len(crops)])
    rows = module.pairs_of(reader, [truth], within=9.0)
    assert [(r["true"], r["read"]) for r in rows] == [(["8S", "8S"], ["8S", "8C"]), (["8S", "5H"], ["8S", "5H"]),
                                                      (["8S", "5H"], ["8C", "5H"])]
    one = rows[0]
    assert one["one_card"] and (one["cos"], one["along"], one["across"]) == (-1.0, 3.0, 2.0)
    assert one["both"][0] == "8S" and one["both"][1] == pytest.approx(0.36 / 0.42, abs=1e-4)
    assert one["p_other"] == [0.1, 0.4]
    assert rows[1]["cos"] == 1.0 and rows[1]["along"] == 0.0 and rows[1]["across"] == 6.0  # 6 sizes to its right
    out = module.summary(rows, {"cos": -0.5, "along": [1.5, 5.5], "across": [0.0, 4.0]})
    assert (out["one_card"], out["two_cards"], out["one_card_read_as_two_codes"], out["of_those_suit_twins"]) == (1, 2, 1, 1)
    assert (out["taken_one_card"], out["taken_two_cards"], out["taken_one_card_read_as_suit_twins"]) == (1, 0, 1)


def test_read_errors_tells_misread_read_twice_and_unlabelled_cards():
    from vision.evaluate import Truth
    from vision.types import CardRead

    module = script("read_errors")
    truth = Truth(Path("a.jpg"), "g", [("KC", (10, 10, 30, 40)), ("KC", (200, 200, 220, 230)),
                                       ("5H", (100, 100, 120, 130))])
    errata = [{"image": "a.jpg", "card": "QC", "box": [600, 0, 630, 25]},
              {"image": "a.jpg", "card": "joker", "box": [300, 300, 330, 330]}]

    def kind(code, box, reported):
        card = CardRead(code, 0.9, (box,), False)
        return module.wrong_card(card, truth, reported, errata, (640, 640, 3))

    assert kind("KS", (11, 10, 30, 41), {"KS", "5H"})["kind"] == "misread"  # the KC is not reported
    assert kind("KS", (11, 10, 30, 41), {"KS", "KC", "5H"})["kind"] == "read twice"
    far = kind("2D", (400, 400, 420, 430), {"2D"})
    assert far["kind"] == "unlabelled" and not far["at_edge"]
    edge = kind("QC", (601, 0, 629, 24), {"QC"})
    assert edge["kind"] == "unlabelled, read right by eye" and edge["at_edge"]
    assert kind("QS", (601, 0, 629, 24), {"QS"})["kind"] == "unlabelled, read wrong by eye"
    assert kind("KD", (300, 300, 330, 331), {"KD"})["kind"] == "unlabelled, read wrong by eye"
    # a label wrong by eye: the 5H there is the 5D (session 56's real-dev errata have two such)
    errata.append({"image": "a.jpg", "card": "5D", "labelled": "5H", "box": [100, 100, 120, 130]})
    assert kind("5D", (101, 100, 120, 131), {"5D"})["kind"] == "misread, the label wrong by eye"
    assert kind("5S", (101, 100, 120, 131), {"5S"})["kind"] == "misread"  # read as neither
    assert kind("5D", (200, 200, 220, 230), {"5D"})["kind"] == "misread"  # the label is right there


def test_read_errors_traces_a_widened_read_in_the_widened_photo(tmp_path):
    """A square photo the reader kept widened (Reading.aspect 2) is traced in the photo widened
    so, and the boxes found there are compared with the labels in the photo's own pixels."""
    import numpy as np

    from engine.cards import CODES
    from vision.evaluate import Truth
    from vision.reader import IndexRead, Settings
    from vision.types import Reading

    module = script("read_errors")
    probs = np.zeros(53, np.float32)
    probs[CODES.index("KS")] = 1.0

    class Widened:
        def __init__(self):
            self.settings, self.grey_suit, self.widths = Settings(), None, []

        def read(self, img):
            return Reading((), 1.0, img.shape[1], img.shape[0], (), 2.0)

        def detector(self, img, conf, scales, turns, fuse):
            self.widths.append(img.shape[1])
            return np.array([[20, 10, 60, 40]], np.float32), np.array([0.9], np.float32)

        def _read_at(self, img, scales, grey):
            self.widths.append(img.shape[1])
            return [IndexRead((20.0, 10.0, 60.0, 40.0), "KS", 0.9, probs)]  # in the widened photo's pixels

    import cv2

    photo = tmp_path / "square.png"
    cv2.imwrite(str(photo), np.full((50, 50, 3), 255, np.uint8))
    truth = Truth(photo, "g", [("KC", (10, 10, 30, 40))])  # the label, in the square's pixels
    reader = Widened()
    out = module.causes(reader, [truth], low=0.05)
    assert reader.widths == [100, 100]
    assert out["missed"][0]["cause"] == "read other"  # found where the label is: not "no box"
    assert out["read_as"]["g"] == {"KC->KS": 1}


def test_read_errors_counts_a_card_under_a_wrong_label_apart(tmp_path):
    """An erratum with "labelled": the card labelled KC is the KS, by eye; the reader reads KS
    there: the KC is missed as "the label wrong by eye", the KS read as "misread, the label
    wrong by eye"; without the erratum, "read other" and "misread"."""
    import cv2
    import numpy as np

    from engine.cards import CODES
    from vision.evaluate import Truth
    from vision.reader import IndexRead, Settings
    from vision.types import CardRead, Reading

    module = script("read_errors")
    probs = np.zeros(53, np.float32)
    probs[CODES.index("KS")] = 1.0
    box = (10.0, 10.0, 30.0, 40.0)

    class Reads:
        settings, grey_suit = Settings(), None

        def read(self, img):
            return Reading((CardRead("KS", 0.9, (box,), False),), 1.0, img.shape[1], img.shape[0],
                           (IndexRead(box, "KS", 0.9, probs),), 1.0)

        def detector(self, img, conf, scales, turns, fuse):
            return np.array([box], np.float32), np.array([0.9], np.float32)

        def _read_at(self, img, scales, grey):
            return [IndexRead(box, "KS", 0.9, probs)]

    photo = tmp_path / "a.png"
    cv2.imwrite(str(photo), np.full((50, 50, 3), 255, np.uint8))
    truth = Truth(photo, "g", [("KC", box)])
    plain = module.causes(Reads(), [truth], low=0.05)
    assert plain["missed"][0]["cause"] == "read other" and plain["wrong"][0]["kind"] == "misread"
    errata = [{"image": "a.png", "card": "KS", "labelled": "KC", "box": list(box)}]
    out = module.causes(Reads(), [truth], low=0.05, errata=errata)
    assert out["missed"][0]["cause"] == "the label wrong by eye"
    assert out["wrong"][0]["kind"] == "misread, the label wrong by eye"
    assert out["groups"]["g"] == {"cards": 1, "the label wrong by eye": 1, "misread, the label wrong by eye": 1}


def test_extra_look_counts_gains_on_the_photos_each_trigger_picks():
    module = script("extra_look")
    rows = [{"indices": 20, "median_side": 15.0, "right": 3, "wrong": 1},
            {"indices": 2, "median_side": 50.0, "right": 0, "wrong": 2},
            {"indices": 0, "median_side": 0.0, "right": 0, "wrong": 0}]
    got = {t["when"]: (t["photos"], t["right"], t["wrong"]) for t in module.triggers(rows)}
    assert got["every photo"] == (3, 3, 3)
    assert got["median side < 20 px"] == (1, 3, 1)  # a photo that read nothing has no median
    assert got["16 or more indices"] == (1, 3, 1)
    assert got["4 or more indices"] == (1, 3, 1)


def test_flag_rules_records_each_card_and_counts_a_rule():
    import numpy as np

    from engine.cards import CODES
    from vision.reader import IndexRead
    from vision.types import CardRead, Reading

    module = script("flag_rules")

    def index(box, code, p, score=0.81):
        probs = np.zeros(53, np.float32)
        probs[CODES.index(code)] = p
        probs[CODES.index("KC")] = 1 - p  # the next likeliest code
        return IndexRead(box, code, float(np.sqrt(score * p)), probs)

    a, b = index((0, 0, 20, 30), "KS", 0.9), index((100, 100, 120, 130), "KS", 0.6)
    lone = index((300, 300, 310, 316), "5H", 1.0, score=0.64)
    reading = Reading((CardRead("KS", 0.93, (a.box, b.box), False), CardRead("5H", 0.8, (lone.box,), True)),
                      10.0, 640, 640, (a, b, lone))
    ks, five = module.card_records(reading, {"KC", "5H"})
    assert (ks["n"], ks["side"], ks["black"], ks["right"], ks["flag"]) == (2, 30.0, True, False, False)
    assert (ks["p"], ks["gap"], ks["det"]) == (0.6, 0.2, 0.81)  # the weaker index's
    assert (five["n"], five["side"], five["black"], five["right"], five["det"]) == (1, 16.0, False, True, 0.64)
    rows = [ks, five]
    assert module.count(rows, module.rules()["shipped"]) == {
        "cards": 2, "wrong": 1, "flagged": 1, "wrong_flagged": 0, "right_flagged": 1, "unflagged_precision": 0.0}
    caught = module.count(rows, module.rules()["p<0.8"])  # the wrong KS is flagged too
    assert (caught["flagged"], caught["wrong_flagged"], caught["unflagged_precision"]) == (2, 1, 1.0)
    assert module.unflagged_wrong(rows) == {"cards": 1, "black": 1, "one_index": 0, "median_conf": 0.93}
    # Dropping both loses the right 5H for the wrong KS; the 5H, of one index, is read surely (p 1.0).
    assert module.dropped(rows, lambda r: r["conf"] < 0.95) == {"wrong_dropped": 1, "right_lost": 1,
                                                                 "right_per_wrong": 1.0}
    assert module.dropped(rows, module.drop_rules()["one index & p<0.5"]) == {"wrong_dropped": 0, "right_lost": 0,
                                                                               "right_per_wrong": None}


def test_flag_rules_sums_the_sets_and_prices_each_step_up_the_confidence_ladder():
    module = script("flag_rules")

    def row(conf, right, flag=False):
        return {"conf": conf, "flag": flag, "right": right, "n": 2, "side": 30.0, "p": conf, "gap": 0.5,
                "det": 0.9, "black": False}

    # Set a: a wrong card at 0.81 and two right ones at 0.815 (caught by conf<0.82 at 2 right per wrong);
    # set b: a flagged wrong card and a wrong one at 0.83 with a right one at 0.835 (conf<0.84: 1 per wrong).
    a = [row(0.81, False), row(0.815, True), row(0.815, True), row(0.95, True)]
    b = [row(0.5, False, flag=True), row(0.83, False), row(0.835, True)]
    every = a + b
    summed = {name: module.count(every, rule) for name, rule in module.rules().items()}
    assert (summed["shipped"]["cards"], summed["shipped"]["wrong"], summed["shipped"]["wrong_flagged"]) == (7, 3, 1)
    steps = module.ladder_steps(summed)
    assert list(steps)[:3] == ["conf<0.76", "conf<0.78", "conf<0.8"]  # in rising confidence
    assert steps["conf<0.8"] is None  # catches nothing more than the shipped flag
    assert (steps["conf<0.82"], steps["conf<0.84"]) == (2.0, 1.0)
    assert steps["conf<0.85"] is None and steps["conf<0.9"] is None


def test_settings_sweep_sums_each_value_over_the_sets():
    module = script("settings_sweep")

    def row(value, true, missed, wrong, tilt=(0.0,)):
        return {"cls_up_tilts": tilt, "min_card": value, "precision": 0.0, "recall": 0.0, "cards_true": true,
                "cards_missed": missed, "cards_wrong": wrong, "exact_hand_rate": 0.0}

    figures = {"data/a": [row(0.5, 100, 10, 5), row(0.6, 100, 12, 3), row(0.5, 100, 9, 6, (-6.0, 0.0, 6.0))],
               "data/b": [row(0.5, 50, 5, 5), row(0.6, 50, 6, 4), row(0.5, 50, 4, 6, (-6.0, 0.0, 6.0))]}
    rows = module.totals(figures, ["cls_up_tilts", "min_card"])
    assert [(r["cls_up_tilts"], r["min_card"], r["cards_true"], r["cards_missed"], r["cards_wrong"]) for r in rows] == [
        ((0.0,), 0.5, 150, 15, 10), ((0.0,), 0.6, 150, 18, 7), ((-6.0, 0.0, 6.0), 0.5, 150, 13, 12)]
    assert rows[0]["precision"] == pytest.approx(135 / 145) and rows[0]["recall"] == pytest.approx(135 / 150)


@pytest.mark.parametrize("option, entry", [("spinning", "session.intra_op.allow_spinning"),
                                           ("denormals", "session.set_denormal_as_zero")])
def test_ort_options_builds_each_reader_as_asked_and_leaves_the_default(option, entry):
    import vision.onnx

    module = script("ort_options")
    flag = module.OPTIONS[option]
    default = getattr(vision.onnx, flag)
    on = module.reader_with(option, True, ROOT / "models" / "weights")
    off = module.reader_with(option, False, ROOT / "models" / "weights")
    assert on.detector.session.get_session_options().get_session_config_entry(entry) == "1"
    assert off.classifier.session.get_session_options().get_session_config_entry(entry) == "0"
    assert getattr(vision.onnx, flag) == default is False


def test_ort_options_reads_fixture_photos_the_same_either_way(tmp_path):
    module = script("ort_options")
    out = tmp_path / "daz.json"
    assert module.main(["--option", "denormals", "--photos", str(FIXTURES), "--n", "2", "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["photos"] == 2 and got["photos_read_differently"] == []
    assert got["median_ms"]["on"] > 0 and got["median_ms"]["off"] > 0


def test_ort_options_names_the_photos_whose_readings_differ_in_anything_they_say():
    from vision.types import CardRead, Reading

    module = script("ort_options")
    card = CardRead("AS", 0.9, ((0, 0, 10, 10),), False)
    same = Reading((card,), 5.0, 64, 64)
    moved = Reading((CardRead("AS", 0.9, ((0, 0, 10, 11),), False),), 6.0, 64, 64)  # another box
    flagged = Reading((CardRead("AS", 0.9, ((0, 0, 10, 10),), True),), 6.0, 64, 64)
    assert module.differing([same, same, same], [same, moved, flagged]) == [1, 2]  # time is no difference


def test_detector_cost_times_quantised_and_untrained_detectors(tmp_path):
    module = script("detector_cost")
    out = tmp_path / "cost.json"
    assert module.main(["--photos", str(FIXTURES), "--calib", str(FIXTURES), "--n", "1", "--calib-n", "2",
                        "--repeats", "1", "--widths", "0.125", "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    assert set(got["median_ms_per_photo"]) == {"shipped", "int8 QDQ u8s8", "int8 QOperator u8u8",
                                              "untrained width 0.125"}
    assert got["ratio_to_shipped"]["shipped"] == 1.0
    assert got["parameters"]["untrained width 0.125"] > 200_000  # the shipped layout's size
    for change in got["quantised_scores_against_shipped"].values():
        assert change["largest_score_difference"] > 0  # 8 bits is not the float network
        assert 0 <= change["anchors_crossing_det_conf"] <= change["anchors_over_det_conf_in_either"]
    assert module.main(["--photos", str(tmp_path / "none")]) == 2  # no photos: a clear refusal


def test_pip_votes_counts_what_each_rule_would_mend_and_break():
    module = script("pip_votes")
    rows = [
        {"true": "7C", "read": "7S", "blobs": 3, "right": 2, "wrong": 0},  # mended from 1 and 2
        {"true": "7C", "read": "7S", "blobs": 3, "right": 3, "wrong": 1},  # a spade among: only "ahead" mends
        {"true": "5S", "read": "5S", "blobs": 2, "right": 0, "wrong": 1},  # broken at 1 only
        {"true": "9S", "read": "9S", "blobs": 4, "right": 4, "wrong": 0},  # right, left alone
        {"true": "3C", "read": "3C", "blobs": 0, "right": 0, "wrong": 0},
    ]
    out = module.summary(rows)
    assert (out["reads"], out["read_wrong_suit"], out["with_blobs"], out["with_a_sure_pip"]) == (5, 2, 4, 4)
    assert (out["pips_right"], out["pips_wrong"]) == (9, 2)
    assert out["pip_suit=1 none"] == {"mended": 1, "broken": 1}
    assert out["pip_suit=2 none"] == {"mended": 1, "broken": 0}
    assert out["pip_suit=2 ahead"] == {"mended": 2, "broken": 0}
    assert out["pip_suit=3 none"] == {"mended": 0, "broken": 0}


def test_box_fit_matches_each_label_once_and_measures_size_offset_and_overlap():
    import numpy as np

    module = script("box_fit")
    labels = np.array([[0, 0, 10, 20], [100, 100, 110, 120], [300, 300, 310, 320]], np.float32)
    boxes = np.array([
        [1, 2, 11, 22],  # the first label, shifted by (1, 2): IoU 162 / 238
        [100, 100, 110, 130],  # the second, its longer side 20 -> 30, IoU 200 / 300
        [0, 0, 10, 20.5],  # a second box over the first label: not matched twice
        [500, 500, 510, 520],  # over no label
    ], np.float32)
    rows = module.match(labels, boxes)
    assert [(i, j) for i, j, _ in rows] == [(0, 2), (1, 1)]  # best IoU first; the third label unmatched
    f = module.fit(labels, boxes)
    assert f["labels"] == 3 and f["ratio"] == pytest.approx([20.5 / 20, 30 / 20])
    assert f["iou"][1] == pytest.approx(200 / 300)
    assert f["offset"][1] == pytest.approx(5 / 20)
    s = module.summary([f])
    assert s["matched"] == round(2 / 3, 4) and s["side_ratio_q25_50_75"][1] == round((20.5 / 20 + 1.5) / 2, 3)


def test_small_looks_counts_the_photos_whose_indices_read_are_small():
    import numpy as np

    from vision.reader import IndexRead, Settings

    module = script("small_looks")
    sides = {"a": 20, "b": 50, "c": None}  # c reads no index

    class Reader:
        settings, grey_suit = Settings(small_side=30), None

        def _read_at(self, img, scales, grey):
            side = sides[chr(int(img[0, 0, 0]))]
            return [] if side is None else [IndexRead((0, 0, side, side), "AS", 0.9, None)]

    load = lambda path: np.full((4, 4, 3), ord(path), np.uint8)  # noqa: E731
    out = module.count(Reader(), [("g", "a"), ("g", "b"), ("h", "a"), ("h", "c")], load)
    assert out["g"] == {"photos": 2, "read": 2, "small_look": 1, "median_side": 35.0}
    assert out["h"] == {"photos": 2, "read": 1, "small_look": 1, "median_side": 20.0}
    assert out["all"] == {"photos": 4, "read": 3, "small_look": 2, "median_side": 20.0}
    Reader.settings = Settings(small_side=0)
    assert module.count(Reader(), [("g", "a")], load)["g"]["small_look"] == 0


def test_settings_sweep_squeezes_a_photo_and_moves_its_labels_with_it():
    import numpy as np

    from vision.evaluate import Truth

    module = script("settings_sweep")
    img = np.zeros((64, 64, 3), np.uint8)
    img[16:32, 32:48] = 255  # a white square, labelled
    truth = Truth("a.png", "val", [("AS", (32, 16, 48, 32))])
    for axis in ("x", "y"):
        out = module.squeezed(img, 0.5, axis)
        assert out.shape == img.shape
        [(code, box)] = module.squeezed_truth(truth, 64, 0.5, axis).boxes
        x1, y1, x2, y2 = (round(v) for v in box)
        assert code == "AS" and out[y1:y2, x1:x2].min() > 200  # the square lies under its label
        assert (x2 - x1, y2 - y1) == ((8, 16) if axis == "x" else (16, 8))
    assert module.photo_loader() is None


def test_settings_sweep_cuts_the_middle_part_of_a_shape_and_keeps_the_labels_whose_middle_lies_in_it(tmp_path):
    import argparse

    import cv2
    import numpy as np

    from vision.evaluate import Truth

    module = script("settings_sweep")
    assert module.parse_band("16:9") == (16, 9)
    for bad in ("16x9", "16:0", "wide"):
        with pytest.raises(argparse.ArgumentTypeError, match="W:H"):
            module.parse_band(bad)
    assert module.band_box(640, (16, 9)) == (0, 140, 640, 360)
    assert module.band_box(640, (3, 4)) == (80, 0, 480, 640)
    img = np.zeros((640, 640, 3), np.uint8)
    img[140:500] = 200  # the 16:9 band
    out = module.banded(img, (16, 9))
    assert out.shape == (360, 640, 3) and (out == 200).all()
    truth = Truth("a.png", "val", [("AS", (10, 150, 30, 190)),    # inside
                                   ("2C", (10, 130, 30, 160)),    # middle inside, cut at the top
                                   ("3D", (10, 120, 30, 150)),    # middle above the band: out
                                   ("4H", (600, 490, 620, 530))])  # middle below: out
    assert module.banded_truth(truth, 640, (16, 9)).boxes == [("AS", (10, 10, 30, 50)), ("2C", (10, 0.0, 30, 20))]
    # a portrait part: 80 columns off each side
    assert module.banded(img, (3, 4)).shape == (640, 480, 3)
    portrait = Truth("a.png", "val", [("5S", (500, 10, 580, 50)),  # middle inside, cut at the right
                                      ("6S", (20, 10, 60, 50))])   # left of the part: out
    assert module.banded_truth(portrait, 640, (3, 4)).boxes == [("5S", (420, 10, 480, 50))]
    cv2.imwrite(str(tmp_path / "a.png"), img)
    assert (module.photo_loader(band=(16, 9))(tmp_path / "a.png") == out).all()


def test_placed_shrinks_a_photo_in_the_middle_of_its_frame_and_far_cards_shrinks_both_sides():
    import numpy as np

    from vision.evaluate import Truth

    sweep, far = script("settings_sweep"), script("far_cards")
    img = np.zeros((64, 64, 3), np.uint8)
    img[16:32, 32:48] = 255  # a white square, labelled
    truth = Truth("a.png", "val", [("AS", (32, 16, 48, 32))])
    out = sweep.placed(img, 0.5, 0.25)
    [(_, box)] = sweep.placed_truth(truth, 64, 0.5, 0.25).boxes
    x1, y1, x2, y2 = (round(v) for v in box)
    assert out.shape == img.shape and (x2 - x1, y2 - y1) == (8, 4) and out[y1:y2, x1:x2].min() > 200
    assert out[:24].max() < 200  # above the photo: its blurred, upside-down copy
    assert (far.far_frame(img, 0.5) == sweep.placed(img, 0.5, 0.5)).all()
    assert far.far_truth(truth, 64, 0.5).boxes == sweep.placed_truth(truth, 64, 0.5, 0.5).boxes == [
        ("AS", (32.0, 24.0, 40.0, 32.0))]


def test_video_looks_makes_steady_clips_and_counts_the_vote_after_each_frame(tmp_path):
    import cv2
    import numpy as np

    from vision.types import CardRead, Reading

    module = script("video_looks")
    photo = tmp_path / "a.png"
    img = np.full((640, 640, 3), 120, np.uint8)
    img[300:340, 300:340] = 250
    cv2.imwrite(str(photo), img)
    frames = module.clip(photo, 1280, 3, seed=5)
    assert [f.shape for f in frames] == [(720, 1280, 3)] * 3
    again = module.clip(photo, 1280, 3, seed=5)
    assert all((a == b).all() for a, b in zip(frames, again, strict=True))  # the seed decides
    assert not (frames[0] == frames[1]).all()  # each frame moved and noisy
    assert np.abs(frames[0].astype(int) - frames[1].astype(int)).mean() < 8  # but a little

    class Reader:  # every look finds AS and 2C; a read as it is, AS alone
        def __init__(self):
            self.calls = []

        def read(self, frame, zoom=True, aspect=None, empty_looks=True, mirror=True):
            self.calls.append(aspect)
            codes = ["AS"] if aspect == 1.0 else ["AS", "2C"]
            cards = tuple(CardRead(c, 0.9, ((0, 0, 4, 4),), False) for c in codes)
            return Reading(cards, 1.0, 16, 16, (), 1.0 if aspect == 1.0 else 1.78)

    reader = Reader()
    makers = module.ways(reader, reader, [2], window=4)
    assert list(makers) == ["every", "k2", "k2-plain", "none"]
    plain = module.ways(reader, reader, [2], window=4, vote=module.PLAIN_COUNT)  # --plain-vote
    assert all((m().share, m().decay, m().keep) == (0.5, 1.0, 0.5) for m in plain.values())
    assert makers["k2"]().decay == 0.8  # StableReader's own vote by default
    counts, ms = module.vote_clip(makers["k2"](), [None] * 4, {"AS", "2C"})
    assert reader.calls == [None, 1.78, None, 1.78] and len(ms) == 4
    assert counts == [{"right": 2, "wrong": 0, "missed": 0}] * 4
    reader.calls.clear()
    counts, _ = module.vote_clip(makers["k2-plain"](), [None] * 4, {"AS", "3D"})
    assert reader.calls == [None, 1.0, None, 1.0]
    assert counts[-1] == {"right": 1, "wrong": 1, "missed": 1}  # 2C in 2 of 4 frames: shown (share 0.5)
    reader.calls.clear()
    counts, _ = module.vote_clip(makers["every"](), [None] * 2, [{"AS"}, {"3D"}])  # a new hand in view
    assert counts == [{"right": 1, "wrong": 1, "missed": 0}, {"right": 0, "wrong": 2, "missed": 1}]
    assert reader.calls == [None, None]  # every look on every frame, whatever StableReader's default


def test_video_votes_rules_vote_on_the_same_readings_and_count_follow_steady_and_flicker():
    import random

    from vision.types import CardRead, Reading

    module = script("video_votes")

    def reading(cards):
        return Reading(tuple(CardRead(c, conf, ((0, 0, 4, 4),), False) for c, conf in cards), 1.0, 16, 16, (), 1.0)

    # the weighted count with no decay and no confidence is the shipped vote, share for share
    rng = random.Random(4)
    stream = [reading([(c, rng.random()) for c in ("AS", "2C", "3D", "4H") if rng.random() < 0.6])
              for _ in range(60)]
    for share in (0.375, 0.5, 0.625):
        shipped, weighted = module.make_rule(f"count:{share}", 8), module.Weighted(8, share)
        assert [shipped.push(r) for r in stream] == [weighted.push(r) for r in stream]

    # a card read in 3 of 4 frames, at 0.9 then 0.2
    sure = [reading([("AS", 0.9)]), reading([]), reading([("AS", 0.9)]), reading([("AS", 0.9)])]
    assert [module.make_rule("conf:0.6", 4).push(r) for r in sure][-1] == {"AS"}  # 2.7 / 4
    doubtful = [reading([("AS", 0.2)]) if r.cards else r for r in sure]
    voter = module.make_rule("conf:0.6", 4)
    assert [voter.push(r) for r in doubtful][-1] == set()  # 0.6 / 4

    # the newest frames weigh more: after 4 frames of AS, 3 of 2C: at decay 0.8 2C has 2.44 of the
    # weights' 3.95 and AS 1.51, so the new card is in and the old out; the plain count (3 and 4 of 7
    # frames, 4 needed) still shows the old one alone
    frames = [reading([(c, 1.0)]) for c in ["AS"] * 4 + ["2C"] * 3]
    voter = module.make_rule("decay:0.8:0.5", 8)
    assert [voter.push(r) for r in frames][-2:] == [{"AS"}, {"2C"}]  # at 6 frames AS 1.89 of 3.69
    voter = module.make_rule("count:0.5", 8)
    assert [voter.push(r) for r in frames][-1] == {"AS"}
    # hysteresis keeps a shown card while it stays above the lower share
    voter = module.make_rule("hyst:0.5:0.25", 4)
    shown = [voter.push(reading(cards)) for cards in ([("AS", 1)],) * 4 + ([],) * 3 + ([],)]
    assert shown == [{"AS"}] * 7 + [set()]

    # and with each frame weighted by its age: kept while above 0.25 of the weights
    voter = module.make_rule("dhyst:0.8:0.5:0.25", 4)
    shown = [voter.push(reading(cards)) for cards in ([("AS", 1)],) * 4 + ([],) * 3]
    assert shown == [{"AS"}] * 6 + [set()]  # 0.512 / 2.952 is under a quarter

    # the dhyst rule's numbers reach StableReader as decay, share and keep, in that order
    from vision.video import StableReader

    for decay, on, off in ((0.8, 0.6, 0.25), (0.85, 0.55, 0.3), (1.0, 0.5, 0.375)):
        stable, voter = StableReader(None, window=8, share=on, decay=decay, keep=off), \
            module.make_rule(f"dhyst:{decay}:{on}:{off}", 8)
        assert [{c.card for c in stable.push(r).cards} for r in stream] == [voter.push(r) for r in stream]

    # a rule@T votes on the cards of confidence T or more
    assert module.floor_of("dhyst:0.8:0.6:0.25@0.46") == ("dhyst:0.8:0.6:0.25", 0.46)
    assert module.floor_of("count:0.5") == ("count:0.5", None)
    module.make_rule("count:0.5@0.46", 8)  # the floor is not the rule's
    with pytest.raises(SystemExit):
        module.floor_of("count:0.5@high")
    mixed = reading([("AS", 0.9), ("2C", 0.45)])
    assert [c.card for c in module.at_least(mixed, 0.46).cards] == ["AS"]
    assert module.at_least(mixed, 0.45).cards == mixed.cards

    # a kept reading votes as the reading it was made from
    kept = module.as_reading([["AS", 0.9, False], ["2C", 0.4, True]])
    assert [(c.card, c.confidence, c.uncertain) for c in kept.cards] == [("AS", 0.9, False), ("2C", 0.4, True)]

    for bad in ("count", "conf:x", "median:0.5", "decay:0.8", "dhyst:0.8:0.5"):
        with pytest.raises(SystemExit):
            module.make_rule(bad, 8)

    # two photos of 3 frames, window 2: follow counts the second photo only; steady is its 3rd frame
    wants = [{"AS"}] * 3 + [{"2C"}] * 3
    shown = [{"AS"}, {"AS"}, {"AS", "3D"}, {"AS"}, {"2C", "AS"}, {"2C"}]
    got = module.tally(shown, wants, [0, 0, 0, 1, 1, 1], frames=3, window=2)
    assert got["follow"] == [[1, 1], [0, 1], [0, 0]]
    assert got["steady"] == [0, 1] and got["last_frame"] == [0, 1] and got["flicker"] == 0
    assert module.settles([(9, 9), (3, 1), (0, 0), (0, 0)], window=2) == {"shows_new_from": 3, "old_gone_from": 2}


def test_upright_classifier_reads_the_same_crops_as_cut_and_turned_upright(tmp_path):
    import shutil

    import numpy as np

    from models.classifier import build_model, export_onnx
    from tests.models.test_way_up import tee
    from vision.reader import DEFAULT_WEIGHTS

    module = script("upright_classifier")
    crops = tmp_path / "crops"
    crops.mkdir()
    np.savez(crops / "val-0000.npz", x=np.stack([tee(32, 90.0)] * 6), y=np.array([0, 1, 2, 3, 4, 5], np.int16),
             up=np.full(6, 90.0, np.float32))
    np.savez(crops / "val-neg-0000.npz", x=np.stack([tee(32)] * 2), y=np.full(2, 52, np.int16))  # no way recorded
    plain, upright = tmp_path / "plain", tmp_path / "up"
    plain.mkdir()
    upright.mkdir()
    export_onnx(build_model(), plain / "classifier.onnx")  # reads crops at any turn
    export_onnx(build_model(), upright / "classifier.onnx", metadata={"upright": "true"})
    shutil.copy(DEFAULT_WEIGHTS / "way_up.onnx", upright / "way_up.onnx")
    out = module.compare(plain, upright, crops)
    assert out["crops"] == 8 and out["cards"] == 6
    rates = [*out["plain"].values(), *out["upright"].values()]
    assert all(0 <= r <= 1 for r in rates if isinstance(r, float))
    assert 0 <= out["way_up_error_deg"]["median"] <= 180 and 0 <= out["way_up_error_deg"]["off_45"] <= 1
    with pytest.raises(SystemExit, match="--plain must read crops at any turn"):
        module.compare(upright, upright, crops)


def test_the_upright_suit_probes_refuse_a_suit_reader_already_upright(capsys):
    # they read the suit reader at four turns: the shipped one (upright since session 24) is refused
    # at the start, before upright_suit_train.py's minutes of training
    import argparse

    module = script("upright_suit_probe")
    with pytest.raises(SystemExit):
        module.probed_reader(argparse.ArgumentParser(), ROOT / "models" / "weights")
    assert "already reads crops turned upright" in capsys.readouterr().err


def test_aspect_here_reads_fixture_photos_both_ways_the_same(tmp_path):
    module = script("aspect_here")
    out = tmp_path / "here.json"
    assert module.main(["--photos", str(FIXTURES), "--n", "2", "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["photos"] == 2 and got["readings_that_differ"] == [] and got["largest_difference_of_the_figure"] == 0.0
    assert got["median_ms_old"] > 0 and got["median_ms_new"] > 0
    assert module.main(["--photos", str(tmp_path / "none")]) == 2  # no photos: a clear refusal


def test_report_prints_the_figures_and_writes_them_only_when_asked(tmp_path, capsys):
    from benchmarks.report import report

    report({"a": 1, "b": [2, 3]}, None, indent=1)
    assert json.loads(capsys.readouterr().out) == {"a": 1, "b": [2, 3]}
    out = tmp_path / "figures.json"
    report({"a": 1}, out)
    assert out.read_text() == '{\n  "a": 1\n}\n' and json.loads(capsys.readouterr().out) == {"a": 1}


def test_video_empty_streams_jittered_frames_of_no_card_through_both_readers(tmp_path):
    import numpy as np

    module = script("video_empty")
    frames = module.empty_frames(5, width=160, hold=4)
    assert len(frames) == 5 and all(f.shape == (90, 160, 3) and f.dtype == np.uint8 for f in frames)
    assert not (frames[0] == frames[1]).all()  # jittered
    assert np.abs(frames[0].astype(int) - frames[4].astype(int)).mean() > 10  # the 5th: another scene
    out = tmp_path / "empty.json"
    weights = str(ROOT / "models" / "weights")
    assert module.main(["--a", weights, "--b", weights, "--frames", "4", "--width", "320", "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["frames"] == 4 and got["size"] == "320x180"
    assert got["a"]["cards_shown"] == [] and got["b"]["mean_ms"] > 0


def test_read_errors_labelled_reads_a_weak_boxed_card_at_its_labels_as_the_reader_would():
    """The fixture table photo's 2H is missed for a weak detector box (under det_conf); given
    its labelled boxes, the reader reads both as 2H: a card the detector lost, not the classifier."""
    from vision.evaluate import load_truth
    from vision.reader import Reader

    module = script("read_errors")
    truths = [t for t in load_truth(FIXTURES) if "12_29_57" in t.image.name]
    reader = Reader()
    out = module.causes(reader, truths, low=0.02, labelled=True)
    (row,) = out["missed"]
    assert (row["card"], row["cause"]) == ("2H", "low box")
    assert [code for code, _ in row["labelled"]] == ["2H", "2H"] and all(p > 0.5 for _, p in row["labelled"])
    assert out["groups"]["webcam_WIN"]["missed, a labelled index read as it"] == 1
    assert out["groups"]["webcam_WIN"]["missed, a labelled index read as it at 0.5+"] == 1
    assert "_find" not in vars(reader)  # the reader's own detector step is back
    plain = module.causes(reader, truths, low=0.02)
    assert "labelled" not in plain["missed"][0] and "missed, a labelled index read as it" not in plain["groups"]["webcam_WIN"]


def test_mirror_check_outcome_counts_each_photo_each_way():
    module = script("mirror_check")

    def read(codes, total, odds):
        return {"codes": codes, "sum": total, "odds": odds, "read_ms": 100.0, "odds_ms": 10.0}

    records = [
        # a photo read right; flipped, misread (2H as 5H) but its boxes read surer mirrored
        {"truth": ["2H"], "as_is": read(["2H"], 0.95, [0.9, 0.3]), "flipped": read(["5H"], 0.7, [0.4, 0.8])},
        # a photo with a weak box only: the check is not asked either way
        {"truth": [], "as_is": read([], 0.0, [0.05, 0.1]), "flipped": read([], 0.0, [0.1, 0.05])},
    ]
    out = module.outcome(records, least=0.2, ask=0.0, gain=0.0)
    assert out["asked"] == 0 and out["turned"] == 0 and out["caught"] == 1
    assert (out["missed"], out["wrong"], out["missed_mirrored"], out["wrong_mirrored"]) == (0, 0, 0, 0)
    assert out["time_ratio"] == pytest.approx((110 + 110) / 200)
    # asked more loosely the photo itself is read flipped too, and kept as it is (surer)
    loose = module.outcome(records, least=0.2, ask=1.0, gain=0.0)
    assert loose["asked"] == 1 and loose["turned"] == 0
    assert loose["time_ratio"] == pytest.approx((110 + 100 + 110) / 200)
    # a gain the flipped photo's read cannot pass: caught by the odds, but kept as read
    strict = module.outcome(records, least=0.2, ask=0.0, gain=0.5)
    assert strict["caught"] == 0 and (strict["missed_mirrored"], strict["wrong_mirrored"]) == (1, 1)



def test_mirror_check_outcome_leaves_out_weak_boxes_at_strong():
    module = script("mirror_check")

    def read(codes, total, boxes):
        b = np.array(boxes, float)
        return {"codes": codes, "sum": total, "odds": [b[:, 0].mean(), b[:, 1].mean()], "boxes": boxes,
                "read_ms": 100.0, "odds_ms": 10.0}

    # flipped, the one real index reads surer mirrored, but three weak boxes (pips) pull the means
    # apart the other way: caught only when the weak boxes are left out
    weak = [[0.35, 0.1]] * 3
    records = [{"truth": ["2H"], "as_is": read(["2H"], 0.95, [[0.9, 0.5], *weak]),
                "flipped": read(["5H"], 0.7, [[0.5, 0.9], *weak])}]
    plain = module.outcome(records, least=0.3, ask=0.0, gain=0.0)
    assert plain["caught"] == 0 and plain["missed_mirrored"] == 1
    strong = module.outcome(records, least=0.3, ask=0.0, gain=0.0, strong=0.4)
    assert strong["caught"] == 1 and (strong["missed_mirrored"], strong["wrong_mirrored"]) == (0, 0)
    assert strong["asked"] == plain["asked"] == 0  # the photo as it is: surer as it lies either way
    # a record of the first form (no boxes) keeps its recorded means
    old = [{k: ({kk: vv for kk, vv in v.items() if kk != "boxes"} if isinstance(v, dict) else v)
            for k, v in records[0].items()}]
    assert module.outcome(old, least=0.3, ask=0.0, gain=0.0, strong=0.4)["caught"] == 0


def test_fast_paths_read_the_fixture_photos_alike_both_ways(tmp_path):
    module = script("fast_paths")
    out = tmp_path / "fast.json"
    assert module.main(["--photos", str(FIXTURES), "--n", "2", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["photos"] == 2 and figures["readings_differing"] == 0 and figures["cards_read"] > 0
    assert figures["normalise_8_crops"]["same_numbers"] and figures["to_input_640"]["same_numbers"]
    assert figures["is_grey_640"]["same_numbers"]


def test_fast_paths_patch_the_replaced_code_in_and_back():
    module = script("fast_paths")
    import vision.onnx
    import vision.reader

    def now():
        return vision.onnx.normalise, vision.onnx.to_input, vision.reader.is_grey

    fast = now()
    with module.slow_paths():
        assert now() == (module.normalise_before, module.to_input_before, module.is_grey_before)
    assert now() == fast


def test_mirror_check_outcomes_again_from_saved_records(tmp_path):
    module = script("mirror_check")

    def read(codes, total, boxes):
        return {"codes": codes, "sum": total, "odds": [0.0, 0.0], "boxes": boxes, "read_ms": 100.0, "odds_ms": 10.0}

    flipped = {"truth": ["2H"], "as_is": read(["2H"], 0.95, [[0.9, 0.5], *[[0.35, 0.1]] * 3]),
               "flipped": read(["5H"], 0.7, [[0.5, 0.9], *[[0.35, 0.1]] * 3])}
    saved = tmp_path / "records.json"
    saved.write_text(json.dumps({"weights": "shipped", "sets": {"a": {"records": [flipped]}, "b": {"records": [flipped]}}}))
    out = tmp_path / "again.json"
    module.main(["--from-records", str(saved), "--least", "0.3", "--ask", "0", "--strong", "0.4", "--json", str(out)])
    sets = json.loads(out.read_text())["sets"]
    assert set(sets) == {"a", "b", "all"}
    assert sets["all"]["by_value"]["least 0.3 ask 0.0 gain 0.0 strong 0.4"]["caught"] == 2
    assert "records" not in sets["a"]
    with pytest.raises(SystemExit):  # reads from photos or from records, not both
        module.main(["--from-records", str(saved), "--data", str(tmp_path)])


def test_empty_guess_outcome_adds_each_photos_guess_at_its_value():
    module = script("empty_guess")
    records = [
        {"truth": ["2H", "3C"], "codes": ["2H"], "read_ms": 90.0},  # read: never guessed at
        {"truth": ["KH"], "codes": [], "read_ms": 300.0, "guess_ms": 310.0,
         "guesses": {"min 0.3 det 0.05": ["KH", 0.43], "min 0.5 det 0.05": None}},
        {"truth": ["5C"], "codes": [], "read_ms": 300.0, "guess_ms": 290.0,
         "guesses": {"min 0.3 det 0.05": ["2D", 0.31], "min 0.5 det 0.05": None}},
        {"truth": [], "codes": [], "read_ms": 280.0, "guess_ms": 300.0,  # a photo of no card
         "guesses": {"min 0.3 det 0.05": None, "min 0.5 det 0.05": None}},
    ]
    assert module.outcome(records, None) == {"missed": 3, "wrong": 0, "added_right": 0, "added_wrong": 0,
                                             "cost": 3.0}
    low = module.outcome(records, "min 0.3 det 0.05")
    assert (low["missed"], low["wrong"], low["added_right"], low["added_wrong"]) == (2, 1, 1, 1)
    assert low["cost"] == 2 + 2.5
    assert module.outcome(records, "min 0.5 det 0.05")["missed"] == 3
    out = module.summarise(records, ["min 0.3 det 0.05"])
    assert out["photos"] == 4 and out["cards"] == 4 and out["guessed"] == 3
    assert out["guess_ms_mean"] == pytest.approx(300.0)


def test_empty_guess_guessers_share_the_readers_networks_at_each_value():
    from vision.reader import Reader, Settings

    module = script("empty_guess")
    reader = Reader.__new__(Reader)
    reader.detector, reader.settings = object(), Settings()
    views = module.guessers(reader, (0.3, 0.5), (0.05, 0.1))
    assert list(views) == ["min 0.3 det 0.05", "min 0.5 det 0.05", "min 0.3 det 0.1", "min 0.5 det 0.1"]
    assert views["min 0.5 det 0.1"].settings.empty_min_card == 0.5
    assert views["min 0.5 det 0.1"].settings.empty_det_conf == 0.1
    assert all(v.detector is reader.detector for v in views.values()) and reader.settings == Settings()


def test_empty_guess_reads_labelled_photos_and_photos_of_no_card_end_to_end(tmp_path, capsys):
    module = script("empty_guess")
    out = tmp_path / "guess.json"
    module.main(["--data", str(FIXTURES), "--photos", "2", "--empty", "1",
                 "--min", "0.5", "--json", str(out)])
    sets = json.loads(out.read_text())["sets"]
    (labelled,) = [v for k, v in sets.items() if k.endswith("real-dev")]
    assert labelled["photos"] == 2 and labelled["cards"] > 0 and list(labelled["by_value"]) == ["min 0.5 det 0.05"]
    assert sets["no card (1)"]["photos"] == 1 and sets["no card (1)"]["cards"] == 0
    assert "read none" in capsys.readouterr().out
