"""Cutting index crops for the classifier: shape, colour kept, grey for a grey model."""

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.crops import CROP, crop_square, normalise, percentiles, to_grey


def _photo():
    img = np.full((200, 300, 3), 255, np.uint8)
    cv2.putText(img, "7", (40, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (0, 0, 200), 3)  # a red index
    cv2.putText(img, "7", (200, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (0, 0, 0), 3)  # a black one
    return img


def test_crop_keeps_the_channels():
    img = _photo()
    assert crop_square(img, (35, 40, 75, 90)).shape == (CROP, CROP, 3)
    assert crop_square(img[..., 0], (35, 40, 75, 90)).shape == (CROP, CROP)


def test_crop_outside_the_photo_repeats_the_edge():
    img = _photo()
    patch = crop_square(img, (-50, -50, -10, -10))
    assert patch.shape == (CROP, CROP, 3) and (patch == 255).all()


def test_normalise_keeps_red_apart_from_black():
    img = _photo()
    red, black = crop_square(img, (35, 40, 75, 90)), crop_square(img, (195, 40, 235, 90))
    x = normalise(np.stack([red, black]))
    assert x.shape == (2, 3, CROP, CROP) and x.dtype == np.float32
    assert x.min() >= -1 and x.max() <= 1
    # The darkest pixel of the red 7 keeps its red channel high; the black 7's does not.
    dark_red = np.unravel_index(x[0].sum(0).argmin(), (CROP, CROP))
    dark_black = np.unravel_index(x[1].sum(0).argmin(), (CROP, CROP))
    assert x[0][2][dark_red] > x[0][0][dark_red] + 0.5
    assert abs(x[1][2][dark_black] - x[1][0][dark_black]) < 0.2


def test_normalise_grey_gives_one_channel():
    x = normalise(np.zeros((4, CROP, CROP), np.uint8))
    assert x.shape == (4, 1, CROP, CROP)


def test_to_grey_is_opencvs_grey():
    rng = np.random.default_rng(0)
    patches = rng.integers(0, 256, (3, CROP, CROP, 3), dtype=np.uint8)
    ours = to_grey(patches).astype(int)
    theirs = np.stack([cv2.cvtColor(p, cv2.COLOR_BGR2GRAY) for p in patches]).astype(int)
    assert np.abs(ours - theirs).max() <= 1


def test_turn_upright_turns_each_crop_back_by_the_way_it_faces():
    from tests.models.test_way_up import bar_above_ink, tee
    from vision.crops import turn_upright

    ways = np.array([0.0, 30.0, 135.0, 270.0, -100.0])
    turned = np.stack([tee(48, float(a)) for a in ways])
    assert all(bar_above_ink(c) for c in turn_upright(turned, ways))
    assert not bar_above_ink(turn_upright(turned[2:3], [0.0])[0])  # left as it is: not upright
    grey = to_grey(turned)
    assert turn_upright(grey, ways).shape == grey.shape  # grey crops too
    assert turn_upright(turned[:0], []).shape == (0, 48, 48, 3)


def test_degrees_apart_takes_the_shorter_way_round():
    from vision.crops import degrees_apart

    assert list(degrees_apart([10, 350, -170, 90, 0], [0, 10, 170, -90, 180])) == [10, 20, 20, 180, 180]


def test_cos_sin_degrees_turns_a_way_up_readers_vectors_into_angles():
    from vision.crops import cos_sin_degrees

    s = np.sqrt(0.5)
    out = cos_sin_degrees([[1, 0], [0, 1], [-1, 0], [0, -1], [s, s], [2, 2]])  # lengths do not matter
    assert out.dtype == np.float32 and np.allclose(out, [0, 90, 180, -90, 45, 45], atol=1e-4)


def _normalise_by_numpy(patches: np.ndarray) -> np.ndarray:
    """The reference: normalise with np.percentile itself, as it was first written."""
    x = patches.astype(np.float32)
    if x.ndim == 3:
        x = x[..., None]
    lo = np.percentile(x, 2, axis=(1, 2, 3), keepdims=True)
    hi = np.percentile(x, 98, axis=(1, 2, 3), keepdims=True)
    x = (x - lo) / np.maximum(hi - lo, 16.0)
    return np.ascontiguousarray(np.clip(x, 0, 1).transpose(0, 3, 1, 2)) * 2 - 1


@pytest.mark.parametrize("m", [32 * 32 * 3, 32 * 32, 48 * 48, 64 * 64 * 3, 2, 10, 101])
@pytest.mark.parametrize("q", [2, 98])
def test_percentiles_are_numpys_for_every_pair_of_byte_values(m, q):
    # A percentile of bytes is two order statistics weighed: every pair of them (lower <= upper)
    # at the spot q names, in rows of the reader's crop sizes, gives NumPy's very float32.
    v = (m - 1) * q / 100
    i = int(np.floor(v))
    a, b = np.triu_indices(256)  # a <= b
    rows = np.zeros((len(a), m), np.uint8)
    rows[:, i] = a
    if i + 1 < m:
        rows[:, i + 1] = b
        rows[:, i + 2:] = 255
    got = percentiles(rows, (q,))[0]
    want = np.percentile(rows.astype(np.float32), q, axis=1)
    assert got.dtype == want.dtype == np.float32
    assert np.array_equal(got, want)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 9), st.sampled_from([1, 5, 16, 32, 48]),
       st.sampled_from([None, 3]), st.booleans())
def test_normalise_gives_numpys_numbers(seed, n, side, channels, as_float):
    rng = np.random.default_rng(seed)
    shape = (n, side, side) if channels is None else (n, side, side, channels)
    patches = rng.integers(0, 256, shape, dtype=np.uint8)
    if as_float:  # any real dtype: partitioned as float32
        patches = (patches + rng.random(shape)).astype(np.float32)
    got, want = normalise(patches), _normalise_by_numpy(patches)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want)


def test_normalise_of_no_patches_is_empty():
    assert normalise(np.zeros((0, CROP, CROP, 3), np.uint8)).shape == (0, 3, CROP, CROP)
    assert normalise(np.zeros((0, CROP, CROP), np.uint8)).shape == (0, 1, CROP, CROP)


def test_a_turned_crop_is_cut_from_the_photo_turned_about_the_index():
    rng = np.random.default_rng(0)
    img = cv2.GaussianBlur(rng.integers(0, 255, (200, 200, 3)).astype(np.uint8), (0, 0), 6)
    img = cv2.normalize(img, None, 0, 255, cv2.NORM_MINMAX)
    box = (80.0, 70.0, 110.0, 120.0)
    flat = crop_square(img, box, 32)
    assert np.array_equal(crop_square(img, box, 32, degrees=0.0), flat)
    turned = crop_square(img, box, 32, degrees=90.0).astype(int)
    off = {k: np.abs(turned - np.rot90(flat, k)).mean() for k in (1, 2, 3)}
    assert off[1] < 10 < min(off[2], off[3])  # a quarter turn anticlockwise, as np.rot90 turns (to half a pixel)
