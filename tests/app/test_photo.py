"""Photos too big to read whole are decoded smaller; what cannot be is left to the reader."""

import io

import numpy as np
import pytest
from PIL import Image

from ui.photo import fit_photo, jpeg_size, shrink_factor


def jpeg(width: int, height: int, progressive: bool = False) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, "JPEG", progressive=progressive, quality=50)
    return out.getvalue()


@pytest.mark.parametrize("progressive", [False, True])
def test_jpeg_size_from_the_header(progressive):
    assert jpeg_size(jpeg(640, 480, progressive)) == (640, 480)


def test_not_a_jpeg_has_no_jpeg_size():
    assert jpeg_size(b"\x89PNG\r\n\x1a\n") is None and jpeg_size(b"") is None and jpeg_size(b"\xff\xd8") is None


@pytest.mark.parametrize(
    ("size", "factor"),
    [((8_000, 6_000), 1), ((12_000, 9_000), 2), ((16_320, 12_240), 2), ((20_000, 15_000), 4), ((30_000, 30_000), 8), ((80_000, 80_000), None)],
)
def test_the_least_factor_that_fits(size, factor):
    assert shrink_factor(*size, 50_000_000) == factor


def test_a_big_jpeg_is_decoded_smaller_and_the_rest_left_as_it_is():
    data = jpeg(800, 600)
    image, note = fit_photo(data, max_pixels=100_000)
    assert isinstance(image, np.ndarray) and image.shape == (150, 200, 3)
    assert note == "a 0-megapixel photo, read at 1/4 size"
    assert fit_photo(data, max_pixels=1_000_000) == (data, None)  # fits: untouched
    assert fit_photo(data, max_pixels=1_000) == (data, None)  # even 1/8 is too big: the reader refuses it
    png = io.BytesIO()
    Image.new("RGB", (800, 600)).save(png, "PNG")
    assert fit_photo(png.getvalue(), max_pixels=100_000) == (png.getvalue(), None)  # no scaled decoding
