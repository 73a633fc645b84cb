"""Cutting a corner index out of a photo for the classifier: the same code in training and
reading, so that what the classifier learns is what it is shown."""

from __future__ import annotations

import cv2
import numpy as np

CROP = 32  # side of the classifier's input, pixels, unless a data set is written with another
MARGIN = 1.15  # the crop is this much larger than the index box's longer side
LUMA = np.float32([0.114, 0.587, 0.299])  # BGR -> grey, weighed as OpenCV and cameras do


def crop_square(image: np.ndarray, box: tuple[float, float, float, float], size: int = CROP,
                margin: float = MARGIN, degrees: float = 0.0) -> np.ndarray:
    """A square patch around ``box`` (x1, y1, x2, y2), resized to ``size``; uint8, with the
    image's channels (the classifier reads BGR colour: red and black suits differ by it).

    The square keeps the index's shape whatever its rotation; outside the photo the edge
    pixels are repeated. ``degrees``: the photo turned so much anticlockwise about the box's
    centre first (the same framing, cut from the photo itself: no corners made up, as turning
    the square crop would).
    """
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    side = max(x2 - x1, y2 - y1, 2.0) * margin
    k = size / side
    if degrees:
        m = cv2.getRotationMatrix2D((cx, cy), float(degrees), k)
        m[:, 2] += (size / 2 - cx, size / 2 - cy)
    else:
        m = np.float32([[k, 0, size / 2 - k * cx], [0, k, size / 2 - k * cy]])
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def crop_squares(image: np.ndarray, boxes, size: int = CROP, margin: float = MARGIN,
                 degrees: float = 0.0) -> np.ndarray:
    """:func:`crop_square` of each of ``boxes``, stacked: (N, size, size, channels)."""
    return np.stack([crop_square(image, tuple(b), size, margin, degrees) for b in boxes])


def turn_upright(crops: np.ndarray, degrees) -> np.ndarray:
    """Square crops (N, S, S) or (N, S, S, C), each turned back by the way its index faces
    (``degrees`` anticlockwise from the crop's up, as ``datasets.index_crops`` records it and
    ``vision.onnx.WayUpReader.degrees`` reads it), so that the index stands upright; the
    corners turned in from outside repeat the edge pixels."""
    out = np.empty_like(crops)
    for k, (c, a) in enumerate(zip(crops, np.asarray(degrees, np.float64).reshape(-1), strict=True)):
        s = c.shape[0]
        m = cv2.getRotationMatrix2D((s / 2 - 0.5, s / 2 - 0.5), -float(a), 1.0)
        out[k] = cv2.warpAffine(c, m, (s, s), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def cos_sin_degrees(cos_sin) -> np.ndarray:
    """A way-up reader's (cos, sin) outputs (N, 2) -> degrees anticlockwise from the crop's
    up, in [-180, 180] (as :func:`turn_upright` takes them)."""
    cos, sin = np.asarray(cos_sin, np.float32).reshape(-1, 2).T
    return np.degrees(np.arctan2(sin, cos)).astype(np.float32)


def degrees_apart(a, b) -> np.ndarray:
    """Degrees between angles ``a`` and ``b`` (each anticlockwise from the crop's up, as
    :func:`turn_upright` takes them), in [0, 180]: how far a read way up is off the true one."""
    return np.abs((np.asarray(a, np.float64) - np.asarray(b, np.float64) + 180) % 360 - 180)


def to_grey(patches: np.ndarray) -> np.ndarray:
    """BGR patches (N, S, S, 3) -> grey (N, S, S), as OpenCV weighs the channels."""
    return (patches.astype(np.float32) @ LUMA).round().astype(np.uint8)


def percentiles(rows: np.ndarray, qs: tuple[float, ...]) -> list[np.ndarray]:
    """Each row's ``qs`` percentiles, float32: the very numbers of ``np.percentile(rows.astype(
    np.float32), q, axis=1)`` (its "linear" method: the two order statistics either side of
    ``(n - 1) * q / 100``, weighed as NumPy's own ``_lerp`` weighs them), found with one
    ``np.partition`` of the rows as they are (uint8 crops partition fast) instead of NumPy's
    general path, about 5x faster for a few crops.
    ``rows``: (N, M), M >= 1, any real dtype."""
    rows = np.asarray(rows)
    m = rows.shape[1]
    spots = []
    for q in qs:
        v = (m - 1) * (q / 100)
        below = int(np.floor(v))
        spots.append((below, min(below + 1, m - 1), v - below))
    kth = sorted({k for lo, hi, _ in spots for k in (lo, hi)})
    part = np.partition(rows, kth, axis=1)
    out = []
    for lo, hi, t in spots:
        a = part[:, lo].astype(np.float32)
        b = part[:, hi].astype(np.float32)
        d = b - a
        # NumPy's weights: t and 1 - t worked out in float64, each then taken as float32
        out.append(b - d * np.float32(1 - t) if t >= 0.5 else a + d * np.float32(t))
    return out


def normalise(patches: np.ndarray) -> np.ndarray:
    """uint8 patches (N, S, S) grey or (N, S, S, 3) BGR -> float32 (N, C, S, S) in [-1, 1], each
    patch's contrast stretched (the same stretch on every channel, so that its colour stays)
    between its 2nd and 98th percentiles (:func:`percentiles`: NumPy's own numbers)."""
    patches = np.asarray(patches)
    x = patches.astype(np.float32)
    if x.ndim == 3:
        x = x[..., None]
    n = len(x)
    if n == 0:
        return np.zeros((0, x.shape[3], *x.shape[1:3]), np.float32)
    rows = (patches if patches.dtype.kind in "ui" else x).reshape(n, -1)
    lo, hi = (v.reshape(n, 1, 1, 1) for v in percentiles(rows, (2, 98)))
    x = (x - lo) / np.maximum(hi - lo, 16.0)
    return np.ascontiguousarray(np.clip(x, 0, 1).transpose(0, 3, 1, 2)) * 2 - 1
