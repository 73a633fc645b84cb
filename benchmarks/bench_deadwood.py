"""Speed of the rules core, side by side with RLCard (and OpenSpiel's C++ for scale).

    python benchmarks/bench_deadwood.py [--n 20000] [--seed 1]

Prints median microseconds per hand for 10-card min deadwood and for all 11 discards of an
11-card hand, by hand kind, then mean microseconds per hand through ``ginsight hand --jsonl``
end to end (a process reading N lines), beside RLCard doing the same job in the same way
(``benchmarks/rlcard_jsonl.py``). Every result of ours is checked against RLCard's.

"fresh" clears the solver's memo before every hand (nothing learnt from earlier hands);
"shared" keeps it, as a long-running app or simulation does. Targets are judged on "fresh".
Run from the repository root; RLCard is the ``bench`` extra (``make bench``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore")

from rlcard.games.gin_rummy.utils import melding, utils  # noqa: E402

from engine import masks as solver  # noqa: E402
from engine.cards import CODES, cards_to_mask  # noqa: E402
from engine.deals import GENERATORS  # noqa: E402


def rlcard_deadwood(hand) -> int:
    best = utils.get_deadwood_count(hand, [])
    for cluster in melding.get_meld_clusters(hand):
        best = min(best, utils.get_deadwood_count(hand, cluster))
    return best


def median_us(fn, items, fresh: bool = False) -> tuple[float, list]:
    times, results = [], []
    clock = time.perf_counter
    for item in items:
        if fresh:
            solver.clear_memo()
        t = clock()
        results.append(fn(item))
        times.append(clock() - t)
    return statistics.median(times) * 1e6, results


def jsonl_us(cmd: list[str], lines: list[str]) -> tuple[float, list[str]]:
    with tempfile.TemporaryFile("w+") as f:
        f.write("\n".join(lines) + "\n")
        f.seek(0)
        t = time.perf_counter()
        out = subprocess.run(cmd, stdin=f, capture_output=True, text=True, check=True).stdout
        elapsed = time.perf_counter() - t
    return elapsed / len(lines) * 1e6, out.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000, help="hands per kind and size (default 20000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--e2e-runs", type=int, default=5,
                        help="end-to-end processes per side, taken in turns; the median is reported (default 5)")
    parser.add_argument("--kinds", default=",".join(GENERATORS), help="hand kinds to run (default all)")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    unknown = [k for k in kinds if k not in GENERATORS]
    if unknown:
        parser.error(f"unknown hand kind {', '.join(unknown)} (kinds: {', '.join(GENERATORS)})")

    try:
        import pyspiel

        os_utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        to_os = {0: 0, 1: 3, 2: 2, 3: 1}
    except ImportError:
        os_utils = None

    ginsight = [str(Path(sys.executable).with_name("ginsight")), "hand", "--jsonl"]
    rl_jsonl = [sys.executable, str(ROOT / "benchmarks" / "rlcard_jsonl.py")]
    print(f"# {time.strftime('%Y-%m-%d')}, {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, {platform.machine()}; n={args.n} hands per row; median us per hand")
    header = ("| hand kind | cards | ours fresh | ours shared | RLCard | RLCard / ours fresh | OpenSpiel C++ |")
    print(header)
    print("|---|---|---|---|---|---|---|")
    e2e_rows = []
    for kind, gen in GENERATORS.items():
        if kind not in kinds:
            continue
        rng = random.Random(f"{args.seed}-{kind}")
        for size in (10, 11):
            hands = [gen(rng, size) for _ in range(args.n)]
            masks = [cards_to_mask(h) for h in hands]
            rl_hands = [[utils.get_card(c) for c in h] for h in hands]
            if size == 10:
                fresh, ours = median_us(solver.min_deadwood_mask, masks, fresh=True)
                shared, _ = median_us(solver.min_deadwood_mask, masks)
                rl, theirs = median_us(rlcard_deadwood, rl_hands)
                os_us = median_us(lambda h: os_utils.min_deadwood([to_os[c // 13] * 13 + c % 13 for c in h]),
                                  hands)[0] if os_utils else float("nan")
            else:
                def rl_all(hand):
                    return sorted(rlcard_deadwood([c for c in hand if c is not d]) for d in hand)

                def ours_all(mask):
                    return sorted(solver.discard_deadwoods_mask(mask).values())

                fresh, ours = median_us(ours_all, masks, fresh=True)
                shared, _ = median_us(ours_all, masks)
                rl, theirs = median_us(rl_all, rl_hands)
                os_us = float("nan")
            if ours != theirs:
                raise SystemExit(f"results differ from RLCard's on {kind} {size}-card hands")
            os_text = f"{os_us:.2f}" if os_us == os_us else "-"
            print(f"| {kind} | {size} | {fresh:.2f} | {shared:.2f} | {rl:.2f} | {rl / fresh:.1f}x | {os_text} |")
            lines = [" ".join(CODES[c] for c in h) for h in hands]
            ours_runs, rl_runs = [], []
            for _ in range(args.e2e_runs):  # in turns, so that a noisy spell hits both sides
                ours_e2e, out1 = jsonl_us(ginsight, lines)
                rl_e2e, out2 = jsonl_us(rl_jsonl, lines)
                if len(out1) != len(out2):
                    raise SystemExit("end-to-end outputs differ in length")
                ours_runs.append(ours_e2e)
                rl_runs.append(rl_e2e)
            e2e_rows.append((kind, size, statistics.median(ours_runs), statistics.median(rl_runs), rl,
                             min(r / o for r, o in zip(rl_runs, ours_runs, strict=True))))
    print()
    print("End to end, `ginsight hand --jsonl` vs RLCard doing the same job (benchmarks/rlcard_jsonl.py);")
    print(f"us per hand over the whole process (start-up included), median of {args.e2e_runs} runs a side")
    print("| hand kind | cards | ginsight --jsonl | RLCard --jsonl | ratio | worst run's ratio | RLCard core (median) "
          "| ratio to core |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, size, ours_e2e, rl_e2e, rl, worst in e2e_rows:
        print(f"| {kind} | {size} | {ours_e2e:.1f} | {rl_e2e:.1f} | {rl_e2e / ours_e2e:.1f}x | {worst:.1f}x "
              f"| {rl:.1f} | {rl / ours_e2e:.1f}x |")


if __name__ == "__main__":
    main()
