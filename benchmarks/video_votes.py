"""Rules for the live video's vote, side by side on the same frames: how soon each shows a hand
put in view and drops the one taken away, how many cards it misses or gets wrong on a still hand,
and how much it flickers.

A stream is made from each synthetic validation set (never ``../shared/real-dev``): its photos
one after another, ``--frames`` frames each (16 by default: a hand held about 1.3 s at 12 frames a
second), each photo's middle 16:9 part at 1280x720, every frame moved a little and through the
webcam's JPEG as in ``benchmarks/video_looks.py``. The stream is read once by the shipped
:class:`vision.video.StableReader` (its looks on one frame in four, its closer look on one in
four, as live); each frame's reading is kept, and every rule votes over the same readings, so
the rules differ only in their vote. Rules (``--rules``, comma-separated):

- ``count:S`` (the rule before session 40 at S 0.5): a card is shown when it was read in at
  least a share S of the window's frames (``StableReader.push`` with decay 1 and keep S);
- ``conf:T``: when its confidences, summed over the window and divided by the window's frames,
  reach T (a sure card needs fewer frames, a doubtful one more);
- ``decay:D:S`` and ``decayconf:D:S``: each frame weighted D to the power of its age (the newest 1),
  a card shown when its weighted count (or weighted confidence) reaches a share S of the weights;
- ``hyst:A:B``: shown when read in a share A of the window, kept until it falls below a share B;
  ``dhyst:D:A:B`` the same with each frame weighted D to the power of its age (shipped in
  session 40 at 0.8:0.6:0.25: ``StableReader``'s defaults).

A rule followed by ``@T`` votes on each frame's cards of confidence T or more: with the
stream read at a lower ``--min-card`` (the reader's threshold for a card), the rule at the
threshold T (the reader's other steps, its choice among looks for one, still saw the cards under
T, so this stands for a read at T, not the same to a card).

``--keep FILE`` writes each frame's reading (codes, confidences to 4 decimals, flags), the cards
in view and the photo it shows; ``--reads FILE`` votes on such a file instead of reading again (the rules alone,
in seconds).

Counted per photo (a segment of ``--frames`` frames) against the cards in view:

- ``follow``: cards missed / wrong summed over the segments, frame by frame after the hand came
  into view (the first photo of each set left out: no hand before it). The old hand's cards still
  shown are wrong ones here;
- ``steady``: missed / wrong summed over the frames after the window has only the new hand's
  frames in it (frames ``window``+1 to ``--frames``), and at the segment's last frame;
- ``flicker``: cards that appear or vanish from one frame to the next in those steady frames.

    python benchmarks/video_votes.py --data data/synth2 --data data/held20 --photos 100 \\
        [--frames 16] [--window 8] [--rules count:0.5,conf:0.4,decay:0.8:0.5] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import machine, report  # noqa: E402
from benchmarks.settings_sweep import banded_truth  # noqa: E402
from benchmarks.video_looks import BAND, clip  # noqa: E402
from vision.evaluate import synthetic_validation  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.types import CardRead, Reading  # noqa: E402
from vision.video import StableReader  # noqa: E402

DEFAULT_RULES = ("count:0.5,count:0.375,count:0.625,conf:0.3,conf:0.35,conf:0.4,conf:0.45,"
                 "decay:0.8:0.5,decay:0.7:0.5,decayconf:0.8:0.4,hyst:0.5:0.25,hyst:0.5:0.375,hyst:0.625:0.375,"
                 "dhyst:0.8:0.6:0.25,dhyst:0.8:0.55:0.35")


class Recorder(StableReader):
    """The shipped StableReader that also keeps each frame's own reading (the readings do not
    depend on the vote)."""

    def __init__(self, reader) -> None:
        super().__init__(reader)
        self.readings: list[Reading] = []

    def push(self, reading: Reading) -> Reading:
        self.readings.append(reading)
        return super().push(reading)


class Vote:
    """``StableReader``'s own vote (the count, decay and hysteresis rules): the cards it shows."""

    def __init__(self, window: int, share: float, decay: float = 1.0, keep: float | None = None) -> None:
        try:
            self.stable = StableReader(None, window=window, share=share, decay=decay, keep=keep)
        except ValueError as e:
            raise SystemExit(f"rule: {e}") from None

    def push(self, reading: Reading) -> set[str]:
        return {c.card for c in self.stable.push(reading).cards}


class Weighted:
    """The confidence rules: each frame weighted ``decay`` ** age (the newest 1; ``decay`` 1: all
    alike), each card read in it scoring that weight times its confidence (``conf``; without it,
    the weight alone, as ``StableReader`` counts); a card shown once its score reaches ``share``
    of the frames' weights."""

    def __init__(self, window: int, share: float, decay: float = 1.0, conf: bool = False) -> None:
        self.frames: deque[dict[str, float]] = deque(maxlen=window)
        self.share, self.decay, self.conf = share, decay, conf

    def push(self, reading: Reading) -> set[str]:
        self.frames.append({c.card: (c.confidence if self.conf else 1.0) for c in reading.cards})
        scores: dict[str, float] = {}
        total = 0.0
        for age, frame in enumerate(reversed(self.frames)):
            w = self.decay ** age
            total += w
            for code, v in frame.items():
                scores[code] = scores.get(code, 0.0) + w * v
        return {code for code, s in scores.items() if s >= self.share * total - 1e-9}


