"""Loading an image from a path, bytes or an array, with a clear error for bad input."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.types import ImageError

MAX_PIXELS = 50_000_000  # refuse decoding anything larger (a "decompression bomb")
MAX_BYTES = 64 * 1024 * 1024
PHOTO_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})


def image_files(folder: str | Path) -> list[Path]:
    """The photos under ``folder`` (any depth), by suffix, in a stable order."""
    return sorted(p for p in Path(folder).rglob("*") if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES)


def _header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the image's header, without decoding the pixels: PNG and JPEG here,
    other kinds (WebP, TIFF, GIF, BMP, ...) by Pillow's header reading. A small compressed TIFF
    can hold 20,000 x 20,000 pixels, which OpenCV would decode (2.4 GB) before any check."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] == b"\xff\xd8":
        for marker, i in _jpeg_markers(data):
            if marker in _JPEG_FRAMES:
                if i + 9 >= len(data):
                    return None
                return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        return None
    return _pillow_size(data)


_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}  # SOFn: the size


def _jpeg_markers(data: bytes) -> Iterator[tuple[int | None, int]]:
    """(marker, offset) of each marker of a JPEG after its start marker, walking from segment to
    segment (fill bytes skipped; a marker with no segment, SOI, TEM or RSTn, is two bytes);
    (None, offset) for a byte where a marker should begin (damage, or a scan's data), the walk
    going on from the next byte."""
    i, n = 2, len(data)
    while i + 2 <= n:
        if data[i] != 0xFF:
            yield None, i
            i += 1
            continue
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte before a marker
            i += 1
            continue
        yield marker, i
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
        else:
            i += 2 + int.from_bytes(data[i + 2:i + 4], "big")


def _pillow_size(data: bytes) -> tuple[int, int] | None:
    import io
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                return im.size
    except Image.DecompressionBombError:  # more pixels than Pillow opens at all
        raise ImageError(f"too large: more than {2 * Image.MAX_IMAGE_PIXELS:,} pixels "
                         f"(max {MAX_PIXELS:,})") from None
    except Exception:  # not a kind Pillow knows, or a damaged header: OpenCV decides below
        return None


# The brands of the ISO media files that hold HEIF images (HEIC: an iPhone's photos) or AVIF
# ones, at bytes 8-12 after the "ftyp" box's name: OpenCV's wheels decode neither.
_HEIF_BRANDS = {b"heic": "HEIC", b"heix": "HEIC", b"heim": "HEIC", b"heis": "HEIC", b"hevc": "HEIC",
                b"hevx": "HEIC", b"mif1": "HEIF", b"msf1": "HEIF", b"avif": "AVIF", b"avis": "AVIF"}


def _heif_kind(data: bytes) -> str | None:
    """"HEIC", "HEIF" or "AVIF" where ``data`` is such a file (by its ``ftyp`` box), else None."""
    if data[4:8] != b"ftyp":
        return None
    return _HEIF_BRANDS.get(data[8:12])


def _eight_bit(img: np.ndarray) -> np.ndarray:
    """An image array's pixels as 8 bits a channel, as they look: 16-bit ones scaled down,
    floats from 0 to 1 scaled up (floats over 1 taken as 0-255), a mask's True as white.
    Pixels no image has (not numbers, below 0, above the type's white) are an ImageError, not
    clipped into a picture of nothing that reads no card."""
    kind = img.dtype
    if kind == np.uint8:
        return img
    if kind == np.bool_:
        return img.astype(np.uint8) * 255
    if kind == np.uint16:
        return np.round(img / 257.0).astype(np.uint8)
    if not (np.issubdtype(kind, np.integer) or np.issubdtype(kind, np.floating)):
        raise ImageError(f"not an image array: {kind} pixels (8- or 16-bit integers, or floats, expected)")
    if np.issubdtype(kind, np.floating) and not np.isfinite(img).all():
        raise ImageError("not an image array: some pixels are not a number (NaN or infinite)")
    low, high = img.min(), img.max()
    if low < 0 or high > 255:
        raise ImageError(f"not an image array: pixel values from {low} to {high} "
                         "(0 to 255, or 0 to 1 for floats, expected)")
    if np.issubdtype(kind, np.floating):
        return np.round(img * 255.0 if high <= 1 else img).astype(np.uint8)
    return img.astype(np.uint8)


def load_image(source: str | Path | bytes | bytearray | np.ndarray) -> np.ndarray:
    """A BGR uint8 image, or :class:`ImageError` saying what is wrong."""
    if isinstance(source, np.ndarray):
        img = source
        if img.size == 0:
            raise ImageError("empty image (no pixels)")
        if img.ndim not in (2, 3) or (img.ndim == 3 and img.shape[2] not in (1, 3, 4)):
            raise ImageError(f"not an image array: shape {img.shape}")
        if img.shape[0] * img.shape[1] > MAX_PIXELS:
            raise ImageError(f"image too large: {img.shape[1]}x{img.shape[0]} pixels (max {MAX_PIXELS:,})")
        img = _eight_bit(img)
        if img.ndim == 2 or img.shape[2] == 1:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        elif img.shape[2] == 4:
            img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
        return np.ascontiguousarray(img)
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.exists():
            raise ImageError(f"no such file: {path}")
        if path.is_dir():
            raise ImageError(f"{path} is a folder, not an image")
        if path.stat().st_size > MAX_BYTES:
            raise ImageError(f"{path.name} is too large ({path.stat().st_size // 1_000_000} MB; max 64 MB)")
        data = path.read_bytes()
        name = path.name
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = "the upload"
    else:  # bytes(5) would make five zero bytes, bytes(None) a TypeError: name it instead
        raise ImageError(f"not an image: a {type(source).__name__} (a path, bytes or an array expected)")
    if not data:
        raise ImageError(f"{name} is empty (0 bytes)")
    if len(data) > MAX_BYTES:
        raise ImageError(f"{name} is too large ({len(data) // 1_000_000} MB; max 64 MB)")
    try:
        size = _header_size(data)
    except ImageError as exc:
        raise ImageError(f"{name} is {exc}") from None
    if size and size[0] * size[1] > MAX_PIXELS:
        raise ImageError(f"{name} is too large: {size[0]}x{size[1]} pixels (max {MAX_PIXELS:,})")
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        kind = "JPEG" if data[:2] == b"\xff\xd8" else "PNG" if data[:4] == b"\x89PNG" else None
        if kind:
            raise ImageError(f"{name} is a damaged or truncated {kind} file")
        heif = _heif_kind(data)
        if heif == "HEIC":
            raise ImageError(f"{name} is a HEIC photo (an iPhone's usual format), which this reader cannot "
                             "open: save or share it as JPEG (on an iPhone: Settings > Camera > Formats > "
                             "Most Compatible)")
        if heif:
            raise ImageError(f"{name} is {'an' if heif == 'AVIF' else 'a'} {heif} image, which this reader "
                             "cannot open: save or share it as JPEG")
        raise ImageError(f"{name} is not an image (JPEG, PNG, WebP or BMP expected)")
    if data[:2] == b"\xff\xd8" and not _jpeg_complete(data):
        raise ImageError(f"{name} is a truncated JPEG (the file ends before the image does)")
    if img.shape[0] * img.shape[1] > MAX_PIXELS:
        raise ImageError(f"{name} is too large: {img.shape[1]}x{img.shape[0]} pixels")
    return img


def _jpeg_complete(data: bytes) -> bool:
    """Whether a JPEG's image data is whole: its end marker (FFD9) comes after its first scan.

    OpenCV decodes a truncated JPEG without a word, the missing part grey. The end marker need
    not end the file: a phone's "motion photo" (Pixel, Samsung) carries its video after it, and
    Samsung adds a trailer of its own. Nor does any FFD9 do: an EXIF thumbnail, in a segment
    before the first scan, has one of its own, so the segments are walked to the first scan.
    Inside a scan an FF byte is always followed by 00 or a restart marker, so the first FFD9
    after it is the image's end (or a later scan's, of a progressive JPEG, which ends likewise).
    """
    for marker, i in _jpeg_markers(data):
        if marker is None:
            return False  # not a marker where one must be: damaged
        if marker == 0xDA:  # start of scan: the image's end marker must follow
            return data.find(b"\xff\xd9", i + 2) != -1
    return False


def stretch(img: np.ndarray, factor: float) -> np.ndarray:
    """``img`` stretched along one axis, never shrunk: ``factor`` > 1 widens it ``factor`` times,
    < 1 makes it ``1 / factor`` times taller (undoing a photo squeezed to a square: a 16:9 frame
    resized to 640x640 is widened back by 16/9 = 1.78). 1 gives ``img`` itself."""
    if factor <= 0:
        raise ValueError(f"stretch factor must be positive, not {factor}")
    if factor == 1:
        return img
    h, w = img.shape[:2]
    size = (max(1, round(w * factor)), h) if factor > 1 else (w, max(1, round(h / factor)))
    return cv2.resize(img, size, interpolation=cv2.INTER_CUBIC)
