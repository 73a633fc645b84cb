"""vision.suits: the suit reader's say on indices read as black cards; and the Reader using it."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from engine.cards import CODES
from vision.suits import apply_suit_reader, read_black, with_suit

NONE = 52


def probs(**mass) -> np.ndarray:
    p = np.zeros(53, np.float32)
    for code, v in mass.items():
        p[NONE if code == "none" else CODES.index(code)] = v
    return p


def test_replace_takes_the_black_suit_from_the_suit_reader_and_the_rank_from_the_classifier():
    p = np.stack([probs(**{"8S": 0.6, "8C": 0.2, "3S": 0.1, "none": 0.1})])
    out = with_suit(p, np.array([[0.25, 0.75]], np.float32), "replace")[0]
    assert out[CODES.index("8C")] == pytest.approx(0.6)  # (0.6 + 0.2) x 0.75
    assert out[CODES.index("8S")] == pytest.approx(0.2)
    assert out[CODES.index("3C")] == pytest.approx(0.075)
    assert out[CODES.index("3S")] == pytest.approx(0.025)
    assert out[NONE] == pytest.approx(0.1)
    assert out.sum() == pytest.approx(1.0)
    assert CODES[int(out.argmax())] == "8C"


def test_a_weight_tempers_the_classifiers_odds_in_the_product():
    p = np.stack([probs(**{"JS": 0.9, "JC": 0.1, "3S": 0.1 - 1e-9})])
    say = np.array([[0.2, 0.8]], np.float32)
    # J: the classifier 9:1 for a spade, at half its say 3:1; the suit reader 1:4: 3:4
    half = with_suit(p, say, "product", weight=0.5)[0]
    assert half[CODES.index("JS")] == pytest.approx(1.0 * 3 / 7, rel=1e-5)
    assert half[CODES.index("JC")] == pytest.approx(1.0 * 4 / 7, rel=1e-5)
    # 3: no club mass at any weight above 0
    assert half[CODES.index("3C")] == 0
    assert np.allclose(with_suit(p, say, "product", weight=1.0), with_suit(p, say, "product"))
    # at no weight the classifier's split does not count: as "replace" for the ranks it has both of
    none = with_suit(p, say, "product", weight=0.0)[0]
    assert none[CODES.index("JC")] == pytest.approx(0.8) and none[CODES.index("JS")] == pytest.approx(0.2)


def test_red_cards_and_no_index_are_left_as_they_are():
    p = np.stack([probs(**{"5H": 0.5, "5S": 0.3, "5C": 0.1, "none": 0.1})])
    out = with_suit(p, np.array([[0.0, 1.0]], np.float32), "replace")[0]
    assert out[CODES.index("5H")] == pytest.approx(0.5)
    assert out[CODES.index("5C")] == pytest.approx(0.4)
    assert out[CODES.index("5S")] == 0


def test_product_multiplies_the_two_readers_odds():
    p = np.stack([probs(**{"8S": 0.6, "8C": 0.2, "3S": 0.1, "none": 0.1}),
                  probs(**{"JS": 0.95, "JC": 0.05})])
    out = with_suit(p, np.array([[0.25, 0.75], [0.25, 0.75]], np.float32))
    # 8: odds spade 3:1 (classifier) x 1:3 (suit reader) = even, the rank's 0.8 split in two
    assert out[0, CODES.index("8S")] == pytest.approx(0.4)
    assert out[0, CODES.index("8C")] == pytest.approx(0.4)
    # 3: the classifier has no club mass, so the product leaves it a spade
    assert out[0, CODES.index("3S")] == pytest.approx(0.1) and out[0, CODES.index("3C")] == 0
    assert out[0, NONE] == pytest.approx(0.1)
    # J: the classifier sure (19:1), the suit reader 1:3 against: still a spade, 19:3
    assert out[1, CODES.index("JS")] == pytest.approx(19 / 22)
    assert out[1, CODES.index("JC")] == pytest.approx(3 / 22)
    assert np.allclose(out.sum(1), 1)
    # a rank with neither suit in the classifier's eyes: nothing to share
    empty = with_suit(np.stack([probs(**{"none": 1.0})]), np.array([[0.5, 0.5]], np.float32))
    assert empty[0, NONE] == 1 and empty[0, :52].sum() == 0
    with pytest.raises(ValueError, match="suit rule"):
        with_suit(p, np.array([[0.5, 0.5]] * 2, np.float32), "mean")


def test_only_rows_read_as_black_cards_are_asked():
    p = np.stack([probs(**{"KS": 0.9, "KC": 0.1}), probs(**{"KH": 0.9, "KS": 0.1}),
                  probs(**{"none": 0.8, "2C": 0.2}), probs(**{"2C": 0.7, "2D": 0.3})])
    assert read_black(p).tolist() == [True, False, False, True]
    asked = []

    def suit_of(mask):
        asked.append(mask.copy())
        return np.array([[0.1, 0.9], [0.9, 0.1]], np.float32)

    out = apply_suit_reader(p, suit_of, "replace")
    assert len(asked) == 1 and asked[0].tolist() == [True, False, False, True]
    assert [CODES[int(k)] if k < 52 else "none" for k in out.argmax(1)] == ["KC", "KH", "none", "2S"]
    assert np.array_equal(out[1:3], p[1:3])
    red = p[1:3]
    assert apply_suit_reader(red, suit_of) is red and len(asked) == 1  # none read black: not asked
    assert read_black(np.zeros((0, 53))).shape == (0,)


def _suit_onnx(path: Path, club: bool = False, suits: str = "SC", says: str | None = None, sure: float = 20.0) -> None:
    """A suit network that always says club (or spade; or, of ``suits``, ``says``): its last
    layer's bias decides."""
    import torch

    from models.suit import build_model, export_onnx

    says = says or ("C" if club else "S")
    model = build_model(suits)
    with torch.no_grad():
        last = model[-1]
        last.weight.zero_()
        last.bias.copy_(torch.tensor([sure if s == says else -sure for s in suits]))
    export_onnx(model, path)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    from vision.reader import DEFAULT_WEIGHTS

    root = tmp_path_factory.mktemp("suit-weights")
    plain = root / "plain"
    plain.mkdir()
    for file in ("detector.onnx", "classifier.onnx", "way_up.onnx"):  # the classifier reads crops turned upright
        shutil.copy(DEFAULT_WEIGHTS / file, plain / file)
    out = {"plain": plain}
    for name, club in (("club", True), ("spade", False)):
        out[name] = root / name
        shutil.copytree(plain, out[name])
        _suit_onnx(out[name] / "suit.onnx", club)
    out["off"] = root / "off"
    shutil.copytree(out["club"], out["off"])
    (out["off"] / "reader.json").write_text(json.dumps({"suit_reader": False}))
    out["diamond"] = root / "diamond"  # a black suit reader sure of clubs, a grey-photo one of diamonds
    shutil.copytree(out["club"], out["diamond"])
    _suit_onnx(out["diamond"] / "suit4.onnx", suits="SHDC", says="D")
    out["grey-off"] = root / "grey-off"
    shutil.copytree(out["diamond"], out["grey-off"])
    (out["grey-off"] / "reader.json").write_text(json.dumps({"grey_suit_reader": False}))
    out["then-black"] = root / "then-black"  # grey-photo reader sure of spades, then the black one of clubs
    shutil.copytree(out["club"], out["then-black"])
    _suit_onnx(out["then-black"] / "suit4.onnx", suits="SHDC", says="S", sure=3.0)  # odds e^6
    (out["then-black"] / "reader.json").write_text(json.dumps({"grey_then_black": True}))
    return out


