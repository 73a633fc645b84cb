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


def test_red_cards_and_no_index_are_left_as_they_are():
    p = np.stack([probs(**{"5H": 0.5, "5S": 0.3, "5C": 0.1, "none": 0.1})])
    out = with_suit(p, np.array([[0.25, 0.75]], np.float32))[0]
    assert out[CODES.index("5H")] == pytest.approx(0.5) and out[NONE] == pytest.approx(0.1)
    assert out[CODES.index("5S")] + out[CODES.index("5C")] == pytest.approx(0.4)  # only shared anew


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
    with pytest.raises(ValueError, match="2 \\(spade, club\\)"):
        with_suit(p, np.array([[0.2, 0.3, 0.5]] * 2, np.float32))


def test_only_rows_read_as_black_cards_are_asked():
    p = np.stack([probs(**{"KS": 0.9, "KC": 0.1}), probs(**{"KH": 0.9, "KS": 0.1}),
                  probs(**{"none": 0.8, "2C": 0.2}), probs(**{"2C": 0.7, "2D": 0.3})])
    assert read_black(p).tolist() == [True, False, False, True]
    asked = []

    def suit_of(mask):
        asked.append(mask.copy())
        return np.array([[0.01, 0.99], [0.99, 0.01]], np.float32)

    out = apply_suit_reader(p, suit_of)
    assert len(asked) == 1 and asked[0].tolist() == [True, False, False, True]
    assert [CODES[int(k)] if k < 52 else "none" for k in out.argmax(1)] == ["KC", "KH", "none", "2C"]  # no 2S odds
    assert np.array_equal(out[1:3], p[1:3])
    red = p[1:3]
    assert apply_suit_reader(red, suit_of) is red and len(asked) == 1  # none read black: not asked
    assert read_black(np.zeros((0, 53))).shape == (0,)


def _suit_onnx(path: Path, club: bool = False, sure: float = 20.0) -> None:
    """A suit network of crops turned upright that always says club (or spade): its last
    layer's bias decides."""
    import torch

    from models.suit import build_model, export_onnx

    model = build_model()
    with torch.no_grad():
        last = model[-1]
        last.weight.zero_()
        last.bias.copy_(torch.tensor([-sure, sure] if club else [sure, -sure]))
    export_onnx(model, path)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    from vision.reader import DEFAULT_WEIGHTS

    root = tmp_path_factory.mktemp("suit-weights")
    plain = root / "plain"
    plain.mkdir()
    for file in ("detector.onnx", "classifier.onnx", "way_up.onnx"):
        shutil.copy(DEFAULT_WEIGHTS / file, plain / file)
    out = {"plain": plain}
    for name, club in (("club", True), ("spade", False)):
        out[name] = root / name
        shutil.copytree(plain, out[name])
        _suit_onnx(out[name] / "suit.onnx", club)
    out["off"] = root / "off"
    shutil.copytree(out["club"], out["off"])
    (out["off"] / "reader.json").write_text(json.dumps({"suits": {"black": False}}))
    return out


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real-dev"


def test_the_reader_takes_the_black_suit_from_a_weights_folders_suit_reader(folders):
    from vision import Reader
    from vision.evaluate import load_truth

    photos = [t.image for t in load_truth(FIXTURES)]
    reads = {k: [Reader(f).read(p).codes() for p in photos] for k, f in folders.items()}
    assert any(c[-1] in "SC" for r in reads["plain"] for c in r), "the fixture photos read black cards"
    for name, suit in (("club", "C"), ("spade", "S")):  # a suit reader sure as can be (odds e^40)
        black = [c for r in reads[name] for c in r if c[-1] in "SC"]
        assert black and all(c[-1] == suit for c in black), (name, black)
    assert Reader(folders["club"]).networks.suit is not None and Reader(folders["plain"]).networks.suit is None
    # "suits": {"black": false} in reader.json: the suit network has no say
    assert reads["off"] == reads["plain"]
