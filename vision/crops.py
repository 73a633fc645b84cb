"""Cutting a corner index out of a photo for the classifier: the same code in training and
reading, so that what the classifier learns is what it is shown."""

from __future__ import annotations

import cv2
import numpy as np

CROP = 32  # side of the classifier's input, pixels
MARGIN = 1.15  # the crop is this much larger than the index box's longer side


def crop_square(gray: np.ndarray, box: tuple[float, float, float, float], size: int = CROP,
                margin: float = MARGIN) -> np.ndarray:
    """A square patch around ``box`` (x1, y1, x2, y2), resized to ``size``; grey uint8.

    The square keeps the index's shape whatever its rotation; outside the photo the edge
    pixels are repeated.
    """
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    side = max(x2 - x1, y2 - y1, 2.0) * margin
    k = size / side
    m = np.float32([[k, 0, size / 2 - k * cx], [0, k, size / 2 - k * cy]])
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(gray, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def normalise(patches: np.ndarray) -> np.ndarray:
    """uint8 patches (N, S, S) -> float32 (N, 1, S, S), each patch's contrast stretched."""
    x = patches.astype(np.float32)
    lo = np.percentile(x, 2, axis=(1, 2), keepdims=True)
    hi = np.percentile(x, 98, axis=(1, 2), keepdims=True)
    x = (x - lo) / np.maximum(hi - lo, 16.0)
    return np.clip(x, 0, 1)[:, None] * 2 - 1
