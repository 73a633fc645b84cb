"""Bad images get a clear error naming what is wrong."""

import struct
import zlib

import cv2
import numpy as np
import pytest

from vision.image import image_files, load_image, stretch
from vision.types import ImageError


def png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))


def gif_header(width: int, height: int) -> bytes:
    """A GIF's header and first frame's descriptor, claiming ``width`` x ``height`` pixels."""
    return (b"GIF89a" + struct.pack("<HHBBB", width, height, 0, 0, 0)
            + b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0) + b"\x02\x02\x44\x01\x00\x3b")


def jpeg_bytes() -> bytes:
    img = np.full((40, 60, 3), 200, np.uint8)
    cv2.putText(img, "QS", (5, 30), cv2.FONT_HERSHEY_SIMPLEX, 1, (0, 0, 0), 2)
    return cv2.imencode(".jpg", img)[1].tobytes()


def test_good_inputs(tmp_path):
    data = jpeg_bytes()
    path = tmp_path / "a.jpg"
    path.write_bytes(data)
    for source in (data, path, str(path), np.zeros((10, 12, 3), np.uint8)):
        img = load_image(source)
        assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert load_image(np.zeros((10, 12), np.uint8)).shape == (10, 12, 3)
    for kind in (".webp", ".bmp", ".tiff"):  # sized by Pillow's header reading, decoded by OpenCV
        assert load_image(cv2.imencode(kind, np.full((10, 12, 3), 90, np.uint8))[1].tobytes()).shape == (10, 12, 3)
    assert load_image(np.zeros((10, 12, 4), np.uint8)).shape == (10, 12, 3)


