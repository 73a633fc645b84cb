"""Index crops drawn straight from the decks, as a webcam over a table sees them: a card turned
any way on a table, its index 24-64 pixels long, the frame often squeezed (a 16:9 webcam frame
resized to a square, as apps and data sets do), defocused, dim and washed out, noisy, JPEG'd;
cut as the reader cuts a detector's box. For the classifier only (no photo, no detector labels).

Why: the scene photos (``datasets.scenes``) pile every degradation on every scale, so many of
their crops are unreadable, and few show a plain, mid-sized, squeezed and soft index. Read with
that look, the clubs of some decks become spades (and none when clean), the confusion the real
webcam photos show.

    python -m datasets.index_crops --out data/webcam-crops --n 120000 --seed 11 [--procedural 24]
    python -m datasets.index_crops --out data/webcam-crops2 --n 150000 --seed 13 \
        --procedural-seeds 1000-1599 --decks-per-shard 16 --procedural-share 0.5
    python -m datasets.index_crops --out data/webcam-crops3 --n 150000 --seed 17 \
        --procedural-seeds 1600-2199 --decks-per-shard 16 --procedural-share 0.5 --blur 0.4-3

The second form draws from many more procedural decks (each shard builds its own few, so that
memory stays small). Why: with a few dozen procedural decks in training, the classifier reads
many clubs of decks it has never seen as spades, most of all plain drawn clubs: too few club
shapes have been seen, not too odd ones. Seeds 100-111 and 200-319 are the held-out decks the
readers are judged on: keep them out of any training set.

The third widens the defocus (``--blur``, sigma in frame pixels, at most a fourteenth of the
index's length). Why: real webcam frames are often softer than the default 0.4-1.6, and
a classifier trained only on the default blur reads indices that soft clearly worse.

The camera look (``--look camera``, :func:`camera_crop`; ``--blur`` is then a share of the
index's length) makes the frame as a webcam and an image set's export do: soft, sharpened,
noisy and JPEG'd at the camera's own resolution, then shrunk to a square, unevenly for a 16:9
frame. Why: the WIN photos' clubs are read as spades while most of their spades read right,
and no real design read with the webcam look fails that way; read with the camera look, clubs
of standard decks go to spades far more often than spades to clubs
(below, :func:`camera_crop`). ``--leave-out`` keeps real designs out, to read them as unseen:

    python -m datasets.index_crops --out data/camera-crops --n 150000 --seed 23 --look camera \
        --procedural-seeds 2800-3399 --decks-per-shard 16 --procedural-share 0.3 \
        --leave-out kennard --leave-out kennard-big --leave-out kennard-big-4-color

writes ``train-NNNN.npz`` / ``val-NNNN.npz`` shards (``x`` uint8 (N, S, S, 3) BGR, ``y`` class) like
``ginsight dataset``'s ``crops/``, so that ``datasets.mix`` and the classifier's training take them;
and ``up``, the way each index's top faces in its crop (degrees anticlockwise from up, for the
way-up reader of ``models/way_up.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from datasets.backgrounds import Backgrounds
from datasets.decks import HELD_OUT_SEEDS, Deck
from engine.cards import CODES
from vision.crops import CROP, crop_square

SQUEEZED = 0.6  # share of crops from a frame resized without keeping its aspect
SQUEEZE = (0.5, 0.9)  # 16:9 to a square is 0.56, 4:3 is 0.75
LENGTH = (24.0, 64.0)  # the index's longer side in the frame, pixels
BLURRED = 0.7  # share of crops defocused
BLUR = (0.4, 1.6)  # the defocus, a Gaussian's sigma in frame pixels (``--blur``)
BLUR_PER_LENGTH = 1 / 14  # and at most this share of the index's length (1.7 for 24 px), so a small index stays legible
SHARD = 4000  # crops per file
NO_INDEX = len(CODES)  # the classifier's "no index" class

# The camera look (``camera_crop``, ``--look camera``): a frame captured at a webcam's own
# resolution, soft and sharpened and JPEG'd there, then shrunk unevenly to a square frame.
CAMERA_SCALE = (1.1, 2.5)  # camera pixels per frame pixel along the frame's height (1080 -> 640: 1.7)
CAMERA_BLUR = (0.01, 0.075)  # the camera's softness: sigma as a share of the index's length, camera pixels
CAMERA_SQUEEZED = 0.7  # share of frames resized to a square without keeping their aspect


def webcam_crop(rng: np.random.Generator, deck: Deck, code: str, background: np.ndarray,
                side: int = CROP, blur: tuple[float, float] = BLUR, way_up: bool = False):
    """One index of ``code`` (either corner) cut from a webcam-like frame: (side, side, 3) BGR.
    ``blur``: the range of the defocus's sigma, frame pixels (capped by the index's length).
    ``way_up``: also the way the index's top faces in the crop (:func:`way_up_degrees`)."""
    face, (x1, y1, x2, y2) = _index(rng, deck, code)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    length = rng.uniform(*LENGTH)
    k = length / max(x2 - x1, y2 - y1)
    squeeze = rng.uniform(*SQUEEZE) if rng.random() < SQUEEZED else 1.0
    frame = background.shape[0]
    turn = np.vstack([cv2.getRotationMatrix2D((cx, cy), rng.uniform(0, 360), k), [0, 0, 1]])
    move = np.array([[1, 0, frame / 2 - cx], [0, 1, frame / 2 - cy], [0, 0, 1]])
    m = (np.diag([squeeze, 1.0, 1.0]) @ move @ turn)[:2]
    # about the frame's centre, so the index stays in view: squeeze x around frame / 2
    m[0, 2] += frame / 2 * (1 - squeeze)
    img = _lay(face, m, k, background)
    corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]]) @ m.T
    img = _webcam(rng, img, blur, length * BLUR_PER_LENGTH)
    crop = _cut(rng, img, corners, side)
    return (crop, way_up_degrees(m[:, :2], face, (x1, y1, x2, y2))) if way_up else crop


