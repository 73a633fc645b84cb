"""Synthetic photos of cards: layouts like the real uses, and the labels of every visible
corner index.

Scene kinds (see :data:`KINDS`): a hand fanned in a fist, cards spread on a table, one card
held up, two hands laid out at showdown, and a phone close-up of one to three big cards.
Each card is placed by a 3x3 transform (rotation, scale, position, then one perspective for
the whole photo); an index's label is its box from the deck's own geometry carried through
that transform, measured on the pixels still showing (cards above it, fingers and the frame
edge cover it). A label is dropped when less than :data:`MIN_VISIBLE` of its index shows.
A third of the photos are stretched to the frame without keeping their aspect (a wide
webcam frame squeezed to a square). Then light, glare, shadow, blur, noise and JPEG; a fifth
of the photos as from a dim webcam, and a few in black and white. Cards held up may be
backlit (:func:`_backlit`): darker and flatter than the room behind them, the colour off;
or, instead, seen by a webcam in a lit room (:func:`_room_webcam`): a single card sized as
people hold one up to it, the frame bright, contrasted and warm.
Never mirrored: a flipped card shows glyphs that no real card has.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from datasets.backgrounds import Backgrounds
from datasets.decks import Deck

KINDS = {"fan": 0.26, "spread": 0.24, "single": 0.14, "showdown": 0.12, "closeup": 0.24}
FAR_SINGLE = 1 / 3  # share of "single" photos whose card is held far from the camera
MIN_VISIBLE = 0.6  # share of an index's area that must show for it to be labelled
FINGER = -2  # owner id of pixels covered by a finger
OUTSIDE = -3
# Scenes whose cards are held up before the camera, in the air: only they may be backlit.
BACKLIT_KINDS = ("single", "fan")
# A single card held up to a room-lit webcam (:func:`_room_webcam`): its height, a share of the
# frame's (an index of about 20-65 px at 640, as in real webcam frames of a card held up).
ROOM_CARD = (0.15, 0.45)


def unknown_kinds(kinds) -> list[str]:
    """The names in ``kinds`` that are not scene kinds (:data:`KINDS`), sorted."""
    return sorted(set(kinds or ()) - set(KINDS))


@dataclass
class IndexLabel:
    card: str
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 of the visible part, pixels
    quad: np.ndarray  # the whole index's 4 corners (x, y), in the index's reading order
    visible: float


def quad_way_up(quad: np.ndarray) -> float:
    """Which way the top of an index faces in the photo, from its quad (corners in the index's
    reading order: top-left, top-right, bottom-right, bottom-left): degrees anticlockwise from
    the image's up, in [0, 360) (0 upright, 90 its top to the left), as
    ``datasets.index_crops.way_up_degrees`` gives it for its crops. An axis-aligned crop of the
    index (``vision.crops.crop_square``) faces the same way."""
    q = np.asarray(quad, np.float64)
    vx, vy = (q[0] + q[1]) / 2 - (q[2] + q[3]) / 2
    return float(np.degrees(np.arctan2(-vx, -vy)) % 360)


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8
    labels: list[IndexLabel] = field(default_factory=list)
    kind: str = ""
    # A joker's visible corner marks (``card`` the joker's name): never labelled, they are
    # where a detector may box something that must be read as "no index".
    jokers: list[IndexLabel] = field(default_factory=list)


def _rot(deg: float) -> np.ndarray:
    a = np.deg2rad(deg)
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)


def _move(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def _scale(k: float) -> np.ndarray:
    return np.array([[k, 0, 0], [0, k, 0], [0, 0, 1]], np.float64)


def _place(face_hw: tuple[int, int], height: float, angle: float, cx: float, cy: float) -> np.ndarray:
    """Face pixels -> canvas: card of ``height`` px, centre at (cx, cy), turned ``angle``."""
    h, w = face_hw
    return _move(cx, cy) @ _rot(angle) @ _scale(height / h) @ _move(-w / 2, -h / 2)


def _resize_card(m: np.ndarray, face_hw: tuple[int, int], height: float) -> np.ndarray:
    """The card placed by ``m`` (a layout's transform: no perspective yet) made ``height`` px
    high about its centre, its angle and place kept."""
    h, w = face_hw
    centre = _transform(np.float64([[w / 2, h / 2]]), m)[0]
    k = height / (np.hypot(m[0, 1], m[1, 1]) * h)
    return _move(*centre) @ _scale(k) @ _move(*-centre) @ m


# --- layouts: each returns a list of 3x3 transforms, bottom card first ------------------
def layout_single(rng, face_hw, size):
    """One card held up: near the camera (0.3-1.15 of the frame high), or, a third of the time,
    at arm's length from a webcam (0.12-0.3 of the frame: an index of about 8-25 px)."""
    far = rng.random() < FAR_SINGLE
    height = size * (rng.uniform(0.12, 0.3) if far else rng.uniform(0.3, 1.15))
    angle = rng.normal(0, 20) if rng.random() < 0.6 else rng.uniform(0, 360)
    cx, cy = rng.uniform(0.2, 0.8, 2) * size
    return [_place(face_hw, height, angle, cx, cy)]


def layout_spread(rng, face_hw, size):
    n = int(rng.integers(2, 17))
    height = size * rng.uniform(0.12, 0.38) * (1.0 if n < 8 else 0.8)
    base = rng.uniform(0, 360)
    out = []
    for _ in range(n):
        angle = base + rng.normal(0, 35) if rng.random() < 0.5 else rng.uniform(0, 360)
        cx, cy = rng.uniform(0.05, 0.95, 2) * size
        out.append(_place(face_hw, height, angle, cx, cy))
    return out


def layout_fan(rng, face_hw, size):
    n = int(rng.integers(7, 12))
    h, w = face_hw
    height = size * rng.uniform(0.22, 0.6)
    spread = rng.uniform(35, 110)  # degrees from first to last card
    radius = height * rng.uniform(0.5, 0.95)  # pivot below the cards' centres
    global_angle = rng.normal(0, 25) if rng.random() < 0.7 else rng.uniform(0, 360)
    cx, cy = rng.uniform(0.3, 0.7) * size, rng.uniform(0.35, 0.75) * size
    jitter = rng.normal(0, 1.5, n)
    out = []
    for i in range(n):
        a = -spread / 2 + spread * i / max(n - 1, 1) + jitter[i]
        # Card centre sits `radius` above the pivot, turned about it by a.
        local = _rot(global_angle + a) @ _move(0, -radius) @ _rot(0)
        m = _move(cx, cy) @ local @ _scale(height / h) @ _move(-w / 2, -h / 2)
        out.append(m)
    return out


def layout_showdown(rng, face_hw, size):
    h, w = face_hw
    height = size * rng.uniform(0.14, 0.3)
    step = height * w / h * rng.uniform(0.22, 0.45)
    out = []
    tilt = rng.normal(0, 8) if rng.random() < 0.8 else rng.uniform(0, 360)
    centre = np.array([size / 2, size / 2]) + rng.normal(0, size * 0.05, 2)
    rows = 2
    for r in range(rows):
        n = int(rng.integers(6, 11))
        y = (r - (rows - 1) / 2) * height * rng.uniform(1.05, 1.4)
        x0 = -step * (n - 1) / 2
        for i in range(n):
            local = _rot(tilt) @ _move(x0 + i * step + rng.normal(0, 2), y + rng.normal(0, 2))
            m = _move(*centre) @ local @ _rot(rng.normal(0, 2)) @ _scale(height / h) @ _move(-w / 2, -h / 2)
            out.append(m)
    return out


def layout_closeup(rng, face_hw, size):
    """A phone close-up: one to three big cards (an index 60-180 px), often cut by the frame,
    the phone held roughly square to the table."""
    n = 1 if rng.random() < 0.6 else int(rng.integers(2, 4))
    height = size * rng.uniform(0.6, 1.6)
    base = 90 * int(rng.integers(4)) + rng.normal(0, 12)
    out = []
    for _ in range(n):
        cx, cy = size / 2 + rng.normal(0, 0.22 * size, 2)
        out.append(_place(face_hw, height, base + rng.normal(0, 10), cx, cy))
    return out


LAYOUTS = {"fan": layout_fan, "spread": layout_spread, "single": layout_single, "showdown": layout_showdown,
           "closeup": layout_closeup}
# How far the camera may lean (share of the frame each corner moves): a phone over a card leans most.
PERSPECTIVE = {"closeup": (0.03, 0.2)}
STRETCHED = 0.35  # share of photos stretched to the frame without keeping their aspect
STRETCH = (0.5, 0.9)  # the aspect change: 16:9 squeezed to a square is 0.56, 4:3 is 0.75


def _perspective(rng: np.random.Generator, size: int, strength: float) -> np.ndarray:
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    dst = src + rng.uniform(-strength, strength, (4, 2)).astype(np.float32) * size
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def _stretch(rng: np.random.Generator, size: int) -> np.ndarray:
    """A photo resized to the frame without keeping its aspect (as apps and data sets do with
    16:9 webcam frames and 4:3 phone photos): one axis squeezed against the other by a factor
    from :data:`STRETCH`, the area kept, about the centre. Cards pushed past the frame are cut,
    and their labels with them."""
    k = rng.uniform(*STRETCH)
    a, b = (np.sqrt(k), 1 / np.sqrt(k)) if rng.random() < 0.5 else (1 / np.sqrt(k), np.sqrt(k))
    c = size / 2
    return _move(c, c) @ np.diag([a, b, 1.0]) @ _move(-c, -c)


def _transform(points: np.ndarray, m: np.ndarray) -> np.ndarray:
    pts = np.hstack([points, np.ones((len(points), 1))]) @ m.T
    return pts[:, :2] / pts[:, 2:3]


def _index_quad(box: tuple[int, int, int, int], face_hw: tuple[int, int]) -> np.ndarray:
    """The box's corners in the index's reading order: the top-left index reads upright;
    the bottom-right one is upside down, so its reading order starts at its bottom-right."""
    x1, y1, x2, y2 = box
    quad = np.float64([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    h = face_hw[0]
    if (y1 + y2) / 2 > h / 2:  # the lower index is printed upside down
        quad = quad[[2, 3, 0, 1]]
    return quad


def _finger(rng: np.random.Generator, canvas: np.ndarray, owner: np.ndarray, anchor: np.ndarray, scale: float) -> None:
    """A finger or thumb: a shaded skin-coloured capsule near ``anchor``."""
    red = rng.uniform(120, 245)
    green = red * rng.uniform(0.6, 0.85)
    skin = np.array([green * rng.uniform(0.6, 0.9), green, red], np.float32)  # BGR
    length, width = scale * rng.uniform(0.4, 0.9), scale * rng.uniform(0.12, 0.22)
    angle = rng.uniform(0, 360)
    centre = anchor + rng.normal(0, scale * 0.15, 2)
    mask = np.zeros(owner.shape, np.uint8)
    cv2.ellipse(mask, (int(centre[0]), int(centre[1])), (int(length / 2), int(width / 2)), angle, 0, 360, 255, -1)
    if not mask.any():
        return
    shade = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), max(width / 4, 1))
    sel = mask > 0
    canvas[sel] = (skin * (0.6 + 0.4 * shade[sel, None])).clip(0, 255)
    owner[sel] = FINGER


def _light(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Uneven light (a gradient and a falloff), sometimes a glare, a colour cast, gamma."""
    size = img.shape[0]
    n = 32  # the light field is smooth: compute it small, then enlarge
    y, x = np.mgrid[0:n, 0:n].astype(np.float32) / n
    g = 1 + rng.uniform(-0.35, 0.35) * (x - 0.5) + rng.uniform(-0.35, 0.35) * (y - 0.5)
    cx, cy, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.3, 1.2)
    g = g * (1 - rng.uniform(0, 0.35) * np.clip(((x - cx) ** 2 + (y - cy) ** 2) / r**2, 0, 1))
    g = cv2.resize(g * rng.uniform(0.55, 1.25), (size, size), interpolation=cv2.INTER_LINEAR)
    tint = rng.normal(1, 0.08, 3).astype(np.float32)
    img = img * g[..., None] * tint
    if rng.random() < 0.25:  # glare
        gx, gy = rng.uniform(0, size, 2)
        glare = np.zeros((size, size), np.float32)
        cv2.ellipse(glare, (int(gx), int(gy)), (int(rng.uniform(10, size / 4)), int(rng.uniform(5, size / 6))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        glare = cv2.GaussianBlur(glare, (0, 0), rng.uniform(5, 30)) * rng.uniform(40, 160)
        img += glare[..., None]
    gamma = rng.uniform(0.7, 1.4)
    lut = (255 * (np.arange(256) / 255) ** gamma).astype(np.uint8)
    return cv2.LUT(np.clip(img, 0, 255).astype(np.uint8), lut)


def _backlit(rng: np.random.Generator, canvas: np.ndarray, owner: np.ndarray) -> np.ndarray:
    """Cards held up before a bright window or lamp, in a room of mixed light: the
    camera exposes for what is behind them, so the cards and the hand come out darker than it and
    flatter (flare veils their ink: a black index prints grey on a grey card), and its white
    balance is far off (a green or orange cast over everything, not the few percent of
    :func:`_light`). The webcam photos of people holding up one card look so, and their indices
    are what a detector trained without such photos misses most."""
    front = ((owner >= 0) | (owner == FINGER)).astype(np.float32)
    if front.sum() < 1:
        return canvas
    front = cv2.GaussianBlur(front, (0, 0), 1.5)[..., None]  # the edge of a card in a soft photo
    mean = (canvas * front).sum((0, 1)) / front.sum()
    flat = rng.uniform(0.4, 0.85)  # what is left of the cards' contrast
    dark = (mean + (canvas - mean) * flat) * rng.uniform(0.35, 0.8)
    img = canvas * (1 - front) * rng.uniform(1.0, 1.25) + dark * front
    cast = np.clip(rng.normal(1, 0.15, 3), 0.7, 1.35).astype(np.float32)
    return img * cast  # float32 throughout, as the canvas


def _room_webcam(rng: np.random.Generator, canvas: np.ndarray) -> np.ndarray:
    """The picture a webcam sends of cards held up to it in a lit room, in place of :func:`_light`
    and :func:`_degrade`: a lamp's light falling off across the room; auto exposure that sets the
    frame's mean grey near 146 (90-190) and its contrast (grey standard deviation) to 55-70; an
    auto white balance that evens the colours but for the lamp's warm cast (red above blue by
    20-40 levels); a little softness (lens, a Gaussian of sigma 0.3-0.5), sensor noise (sigma
    1-3), the webcam's own sharpening (an unsharp mask of 0.1-0.4) and JPEG (quality 60-90).
    Matched to the medians of real webcam frames of a card held up (``benchmarks/photo_stats.py``):
    brightness 140 (10th-90th percentile 38-172), contrast 58, warmth 28, Laplacian variance 594;
    the aims sit a little above them, as clipping at black and white and the JPEG lower them.
    Returns the uint8 photo."""
    size = canvas.shape[0]
    n = 32  # the light field is smooth: compute it small, then enlarge
    y, x = np.mgrid[0:n, 0:n].astype(np.float32) / n
    lx, ly = rng.uniform(-0.3, 1.3, 2)  # the lamp, perhaps outside the frame
    fall = (1 - rng.uniform(0.2, 0.5) * np.clip(np.hypot(x - lx, y - ly) / 1.4, 0, 1)).astype(np.float32)
    img = canvas.astype(np.float32) * cv2.resize(fall, (size, size), interpolation=cv2.INTER_LINEAR)[..., None]
    bright = float(np.clip(rng.normal(146, 22), 90, 190))
    contrast, warm = rng.uniform(55, 70), rng.uniform(20, 40)
    for _ in range(3):  # again, as clipping at black and white moves the figures
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        gain = float(np.clip(contrast / max(float(grey.std()), 1.0), 0.5, 4.0))
        img = np.clip((img - float(grey.mean())) * gain + bright, 0, 255)
        blue, _, red = img.reshape(-1, 3).mean(0)
        shift = (warm - (red - blue)) / 2
        img = np.clip(img + np.float32([-shift, 0, shift]), 0, 255)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 0.5))
    img += rng.standard_normal(img.shape, dtype=np.float32) * rng.uniform(1, 3)
    img += (img - cv2.GaussianBlur(img, (0, 0), 1.5)) * rng.uniform(0.1, 0.4)  # the webcam's sharpening
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.uniform(60, 90))])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else img


def _degrade(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    size = img.shape[0]
    webcam = rng.random() < 0.2  # a cheap webcam in a dim room: few pixels, much noise, washed colour
    if webcam:
        img = (img.astype(np.float32) * rng.uniform(0.45, 0.8) + rng.uniform(10, 40))
        grey = img.mean(2, keepdims=True)
        img = np.clip(grey + (img - grey) * rng.uniform(0.4, 0.9), 0, 255).astype(np.uint8)
    if webcam or rng.random() < 0.35:  # a low-resolution camera
        k = rng.uniform(0.3, 0.55) if webcam else rng.uniform(0.35, 0.8)
        small = cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    r = rng.random()
    if r < 0.25:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0))
    elif r < 0.4:  # motion blur
        n = int(rng.integers(3, 10))
        kernel = np.zeros((n, n), np.float32)
        kernel[n // 2, :] = 1 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (n, n))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    sigma = rng.uniform(5, 16) if webcam else rng.uniform(0, 10)
    if sigma > 1:
        noise = rng.standard_normal(img.shape, dtype=np.float32) * sigma
        img = np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.2:  # salt and pepper
        amount = rng.uniform(0.001, 0.01)
        m = rng.random(img.shape[:2], dtype=np.float32)
        img[m < amount / 2] = 0
        img[m > 1 - amount / 2] = 255
    if rng.random() < 0.06:  # a black-and-white photo (a phone filter, a night webcam)
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    quality = int(rng.uniform(35, 95))
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else img


def _distractors(rng: np.random.Generator, img: np.ndarray) -> None:
    """Letters, digits and marks on the background that are not card indices."""
    size = img.shape[0]
    canvas = np.clip(img, 0, 255).astype(np.uint8)
    fonts = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX]
    chars = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789#@&%"
    for _ in range(int(rng.integers(0, 6))):
        text = "".join(rng.choice(list(chars), int(rng.integers(1, 6))))
        org = (int(rng.integers(0, size)), int(rng.integers(0, size)))
        color = rng.uniform(0, 255, 3).tolist()
        cv2.putText(canvas, text, org, fonts[int(rng.integers(len(fonts)))], rng.uniform(0.4, 2.0), color,
                    int(rng.integers(1, 4)), cv2.LINE_AA)
    img[:] = canvas


def make_scene(
    rng: np.random.Generator, decks: list[Deck], backgrounds: Backgrounds, size: int = 640, kind: str | None = None,
    clean: bool = False, jokers: float = 0.0, joker_rng: np.random.Generator | None = None,
    backlit: float = 0.0, light_rng: np.random.Generator | None = None,
    room_webcam: float = 0.0, room_rng: np.random.Generator | None = None,
) -> Scene:
    """One synthetic photo with the labels of its visible corner indices.

    ``clean``: no perspective, light, blur, noise or JPEG (for checking the geometry).
    ``jokers``: the chance that one of the photo's cards is one of its deck's jokers (when the
    deck has them), unlabelled; its corner marks go to ``Scene.jokers``. Drawn from
    ``joker_rng`` (by default ``rng``): with a stream of its own, a photo without a joker is
    the photo the same ``rng`` gave before jokers existed.
    ``backlit``: the chance that a photo of cards held up (:data:`BACKLIT_KINDS`) is backlit
    (:func:`_backlit`), drawn from ``light_rng`` (by default ``rng``) likewise.
    ``room_webcam``: the chance that a photo of cards held up is seen by a webcam in a lit room,
    drawn from ``room_rng`` (by default ``rng``) likewise, before the backlight: such a photo is
    never backlit, a single card in it is :data:`ROOM_CARD` of the frame high (a fan keeps its
    size), and its picture is :func:`_room_webcam`'s in place of the light and wear of the others.
    """
    if kind is None:
        kinds = list(KINDS)
        kind = kinds[int(rng.choice(len(kinds), p=np.array(list(KINDS.values())) / sum(KINDS.values())))]
    deck = decks[int(rng.integers(len(decks)))]
    codes = sorted(deck.faces)
    first = deck.faces[codes[0]]
    face_hw = first.shape[:2]
    transforms = LAYOUTS[kind](rng, face_hw, size)
    rr = rng if room_rng is None else room_rng
    room = not clean and room_webcam > 0 and kind in BACKLIT_KINDS and rr.random() < room_webcam
    if room and kind == "single":
        transforms = [_resize_card(m, face_hw, size * rr.uniform(*ROOM_CARD)) for m in transforms]
    chosen = [codes[i] for i in rng.permutation(len(codes))[: len(transforms)]]
    if jokers > 0 and deck.jokers:
        jr = rng if joker_rng is None else joker_rng
        if jr.random() < jokers:
            names = sorted(deck.jokers)
            chosen[int(jr.integers(len(chosen)))] = names[int(jr.integers(len(names)))]
    persp = np.eye(3) if clean else _perspective(rng, size, rng.uniform(*PERSPECTIVE.get(kind, (0.0, 0.12))))
    if not clean and rng.random() < STRETCHED:
        persp = _stretch(rng, size) @ persp
    canvas = backgrounds.sample(rng, size)
    if not clean and rng.random() < 0.5:
        _distractors(rng, canvas)
    owner = np.full((size, size), -1, np.int16)
    final = [persp @ m for m in transforms]
    shadow_dx, shadow_dy = rng.normal(0, size * 0.01, 2)
    shadow_strength = 0.0 if clean else rng.uniform(0, 0.45)
    for i, (code, m) in enumerate(zip(chosen, final, strict=True)):
        face = deck.jokers[code] if code in deck.jokers else deck.faces[code]
        # Work in the card's bounding rectangle only (with room for its shadow).
        corners = _transform(np.float64([[0, 0], [face_hw[1], 0], [face_hw[1], face_hw[0]], [0, face_hw[0]]]), m)
        pad = int(abs(shadow_dx) + abs(shadow_dy) + 8 + size * 0.02)
        x1, y1 = np.maximum(np.floor(corners.min(0)).astype(int) - pad, 0)
        x2, y2 = np.minimum(np.ceil(corners.max(0)).astype(int) + pad, size)
        if x2 <= x1 or y2 <= y1:
            continue
        w, h = int(x2 - x1), int(y2 - y1)
        local = _move(-x1, -y1) @ m
        warped = cv2.warpPerspective(face, local, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                     borderValue=(0, 0, 0, 0))
        alpha = warped[..., 3:4].astype(np.float32) / 255
        roi = canvas[y1:y2, x1:x2]
        if shadow_strength > 0.02:
            sm = cv2.warpAffine(alpha, np.float32([[1, 0, shadow_dx], [0, 1, shadow_dy]]), (w, h))
            sm = cv2.GaussianBlur(sm, (0, 0), 2 + size * 0.006).reshape(h, w, 1)
            roi *= 1 - shadow_strength * sm
        roi[:] = roi * (1 - alpha) + warped[..., 2::-1].astype(np.float32) * alpha  # faces are RGBA
        owner[y1:y2, x1:x2][alpha[..., 0] > 0.5] = i
    if not clean and kind in ("fan", "single") and rng.random() < 0.7:
        h = face_hw[0]
        for _ in range(int(rng.integers(1, 4))):
            j = int(rng.integers(len(final)))
            # Fingers hold the lower part of the cards.
            anchor = _transform(np.float64([[face_hw[1] * rng.uniform(0.1, 0.9), h * rng.uniform(0.55, 1.0)]]),
                                final[j])[0]
            card_px = np.linalg.norm(_transform(np.float64([[0, 0], [0, h]]), final[j]) @ [1, -1])
            _finger(rng, canvas, owner, anchor, card_px)
    labels, marks = [], []
    for i, (code, m) in enumerate(zip(chosen, final, strict=True)):
        joker = code in deck.jokers
        for box in deck.joker_boxes[code] if joker else deck.index_boxes[code]:
            quad = _transform(_index_quad(box, face_hw), m)
            label = _visible_label(code, quad, owner, i)
            if label is not None:
                (marks if joker else labels).append(label)
    if room:
        return Scene(_room_webcam(rr, canvas), labels, kind, marks)
    if not clean and backlit > 0 and kind in BACKLIT_KINDS:
        lr = rng if light_rng is None else light_rng
        if lr.random() < backlit:
            canvas = _backlit(lr, canvas, owner)
    image = np.clip(canvas, 0, 255).astype(np.uint8) if clean else _degrade(rng, _light(rng, canvas))
    return Scene(image, labels, kind, marks)


def _visible_label(code: str, quad: np.ndarray, owner: np.ndarray, i: int) -> IndexLabel | None:
    size = owner.shape[0]
    x1, y1 = np.floor(quad.min(0)).astype(int)
    x2, y2 = np.ceil(quad.max(0)).astype(int)
    if x2 - x1 < 2 or y2 - y1 < 2:
        return None
    mask = np.zeros((y2 - y1 + 1, x2 - x1 + 1), np.uint8)
    cv2.fillPoly(mask, [np.round(quad - [x1, y1]).astype(np.int32)], 1)
    area = int(mask.sum())
    if area == 0:
        return None
    cx1, cy1, cx2, cy2 = max(x1, 0), max(y1, 0), min(x2, size - 1), min(y2, size - 1)
    if cx2 <= cx1 or cy2 <= cy1:
        return None
    local = owner[cy1:cy2 + 1, cx1:cx2 + 1] == i
    sub = mask[cy1 - y1:cy2 - y1 + 1, cx1 - x1:cx2 - x1 + 1].astype(bool) & local
    shown = int(sub.sum())
    visible = shown / area
    if visible < MIN_VISIBLE:
        return None
    ys, xs = np.nonzero(sub)
    box = (float(cx1 + xs.min()), float(cy1 + ys.min()), float(cx1 + xs.max() + 1), float(cy1 + ys.max() + 1))
    return IndexLabel(code, box, quad, visible)
