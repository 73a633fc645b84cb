"""The mirror check (``Settings.mirror_check``) on synthetic photos as they are and flipped
left-right: how many photos it reads flipped in full (its time), how many it would turn that
are not mirrored, how many mirrored ones it catches, and the cards missed / wrong each way, at
several ``mirror_least``, ``mirror_ask`` and ``mirror_gain`` values.

Every photo P (the first ``--photos`` validation photos of each set; synthetic photos are never
mirrored) and its flip F are read with the check off (``Reader.read(mirror=False)``), and
their detector boxes' odds taken (``Reader.mirror_odds``: as they lie, mirrored). At least m,
ask a and gain g the check reads P flipped (that is, F) when P's mirrored odds are m or more
and come within a of its own,
and keeps F's cards when their confidences sum more than g over P's; likewise F (its flip is
P). So one pass gives every value's outcome:

- ``asked``: photos as they are that the check reads flipped too (each costs a second read);
- ``turned``: photos as they are that it reports flipped (each a hand misread);
- ``caught``: mirrored photos (the flips) it reads flipped back;
- cards missed / wrong, as they are and mirrored, with the check and without it.

The time: the read's, the odds', and the flipped read's where asked, measured here per photo
(``time_ratio``: the check's reading of the photos as they are over the plain read's). A
side-by-side timing of the whole reader is ``reader_speed.py`` with ``reader.json``
``{"mirror_check": false}`` in one folder.

    python benchmarks/mirror_check.py --data data/synth2 --data data/showdown23 \\
        [--photos 200] [--skip 0] [--least 0.2] [--ask 0.05] [--gain 0] [--strong 0.4] \\
        [--records] [--json OUT]
    python benchmarks/mirror_check.py --from-records OUT [--least ...] [--strong ...] [--json OUT2]

``--strong`` (``mirror_strong``): the odds over the boxes read that surely as they lie or
mirrored (each box's two confidences are recorded). ``--records`` keeps each photo's reads in
the JSON, so that ``--from-records`` gives the outcomes at other values without reading again.
``--skip N`` reads each set's photos after its first N: fresh photos to check a choice on.
With several sets, the outcomes are also summed over them (``all``).

Diagnosis of real photos (``--data ../shared/real-dev``, validation only) reads them as they
are and flipped the same way; choose ``mirror_gain`` on synthetic photos.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.read_errors import truths_of  # noqa: E402
from vision.reader import Reader, asks_mirror, mirror_means  # noqa: E402

ASKS = (0.0, 0.05, 0.1, 0.2)
LEASTS = (0.1, 0.2, 0.3)
GAINS = (0.0,)
STRONGS = (0.0,)


def photo_record(reader: Reader, img: np.ndarray) -> dict:
    """One photo read with the check off: its codes, its odds (as it lies, mirrored), the times."""
    t0 = time.perf_counter()
    reading = reader.read(img, mirror=False)
    t1 = time.perf_counter()
    found, ways = reader._first_look_of(img)  # the detector's boxes the check weighs, as that read asked them
    t2 = time.perf_counter()
    as_is, mirrored = reader.mirror_confidences(img, found, ways)
    t3 = time.perf_counter()
    odds = mirror_means(as_is, mirrored)  # every box (mirror_strong 0)
    return {"codes": sorted(reading.codes()), "sum": sum(c.confidence for c in reading.cards),
            "odds": [round(v, 4) for v in odds],
            "boxes": [[round(float(a), 4), round(float(m), 4)] for a, m in zip(as_is, mirrored, strict=True)],
            "read_ms": (t1 - t0) * 1000, "odds_ms": (t3 - t2) * 1000}


def odds_of(read: dict, strong: float) -> tuple[float, float]:
    """A read's odds (as they lie, mirrored) over its boxes that read ``strong`` or more one way
    or the other (``Reader.mirror_odds`` at ``mirror_strong``); its recorded means at 0 or
    where the record has no boxes (a record of the first form)."""
    if strong <= 0 or "boxes" not in read:
        return tuple(read["odds"])
    boxes = np.array(read["boxes"], np.float64).reshape(-1, 2)
    return mirror_means(boxes[:, 0], boxes[:, 1], strong)


def outcome(records: list[dict], least: float, ask: float, gain: float, strong: float = 0.0) -> dict:
    """The check at ``least``, ``ask``, ``gain`` and ``strong`` over ``records`` (each a photo's
    truth and both reads)."""
    out = {"asked": 0, "turned": 0, "caught": 0, "missed": 0, "wrong": 0, "missed_mirrored": 0,
           "wrong_mirrored": 0, "ms": 0.0, "ms_off": 0.0}
    for r in records:
        truth, p, f = set(r["truth"]), r["as_is"], r["flipped"]
        p_odds, f_odds = odds_of(p, strong), odds_of(f, strong)
        ask_p, ask_f = asks_mirror(p_odds, least, ask), asks_mirror(f_odds, least, ask)
        turn_p = ask_p and f["sum"] > p["sum"] + gain
        turn_f = ask_f and p["sum"] > f["sum"] + gain
        codes_p = set(f["codes"] if turn_p else p["codes"])
        codes_f = set(p["codes"] if turn_f else f["codes"])
        out["asked"] += ask_p
        out["turned"] += turn_p
        out["caught"] += turn_f
        out["missed"] += len(truth - codes_p)
        out["wrong"] += len(codes_p - truth)
        out["missed_mirrored"] += len(truth - codes_f)
        out["wrong_mirrored"] += len(codes_f - truth)
        out["ms"] += p["read_ms"] + p["odds_ms"] + (f["read_ms"] if ask_p else 0.0)
        out["ms_off"] += p["read_ms"]
    out["time_ratio"] = out.pop("ms") / max(out.pop("ms_off"), 1e-9)
    return out


def measure(reader: Reader, folder: Path, photos: int | None, leasts: tuple[float, ...],
            asks: tuple[float, ...], gains: tuple[float, ...], strongs: tuple[float, ...] = (0.0,),
            skip: int = 0) -> dict:
    records = []
    for t in truths_of(folder, None if photos is None else skip + photos)[skip:]:
        img = cv2.imread(str(t.image))
        flipped = np.ascontiguousarray(img[:, ::-1])
        records.append({"image": t.image.name, "truth": sorted(t.codes),
                        "as_is": photo_record(reader, img), "flipped": photo_record(reader, flipped)})
    return summarise(records, leasts, asks, gains, strongs)


def summarise(records: list[dict], leasts: tuple[float, ...], asks: tuple[float, ...],
              gains: tuple[float, ...], strongs: tuple[float, ...] = (0.0,)) -> dict:
    """The check's outcome at every combination of the values over ``records``, and without it."""
    off = {"missed": sum(len(set(r["truth"]) - set(r["as_is"]["codes"])) for r in records),
           "wrong": sum(len(set(r["as_is"]["codes"]) - set(r["truth"])) for r in records),
           "missed_mirrored": sum(len(set(r["truth"]) - set(r["flipped"]["codes"])) for r in records),
           "wrong_mirrored": sum(len(set(r["flipped"]["codes"]) - set(r["truth"])) for r in records)}
    read_ms = [r["as_is"]["read_ms"] for r in records]
    odds_ms = [r["as_is"]["odds_ms"] for r in records]
    return {"photos": len(records), "cards": sum(len(r["truth"]) for r in records), "check_off": off,
            "by_value": {f"least {m} ask {a} gain {g}" + (f" strong {k}" if k else ""): outcome(records, m, a, g, k)
                         for m in leasts for a in asks for g in gains for k in strongs},
            "read_ms_mean": float(np.mean(read_ms)) if records else 0.0,
            "odds_ms_mean": float(np.mean(odds_ms)) if records else 0.0,
            "records": records}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", type=Path)
    ap.add_argument("--from-records", type=Path,
                    help="no reading: the outcomes again from a JSON this script wrote with --records")
    ap.add_argument("--photos", type=int, default=200)
    ap.add_argument("--weights", type=Path)
    ap.add_argument("--least", action="append", type=float, help=f"mirror_least values (default {LEASTS})")
    ap.add_argument("--ask", action="append", type=float, help=f"mirror_ask values (default {ASKS})")
    ap.add_argument("--gain", action="append", type=float, help=f"mirror_gain values (default {GAINS})")
    ap.add_argument("--strong", action="append", type=float,
                    help=f"mirror_strong values (default {STRONGS}): only boxes read so surely either way count")
    ap.add_argument("--skip", type=int, default=0,
                    help="leave out each set's first SKIP photos (fresh photos, to check a choice)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--records", action="store_true", help="each photo's reads and odds in the JSON too")
    a = ap.parse_args(argv)
    if bool(a.data) == bool(a.from_records):
        ap.error("give --data (one or more) or --from-records, not both")
    leasts = tuple(a.least) if a.least else LEASTS
    asks = tuple(a.ask) if a.ask else ASKS
    gains = tuple(a.gain) if a.gain else GAINS
    strongs = tuple(a.strong) if a.strong else STRONGS
    results = {}
    if a.from_records:
        saved_file = json.loads(a.from_records.read_text())
        weights, saved = saved_file.get("weights", "shipped"), saved_file["sets"]
        if any("records" not in res for res in saved.values()):
            ap.error(f"{a.from_records} holds no records (written without --records)")
        sets = [(name, lambda res=res: summarise(res["records"], leasts, asks, gains, strongs))
                for name, res in saved.items()]
    else:
        reader, weights = Reader(a.weights), str(a.weights or "shipped")
        sets = [(str(folder), lambda folder=folder: measure(reader, folder, a.photos, leasts, asks, gains, strongs,
                                                            a.skip)) for folder in a.data]
    every = []
    for folder, run in sets:
        res = run()
        results[folder] = res
        every += res["records"]
        off = res["check_off"]
        print(f"{folder}: {res['photos']} photos, {res['cards']} cards; check off: as they are "
              f"{off['missed']} / {off['wrong']} missed / wrong, mirrored {off['missed_mirrored']} / "
              f"{off['wrong_mirrored']}; a read {res['read_ms_mean']:.1f} ms, the odds {res['odds_ms_mean']:.1f} ms")
        for v, o in res["by_value"].items():
            print(f"  {v}: asked {o['asked']}, turned {o['turned']} as they are (time {o['time_ratio']:.3f}x), "
                  f"caught {o['caught']} mirrored; {o['missed']} / {o['wrong']} as they are, "
                  f"{o['missed_mirrored']} / {o['wrong_mirrored']} mirrored")
    if len(results) > 1:
        total = summarise(every, leasts, asks, gains, strongs)
        print(f"all {len(results)} sets: {total['photos']} photos, {total['cards']} cards")
        for v, o in total["by_value"].items():
            print(f"  {v}: asked {o['asked']}, turned {o['turned']}, caught {o['caught']}; {o['missed']} / "
                  f"{o['wrong']} as they are, {o['missed_mirrored']} / {o['wrong_mirrored']} mirrored")
        total.pop("records")
        results["all"] = total
    if a.json:
        if not a.records:
            for res in results.values():
                res.pop("records", None)
        a.json.write_text(json.dumps({"leasts": leasts, "asks": asks, "gains": gains, "strongs": strongs,
                                      "photos": a.photos, "skip": a.skip, "from_records": str(a.from_records or ""),
                                      "weights": weights, "sets": results}, indent=1))


if __name__ == "__main__":
    main()