def _webcam(rng: np.random.Generator, img: np.ndarray, blur: tuple[float, float] = BLUR,
            most_blur: float = np.inf) -> np.ndarray:
    """Defocus, dim and washed-out light, noise, salt and pepper, JPEG: float BGR -> uint8."""
    if rng.random() < BLURRED:
        img = cv2.GaussianBlur(img, (0, 0), min(rng.uniform(*blur), most_blur))
    if rng.random() < 0.3:  # a webcam's sharpening: halos round the ink
        soft = cv2.GaussianBlur(img, (0, 0), 1.5)
        img = img + (img - soft) * rng.uniform(0.3, 1.2)
    img = _light(rng, img, (0.5, 1.1), (1, 10))
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        _salt_and_pepper(rng, img, rng.uniform(0.001, 0.01))
    return _jpeg(rng, img, (40, 92))


def camera_crop(rng: np.random.Generator, deck: Deck, code: str, background: np.ndarray,
                side: int = CROP, blur: tuple[float, float] = CAMERA_BLUR, way_up: bool = False):
    """One index of ``code`` (either corner) as a webcam frame stretched to a square shows it:
    (side, side, 3) BGR. ``blur``: the range of the camera's softness, a sigma as a share of
    the index's length at the camera's resolution. ``way_up``: also the way the index's top
    faces in the crop (:func:`way_up_degrees`).

    Unlike :func:`webcam_crop`, the softness, the webcam's sharpening, the noise and a first
    JPEG happen at the camera's resolution, and only then is the frame shrunk, unevenly when it
    is squeezed (a 16:9 frame made square), then lightly blurred, salted and JPEG'd again as an
    image set's export does. So the camera's blur ends up longest along the frame's height, not
    round. Why: a club index made so reads as a spade far more often than a spade as a club,
    which is how the WIN photos' clubs fail, while with the webcam look (:func:`webcam_crop`)
    clubs and spades are rarely confused either way; Kennard's standard clubs fail most.
    """
    face, (x1, y1, x2, y2) = _index(rng, deck, code)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    scale = rng.uniform(*CAMERA_SCALE)
    length = rng.uniform(*LENGTH) * scale  # the index's longer side in camera pixels
    k = length / max(x2 - x1, y2 - y1)
    frame = int(length * 3)
    turn = np.vstack([cv2.getRotationMatrix2D((cx, cy), rng.uniform(0, 360), k), [0, 0, 1]])
    move = np.array([[1, 0, frame / 2 - cx], [0, 1, frame / 2 - cy], [0, 0, 1]])
    m = (move @ turn)[:2]
    img = _lay(face, m, k, cv2.resize(background, (frame, frame)).astype(np.float32))
    # at the camera's resolution: softness, sharpening halos, light, noise, JPEG
    img = cv2.GaussianBlur(img, (0, 0), max(rng.uniform(*blur) * length, 0.3))
    if rng.random() < 0.5:
        soft = cv2.GaussianBlur(img, (0, 0), length / 40)
        img = img + (img - soft) * rng.uniform(0.5, 1.5)
    img = _light(rng, img, (0.5, 1.0), (2, 8))
    img = _jpeg(rng, np.clip(img, 0, 255).astype(np.uint8), (60, 92))
    # the frame made square: shrunk by ``scale``, across by ``squeeze`` more
    squeeze = rng.uniform(*SQUEEZE) if rng.random() < CAMERA_SQUEEZED else 1.0
    w, h = max(1, round(frame * squeeze / scale)), max(1, round(frame / scale))
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    # the image set's export: a little blur, light, salt and pepper, JPEG
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0))
    img = np.clip(img.astype(np.float32) * rng.uniform(0.8, 1.2), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        _salt_and_pepper(rng, img, rng.uniform(0.001, 0.01))
    img = _jpeg(rng, img, (70, 95))
    corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]]) @ m.T * [w / frame, h / frame]
    crop = _cut(rng, img, corners, side)
    if not way_up:
        return crop
    return crop, way_up_degrees(np.diag([w / frame, h / frame]) @ m[:, :2], face, (x1, y1, x2, y2))


