"""The scene generator: every label lies on its index, covered indices are dropped, seeds
reproduce, and nothing is mirrored."""

import numpy as np
import pytest

from datasets.backgrounds import Backgrounds
from datasets.decks import procedural_deck
from datasets.scenes import KINDS, make_scene


@pytest.fixture(scope="module")
def deck():
    return procedural_deck(3, height=200)


def _ink_share(image: np.ndarray, box) -> float:
    x1, y1, x2, y2 = (round(v) for v in box)
    patch = image[y1:y2, x1:x2].astype(int)
    if patch.size == 0:
        return 0.0
    # the index is ink on the card's face: some pixels differ clearly from the brightest
    gray = patch.mean(axis=2)
    return float((np.abs(gray - np.median(gray)) > 40).mean())


@pytest.mark.parametrize("kind", list(KINDS))
def test_labels_lie_on_the_indices(deck, kind):
    rng = np.random.default_rng(11)
    found = 0
    for _ in range(4):
        scene = make_scene(rng, [deck], Backgrounds(), 480, kind, clean=True)
        for label in scene.labels:
            x1, y1, x2, y2 = label.box
            assert 0 <= x1 < x2 <= 480 and 0 <= y1 < y2 <= 480
            assert label.visible >= 0.6
            # the whole index's quad, carried through the card's transform, holds the visible box
            qx1, qy1 = label.quad.min(0)
            qx2, qy2 = label.quad.max(0)
            assert qx1 - 2 <= x1 and qy1 - 2 <= y1 and x2 <= qx2 + 2 and y2 <= qy2 + 2  # pixel rounding
            assert _ink_share(scene.image, label.box) > 0.05
            found += 1
    assert found > 0


def test_covered_indices_are_dropped(deck):
    # In a fan each card covers most of the one below: far fewer labels than 2 per card.
    rng = np.random.default_rng(3)
    scene = make_scene(rng, [deck], Backgrounds(), 480, "fan", clean=True)
    assert 0 < len(scene.labels) < 2 * 11


def test_seeds_reproduce(deck):
    a = make_scene(np.random.default_rng([7, 1]), [deck], Backgrounds(), 320)
    b = make_scene(np.random.default_rng([7, 1]), [deck], Backgrounds(), 320)
    c = make_scene(np.random.default_rng([7, 2]), [deck], Backgrounds(), 320)
    assert (a.image == b.image).all() and [x.box for x in a.labels] == [x.box for x in b.labels]
    assert not (a.image.shape == c.image.shape and (a.image == c.image).all())


def test_reading_order_of_the_lower_index_is_upside_down(deck):
    # a single upright card: the bottom index's quad starts at its bottom-right corner
    rng = np.random.default_rng(0)
    for _ in range(20):
        scene = make_scene(rng, [deck], Backgrounds(), 480, "single", clean=True)
        if len(scene.labels) == 2:
            top, bottom = sorted(scene.labels, key=lambda lb: lb.quad[:, 1].mean())
            v_top = top.quad[3] - top.quad[0]  # reading direction: down the index
            v_bottom = bottom.quad[3] - bottom.quad[0]
            assert np.dot(v_top, v_bottom) < 0
            return
    pytest.fail("no single-card scene with both indices visible")


def test_some_photos_are_black_and_white():
    from datasets.scenes import _degrade

    rng = np.random.default_rng(4)
    colour = np.zeros((64, 64, 3), np.uint8)
    colour[..., 2] = 200  # red
    grey = 0
    for _ in range(200):
        out = _degrade(rng, colour.copy()).astype(int)
        grey += int(np.abs(out[..., 2] - out[..., 0]).max() <= 2)
    assert 4 <= grey <= 30  # about 6%


def test_a_stretch_squeezes_one_axis_about_the_centre_and_keeps_the_area():
    from datasets.scenes import STRETCH, _stretch

    rng = np.random.default_rng(5)
    axes = set()
    for _ in range(40):
        m = _stretch(rng, 640)
        a, b = m[0, 0], m[1, 1]
        assert m[0, 1] == m[1, 0] == 0 and np.isclose(a * b, 1)
        assert STRETCH[0] - 1e-9 <= min(a, b) / max(a, b) <= STRETCH[1] + 1e-9
        assert np.allclose(m @ [320, 320, 1], [320, 320, 1])
        axes.add(a < b)
    assert axes == {True, False}  # wide photos squeezed, and tall ones