def test_the_reader_takes_the_black_suit_from_a_weights_folders_suit_reader(folders):
    from vision import Reader
    from vision.evaluate import load_truth

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "real-dev"
    photos = [t.image for t in load_truth(fixtures)]
    reads = {k: [Reader(f).read(p).codes() for p in photos] for k, f in folders.items()}
    assert any(c[-1] in "SC" for r in reads["plain"] for c in r), "the fixture photos read black cards"
    for name, suit in (("club", "C"), ("spade", "S")):  # a suit reader sure as can be (odds e^40)
        black = [c for r in reads[name] for c in r if c[-1] in "SC"]
        assert black and all(c[-1] == suit for c in black), (name, black)
    assert Reader(folders["club"]).suit is not None
    # "suit_reader": false in reader.json: the suit network is not even loaded
    assert Reader(folders["off"]).suit is None
    assert reads["off"] == reads["plain"]


def test_the_grey_photo_reader_shares_each_ranks_mass_among_four_suits():
    from vision.suits import read_as

    p = np.stack([probs(**{"QS": 0.5, "QH": 0.3, "QC": 0.1, "2D": 0.05, "none": 0.05}),
                  probs(**{"none": 0.9, "4D": 0.1})])
    say = np.array([[0.1, 0.7, 0.1, 0.1], [0.25, 0.25, 0.25, 0.25]], np.float32)
    out = with_suit(p, say, "replace", "SHDC")
    assert out[0, CODES.index("QH")] == pytest.approx(0.9 * 0.7)  # the queen's 0.9 by the reader
    assert out[0, CODES.index("QS")] == pytest.approx(0.09) and out[0, CODES.index("QD")] == pytest.approx(0.09)
    assert out[0, CODES.index("2H")] == pytest.approx(0.035)
    assert out[0, NONE] == pytest.approx(0.05) and np.allclose(out.sum(1), 1)
    prod = with_suit(p, say, "product", "SHDC")
    # odds: S 0.5 x 0.1, H 0.3 x 0.7, C 0.1 x 0.1 (D has none): 0.05, 0.21, 0.01 of 0.27
    assert prod[0, CODES.index("QH")] == pytest.approx(0.9 * 0.21 / 0.27)
    assert prod[0, CODES.index("QS")] == pytest.approx(0.9 * 0.05 / 0.27)
    assert prod[0, CODES.index("QD")] == 0
    assert np.allclose(prod[1], p[1])  # an even say changes nothing
    assert read_as(p, "SHDC").tolist() == [True, False] and read_as(p, "HD").tolist() == [False, False]
    with pytest.raises(ValueError, match="one per suit"):
        with_suit(p, say, "product", "SC")


