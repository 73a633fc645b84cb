"""Photos too big to read whole: a phone's 108- or 200-megapixel JPEG is decoded at 1/2, 1/4
or 1/8 of its size (the JPEG decoder scales while it decodes, so the full-size image never
exists in memory), as a phone's own gallery shows it. Only what cannot be decoded so is left
to the reader to refuse (a huge PNG: it has no scaled decoding).

>>> jpeg_size(b"\\xff\\xd8\\xff\\xc0\\x00\\x11\\x08\\x00\\x02\\x00\\x03")  # SOF0: 2 high, 3 wide
(3, 2)
>>> shrink_factor(12_000, 9_000, 50_000_000)
2
"""

from __future__ import annotations

from typing import Any

MAX_PIXELS = 50_000_000  # what the reader decodes whole (vision.image.MAX_PIXELS)
FACTORS = (2, 4, 8)  # the scales a JPEG decoder offers
# Start-of-frame markers: every JPEG kind but DHT (C4), JPG (C8) and DAC (CC).
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, without decoding it; None if not a JPEG."""
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            i += 2
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker in _SOF and i + 9 <= len(data):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + length
    return None


def shrink_factor(width: int, height: int, max_pixels: int = MAX_PIXELS) -> int | None:
    """1 when the photo fits, else the least of 2, 4, 8 that makes it fit; None when none does."""
    if width * height <= max_pixels:
        return 1
    return next((f for f in FACTORS if (width // f) * (height // f) <= max_pixels), None)


def fit_photo(data: bytes, max_pixels: int = MAX_PIXELS) -> tuple[Any, str | None]:
    """``data`` as the reader should take it: the bytes as they are, or a JPEG too big to
    read whole decoded smaller (a BGR array), with a note saying so."""
    size = jpeg_size(data)
    if size is None:
        return data, None
    factor = shrink_factor(*size, max_pixels)
    if factor in (None, 1):
        return data, None
    import cv2  # lazy: the typed flows need no OpenCV
    import numpy as np

    flag = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}[factor]
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    if image is None:  # damaged: the reader names what is wrong with it
        return data, None
    megapixels = size[0] * size[1] / 1e6
    return image, f"a {megapixels:.0f}-megapixel photo, read at 1/{factor} size"
