"""``ginsight simulate``: bots play complete three-player games; statistics and a log."""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
from collections import Counter
from pathlib import Path

from engine.bots import AdviceBot, BaselineBot
from engine.errors import GinsightError
from engine.simulate import hand_log, play_game

NAMES = ("P1", "P2", "P3")
# Seatings cycled over the games, so each bot sits in each place equally often.
LINEUPS = (
    ("advice", "baseline", "baseline"), ("baseline", "advice", "baseline"), ("baseline", "baseline", "advice"),
    ("advice", "advice", "baseline"), ("advice", "baseline", "advice"), ("baseline", "advice", "advice"),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, required=True, metavar="N")
    parser.add_argument("--seed", type=int, default=0, metavar="S")
    parser.add_argument("--log", metavar="FILE", help="write one JSON object per hand")
    parser.add_argument("--samples", type=int, default=60, metavar="N",
                        help="opponent hands the advice bot samples per knock decision (default 60)")
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise GinsightError("--games must be at least 1")
    log_path = Path(args.log) if args.log else None
    tmp = None
    if log_path:
        if log_path.is_dir():
            raise GinsightError(f"--log {log_path} is a folder")
        try:  # a folder it cannot make or write in, named before any game is played
            log_path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=log_path.parent, prefix=log_path.name + ".", suffix=".part")
        except OSError as exc:
            raise GinsightError(f"--log {log_path}: cannot write there ({exc.strerror or exc})") from None
        log = os.fdopen(fd, "w")
    try:
        stats = simulate(args.games, args.seed, args.samples, log if log_path else None)
    except BaseException:
        if tmp:
            log.close()
            os.unlink(tmp)
        raise
    if log_path:
        log.close()
        os.replace(tmp, log_path)  # the log appears whole, or not at all
    if args.json:
        print(json.dumps(stats))
    else:
        print(render(stats))
    return 0


def simulate(games: int, seed: int, samples: int, log=None) -> dict:
    results: Counter[str] = Counter()
    seat_wins: Counter[str] = Counter()
    game_wins: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    h2h = {"hands": 0, "advice_won": 0, "advice_points": 0}
    hands = 0
    for g in range(games):
        lineup = LINEUPS[g % len(LINEUPS)]
        bots = [AdviceBot(samples=samples, seed=seed) if b == "advice" else BaselineBot() for b in lineup]
        rng = random.Random(seed * 1_000_003 + g)
        last = None
        for played in play_game(g + 1, NAMES, bots, rng):
            hands += 1
            rec = played.record
            r = rec.result
            results[r.result] += 1
            if log is not None:
                log.write(json.dumps(hand_log(played, NAMES)) + "\n")
            if r.result == "draw":
                continue
            seat_wins[r.winner] += 1
            box_bot, cap_bot = lineup[rec.roles.box], lineup[rec.roles.captain]
            if box_bot != cap_bot:
                h2h["hands"] += 1
                advice_seat = "box" if box_bot == "advice" else "captain"
                won = r.winner == advice_seat
                h2h["advice_won"] += won
                h2h["advice_points"] += r.points if won else -r.points
            last = rec
        for b in lineup:
            seats[b] += 1
        if last is not None:
            game_wins[lineup[max(range(3), key=lambda p: last.scores[p])]] += 1
    decided = sum(seat_wins.values())
    return {
        "games": games,
        "hands": hands,
        "seed": seed,
        "results": {k: results[k] / hands for k in ("knock", "undercut", "gin", "draw")},
        "hands_won_by_role": {k: seat_wins[k] / decided if decided else 0.0 for k in ("box", "captain")},
        "games_won_by_bot": {b: game_wins[b] / seats[b] if seats[b] else 0.0 for b in ("advice", "baseline")},
        "head_to_head": {
            "hands": h2h["hands"],
            "advice_win_rate": h2h["advice_won"] / h2h["hands"] if h2h["hands"] else 0.0,
            "advice_points_per_hand": h2h["advice_points"] / h2h["hands"] if h2h["hands"] else 0.0,
        },
    }


def render(s: dict) -> str:
    r, role, bots, h = s["results"], s["hands_won_by_role"], s["games_won_by_bot"], s["head_to_head"]
    return "\n".join([
        f"{s['games']} games, {s['hands']} hands (seed {s['seed']})",
        "Hands: " + ", ".join(f"{k} {v:.1%}" for k, v in r.items()),
        f"Hands won by role (of hands not drawn): box {role['box']:.1%}, captain {role['captain']:.1%}",
        "Games won, per seat held: " + ", ".join(f"{k} {v:.1%}" for k, v in bots.items())
        + " (a fair share is 33.3%)",
        f"Advice v baseline, {h['hands']} hands head to head: advice won {h['advice_win_rate']:.1%}, "
        f"{h['advice_points_per_hand']:+.2f} points a hand",
    ])