@pytest.mark.parametrize(
    ("make", "needle"),
    [
        (lambda p: b"", "is empty"),
        (lambda p: b"this is a text file, not a photo", "is not an image"),
        (lambda p: b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 200, "is a HEIC photo .*as JPEG"),
        (lambda p: b"\x00\x00\x00\x18ftypmif1\x00\x00\x00\x00mif1heic" + b"\x00" * 200, "is a HEIF image, .*as JPEG"),
        (lambda p: b"\x00\x00\x00\x18ftypavif\x00\x00\x00\x00mif1avif" + b"\x00" * 200, "is an AVIF image, .*as JPEG"),
        (lambda p: jpeg_bytes()[: len(jpeg_bytes()) // 2], "truncated JPEG"),
        (lambda p: png_header(20000, 20000) + b"\x00" * 100, "too large: 20000x20000"),
        (lambda p: gif_header(8000, 8000), "too large: 8000x8000"),  # other kinds by Pillow's header
        (lambda p: gif_header(20000, 20000), "too large: more than"),  # past Pillow's own bomb limit
        (lambda p: np.zeros((0, 0, 3), np.uint8), "empty image"),
        (lambda p: np.zeros((5, 5, 7), np.uint8), "not an image array"),
        (lambda p: p / "missing.jpg", "no such file"),
        (lambda p: p, "is a folder"),
        (lambda p: None, "not an image: a NoneType"),
        (lambda p: 5, "not an image: a int"),
    ],
)
def test_bad_inputs(tmp_path, make, needle):
    with pytest.raises(ImageError, match=needle):
        load_image(make(tmp_path))


def _with_app1(jpeg: bytes, payload: bytes) -> bytes:
    """``jpeg`` with an APP1 segment (where EXIF and its thumbnail live) after its start marker."""
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def test_a_jpeg_with_data_after_its_end_is_read_and_a_cut_one_is_not():
    whole = jpeg_bytes()
    motion_photo = whole + struct.pack(">I", 24) + b"ftypmp42" + bytes(12) + bytes(range(256)) * 4
    samsung = whole + b"SEFH" + b"\x01" * 40 + b"SEFT"
    padded = whole + b"\x00" * 64
    expected = load_image(whole)
    for data in (motion_photo, samsung, padded, _with_app1(whole, b"Exif\x00\x00 thumbnail \xff\xd8..\xff\xd9")):
        assert np.array_equal(load_image(data), expected)
    # An EXIF thumbnail's own end marker does not make a cut photo whole.
    thumb = _with_app1(whole, b"Exif\x00\x00 thumbnail \xff\xd8\xff\xda..\xff\xd9")
    for cut in (thumb[:-2], thumb[: len(thumb) - 40], whole[:-2]):
        with pytest.raises(ImageError, match="truncated JPEG"):
            load_image(cut)


def test_image_files_lists_photos_by_suffix_at_any_depth_in_order(tmp_path):
    for rel in ("b.JPG", "a.png", "sub/c.webp", "sub/d.bmp", "notes.txt", "e.jpeg.txt", "labels/a.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"x")
    (tmp_path / "folder.jpg").mkdir()  # a folder named like a photo is not one
    assert [p.relative_to(tmp_path).as_posix() for p in image_files(tmp_path)] == [
        "a.png", "b.JPG", "sub/c.webp", "sub/d.bmp"]


def _jpeg(img: np.ndarray, quality: int = 60) -> np.ndarray:
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def test_stretch_widens_or_heightens_and_never_shrinks():
    img = np.zeros((90, 160, 3), np.uint8)
    assert stretch(img, 1.0) is img
    assert stretch(img, 16 / 9).shape == (90, 284, 3)
    assert stretch(img, 0.75).shape == (120, 160, 3)
    with pytest.raises(ValueError, match="positive"):
        stretch(img, 0)


def test_a_phone_photo_is_turned_by_its_exif_orientation(tmp_path):
    """A phone stores a photo taken upright as landscape pixels with an EXIF turn (6: 90 degrees
    clockwise); the reader sees it as the phone showed it, from a file or an upload's bytes."""
    import io

    from PIL import Image

    pixels = np.zeros((40, 80, 3), np.uint8)
    pixels[:, :40] = 255  # the left half white
    img = Image.fromarray(pixels)
    exif = img.getexif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    img.save(buffer, "JPEG", exif=exif)
    path = tmp_path / "phone.jpg"
    path.write_bytes(buffer.getvalue())
    for source in (buffer.getvalue(), path):
        turned = load_image(source)
        assert turned.shape == (80, 40, 3)
        assert turned[:30].mean() > 200 and turned[50:].mean() < 50  # the white half now on top


@pytest.mark.parametrize(("pixels", "dtype", "want"), [
    (200, np.uint8, 200),
    (200 * 257, np.uint16, 200),  # 16 bits a channel (a PNG of 16 bits, a machine-vision camera)
    (200 / 255, np.float32, 200),  # floats from 0 to 1 (scikit-image, OpenCV's own float images)
    (200 / 255, np.float64, 200),
    (200.0, np.float32, 200),  # floats over 1: already 0-255
    (200, np.int64, 200),  # np.array of Python ints
    (True, np.bool_, 255),  # a mask
])
def test_an_array_of_any_common_pixel_type_is_made_8_bit_as_it_looks(pixels, dtype, want):
    img = load_image(np.full((6, 8, 3), pixels, dtype))
    assert img.dtype == np.uint8 and img.shape == (6, 8, 3) and np.all(img == want)
    assert load_image(np.full((6, 8, 1), pixels, dtype)).shape == (6, 8, 3)  # one channel: grey


@pytest.mark.parametrize(("img", "needle"), [
    (np.full((4, 4, 3), np.nan, np.float32), "not a number"),
    (np.full((4, 4, 3), 300, np.int32), "pixel values from 300 to 300"),
    (np.full((4, 4, 3), -5, np.int16), "pixel values from -5 to -5"),
    (np.full((4, 4, 3), -0.5, np.float32), r"pixel values from -0\.5"),
    (np.full((4, 4, 3), 1 + 2j), "complex128 pixels"),
    (np.full((4, 4, 3), None, object), "object pixels"),
])
def test_an_array_whose_pixels_are_not_an_image_s_is_named(img, needle):
    with pytest.raises(ImageError, match=needle):
        load_image(img)