def floor_of(spec: str) -> tuple[str, float | None]:
    """``rule@T`` -> (rule, T): the rule votes on each frame's cards of confidence T or more."""
    rule, at, floor = spec.partition("@")
    if not at:
        return spec, None
    try:
        return rule, float(floor)
    except ValueError:
        raise SystemExit(f"rule {spec!r}: what follows @ must be a confidence") from None


def make_rule(spec: str, window: int):
    """A fresh voter for ``spec`` (see the module's doc; a ``@T`` floor is left to the caller)."""
    kind, *nums = floor_of(spec)[0].split(":")
    try:
        v = [float(n) for n in nums]
    except ValueError:
        raise SystemExit(f"rule {spec!r}: its parameters must be numbers") from None
    wants = {"count": 1, "conf": 1, "decay": 2, "decayconf": 2, "hyst": 2, "dhyst": 3}
    if kind not in wants or len(v) != wants[kind]:
        raise SystemExit(f"unknown rule {spec!r}: count:S, conf:T, decay:D:S, decayconf:D:S, hyst:A:B "
                         "or dhyst:D:A:B")
    if kind == "conf":
        return Weighted(window, v[0], conf=True)
    if kind == "decayconf":
        return Weighted(window, v[1], decay=v[0], conf=True)
    if kind == "count":
        return Vote(window, v[0])
    if kind == "decay":
        return Vote(window, v[1], decay=v[0])
    if kind == "hyst":
        return Vote(window, v[0], keep=v[1])
    return Vote(window, v[1], decay=v[0], keep=v[2])


def tally(shown: list[set[str]], wants: list[set[str]], segments: list[int], frames: int, window: int) -> dict:
    """The figures of one rule's shown cards over a stream (see the module's doc); steady from
    the frame after the ``window``-th of each photo."""
    follow = [[0, 0] for _ in range(frames)]
    steady = [0, 0]
    last = [0, 0]
    flicker = 0
    for i, (got, want) in enumerate(zip(shown, wants, strict=True)):
        k = i % frames  # the frame's place in its photo's segment
        missed, wrong = len(want - got), len(got - want)
        if segments[i] > 0:
            follow[k][0] += missed
            follow[k][1] += wrong
        if k >= window:
            steady[0] += missed
            steady[1] += wrong
            if k > window:
                flicker += len(got ^ shown[i - 1])
        if k == frames - 1:
            last[0] += missed
            last[1] += wrong
    return {"follow": follow, "steady": steady, "last_frame": last, "flicker": flicker}


def read_streams(args) -> dict[str, dict]:
    """Each set's stream read once by the shipped StableReader: per frame its reading's cards
    (code, confidence, flag), the cards in view, and which photo it shows."""
    reader = Reader(args.weights)
    if args.min_card is not None:
        reader.settings = replace(reader.settings, min_card=args.min_card)
    streams = {}
    seen = 0
    for data in args.data:
        size = json.loads((data / "summary.json").read_text())["size"]
        truths = synthetic_validation(data, args.skip + args.photos)[args.skip:]
        if not truths:
            raise SystemExit(f"no validation photos in {data}")
        recorder = Recorder(reader)
        wants: list[list[str]] = []
        segments: list[int] = []
        for n, t in enumerate(truths):
            want = sorted(banded_truth(t, size, BAND).codes)
            for f in clip(t.image, args.width, args.frames, args.seed + seen):
                recorder.update(f)
                wants.append(want)
                segments.append(n)
            seen += 1
            if seen % 20 == 0:
                print(f"{seen} photos read", file=sys.stderr, flush=True)
        streams[str(data)] = {
            "photos": len(truths), "cards": sum(len(w) for w in wants[::args.frames]),
            "reads": [[[c.card, round(c.confidence, 4), c.uncertain] for c in r.cards] for r in recorder.readings],
            "wants": wants, "segments": segments}
    return streams


def at_least(reading: Reading, floor: float) -> Reading:
    """The reading with only its cards of confidence ``floor`` or more."""
    return replace(reading, cards=tuple(c for c in reading.cards if c.confidence >= floor))