def way_up_degrees(linear: np.ndarray, face: np.ndarray, box: tuple[float, ...]) -> float:
    """Which way the top of the index ``box`` of ``face`` faces once the face is mapped by the
    2x2 ``linear`` part of its warp (turn, scale, squeeze): degrees anticlockwise from the
    image's up, in [0, 360) (0 upright, 90 its top to the left, 180 upside down). An index in
    the face's upper half is upright on the face, one in its lower half turned half a turn
    (the card's other corner; a deck with four indices has two of each)."""
    upright = (box[1] + box[3]) / 2 < face.shape[0] / 2
    vx, vy = np.asarray(linear, np.float64) @ np.array([0.0, -1.0 if upright else 1.0])
    return float(np.degrees(np.arctan2(-vx, -vy)) % 360)


def _index(rng: np.random.Generator, deck: Deck, code: str) -> tuple[np.ndarray, tuple[float, ...]]:
    """The face of ``code`` and one of its index boxes (x1, y1, x2, y2), drawn. ``code`` may be
    one of the deck's jokers ("joker_black", "joker_red"): then a box of its corner marks."""
    if code in deck.jokers:
        face, boxes = deck.jokers[code], deck.joker_boxes[code]
    else:
        face, boxes = deck.faces[code], deck.index_boxes[code]
    return face, tuple(float(v) for v in boxes[int(rng.integers(len(boxes)))])


def _lay(face: np.ndarray, m: np.ndarray, k: float, table: np.ndarray) -> np.ndarray:
    """The RGBA ``face`` warped by ``m`` (scale ``k``) onto the square float BGR ``table``."""
    frame = table.shape[0]
    warped = cv2.warpAffine(face, m, (frame, frame), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:4].astype(np.float32) / 255
    return cv2.cvtColor(warped, cv2.COLOR_RGBA2BGR).astype(np.float32) * alpha + table * (1 - alpha)


def _light(rng: np.random.Generator, img: np.ndarray, gain: tuple[float, float], noise: tuple[float, float]
           ) -> np.ndarray:
    """Dim and washed-out light (a gain drawn from ``gain``), faded colour, white balance, and
    sensor noise of a strength drawn from ``noise``: float BGR -> float BGR."""
    img = img * rng.uniform(*gain) + rng.uniform(0, 60)
    grey = img.mean(2, keepdims=True)
    img = grey + (img - grey) * rng.uniform(0.2, 1.0)
    img = img * rng.normal(1, 0.05, 3).astype(np.float32)  # white balance
    return img + rng.standard_normal(img.shape, dtype=np.float32) * rng.uniform(*noise)


def _cut(rng: np.random.Generator, img: np.ndarray, corners: np.ndarray, side: int) -> np.ndarray:
    """The crop the reader would cut from a detector's box round ``corners``: a little off."""
    bx1, by1 = corners.min(0)
    bx2, by2 = corners.max(0)
    w, h = bx2 - bx1, by2 - by1
    jx, jy = rng.normal(0, 0.07, 2) * (w, h)
    s = rng.uniform(0.9, 1.12)
    mx, my = (bx1 + bx2) / 2 + jx, (by1 + by2) / 2 + jy
    return crop_square(img, (mx - w * s / 2, my - h * s / 2, mx + w * s / 2, my + h * s / 2), side)


def _jpeg(rng: np.random.Generator, img: np.ndarray, quality: tuple[int, int]) -> np.ndarray:
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.uniform(*quality))])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else img


def _salt_and_pepper(rng: np.random.Generator, img: np.ndarray, amount: float) -> None:
    u = rng.random(img.shape[:2], dtype=np.float32)
    img[u < amount / 2] = 0
    img[u > 1 - amount / 2] = 255


LOOKS = {"webcam": (webcam_crop, BLUR), "camera": (camera_crop, CAMERA_BLUR)}

