"""Drawing a reading on its photo, for the UI: each card's index boxes and its code."""

from __future__ import annotations

import cv2
import numpy as np

from vision.types import Reading

SURE = (60, 200, 60)  # BGR
UNSURE = (0, 165, 255)


def annotate(image_bgr: np.ndarray, reading: Reading) -> np.ndarray:
    """A copy of the photo with every card's boxes and code (orange when uncertain)."""
    out = image_bgr.copy()
    scale = max(out.shape[:2]) / 640
    thick = max(1, round(2 * scale))
    for card in reading.cards:
        color = UNSURE if card.uncertain else SURE
        label = f"{card.card} {card.confidence:.0%}"
        for x1, y1, x2, y2 in card.boxes:
            p1, p2 = (int(x1), int(y1)), (int(x2), int(y2))
            cv2.rectangle(out, p1, p2, color, thick)
            (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, thick)
            ty = max(p1[1] - 4, th + 4)
            cv2.rectangle(out, (p1[0], ty - th - 4), (p1[0] + tw + 4, ty + base - 2), color, -1)
            cv2.putText(out, label, (p1[0] + 2, ty - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, (0, 0, 0), thick,
                        cv2.LINE_AA)
    return out
