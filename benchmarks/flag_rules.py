"""Which cards should the reader flag uncertain? Diagnosis on synthetic validation photos (never
on ../shared/real-dev): each card read is recorded with what the reader knew of it and whether
it was right, then flag rules are counted on those records: the cards flagged, the wrong ones
among them, and the precision of the cards left unflagged (what a player trusts unchecked).

The app marks flagged cards for the player to check, so a good flag catches wrong cards
without flagging many right ones. Each card's record:

- ``conf``: the card's confidence (its indices' confidences combined), ``flag``: the shipped flag;
- ``n``: how many indices make it (1 or 2), ``side``: the median side of its indices in pixels;
- ``p``: the least, over its indices, of the classifier's (and suit readers') probability of
  its code; ``det``: the least detector score; ``gap``: the least margin between an index's
  probability of its code and of its next likeliest code;
- ``black``: a spade or a club; ``right``: the code is in the photo.

    python benchmarks/flag_rules.py --data data/synth2 --data data/synth4 --photos 800 \\
        --records runs/flag-records.json            # read the photos, keep the records
    python benchmarks/flag_rules.py --records runs/flag-records.json --json OUT   # count the rules

A record file already there is read, not written again. With more than one data set, each rule
is also counted on all the sets' cards together, and each step up the confidence ladder
(``conf<0.76``, ``conf<0.78``, ...) is priced: right cards flagged more per wrong card caught
more than at the step before (what a threshold is chosen on).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.evaluate import synthetic_validation  # noqa: E402
from vision.reader import CODES, NONE_CLASS, Reader, _detector_score  # noqa: E402


def card_records(reading, truth_codes: set[str]) -> list[dict]:
    """One record per card of ``reading`` (see the module's docstring)."""
    out = []
    for card in reading.cards:
        ixs = [ix for ix in reading.indices if ix.box in card.boxes]
        k = CODES.index(card.card)
        ps, gaps, dets = [], [], []
        for ix in ixs:
            p = np.asarray(ix.probs, np.float64)
            pk = float(p[k]) if ix.card == card.card else 0.0  # an index read again: not its first code
            rest = np.delete(p, [k, NONE_CLASS])  # the other codes
            ps.append(pk)
            gaps.append(pk - float(rest.max()))
            dets.append(min(_detector_score(ix), 1.0))
        sides = [max(b[2] - b[0], b[3] - b[1]) for b in card.boxes]
        out.append({
            "card": card.card, "conf": round(card.confidence, 4), "flag": card.uncertain,
            "n": len(card.boxes), "side": round(float(np.median(sides)), 1),
            "p": round(min(ps), 4) if ps else None, "gap": round(min(gaps), 4) if gaps else None,
            "det": round(min(dets), 4) if dets else None,
            "black": card.card[-1] in "SC", "right": card.card in truth_codes,
        })
    return out


def read_records(weights: Path, datas: list[Path], photos: int) -> dict:
    reader = Reader(weights)
    records = {}
    for data in datas:
        rows = []
        truths = synthetic_validation(data, photos)
        for i, t in enumerate(truths):
            rows += card_records(reader.read(t.image), t.codes)
            if (i + 1) % 100 == 0:
                print(f"{data}: {i + 1} / {len(truths)} photos", file=sys.stderr, flush=True)
        records[str(data)] = rows
    return records


# name -> (a rule: record -> flag?), each the shipped flag or'd with one more test
def rules() -> dict:
    out = {"shipped": lambda r: r["flag"]}
    for c in (0.76, 0.78, 0.8, 0.82, 0.84, 0.85, 0.9):
        out[f"conf<{c}"] = lambda r, c=c: r["flag"] or r["conf"] < c
    for c in (0.8, 0.85, 0.9, 0.95):
        out[f"one index & conf<{c}"] = lambda r, c=c: r["flag"] or (r["n"] == 1 and r["conf"] < c)
    for g in (0.3, 0.5, 0.7):
        out[f"gap<{g}"] = lambda r, g=g: r["flag"] or (r["gap"] is not None and r["gap"] < g)
        out[f"one index & gap<{g}"] = lambda r, g=g: r["flag"] or (r["n"] == 1 and r["gap"] is not None
                                                                    and r["gap"] < g)
    for p in (0.6, 0.8, 0.9):
        out[f"p<{p}"] = lambda r, p=p: r["flag"] or (r["p"] is not None and r["p"] < p)
    for s in (16, 20, 24):
        out[f"side<{s}"] = lambda r, s=s: r["flag"] or r["side"] < s
    for p in (0.8, 0.9):
        out[f"black & p<{p}"] = lambda r, p=p: r["flag"] or (r["black"] and r["p"] is not None and r["p"] < p)
    return out


def drop_rules() -> dict:
    """Rules for cards not to report at all (as ``min_card`` drops them), on top of the shipped
    reader's: each is worth it only if it drops wrong cards for fewer right ones than raising
    ``min_card`` does at its margin (the first rule)."""
    out = {"conf<0.52": lambda r: r["conf"] < 0.52, "conf<0.55": lambda r: r["conf"] < 0.55}
    for c in (0.55, 0.6, 0.65):
        out[f"one index & black & conf<{c}"] = lambda r, c=c: r["n"] == 1 and r["black"] and r["conf"] < c
    for p in (0.4, 0.5):
        out[f"one index & p<{p}"] = lambda r, p=p: r["n"] == 1 and r["p"] is not None and r["p"] < p
    for g in (0.1, 0.2):
        out[f"one index & gap<{g}"] = lambda r, g=g: r["n"] == 1 and r["gap"] is not None and r["gap"] < g
    for s in (14, 16):
        out[f"side<{s} & conf<0.7"] = lambda r, s=s: r["side"] < s and r["conf"] < 0.7
    return out


def dropped(rows: list[dict], rule) -> dict:
    """What dropping the cards ``rule`` picks would cost and gain: wrong cards dropped, right
    cards lost, and right cards lost for each wrong one."""
    picked = [r for r in rows if rule(r)]
    wrong = sum(not r["right"] for r in picked)
    return {"wrong_dropped": wrong, "right_lost": len(picked) - wrong,
            "right_per_wrong": round((len(picked) - wrong) / wrong, 2) if wrong else None}


def count(rows: list[dict], rule) -> dict:
    flagged = [r for r in rows if rule(r)]
    wrong = sum(not r["right"] for r in rows)
    caught = sum(not r["right"] for r in flagged)
    left = len(rows) - len(flagged)
    right_left = sum(r["right"] for r in rows) - sum(r["right"] for r in flagged)
    return {"cards": len(rows), "wrong": wrong, "flagged": len(flagged), "wrong_flagged": caught,
            "right_flagged": len(flagged) - caught,
            "unflagged_precision": round(right_left / left, 4) if left else 1.0}


def unflagged_wrong(rows: list[dict]) -> dict:
    """The wrong cards the shipped flag leaves unflagged: how many, how many black, of one index,
    and their median confidence."""
    wrong = [r for r in rows if not r["right"] and not r["flag"]]
    return {"cards": len(wrong), "black": sum(r["black"] for r in wrong), "one_index": sum(r["n"] == 1 for r in wrong),
            "median_conf": round(float(np.median([r["conf"] for r in wrong])), 3) if wrong else None}


def ladder_steps(figures: dict[str, dict]) -> dict[str, float | None]:
    """For the ``conf<C`` rules of ``figures`` (rule -> count) in rising C: the right cards each
    flags more than the rule before it (the shipped flag before the first) per wrong card it
    catches more (None where it catches none more)."""
    ladder = sorted((r for r in figures if r.startswith("conf<")), key=lambda r: float(r[5:]))
    steps, before = {}, figures["shipped"]
    for rule in ladder:
        f = figures[rule]
        caught = f["wrong_flagged"] - before["wrong_flagged"]
        steps[rule] = round((f["right_flagged"] - before["right_flagged"]) / caught, 1) if caught else None
        before = f
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", type=Path, default=ROOT / "models" / "weights")
    parser.add_argument("--data", type=Path, action="append", default=[])
    parser.add_argument("--photos", type=int, default=300, help="validation photos per data set (default 300)")
    parser.add_argument("--records", type=Path, required=True, help="the cards' records: read if there, else written")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.records.exists():
        records = json.loads(args.records.read_text())
    else:
        if not args.data:
            parser.error(f"{args.records} is not there: --data is needed to read photos")
        records = read_records(args.weights, args.data, args.photos)
        args.records.parent.mkdir(parents=True, exist_ok=True)
        args.records.write_text(json.dumps(records))
    figures = {}
    print("| data | rule | cards | wrong | flagged | wrong flagged | right flagged | unflagged precision |")
    print("|---|---|---|---|---|---|---|---|")
    for data, rows in records.items():
        figures[data] = {}
        for name, rule in rules().items():
            f = count(rows, rule)
            figures[data][name] = f
            print(f"| {data} | {name} | {f['cards']} | {f['wrong']} | {f['flagged']} | {f['wrong_flagged']} | "
                  f"{f['right_flagged']} | {f['unflagged_precision']:.4f} |")
    every = [r for rows in records.values() for r in rows]
    summed = {name: count(every, rule) for name, rule in rules().items()} if len(records) > 1 else {}
    steps = ladder_steps(summed) if summed else {}
    if summed:
        print(f"\n| all {len(records)} sets | cards | wrong | flagged | wrong flagged | right flagged | "
              "unflagged precision | right flagged per wrong caught, step |\n|---|---|---|---|---|---|---|---|")
        for name, f in summed.items():
            step = steps.get(name, "")
            print(f"| {name} | {f['cards']} | {f['wrong']} | {f['flagged']} | {f['wrong_flagged']} | "
                  f"{f['right_flagged']} | {f['unflagged_precision']:.4f} | {'-' if step is None else step} |")
    left = {data: unflagged_wrong(rows) for data, rows in records.items()}
    for data, w in left.items():
        print(f"{data}: {w['cards']} wrong cards unflagged, {w['black']} of them black, {w['one_index']} of one index, "
              f"median confidence {w['median_conf']}")
    drops = {name: dropped(every, rule) for name, rule in drop_rules().items()}
    print("\n| dropped, all data | wrong dropped | right lost | right per wrong |\n|---|---|---|---|")
    for name, d in drops.items():
        print(f"| {name} | {d['wrong_dropped']} | {d['right_lost']} | {d['right_per_wrong']} |")
    if args.json:
        args.json.write_text(json.dumps({"records": str(args.records), "figures": figures, "totals": summed,
                                         "ladder_steps": steps, "unflagged_wrong": left,
                                         "dropped": drops}, indent=2))


if __name__ == "__main__":
    main()