_STATE: dict = {}


def _init(deck_names: list[str], procedural: list[int], per_shard: int | None) -> None:
    from datasets.decks import load_deck

    cv2.setNumThreads(1)
    _STATE["real"] = [load_deck(n) for n in deck_names]
    _STATE["procedural"] = [] if per_shard else _procedural(procedural)
    _STATE["backgrounds"] = Backgrounds()


def _procedural(seeds: list[int]) -> list[Deck]:
    from datasets.decks import procedural_deck

    return [procedural_deck(s) for s in seeds]


def shard_seeds(procedural: list[int], per_shard: int | None, shard: int) -> list[int]:
    """The procedural seeds shard number ``shard`` draws from: all of them, or (``per_shard``)
    the next ``per_shard`` of the list, round it, so that the shards together use every seed."""
    if not per_shard or per_shard >= len(procedural):
        return list(procedural)
    return [procedural[(shard * per_shard + j) % len(procedural)] for j in range(per_shard)]


def _shard(args: tuple) -> int:
    out, split, shard, start, stop, seed, side, procedural, per_shard, share, blur, look, suits, jokers = args
    crop = LOOKS[look][0]
    codes = [c for c in CODES if c[-1] in suits]
    real, backgrounds = _STATE["real"], _STATE["backgrounds"]
    drawn = _procedural(shard_seeds(procedural, per_shard, shard)) if per_shard else _STATE["procedural"]
    everything = real + drawn  # every deck alike, unless a share is asked for
    xs, ys, ups = [], [], []
    for i in range(start, stop):
        rng = np.random.default_rng([seed, i])
        decks = everything
        if share is not None and real and drawn:
            decks = drawn if rng.random() < share else real
        deck = decks[int(rng.integers(len(decks)))]
        code = codes[int(rng.integers(len(codes)))]
        label = CODES.index(code)
        if jokers and rng.random() < jokers:  # a joker's corner, "no index" (drawn only when asked: seeds keep)
            with_jokers = [d for d in decks if d.jokers] or [d for d in everything if d.jokers]
            if with_jokers:
                deck = with_jokers[int(rng.integers(len(with_jokers)))]
                names = sorted(deck.jokers)
                code, label = names[int(rng.integers(len(names)))], NO_INDEX
        background = backgrounds.sample(rng, 160)
        x, up = crop(rng, deck, code, background, side, blur, way_up=True)
        xs.append(x)
        ys.append(label)
        ups.append(up)
    np.savez_compressed(Path(out) / f"{split}-{shard:04d}.npz", x=np.stack(xs), y=np.array(ys, np.int16),
                        up=np.array(ups, np.float32))
    return stop - start