def test_the_grey_photo_reader_is_asked_about_every_card_and_not_about_no_index():
    p = np.stack([probs(**{"KS": 0.9, "KC": 0.1}), probs(**{"KH": 0.9, "KD": 0.1}), probs(**{"none": 0.8, "2C": 0.2})])
    asked = []

    def suit_of(mask):
        asked.append(mask.copy())
        return np.tile(np.float32([[0.01, 0.01, 0.97, 0.01]]), (int(mask.sum()), 1))

    out = apply_suit_reader(p, suit_of, "replace", "SHDC")
    assert asked[0].tolist() == [True, True, False]
    assert [CODES[int(k)] if k < 52 else "none" for k in out.argmax(1)] == ["KD", "KD", "none"]


def test_a_black_and_white_photo_takes_every_suit_from_the_grey_photo_reader(folders):
    import cv2

    from vision import Reader
    from vision.evaluate import load_truth

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "real-dev"
    colour = [cv2.imread(str(t.image)) for t in load_truth(fixtures)]
    grey = [cv2.cvtColor(cv2.cvtColor(c, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR) for c in colour]
    reader = Reader(folders["diamond"])
    assert reader.grey_suit is not None and (reader.grey_suit.size, reader.grey_suit.classes) == (48, 4)
    read = [c for g in grey for c in reader.read(g).codes()]
    assert read and all(c[-1] == "D" for c in read), read
    # in colour it is not asked: the black suit reader says club, the red cards stay as read
    club = Reader(folders["club"])
    for c in colour:
        if not is_grey_photo(c):
            assert reader.read(c).codes() == club.read(c).codes()
    # "grey_suit_reader": false: not loaded; a grey photo is read as the black suit reader has it
    off = Reader(folders["grey-off"])
    assert off.grey_suit is None
    assert [off.read(g).codes() for g in grey] == [club.read(g).codes() for g in grey]


def is_grey_photo(img) -> bool:
    from vision.image import is_grey

    return is_grey(img)


def test_with_grey_then_black_the_black_suit_reader_has_the_last_say_in_a_grey_photo(folders):
    import cv2

    from vision import Reader
    from vision.evaluate import load_truth

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "real-dev"
    grey = [cv2.cvtColor(cv2.imread(str(t.image)), cv2.COLOR_BGR2GRAY) for t in load_truth(fixtures)]
    read = [c for g in grey for c in Reader(folders["then-black"]).read(g).codes()]
    assert read and all(c[-1] == "C" for c in read), read  # spades by the first, clubs by the second


def _tee_photo(degrees):
    """A 200 px photo with one 48 px T (bar on top) turned ``degrees`` anticlockwise at (76, 76)."""
    from tests.models.test_way_up import tee

    img = np.full((200, 200, 3), 225, np.uint8)
    img[76:124, 76:124] = tee(48, degrees)
    return img


class _Net:
    """A suit reader that keeps what it is given."""

    size, classes = 48, 2

    def __init__(self, upright):
        self.upright, self.seen = upright, []

    def __call__(self, crops, turns=1):
        self.seen.append((crops, turns))
        return np.tile([0.5, 0.5], (len(crops), 1)).astype(np.float32)


def test_an_upright_suit_reader_reads_its_crops_turned_upright_by_the_way_up_readers_angle_once():
    from types import SimpleNamespace

    from tests.models.test_way_up import bar_above_ink
    from vision.crops import crop_square
    from vision.reader import Reader, Settings

    img, box = _tee_photo(180.0), np.array([[80.0, 80.0, 120.0, 120.0]])
    small = np.stack([crop_square(img, tuple(box[0]), 32)])
    asked = []
    reader = Reader.__new__(Reader)
    reader.settings = Settings(cls_turns=4)
    reader.way_up = SimpleNamespace(degrees=lambda patches: asked.append(patches.shape) or np.array([180.0]))
    upright = _Net(upright=True)
    big = np.stack([crop_square(img, tuple(box[0]), 48)])
    assert reader.suit_probs(upright, big, small).shape == (1, 2)
    (crops, turns), = upright.seen
    assert turns == 1 and crops.shape == (1, 48, 48, 3) and bar_above_ink(crops[0])
    assert asked == [(1, 32, 32, 3)]  # from the classifier's crops
    plain = _Net(upright=False)
    reader.suit_probs(plain, big, small)
    (crops, turns), = plain.seen
    assert turns == 4 and not bar_above_ink(crops[0]) and asked == [(1, 32, 32, 3)]  # as cut, not asked
    # what each sees, as suit_probs shows it to them (the contact sheet of black_suit_looks.py)
    assert bar_above_ink(reader.suit_view(upright, big, small)[0])
    assert reader.suit_view(plain, big, small) is big and len(asked) == 2


def test_a_weights_folder_with_an_upright_suit_reader_and_no_way_up_reader_is_refused(tmp_path):
    from models import suit
    from vision.reader import DEFAULT_WEIGHTS, Reader

    for name in ("detector.onnx", "classifier.onnx"):
        shutil.copy(DEFAULT_WEIGHTS / name, tmp_path / name)
    suit.export_onnx(suit.build_model(), tmp_path / "suit.onnx", upright=True)
    with pytest.raises(FileNotFoundError, match=r"way_up\.onnx"):
        Reader(tmp_path)
    shutil.copy(DEFAULT_WEIGHTS / "way_up.onnx", tmp_path / "way_up.onnx")
    assert Reader(tmp_path).suit.upright


def test_a_second_black_suit_reader_has_its_say_after_the_first_and_not_in_grey_photos(tmp_path):
    from models import suit
    from vision.reader import DEFAULT_WEIGHTS, Reader

    for name in ("detector.onnx", "classifier.onnx", "suit.onnx", "suit4.onnx", "way_up.onnx"):
        shutil.copy(DEFAULT_WEIGHTS / name, tmp_path / name)
    suit.export_onnx(suit.build_model(), tmp_path / "suit_up.onnx", upright=True)
    reader = Reader(tmp_path)
    assert [(say.net, say.suits) for say in reader.suit_says()] == [(reader.suit, "SC"), (reader.suit_up, "SC")]
    assert reader.suit_up.upright
    assert [say.suits for say in reader.suit_says(grey=True)] == ["SHDC"]
    shipped = Reader(DEFAULT_WEIGHTS)  # one black suit reader, upright (session 24)
    assert shipped.suit_up is None and shipped.suit.upright


class _InkNet(_Net):
    """A suit reader whose spade probability is how dark a crop's middle is: looks that differ
    read differently."""

    def __call__(self, crops, turns=1):
        self.seen.append((crops, turns))
        dark = 1 - crops[:, 20:28, 20:28].mean((1, 2, 3)) / 255
        return np.column_stack([dark, 1 - dark]).astype(np.float32)


def test_a_suit_reader_asked_at_several_margins_and_tilts_reads_every_look_in_one_batch_and_averages():
    from types import SimpleNamespace

    from vision.crops import crop_square, turn_upright
    from vision.reader import Reader, Settings

    img, box = _tee_photo(90.0), np.array([[80.0, 80.0, 120.0, 120.0]] * 2)
    small = np.stack([crop_square(img, tuple(b), 32) for b in box])
    reader = Reader.__new__(Reader)
    reader.settings = Settings(suit_margins=(1.0, 1.4), suit_tilts=(-10.0, 0.0, 10.0))
    reader.way_up = SimpleNamespace(degrees=lambda patches: np.full(len(patches), 90.0))
    net = _InkNet(upright=True)
    looks = reader.suit_crops(net, img, box)
    assert [c.shape for c in looks] == [(2, 48, 48, 3)] * 2
    assert not np.array_equal(looks[0], looks[1])  # cut at two margins
    assert np.array_equal(looks[0][0], crop_square(img, tuple(box[0]), 48, 1.0))
    probs = reader.suit_probs(net, looks, small)
    (seen, turns), = net.seen  # one call: 2 margins x 3 tilts x 2 indices
    assert turns == 1 and seen.shape == (12, 48, 48, 3)
    each = [_InkNet(upright=True)(turn_upright(c, np.full(2, 90.0 + t)))
            for c in looks for t in (-10.0, 0.0, 10.0)]
    np.testing.assert_allclose(probs, np.mean(each, 0), rtol=1e-6)
    # one stack (one margin), at the three tilts
    net.seen.clear()
    one = reader.suit_probs(net, looks[0], small, degrees=np.full(2, 90.0))
    assert net.seen[0][0].shape == (6, 48, 48, 3) and one.shape == (2, 2)
    plain = _InkNet(upright=False)
    reader.suit_probs(plain, looks, small)
    assert [(c.shape, t) for c, t in plain.seen] == [((2, 48, 48, 3), 4)] * 2  # each margin at every turn


def _classifier_reader():
    """A reader whose classifier is the ink stand-in (32 px), a photo of two indices, their boxes
    and their crops as cut at the training margin."""
    from vision.crops import crop_square
    from vision.reader import Reader

    img, box = _tee_photo(90.0), np.array([[80.0, 80.0, 120.0, 120.0], [60.0, 70.0, 100.0, 110.0]])
    crops = np.stack([crop_square(img, tuple(b), 32) for b in box])
    reader = Reader.__new__(Reader)
    net = _InkNet(upright=False)
    net.size = 32
    reader.classifier = net
    return reader, net, img, box, crops


def test_the_classifier_asked_at_several_margins_reads_every_look_in_one_batch_and_averages():
    from vision.crops import crop_square
    from vision.reader import Settings

    reader, net, img, box, crops = _classifier_reader()
    reader.settings = Settings(cls_margins=(1.15,))  # one look, the crops as cut: asked once, at every turn
    one = reader.classifier_probs(img, box, crops)
    assert len(net.seen) == 1 and net.seen[0][0] is crops and net.seen[0][1] == 4
    np.testing.assert_allclose(one, _InkNet(upright=False)(crops))
    net.seen.clear()
    reader.settings = Settings(cls_margins=(1.0, 1.15, 1.4))  # (the shipped margins: 1.0, 1.15, 1.3)
    probs = reader.classifier_probs(img, box, crops)
    (seen, turns), = net.seen  # one call: 3 margins x 2 indices
    assert turns == 4 and seen.shape == (6, 32, 32, 3)
    assert np.array_equal(seen[2:4], crops)  # the training margin's look is the crops already cut
    each = [_InkNet(upright=False)(np.stack([crop_square(img, tuple(b), 32, m) for b in box])) for m in (1.0, 1.15, 1.4)]
    np.testing.assert_allclose(probs, np.mean(each, 0), rtol=1e-6)
    assert not np.allclose(probs, one)  # the other margins' looks read otherwise


def test_shifted_boxes_move_each_box_a_share_of_its_longer_side_four_ways():
    from vision.reader import shifted_boxes

    box = np.array([[10.0, 20.0, 30.0, 60.0]])  # 20 wide, 40 tall: a step of 0.1 is 4 pixels
    assert shifted_boxes(box, 0.0) == []
    moved = shifted_boxes(box, 0.1)
    np.testing.assert_allclose(np.concatenate(moved), [[6, 20, 26, 60], [14, 20, 34, 60], [10, 16, 30, 56],
                                                       [10, 24, 30, 64]])


def test_the_classifier_asked_off_centre_reads_four_more_looks_in_the_same_batch():
    from vision.crops import crop_square
    from vision.reader import Settings, shifted_boxes

    reader, net, img, box, crops = _classifier_reader()
    reader.settings = Settings(cls_margins=(1.15,), cls_shift=0.1)
    probs = reader.classifier_probs(img, box, crops)
    (seen, turns), = net.seen  # one call: (1 framing + 4 moves) x 2 indices
    assert turns == 4 and seen.shape == (10, 32, 32, 3)
    assert np.array_equal(seen[:2], crops)
    looks = [crops] + [np.stack([crop_square(img, tuple(b), 32) for b in m]) for m in shifted_boxes(box, 0.1)]
    np.testing.assert_allclose(probs, np.mean([_InkNet(upright=False)(c) for c in looks], 0), rtol=1e-6)
    assert not np.allclose(probs, _InkNet(upright=False)(crops))  # the moved looks read otherwise


def test_a_turned_crop_is_cut_from_the_photo_turned_about_the_index():
    import cv2

    from vision.crops import crop_square

    rng = np.random.default_rng(0)
    img = cv2.GaussianBlur(rng.integers(0, 255, (200, 200, 3)).astype(np.uint8), (0, 0), 6)
    img = cv2.normalize(img, None, 0, 255, cv2.NORM_MINMAX)
    box = (80.0, 70.0, 110.0, 120.0)
    flat = crop_square(img, box, 32)
    assert np.array_equal(crop_square(img, box, 32, degrees=0.0), flat)
    turned = crop_square(img, box, 32, degrees=90.0).astype(int)
    off = {k: np.abs(turned - np.rot90(flat, k)).mean() for k in (1, 2, 3)}
    assert off[1] < 10 < min(off[2], off[3])  # a quarter turn anticlockwise, as np.rot90 turns (to half a pixel)


def test_the_classifier_asked_at_tilts_reads_the_turned_looks_in_the_same_batch():
    from vision.crops import crop_squares
    from vision.reader import Settings

    reader, net, img, box, crops = _classifier_reader()
    reader.settings = Settings(cls_margins=(1.15,), cls_tilts=(45.0,))
    probs = reader.classifier_probs(img, box, crops)
    (seen, turns), = net.seen  # one call: (1 framing + 1 tilt) x 2 indices
    assert turns == 4 and seen.shape == (4, 32, 32, 3)
    tilted = crop_squares(img, box, 32, degrees=45.0)
    assert np.array_equal(seen[2:], tilted)
    np.testing.assert_allclose(probs, np.mean([_InkNet(upright=False)(c) for c in (crops, tilted)], 0), rtol=1e-6)


@pytest.mark.parametrize("bad, message", [({"suit_margins": ()}, "suit_margins"), ({"suit_margins": (1.15, 0)}, "suit_margins"),
                                          ({"cls_margins": ()}, "cls_margins"), ({"cls_margins": (0.0,)}, "cls_margins"),
                                          ({"suit_tilts": ()}, "suit_tilts"), ({"pair_along": (1.5,)}, "pair_along"),
                                          ({"pair_across": (4.0, 0.0)}, "pair_across"),
                                          ({"cls_shift": -0.1}, "cls_shift"), ({"cls_shift": 0.5}, "cls_shift")])
def test_reader_settings_that_cannot_be_met_are_refused(bad, message):
    from vision.reader import Settings

    with pytest.raises(ValueError, match=message):
        Settings(**bad)
