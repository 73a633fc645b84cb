"""The guess at a photo that reads no card (``Settings.empty_min_card``, ``empty_det_conf``) on
synthetic photos with their labels, and on photos of no card (procedural tables and rooms):
what it adds, right and wrong, at each value.

Each photo (the first ``--photos`` validation photos of each set, after ``--skip``) is read
with the guess off. Only a photo that reads no card is then guessed at, once for each pair of
values (``Reader.guess``, exactly what ``Reader.read`` does there), so one pass gives every
value's outcome:

- ``missed`` / ``wrong``: the sets' cards missed and read wrong, with the guess at that value
  (``off``: without it);
- ``phantoms``: cards guessed on the photos of no card (each a wrong card);
- ``guessed``: photos that the guess ran on (each costs a second read, ``guess_ms_mean``).

    python benchmarks/empty_guess.py --data data/held20 --data data/single60 [--photos 300]
        [--skip 0] [--empty 300] [--min 0.3 --min 0.4] [--det 0.05] [--json OUT]

Diagnosis of real photos (``--data ../shared/real-dev``, validation only) reads them the same
way; choose the values on synthetic photos.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.read_errors import truths_of  # noqa: E402
from benchmarks.reader_speed import empty_photos  # noqa: E402
from vision.reader import Reader  # noqa: E402

MINS = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
DETS = (0.05,)


def value_key(least: float, det: float) -> str:
    return f"min {least} det {det}"


def guessers(reader: Reader, mins: tuple[float, ...], dets: tuple[float, ...]) -> dict[str, Reader]:
    """A reader for each pair of values, sharing ``reader``'s networks."""
    out = {}
    for d in dets:
        for m in mins:
            view = copy.copy(reader)
            view.settings = replace(reader.settings, empty_min_card=m, empty_det_conf=d)
            out[value_key(m, d)] = view
    return out


def photo_record(reader: Reader, views: dict[str, Reader], img: np.ndarray, truth: list[str]) -> dict:
    """One photo read with the guess off (``reader``), and where it reads no card, each view's
    guess: [code, confidence] or None."""
    t0 = time.perf_counter()
    reading = reader.read(img)
    record = {"truth": sorted(truth), "codes": sorted(reading.codes()), "read_ms": (time.perf_counter() - t0) * 1000}
    if not reading.cards:
        record["guesses"], ms = {}, []
        for key, view in views.items():
            t0 = time.perf_counter()
            cards, _, _ = view.guess(img)
            ms.append((time.perf_counter() - t0) * 1000)
            record["guesses"][key] = [cards[0].card, round(cards[0].confidence, 4)] if cards else None
        record["guess_ms"] = float(np.mean(ms))
    return record


def outcome(records: list[dict], key: str | None) -> dict:
    """Cards missed / wrong over ``records`` with the guess at ``key`` (None: off), and the
    cards it added right and wrong."""
    missed = wrong = right_added = wrong_added = 0
    for r in records:
        codes = set(r["codes"])
        guess = r.get("guesses", {}).get(key) if key else None
        if guess:
            codes.add(guess[0])
            right_added += guess[0] in r["truth"]
            wrong_added += guess[0] not in r["truth"]
        missed += len(set(r["truth"]) - codes)
        wrong += len(codes - set(r["truth"]))
    return {"missed": missed, "wrong": wrong, "added_right": right_added, "added_wrong": wrong_added,
            "cost": missed + 2.5 * wrong}


def summarise(records: list[dict], keys: list[str]) -> dict:
    guessed = [r for r in records if "guesses" in r]
    return {"photos": len(records), "cards": sum(len(r["truth"]) for r in records), "guessed": len(guessed),
            "off": outcome(records, None), "by_value": {k: outcome(records, k) for k in keys},
            "read_ms_mean": float(np.mean([r["read_ms"] for r in records])) if records else 0.0,
            "guess_ms_mean": float(np.mean([r["guess_ms"] for r in guessed])) if guessed else 0.0}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", type=Path, default=[])
    ap.add_argument("--photos", type=int, default=300)
    ap.add_argument("--skip", type=int, default=0, help="leave out each set's first SKIP photos")
    ap.add_argument("--empty", type=int, default=0, help="also this many photos of no card")
    ap.add_argument("--min", action="append", type=float, help=f"empty_min_card values (default {MINS})")
    ap.add_argument("--det", action="append", type=float, help=f"empty_det_conf values (default {DETS})")
    ap.add_argument("--weights", type=Path)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    if not a.data and not a.empty:
        ap.error("give --data (one or more) or --empty N")
    reader = Reader(a.weights)
    reader.settings = replace(reader.settings, empty_min_card=0.0)  # the guess off for the first read
    views = guessers(reader, tuple(a.min or MINS), tuple(a.det or DETS))
    keys = list(views)
    results, every = {}, []
    # each set's photos read one at a time (a list of them all held about 1.2 MB a photo)
    sets = [(str(folder), ((cv2.imread(str(t.image)), sorted(t.codes))
                           for t in truths_of(folder, a.skip + a.photos)[a.skip:])) for folder in a.data]
    if a.empty:
        sets.append((f"no card ({a.empty})", ((img, []) for img in empty_photos(a.empty, seed=60))))
    for name, photos in sets:
        records = [photo_record(reader, views, img, truth) for img, truth in photos]
        res = summarise(records, keys)
        results[name] = res
        if not name.startswith("no card"):
            every += records
        off = res["off"]
        print(f"{name}: {res['photos']} photos, {res['cards']} cards, {res['guessed']} read none; off "
              f"{off['missed']} / {off['wrong']} missed / wrong; a read {res['read_ms_mean']:.1f} ms, "
              f"a guess {res['guess_ms_mean']:.1f} ms")
        for k, o in res["by_value"].items():
            print(f"  {k}: {o['missed']} / {o['wrong']} (added {o['added_right']} right, {o['added_wrong']} wrong)")
    if len(a.data) > 1:
        total = summarise(every, keys)
        results["all labelled"] = total
        print(f"all labelled sets: {total['photos']} photos, {total['cards']} cards, {total['guessed']} read none; "
              f"off {total['off']['missed']} / {total['off']['wrong']}")
        for k, o in total["by_value"].items():
            print(f"  {k}: {o['missed']} / {o['wrong']} (added {o['added_right']} right, {o['added_wrong']} wrong)")
    if a.json:
        a.json.write_text(json.dumps({"weights": str(a.weights or "shipped"), "photos": a.photos, "skip": a.skip,
                                      "sets": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