def test_stretched_photos_keep_their_labels_on_the_indices(deck, monkeypatch):
    import datasets.scenes as scenes

    monkeypatch.setattr(scenes, "STRETCHED", 1.0)
    rng = np.random.default_rng(8)
    found = 0
    for kind in ("single", "spread"):
        scene = make_scene(rng, [deck], Backgrounds(), 480, kind)
        for label in scene.labels:
            qx1, qy1 = label.quad.min(0)
            qx2, qy2 = label.quad.max(0)
            x1, y1, x2, y2 = label.box
            assert qx1 - 2 <= x1 and qy1 - 2 <= y1 and x2 <= qx2 + 2 and y2 <= qy2 + 2
            found += 1
    assert found > 0


def test_single_cards_are_held_near_and_far(deck):
    # A third of the held-up cards are far from the camera (0.12-0.3 of the frame high), the
    # rest near (0.3-1.15); the far ones' small labels still lie on ink.
    from datasets.scenes import layout_single

    rng = np.random.default_rng(3)
    heights = []
    for _ in range(300):
        (m,) = layout_single(rng, (200, 140), 480)
        heights.append(np.hypot(m[0, 1], m[1, 1]) * 200 / 480)  # the card's height over the frame's
    heights = np.array(heights)
    assert heights.min() >= 0.12 - 1e-9 and heights.max() <= 1.15 + 1e-9
    assert 0.25 < (heights < 0.3).mean() < 0.42
    import datasets.scenes as scenes

    small = 0
    for i in range(40):
        scene = make_scene(np.random.default_rng([5, i]), [deck], Backgrounds(), 480, "single", clean=True)
        for label in scene.labels:
            x1, y1, x2, y2 = label.box
            if max(x2 - x1, y2 - y1) < 25:
                small += 1
                assert _ink_share(scene.image, label.box) > 0.05
    assert small > 0 and abs(scenes.FAR_SINGLE - 1 / 3) < 1e-9


def _held(deck, **kw):
    return make_scene(np.random.default_rng([7, 2]), [deck], Backgrounds(), 320, "single", **kw)


def test_a_backlit_held_card_is_darker_than_the_room_and_its_labels_the_same(deck):
    plain = _held(deck)
    lit = _held(deck, backlit=1.0, light_rng=np.random.default_rng(3))
    assert [lb.box for lb in lit.labels] == [lb.box for lb in plain.labels] and plain.labels
    card = np.zeros(plain.image.shape[:2], bool)
    for lb in plain.labels:  # the index boxes lie on the card
        x1, y1, x2, y2 = (round(v) for v in lb.box)
        card[y1:y2, x1:x2] = True

    def card_to_room(img):
        grey = img.astype(float).mean(2)
        return grey[card].mean() / grey[~card].mean()

    assert card_to_room(lit.image) < card_to_room(plain.image)


def test_backlit_is_drawn_from_its_own_stream_and_only_for_cards_held_up(deck):
    plain = _held(deck)
    never = _held(deck, backlit=0.0, light_rng=np.random.default_rng(3))
    assert np.array_equal(plain.image, never.image)  # sets written before stay the same
    table = [make_scene(np.random.default_rng([7, 2]), [deck], Backgrounds(), 320, "spread", **kw).image
             for kw in ({}, {"backlit": 1.0, "light_rng": np.random.default_rng(3)})]
    assert np.array_equal(*table)  # cards on a table lie in the room's light


def test_quad_way_up_is_the_way_the_indexs_top_faces():
    from datasets.scenes import quad_way_up

    upright = np.array([[0, 0], [10, 0], [10, 16], [0, 16]], float)  # top-left, top-right, ...
    assert quad_way_up(upright) == pytest.approx(0.0)
    assert quad_way_up(upright[[2, 3, 0, 1]]) == pytest.approx(180.0)  # the card's other corner
    left = np.array([[0, 10], [0, 0], [16, 0], [16, 10]], float)  # its top to the left
    assert quad_way_up(left) == pytest.approx(90.0)
    assert quad_way_up(left[[2, 3, 0, 1]]) == pytest.approx(270.0)


def test_scene_crops_record_the_way_their_index_faces_as_the_way_up_reader_reads_it():
    from datasets.build import _crops
    from vision.networks import WayUpReader
    from vision.reader import DEFAULT_WEIGHTS

    deck = procedural_deck(5, height=200)
    rng = np.random.default_rng(11)
    xs, ys, ups = [], [], []
    for i in range(6):
        scene = make_scene(np.random.default_rng([7, i]), [deck], Backgrounds(), 480, "single", clean=True)
        x, y, up = _crops(rng, scene, 32, per_scene_negatives=1)
        xs += x
        ys += y
        ups += up
    ys, ups = np.array(ys), np.array(ups)
    index = ys < 52
    assert index.sum() >= 12 and np.all(ups[~index] == 0.0)  # the crops between: 0
    read = WayUpReader(DEFAULT_WEIGHTS / "way_up.onnx").degrees(np.stack(xs)[index])
    err = np.abs((read - ups[index] + 180) % 360 - 180)
    assert np.median(err) < 10 and (err < 45).mean() >= 0.9