def as_reading(cards: list) -> Reading:
    return Reading(tuple(CardRead(code, conf, (), unsure) for code, conf, unsure in cards), 0.0, 0, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, action="append", help="a data set from `ginsight dataset`")
    parser.add_argument("--weights", type=Path, help="weights folder (default the shipped one)")
    parser.add_argument("--photos", type=int, default=100, help="validation photos of each set (default 100)")
    parser.add_argument("--skip", type=int, default=0, help="validation photos of each set left out first (default 0)")
    parser.add_argument("--frames", type=int, default=16, help="frames each photo is seen (default 16)")
    parser.add_argument("--window", type=int, default=8, help="frames the vote is taken over (default 8, as live)")
    parser.add_argument("--rules", default=DEFAULT_RULES, help="comma-separated rules (see above)")
    parser.add_argument("--width", type=int, default=1280, help="the frame's width (default 1280: 1280x720)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--steady-from", type=int,
                        help="count the steady figures after this many frames of a photo (default --window; "
                             "set it to the largest window when comparing windows)")
    parser.add_argument("--min-card", type=float,
                        help="read with this min_card (default the reader's own): a rule's @T floor then "
                             "stands for a higher one")
    parser.add_argument("--keep", type=Path, help="write each frame's reading to this file")
    parser.add_argument("--reads", type=Path, help="vote on a --keep file instead of reading")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    specs = list(dict.fromkeys(s.strip() for s in args.rules.split(",") if s.strip()))  # each rule once
    if args.window < 1:
        raise SystemExit("--window wants 1 frame or more")
    for spec in specs:
        make_rule(spec, args.window)  # a bad rule stops here, before any reading
    if args.reads:
        if args.data or args.keep or args.min_card is not None:
            raise SystemExit("--reads votes on frames read before: give it without --data, --keep and --min-card")
        try:
            kept = json.loads(args.reads.read_text())
            for k in ("data", "skip", "photos", "frames", "width", "seed", "weights"):
                setattr(args, k, kept[k])
            args.min_card = kept.get("min_card")
            streams = kept["streams"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise SystemExit(f"{args.reads} is not a file written by --keep: {e!r}") from None
    elif not args.data:
        raise SystemExit("give --data (one or more sets) or --reads")
    steady_from = args.window if args.steady_from is None else args.steady_from
    if steady_from < args.window:
        raise SystemExit("--steady-from must be --window or more: before that the window still holds the last "
                         "photo's frames")
    if args.frames <= steady_from:
        raise SystemExit("--frames must be more than --window and --steady-from, so that a photo's last frames "
                         "are steady")
    if not args.reads:
        streams = read_streams(args)
        if args.keep:
            args.keep.write_text(json.dumps({
                "data": [str(d) for d in args.data], "skip": args.skip, "photos": args.photos, "frames": args.frames,
                "width": args.width, "seed": args.seed, "weights": args.weights and str(args.weights),
                "min_card": args.min_card, "streams": streams}) + "\n")

    out = {"date": datetime.now(UTC).isoformat(timespec="seconds"),
           "machine": machine(),
           "data": [str(d) for d in args.data], "skip": args.skip, "photos": args.photos, "frames": args.frames,
           "window": args.window, "steady_from": steady_from, "width": args.width, "seed": args.seed,
           "min_card": args.min_card,
           "reads": str(args.reads) if args.reads else None, "sets": {}, "rules": {}}
    totals: dict[str, dict] = {}
    for name, stream in streams.items():
        readings = [as_reading(cards) for cards in stream["reads"]]
        wants = [set(w) for w in stream["wants"]]
        out["sets"][name] = {"photos": stream["photos"], "cards": stream["cards"]}
        for spec in specs:
            voter = make_rule(spec, args.window)
            floor = floor_of(spec)[1]
            shown = [voter.push(r if floor is None else at_least(r, floor)) for r in readings]
            got = tally(shown, wants, stream["segments"], args.frames, steady_from)
            out["sets"][name][spec] = {k: got[k] for k in ("steady", "last_frame", "flicker")}
            into = totals.setdefault(spec, {"follow": [[0, 0] for _ in range(args.frames)], "steady": [0, 0],
                                            "last_frame": [0, 0], "flicker": 0})
            for k in ("steady", "last_frame"):
                into[k] = [a + b for a, b in zip(into[k], got[k], strict=True)]
            into["follow"] = [[a + c, b + d] for (a, b), (c, d) in zip(into["follow"], got["follow"], strict=True)]
            into["flicker"] += got["flicker"]
    for spec, t in totals.items():
        out["rules"][spec] = {"follow": " ".join(f"{m}/{w}" for m, w in t["follow"]),
                              "steady": t["steady"], "last_frame": t["last_frame"], "flicker": t["flicker"],
                              **settles(t["follow"], steady_from)}
    report(out, args.json)


def settles(follow: list[list[int]], window: int) -> dict:
    """From which frame after a hand came into view (counted from 1) the cards missed, and the
    cards wrong (the old hand's among them), are within 1.5 times their mean over the steady
    frames (after the ``window``-th) plus one: the new hand shown, the old one gone."""
    rest = follow[window:]
    out = {}
    for i, name in enumerate(("shows_new_from", "old_gone_from")):
        bar = 1.5 * sum(p[i] for p in rest) / len(rest) + 1
        out[name] = next((k + 1 for k, p in enumerate(follow) if p[i] <= bar), None)
    return out

if __name__ == "__main__":
    main()
