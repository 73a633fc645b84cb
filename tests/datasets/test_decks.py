from pathlib import Path

import numpy as np
import pytest

from datasets.corner_index import DeckIndexError, check_deck_boxes, deck_index_boxes, face_colour
from datasets.deck_sources import DECK_SPECS
from datasets.decks import Deck, available_decks, default_cache_dir, fetch_decks, load_deck, procedural_deck
from engine.cards import CODES

# Seeds cover light and dark faces (1, 3 and 4 are dark), four-colour suits and every pip style.
SEEDS = [0, 1, 4, 6]


def distance_from_face(face: np.ndarray, box: tuple[int, int, int, int], margin: int = 0) -> np.ndarray:
    """How far each pixel of ``box`` (grown by ``margin``) is from the card's face colour (RGB distance)."""
    x1, y1, x2, y2 = box
    h = face.shape[0]
    margin_band = face[h // 4 : 3 * h // 4, 4:8, :3].reshape(-1, 3).astype(np.float32)  # beside the centre
    crop = face[y1 - margin : y2 + margin, x1 - margin : x2 + margin, :3].astype(np.float32)
    return np.linalg.norm(crop - face_colour(margin_band), axis=-1)


def assert_tight_indices(deck: Deck) -> None:
    """Every box holds ink, reaches faint ink on all four sides, and is ringed mostly by background."""
    w, h = deck.size
    for code in CODES:
        face = deck.faces[code]
        for box in deck.index_boxes[code]:
            x1, y1, x2, y2 = box
            assert 0 < x1 < x2 < w and 0 < y1 < y2 < h, (code, box)
            distance = distance_from_face(face, box)
            contrast = distance.max()
            assert contrast > 100 and (distance > contrast / 2).mean() > 0.15, (code, box)
            faint = distance > 0.15 * contrast  # anti-aliased edges count: no blank margin inside
            assert faint[0].any() and faint[-1].any() and faint[:, 0].any() and faint[:, -1].any(), (code, box)
            grown = distance_from_face(face, box, margin=1) > contrast / 2
            ring = np.concatenate([grown[0], grown[-1], grown[:, 0], grown[:, -1]])
            assert ring.mean() < 0.2, (code, box, ring.mean())  # no ink cut off


def assert_at_corners(deck: Deck) -> None:
    w, h = deck.size
    for code in CODES:
        (tl, br) = deck.index_boxes[code][:2]
        assert tl[2] < 0.35 * w and tl[3] < 0.45 * h, (code, tl)
        assert br[0] > 0.65 * w and br[1] > 0.55 * h, (code, br)
        assert 0.04 * w <= tl[2] - tl[0] <= 0.3 * w and 0.08 * h <= tl[3] - tl[1] <= 0.45 * h, (code, tl)


@pytest.mark.parametrize("seed", SEEDS)
def test_procedural_deck_has_the_52_cards_at_one_size(seed):
    deck = procedural_deck(seed, height=240)
    assert deck.name == f"procedural-{seed}"
    assert list(deck.faces) == list(CODES) and list(deck.index_boxes) == list(CODES)
    assert {face.shape for face in deck.faces.values()} == {(240, deck.size[0], 4)}
    assert all(face.dtype == np.uint8 for face in deck.faces.values())
    face = deck.faces["KD"]
    assert face[0, 0, 3] == 0 and face[-1, -1, 3] == 0  # rounded corners are transparent
    assert face[120, deck.size[0] // 2, 3] == 255


@pytest.mark.parametrize("seed", SEEDS)
def test_procedural_indices_are_tight_at_the_corners_and_turned(seed):
    deck = procedural_deck(seed, height=240)
    w, h = deck.size
    assert_at_corners(deck)
    assert_tight_indices(deck)
    for code in CODES:
        (x1, y1, x2, y2), bottom_right = deck.index_boxes[code]
        assert bottom_right == (w - x2, h - y2, w - x1, h - y1)


def test_procedural_deck_is_deterministic():
    a, b, other = procedural_deck(5, 200), procedural_deck(5, 200), procedural_deck(6, 200)
    assert a.index_boxes == b.index_boxes
    assert all(np.array_equal(a.faces[c], b.faces[c]) for c in CODES)
    assert a.size != other.size or any(not np.array_equal(a.faces[c], other.faces[c]) for c in CODES)


@pytest.mark.parametrize("seed", [0, 3])
def test_index_finder_recovers_the_procedural_boxes(seed):
    # The procedural decks know their boxes exactly: the finder used on real decks must agree.
    deck = procedural_deck(seed, height=320)
    found = deck_index_boxes(deck.faces)
    for code in CODES:
        for got, truth in zip(found[code], deck.index_boxes[code], strict=True):
            assert max(abs(g - t) for g, t in zip(got, truth, strict=True)) <= 1, (code, got, truth)


def test_deck_checks_reject_a_box_off_its_corner():
    deck = procedural_deck(2, height=240)
    w, h = deck.size
    boxes = {code: list(b) for code, b in deck.index_boxes.items()}
    assert check_deck_boxes(boxes, w, h) == []
    x1, y1, x2, y2 = boxes["7H"][0]
    boxes["7H"][0] = (x1 + 30, y1 + 60, x2 + 30, y2 + 60)
    problems = check_deck_boxes(boxes, w, h)
    assert problems and all("7H" in p for p in problems)


def test_blank_faces_have_no_indices():
    blank = {code: np.full((240, 170, 4), 255, np.uint8) for code in CODES}
    with pytest.raises(DeckIndexError, match="no glyph-sized ink"):
        deck_index_boxes(blank)


def test_deck_rejects_missing_cards():
    deck = procedural_deck(0, height=120)
    faces = dict(deck.faces)
    del faces["AS"]
    with pytest.raises(ValueError, match="exactly the 52 cards"):
        Deck("broken", "test", "CC0", faces, deck.index_boxes)


def test_default_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("GINSIGHT_CACHE", str(tmp_path))
    assert default_cache_dir() == tmp_path / "decks"
    monkeypatch.delenv("GINSIGHT_CACHE")
    assert default_cache_dir() == Path.home() / ".cache" / "ginsight" / "decks"


def test_unfetched_and_unknown_decks(tmp_path):
    assert all(name.startswith("procedural-") for name in available_decks(tmp_path))
    with pytest.raises(FileNotFoundError, match="fetch_decks"):
        load_deck("svg-cards", tmp_path)
    with pytest.raises(KeyError, match="unknown deck"):
        load_deck("tarot", tmp_path)
    assert load_deck("procedural-11", tmp_path, height=100).name == "procedural-11"


@pytest.fixture(scope="module")
def fetched_cache(tmp_path_factory):
    cache = tmp_path_factory.mktemp("decks")
    names = fetch_decks(cache)
    if "svg-cards" not in names:
        pytest.skip("npm registry unreachable: svg-cards could not be fetched")
    return cache, names


@pytest.mark.slow
def test_fetch_and_load_svg_cards(fetched_cache):
    cache, names = fetched_cache
    assert set(names) <= set(DECK_SPECS) | {n for n in names if n.startswith("procedural-")}
    assert fetch_decks(cache) == names  # idempotent: everything is there already
    deck = load_deck("svg-cards", cache)
    assert deck.source.startswith("svg-cards ") and deck.licence.startswith("LGPL")
    assert list(deck.faces) == list(CODES) and deck.size[1] == 320
    assert {face.shape for face in deck.faces.values()} == {(320, deck.size[0], 4)}
    assert deck.faces["QS"][0, 0, 3] == 0  # outside the rounded corner
    assert all(len(boxes) == 2 for boxes in deck.index_boxes.values())
    assert_at_corners(deck)
    assert_tight_indices(deck)
    again = load_deck("svg-cards", cache)  # from the rendered cache this time
    assert again.index_boxes == deck.index_boxes
    assert all(np.array_equal(again.faces[c], deck.faces[c]) for c in CODES)
    assert (cache / "rendered" / "svg-cards-320" / "deck.json").exists()


@pytest.mark.slow
def test_other_heights_carry_the_checked_boxes_over(fetched_cache):
    cache, _ = fetched_cache
    reference = load_deck("svg-cards", cache)
    small = load_deck("svg-cards", cache, height=200)
    assert small.size[1] == 200
    assert_at_corners(small)
    assert_tight_indices(small)
    scale = 200 / 320
    for code in CODES:
        for got, ref in zip(small.index_boxes[code], reference.index_boxes[code], strict=True):
            assert max(abs(g - r * scale) for g, r in zip(got, ref, strict=True)) <= 2, (code, got, ref)


@pytest.mark.slow
def test_kennard_decks_render_with_their_symbols_sized(fetched_cache):
    # Adrian Kennard's cards size each <use> of a suit or rank symbol by height alone; unless
    # the renderer is given the widths, cairosvg draws those symbols a card wide.
    cache, names = fetched_cache
    for name in ("kennard", "kennard-big"):
        assert name in names
        deck = load_deck(name, cache)
        assert deck.licence.startswith("CC0") and "react-playing-cards 0.5.0" in deck.source
        assert all(len(boxes) == 2 for boxes in deck.index_boxes.values())
        assert_at_corners(deck)
        assert_tight_indices(deck)


@pytest.mark.slow
def test_real_designs_bring_their_jokers_and_cache_them(fetched_cache):
    from datasets.jokers import JOKER_NAMES
    from tests.datasets.test_jokers import ink

    cache, names = fetched_cache
    deck = load_deck("svg-cards", cache)
    w, h = deck.size
    assert sorted(deck.jokers) == sorted(JOKER_NAMES)
    for name, face in deck.jokers.items():
        assert face.shape == (h, w, 4)
        top = deck.joker_boxes[name][0]
        assert top[2] < 0.5 * w and top[3] < 0.5 * h and ink(face, top) > 0.05  # "JOKER" in the corner
    assert (cache / "rendered" / "svg-cards-320" / "jokers.json").exists()
    again = load_deck("svg-cards", cache)
    assert again.joker_boxes == deck.joker_boxes
    assert all(np.array_equal(again.jokers[n], deck.jokers[n]) for n in JOKER_NAMES)
    if "cardsjs" in names:
        assert load_deck("cardsjs", cache).jokers == {}  # the artwork has none


def test_symbol_uses_sized_by_height_get_their_width():
    from datasets.svg_render import SvgSheet

    sheet = SvgSheet(
        b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 240 336">'
        b'<symbol id="S" viewBox="-600 -600 1200 1200"/><symbol id="V" viewBox="-500 -500 1000 2000"/>'
        b'<use xlink:href="#S" height="26.5" x="1"/><use xlink:href="#V" height="32"/>'
        b'<use xlink:href="#V" height="32" width="7"/><use xlink:href="#nowhere" height="5"/></svg>'
    )
    assert sheet.size_symbol_uses() == 2
    widths = [use.get("width") for use in sheet.root if use.tag.endswith("use")]
    assert widths == ["26.5", "16", "7", None]


def test_seed_range_parses_and_refuses():
    import argparse

    from datasets.decks import seed_range

    assert seed_range("1000-1003") == [1000, 1001, 1002, 1003]
    assert seed_range("7") == [7]
    for bad in ("x-3", "9-2", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            seed_range(bad)
