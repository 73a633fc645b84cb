"""Writing data sets: YOLO-labelled photos for the index detector, and index crops for the
card classifier. Deterministic from a seed (each image has its own seed, whatever the
number of workers), parallel, with a progress bar.

Layout written under OUT::

    images/{train,val}/NNNNNN.jpg   labels/{train,val}/NNNNNN.txt   data.yaml
    crops/{train,val}-SSS.npz       (x: uint8 BGR (N, C, C, 3), y: int16 card class, 52 = no index;
                                     C = ``crop``, 32 pixels unless asked otherwise)

Label classes are the 52 cards in the engine's order (``CLASS_NAMES``); the detector is
trained on them as one class, the classifier reads the card.
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from datasets.backgrounds import Backgrounds
from datasets.decks import fetched_decks, load_deck, procedural_deck
from datasets.scenes import KINDS, Scene, make_scene, quad_way_up, unknown_kinds
from engine.cards import CODES
from vision.classify import NONE_CLASS
from vision.crops import CROP, crop_square
from vision.evaluate import iou

CLASS_NAMES = list(CODES)  # class id = the engine's card number, suit * 13 + rank
CLASS_ID = {name: i for i, name in enumerate(CLASS_NAMES)}
SHARD = 200  # images per worker task
# The chance that a photo has a joker among its cards, drawn from a stream of its own (seed,
# image, JOKER_STREAM) so that the other photos are those the seed gives without jokers.
JOKERS = 0.15
JOKER_STREAM = 7919
# The chance that a photo of cards held up is backlit (scenes._backlit), drawn from a stream of
# its own likewise: 0 writes the photos the seed gives with no backlight.
BACKLIT = 0.25
LIGHT_STREAM = 7927
# The chance that a photo of cards held up is seen by a webcam in a lit room
# (scenes._room_webcam; never backlit then), from a stream of its own likewise: 0, the default,
# writes the photos the seed gave before the look existed.
ROOM_WEBCAM = 0.0
ROOM_STREAM = 7933

_STATE: dict = {}


def _init(deck_names: list[str], procedural: int, height: int, kinds: tuple[str, ...] | None = None,
          jokers: float = 0.0, backlit: float = 0.0, procedural_from: int = 0, room_webcam: float = 0.0) -> None:
    cv2.setNumThreads(1)
    _STATE["kinds"] = kinds
    _STATE["jokers"] = jokers
    _STATE["backlit"] = backlit
    _STATE["room_webcam"] = room_webcam
    decks = [load_deck(n, height=height) for n in deck_names]
    decks += [procedural_deck(seed, height=height) for seed in range(procedural_from, procedural_from + procedural)]
    _STATE["decks"] = decks
    _STATE["backgrounds"] = Backgrounds()


def _crops(rng: np.random.Generator, scene: Scene, crop: int = CROP,
           per_scene_negatives: int = 3) -> tuple[list, list, list]:
    """The scene's index crops (each index twice, boxed a little off as a detector would box
    it; a joker's corner marks as "no index") and a few "no index" crops of what lies between;
    their classes; and the way each index's top faces in its crop (``scenes.quad_way_up``;
    0 for the crops between), by which the classifier and the suit reader learn them turned
    upright."""
    image = scene.image
    xs, ys, ups = [], [], []
    boxes = []
    for label in scene.labels + scene.jokers:  # a joker's corner marks: "no index"
        x1, y1, x2, y2 = label.box
        w, h = x2 - x1, y2 - y1
        boxes.append(label.box)
        up = quad_way_up(label.quad)
        for _ in range(2):  # as a detector would box it: a little off
            jx, jy = rng.normal(0, 0.07, 2) * (w, h)
            k = rng.uniform(0.9, 1.12)
            cx, cy = (x1 + x2) / 2 + jx, (y1 + y2) / 2 + jy
            box = (cx - w * k / 2, cy - h * k / 2, cx + w * k / 2, cy + h * k / 2)
            xs.append(crop_square(image, box, crop))
            ys.append(CLASS_ID.get(label.card, NONE_CLASS))
            ups.append(up)
    size = image.shape[0]
    sides = [max(b[2] - b[0], b[3] - b[1]) for b in boxes] or [size * 0.05]
    for _ in range(per_scene_negatives):
        side = float(rng.choice(sides)) * rng.uniform(0.7, 1.5)
        cx, cy = rng.uniform(0, size, 2)
        box = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
        if any(iou(box, b) > 0.1 for b in boxes):
            continue
        xs.append(crop_square(image, box, crop))
        ys.append(NONE_CLASS)
        ups.append(0.0)
    return xs, ys, ups


def yolo_lines(scene: Scene) -> list[str]:
    size_y, size_x = scene.image.shape[:2]
    lines = []
    for label in scene.labels:
        x1, y1, x2, y2 = label.box
        cx, cy = (x1 + x2) / 2 / size_x, (y1 + y2) / 2 / size_y
        w, h = (x2 - x1) / size_x, (y2 - y1) / size_y
        lines.append(f"{CLASS_ID[label.card]} {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}")
    return lines


def _task(args: tuple) -> tuple[int, int]:
    out, split, start, stop, seed, size, shard_id, crops, crop = args
    images = Path(out) / "images" / split
    labels = Path(out) / "labels" / split
    xs: list = []
    ys: list = []
    ups: list = []
    n_labels = 0
    kinds = _STATE.get("kinds")
    for i in range(start, stop):
        rng = np.random.default_rng([seed, i])
        kind = kinds[int(rng.integers(len(kinds)))] if kinds else None  # else by scenes.KINDS' shares
        scene = make_scene(rng, _STATE["decks"], _STATE["backgrounds"], size, kind,
                           jokers=_STATE["jokers"], joker_rng=np.random.default_rng([seed, i, JOKER_STREAM]),
                           backlit=_STATE["backlit"],
                           light_rng=np.random.default_rng([seed, i, LIGHT_STREAM]),
                           room_webcam=_STATE["room_webcam"],
                           room_rng=np.random.default_rng([seed, i, ROOM_STREAM]))
        name = f"{i:06d}"
        cv2.imwrite(str(images / f"{name}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        lines = yolo_lines(scene)
        (labels / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        n_labels += len(lines)
        if crops:
            cx, cy, cu = _crops(rng, scene, crop)
            xs += cx
            ys += cy
            ups += cu
    if crops and xs:
        np.savez_compressed(Path(out) / "crops" / f"{split}-{shard_id:04d}.npz", x=np.stack(xs),
                            y=np.array(ys, np.int16), up=np.array(ups, np.float32))
    return stop - start, n_labels


def build(out: Path, n: int, seed: int, *, size: int = 640, val_fraction: float = 0.1, workers: int | None = None,
          decks: list[str] | None = None, procedural: int = 12, height: int = 320, crops: bool = True,
          crop: int = CROP, progress: bool = True, val_only: bool = False, kinds: list[str] | None = None,
          jokers: float = JOKERS, backlit: float = BACKLIT, procedural_from: int = 0,
          room_webcam: float = ROOM_WEBCAM) -> dict:
    """Write ``n`` synthetic photos (and crops, ``crop`` pixels square) under ``out``; returns a
    summary. The photos and labels depend on the seed alone: the same seed with another ``crop``
    gives the same photos and crops of the same boxes at another resolution. ``val_only``: only
    the validation share of the ``n`` (the same photos as in the whole set), e.g. to benchmark
    on a set without writing its training photos again. ``kinds``: only these scene kinds
    (``scenes.KINDS``), each as likely, e.g. a set of held-up cards alone; by default every kind
    at its share. ``jokers``: the chance that a photo has one of its deck's jokers among its
    cards, unlabelled (``scenes.make_scene``); 0 writes the seed's photos with no joker in any.
    ``backlit``: the chance that a photo of cards held up is backlit (``scenes._backlit``); 0
    writes the seed's photos with none backlit.
    ``room_webcam``: the chance that a photo of cards held up is seen by a webcam in a lit room
    (``scenes._room_webcam``: bright, contrasted and warm, a single card 0.15-0.45 of the frame
    high; never backlit); 0 writes the seed's photos with none so.
    ``procedural_from``: the first procedural deck's seed (decks ``procedural_from`` to
    ``procedural_from + procedural - 1``), e.g. 200 for decks no training set has, with
    ``decks=[]`` for photos of unseen decks alone."""
    if not 0 <= jokers <= 1:
        raise ValueError(f"the jokers' chance must lie between 0 and 1, not {jokers}")
    if not 0 <= backlit <= 1:
        raise ValueError(f"the backlit chance must lie between 0 and 1, not {backlit}")
    if not 0 <= room_webcam <= 1:
        raise ValueError(f"the room-lit webcam's chance must lie between 0 and 1, not {room_webcam}")
    if not 8 <= crop <= 256:
        raise ValueError(f"crop side must be 8 to 256 pixels, not {crop}")
    unknown = unknown_kinds(kinds)
    if unknown:
        raise ValueError(f"unknown scene kind(s) {', '.join(unknown)}: {', '.join(KINDS)}")
    out = Path(out)
    deck_names = decks if decks is not None else fetched_decks()
    if not deck_names and procedural < 1:
        raise ValueError("no decks to draw: name some, or add procedural ones")
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    (out / "crops").mkdir(exist_ok=True)
    n_val = max(1, round(n * val_fraction)) if n > 1 else 0
    tasks = _tasks(str(out), n_val, n, seed, size, crops, crop)
    if val_only:
        tasks = [t for t in tasks if t[1] == "val"]
    total = n_val if val_only else n
    workers = workers or max(1, (os.cpu_count() or 2))
    t0 = time.time()
    done = labels = 0
    initargs = (deck_names, procedural, height, tuple(kinds) if kinds else None, jokers, backlit, procedural_from,
                room_webcam)
    if workers == 1:
        _init(*initargs)
        results = map(_task, tasks)
    else:
        pool = ProcessPoolExecutor(workers, initializer=_init, initargs=initargs)
        results = pool.map(_task, tasks)
    for count, n_labels in results:
        done += count
        labels += n_labels
        if progress:
            rate = done / max(time.time() - t0, 1e-6)
            bar = "#" * int(30 * done / total)
            sys.stderr.write(f"\r[{bar:<30}] {done}/{total} images, {labels} labels, {rate:.1f} img/s")
            sys.stderr.flush()
    if workers != 1:
        pool.shutdown()
    if progress:
        sys.stderr.write("\n")
    (out / "data.yaml").write_text(
        "# ginsight synthetic corner indices (datasets/build.py)\n"
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\n"
        f"names: {json.dumps(CLASS_NAMES)}\n"
    )
    summary = {"images": total, "val": n_val, "labels": labels, "seed": seed, "size": size, "decks": deck_names,
               "procedural_decks": procedural, **({"procedural_from": procedural_from} if procedural_from else {}),
               **({"kinds": list(kinds)} if kinds else {}), "jokers": jokers,
               "backlit": backlit, "room_webcam": room_webcam, "crop": crop if crops else None,
               "seconds": round(time.time() - t0, 1)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def _tasks(out: str, n_val: int, n: int, seed: int, size: int, crops: bool, crop: int = CROP) -> list[tuple]:
    """Work units: runs of image numbers, each written by one worker (and one crop shard)."""
    tasks = []
    shard = 0
    step = SHARD if n >= 4 * SHARD else max(1, n // 8)
    for split, lo, hi in (("val", 0, n_val), ("train", n_val, n)):
        for start in range(lo, hi, step):
            tasks.append((out, split, start, min(start + step, hi), seed, size, shard, crops, crop))
            shard += 1
    return tasks
