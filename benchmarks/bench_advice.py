"""Speed of the advice: median milliseconds for full advice on an 11-card hand (best
discard, knock or play on with the sampled undercut risk, outs to gin), and for the
take-or-draw advice on 10 cards with an upcard. Pure Python, one core.

    python benchmarks/bench_advice.py [--n 200] [--samples 300]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.advice import advise_draw, advise_turn
from engine.cards import cards_to_mask
from engine.deals import mixed_dense_hand, runs_heavy_hand
from engine.masks import discard_deadwoods_mask


def knockable(rng: random.Random) -> list[int]:
    while True:
        hand = (runs_heavy_hand if rng.random() < 0.5 else mixed_dense_hand)(rng, 11)
        if min(discard_deadwoods_mask(cards_to_mask(hand)).values()) <= 10:
            return hand


def timed(fn, items) -> float:
    times = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(1)
    knock_hands = [knockable(rng) for _ in range(args.n)]
    random_hands = [rng.sample(range(52), 11) for _ in range(args.n)]
    draws = [rng.sample(range(52), 11) for _ in range(args.n)]
    discards = [rng.sample([c for c in range(52) if c not in h], 6) for h in knock_hands]
    print(f"# {time.strftime('%Y-%m-%d')}, CPython {platform.python_version()}, {os.cpu_count()} CPUs; "
          f"n={args.n} hands, {args.samples} sampled opponent hands; median ms")
    print("| advice | median ms |")
    print("|---|---|")
    ms = timed(lambda h: advise_turn(h, samples=args.samples), knock_hands)
    print(f"| 11 cards that can knock (full: risk sampled, outs counted) | {ms:.1f} |")
    pairs = list(zip(knock_hands, discards, strict=True))
    ms = timed(lambda hd: advise_turn(hd[0], hd[1], samples=args.samples), pairs)
    print(f"| the same, with 6 known discards | {ms:.1f} |")
    ms = timed(lambda h: advise_turn(h, samples=args.samples), random_hands)
    print(f"| 11 random cards (mostly cannot knock) | {ms:.1f} |")
    ms = timed(lambda h: advise_draw(h[:10], h[10]), draws)
    print(f"| 10 cards + upcard: take or draw | {ms:.1f} |")


if __name__ == "__main__":
    main()
