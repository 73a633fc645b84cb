"""Backgrounds for synthetic photos: tables and rooms, drawn procedurally.

Wood grain, felt, knitted cloth, plain tables with light falloff, and "rooms" (blurred
shapes behind a held card). All from numpy and OpenCV with a seeded generator; photos
from packages can be added with :func:`load_photo_backgrounds`.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


def _smooth_noise(rng: np.random.Generator, size: int, scale: int) -> np.ndarray:
    """Value noise in [0, 1]: random grid of ``scale`` cells, upsampled smoothly."""
    cells = max(2, size // max(scale, 1))
    grid = rng.random((cells + 1, cells + 1)).astype(np.float32)
    return cv2.resize(grid, (size, size), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _palette(rng: np.random.Generator, kind: str) -> np.ndarray:
    if kind == "wood":
        base = rng.uniform([20, 50, 90], [90, 140, 210])  # BGR browns, light to dark
    elif kind == "felt":
        base = rng.choice([[40, 110, 30], [110, 60, 20], [30, 30, 120], [60, 60, 60], [90, 40, 40]]).astype(float)
        base = base * rng.uniform(0.6, 1.4)
    else:
        base = rng.uniform(20, 235, 3)
    return np.clip(base, 0, 255).astype(np.float32)


def wood(rng: np.random.Generator, size: int) -> np.ndarray:
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = x * np.cos(angle) + y * np.sin(angle)
    warp = _smooth_noise(rng, size, rng.integers(60, 200)) * rng.uniform(10, 60)
    freq = rng.uniform(0.03, 0.15)
    grain = 0.5 + 0.5 * np.sin((u + warp) * freq)
    fine = _smooth_noise(rng, size, 4) * 0.3
    planks = (np.floor((x * -np.sin(angle) + y * np.cos(angle)) / rng.uniform(80, 300)) % 2) * rng.uniform(0, 0.15)
    shade = (0.75 + 0.25 * grain - 0.15 * fine + planks)[..., None]
    return np.clip(_palette(rng, "wood") * shade, 0, 255)


def felt(rng: np.random.Generator, size: int) -> np.ndarray:
    texture = 0.9 + 0.2 * rng.random((size, size), dtype=np.float32)
    texture = cv2.GaussianBlur(texture, (0, 0), 0.8)
    return np.clip(_palette(rng, "felt") * texture[..., None], 0, 255)


def knit(rng: np.random.Generator, size: int) -> np.ndarray:
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    period = rng.uniform(6, 16)
    pattern = 0.5 + 0.25 * np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / (period * 1.5))
    pattern += 0.25 * _smooth_noise(rng, size, int(period * 4))
    base = rng.uniform(120, 240, 3).astype(np.float32)
    return np.clip(base * (0.7 + 0.4 * pattern[..., None]), 0, 255)


def plain(rng: np.random.Generator, size: int) -> np.ndarray:
    base = _palette(rng, "plain")
    return np.broadcast_to(base, (size, size, 3)).copy()


def room(rng: np.random.Generator, size: int) -> np.ndarray:
    img = plain(rng, size)
    for _ in range(rng.integers(4, 14)):
        color = rng.uniform(0, 255, 3)
        x1, y1 = rng.integers(-size // 2, size, 2)
        w, h = rng.integers(size // 10, size, 2)
        if rng.random() < 0.5:
            cv2.rectangle(img, (int(x1), int(y1)), (int(x1 + w), int(y1 + h)), color.tolist(), -1)
        else:
            cv2.ellipse(img, (int(x1), int(y1)), (int(w // 2), int(h // 2)), float(rng.uniform(0, 180)), 0, 360,
                        color.tolist(), -1)
    return cv2.GaussianBlur(img, (0, 0), rng.uniform(2, 12))


def noise_texture(rng: np.random.Generator, size: int) -> np.ndarray:
    a, b = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
    t = _smooth_noise(rng, size, int(rng.integers(8, 120)))[..., None]
    return (a * t + b * (1 - t)).astype(np.float32)


GENERATORS = {"wood": wood, "felt": felt, "knit": knit, "plain": plain, "room": room, "noise": noise_texture}
WEIGHTS = {"wood": 0.3, "felt": 0.12, "knit": 0.1, "plain": 0.18, "room": 0.18, "noise": 0.12}


class Backgrounds:
    """Draws a background of a given size: procedural, or a photo when some are loaded."""

    def __init__(self, photos: list[np.ndarray] | None = None, photo_share: float = 0.3) -> None:
        self.photos = photos or []
        self.photo_share = photo_share if self.photos else 0.0

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        if self.photos and rng.random() < self.photo_share:
            photo = self.photos[int(rng.integers(len(self.photos)))]
            h, w = photo.shape[:2]
            side = int(min(h, w) * rng.uniform(0.3, 1.0))
            y, x = int(rng.integers(0, h - side + 1)), int(rng.integers(0, w - side + 1))
            crop = photo[y:y + side, x:x + side]
            if rng.random() < 0.5:
                crop = crop[:, ::-1]  # backgrounds may be mirrored: they hold no card glyphs
            return cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)
        names = list(GENERATORS)
        p = np.array([WEIGHTS[n] for n in names])
        name = names[int(rng.choice(len(names), p=p / p.sum()))]
        return GENERATORS[name](rng, size).astype(np.float32)


def load_photo_backgrounds(folder: Path, max_side: int = 1024) -> list[np.ndarray]:
    """JPEG/PNG photos under ``folder`` (e.g. wallpapers unpacked from a package), shrunk."""
    photos = []
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() not in (".jpg", ".jpeg", ".png", ".webp"):
            continue
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        scale = max_side / max(img.shape[:2])
        if scale < 1:
            img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        photos.append(img)
    return photos