def test_the_room_lit_webcam_look_drawn_never_leaves_the_seeds_photos_as_they_were(deck):
    # held-up cards without the look, backlit or not, are the photos the seed gave before it
    for backlit in (0.0, 1.0):
        plain = _held(deck, backlit=backlit, light_rng=np.random.default_rng(3))
        never = _held(deck, backlit=backlit, light_rng=np.random.default_rng(3), room_webcam=0.0,
                      room_rng=np.random.default_rng(5))
        assert np.array_equal(plain.image, never.image)
    lit = _held(deck, room_webcam=1.0, room_rng=np.random.default_rng(5))
    assert lit.image.shape == plain.image.shape and not np.array_equal(lit.image, plain.image)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_photo_of_cards_held_up_takes_the_room_lit_look_at_1_and_no_other_photo(deck, kind, monkeypatch):
    import datasets.scenes as scenes

    calls = {"room": 0, "backlit": 0}

    def counted(name, fn):
        def wrapper(*args):
            calls[name] += 1
            return fn(*args)
        return wrapper

    monkeypatch.setattr(scenes, "_room_webcam", counted("room", scenes._room_webcam))
    monkeypatch.setattr(scenes, "_backlit", counted("backlit", scenes._backlit))
    for i in range(3):
        seed = np.random.default_rng([9, i])
        looks = make_scene(seed, [deck], Backgrounds(), 256, kind, backlit=1.0, light_rng=np.random.default_rng(1),
                           room_webcam=1.0, room_rng=np.random.default_rng([4, i]))
        plain = make_scene(np.random.default_rng([9, i]), [deck], Backgrounds(), 256, kind)
        if kind not in scenes.BACKLIT_KINDS:  # cards on a table, or a phone over them: as before
            assert np.array_equal(looks.image, plain.image)
    held = kind in scenes.BACKLIT_KINDS
    assert calls == {"room": 3 if held else 0, "backlit": 0}  # the room-lit look wins over the backlight


def test_a_card_held_up_to_a_room_lit_webcam_is_resized_about_its_centre():
    from datasets.scenes import ROOM_CARD, _resize_card, _transform, layout_single

    rng = np.random.default_rng(3)
    face_hw = (200, 140)
    centre = np.float64([[70, 100]])
    ends = np.float64([[70, 0], [70, 200]])  # the middles of the card's top and bottom edges
    for _ in range(20):
        (m,) = layout_single(rng, face_hw, 480)
        height = 480 * rng.uniform(*ROOM_CARD)
        r = _resize_card(m, face_hw, height)
        top, bottom = _transform(ends, r)
        was_top, was_bottom = _transform(ends, m)
        assert np.hypot(*(bottom - top)) == pytest.approx(height)
        assert _transform(centre, r) == pytest.approx(_transform(centre, m))
        unit = (bottom - top) / height
        assert unit == pytest.approx((was_bottom - was_top) / np.hypot(*(was_bottom - was_top)))  # turned as before


def test_room_lit_single_cards_have_small_labelled_indices_on_their_ink(deck):
    heights = []
    for i in range(12):
        scene = make_scene(np.random.default_rng([5, i]), [deck], Backgrounds(), 640, "single", room_webcam=1.0,
                           room_rng=np.random.default_rng([6, i]))
        for label in scene.labels:
            heights.append(label.box[3] - label.box[1])
            assert _ink_share(scene.image, label.box) > 0.05
    # the deck's index is about a sixth of its card's height: cards 0.15-0.45 of 640 px high
    assert heights and 12 < np.median(heights) < 70 and max(heights) < 110


def test_the_room_lit_webcam_picture_is_bright_contrasted_and_warm(deck):
    from datasets.scenes import _room_webcam

    rng = np.random.default_rng(17)
    for i in range(6):
        canvas = make_scene(np.random.default_rng([8, i]), [deck], Backgrounds(), 320, "single", clean=True).image
        if i % 2:  # a cold, dim room as well as the backgrounds' own light
            canvas = (canvas * np.float32([1.1, 0.8, 0.5])).astype(np.uint8)
        img = _room_webcam(rng, canvas.astype(np.float32))
        assert img.dtype == np.uint8 and img.shape == canvas.shape
        grey = img.astype(np.float64) @ [0.114, 0.587, 0.299]
        warmth = img[..., 2].mean() - img[..., 0].mean()
        assert 85 < grey.mean() < 195, grey.mean()
        assert 25 < grey.std() < 72, grey.std()
        assert 12 < warmth < 45, warmth