def build(out: Path, n: int, seed: int, *, deck_names: list[str], procedural: int | list[int] = 0,
          side: int = CROP, val_fraction: float = 0.05, workers: int = 2, per_shard: int | None = None,
          procedural_share: float | None = None, blur: tuple[float, float] | None = None,
          look: str = "webcam", suits: str = "SHDC", jokers: float = 0.0) -> None:
    """``n`` crops (a ``val_fraction`` of them for validation) in shards under ``out``.

    ``procedural``: a number N of procedural decks (seeds 0..N-1) or a list of seeds. With
    ``per_shard``, each shard builds only that many of them (see :func:`shard_seeds`). With
    ``procedural_share``, that share of crops comes from procedural decks, the rest from the real
    designs; without it every deck is as likely as another. ``look``: ``webcam``
    (:func:`webcam_crop`) or ``camera`` (:func:`camera_crop`); ``blur``: its blur range (by
    default the look's own: sigmas in frame pixels for ``webcam``, shares of the index's
    length for ``camera``). ``suits``: the suits drawn (e.g. "SC", the black ones, for the
    suit reader of ``models/suit.py``); with all four, the crops are as before. ``jokers``: the
    share of crops cut from a joker's corner (``datasets.jokers``) and labelled "no index"
    (class 52), from the decks that have jokers; 0 (the default) draws none and keeps every
    seed's crops as before.
    """
    if look not in LOOKS:
        raise ValueError(f"unknown look {look!r}: one of {', '.join(LOOKS)}")
    blur = LOOKS[look][1] if blur is None else blur
    if n < 1:
        raise ValueError("n must be at least 1")
    if not suits or set(suits) - set("SHDC"):
        raise ValueError(f"suits must be some of S, H, D, C, not {suits!r}")
    seeds = list(range(procedural)) if isinstance(procedural, int) else list(procedural)
    if not deck_names and not seeds:
        raise ValueError("no decks: fetch the real designs (`ginsight dataset --fetch`) or give --procedural")
    held_out = sorted(HELD_OUT_SEEDS & set(seeds))
    if held_out:
        raise ValueError(f"procedural seeds {held_out[0]}..{held_out[-1]} include decks held out for the benchmarks "
                         "(100-111, 200-319): train on others")
    if per_shard is not None and per_shard < 1:
        raise ValueError("decks per shard must be at least 1")
    if procedural_share is not None and not 0 <= procedural_share <= 1:
        raise ValueError("the procedural share must lie between 0 and 1")
    if not 0 <= jokers <= 1:
        raise ValueError("the jokers' share must lie between 0 and 1")
    if not 0 <= blur[0] <= blur[1]:
        raise ValueError(f"the blur range must be 0 <= A <= B, not {blur[0]}-{blur[1]}")
    if per_shard is not None and per_shard >= len(seeds):
        per_shard = None  # every shard would build them all: build them once per worker
    out.mkdir(parents=True, exist_ok=True)
    n_val = max(1, round(n * val_fraction)) if n > 1 else 0
    tasks, shard = [], 0
    for split, lo, hi in (("val", 0, n_val), ("train", n_val, n)):
        for start in range(lo, hi, SHARD):
            tasks.append((str(out), split, shard, start, min(start + SHARD, hi), seed, side, seeds, per_shard,
                          procedural_share, blur, look, suits, jokers))
            shard += 1
    done, t0 = 0, time.time()
    pool = None
    if workers <= 1:  # in this process: no fork (forking a process that runs threads can hang)
        _init(deck_names, seeds, per_shard)
        results = map(_shard, tasks)
    else:
        pool = ProcessPoolExecutor(workers, initializer=_init, initargs=(deck_names, seeds, per_shard))
        results = pool.map(_shard, tasks)
    try:
        for k in results:
            done += k
            print(f"\r{done}/{n} crops, {time.time() - t0:.0f} s", end="", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    print(file=sys.stderr)


def blur_range(text: str) -> tuple[float, float]:
    """"A-B" -> (A, B), sigmas in pixels, for ``--blur``."""
    try:
        lo, hi = (float(v) for v in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected A-B, two sigmas in pixels such as 0.4-3, not {text!r}") from None
    if not 0 <= lo <= hi:
        raise argparse.ArgumentTypeError(f"expected 0 <= A <= B, not {text!r}")
    return lo, hi


def main(argv: list[str] | None = None) -> None:
    from datasets.decks import fetched_decks, seed_range

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--procedural", type=int, default=24, help="procedural decks, seeds 0..N-1")
    parser.add_argument("--procedural-seeds", type=seed_range, metavar="A-B",
                        help="procedural decks of these seeds instead (keep 100-111 and 200-319 out: held out)")
    parser.add_argument("--decks-per-shard", type=int, help="each shard builds only this many procedural decks")
    parser.add_argument("--procedural-share", type=float, help="share of crops from procedural decks")
    parser.add_argument("--side", type=int, default=CROP, help="crop side, pixels (the classifier's)")
    parser.add_argument("--look", choices=list(LOOKS), default="webcam",
                        help="webcam: made at the frame's size; camera: at a webcam's resolution, then shrunk")
    parser.add_argument("--blur", type=blur_range, metavar="A-B",
                        help=f"the blur's range: for the webcam look a sigma in frame pixels (default "
                             f"{BLUR[0]}-{BLUR[1]}), for the camera look a share of the index's length "
                             f"(default {CAMERA_BLUR[0]}-{CAMERA_BLUR[1]})")
    parser.add_argument("--leave-out", action="append", default=[], metavar="DECK",
                        help="a real design kept out (e.g. to read it as unseen later); repeatable")
    parser.add_argument("--suits", default="SHDC", help="the suits drawn, e.g. SC for the suit reader (default SHDC)")
    parser.add_argument("--jokers", type=float, default=0.0,
                        help="share of crops cut from a joker's corner, labelled 'no index' (default 0)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    names = fetched_decks()
    unknown = sorted(set(args.leave_out) - set(names))
    if unknown:
        parser.error(f"--leave-out: no such real design: {', '.join(unknown)} (have: {', '.join(names)})")
    names = [n for n in names if n not in args.leave_out]
    build(args.out, args.n, args.seed, deck_names=names, procedural=args.procedural_seeds or args.procedural,
          side=args.side, workers=args.workers, per_shard=args.decks_per_shard,
          procedural_share=args.procedural_share, blur=args.blur, look=args.look, suits=args.suits.upper(),
          jokers=args.jokers)


if __name__ == "__main__":
    main()
