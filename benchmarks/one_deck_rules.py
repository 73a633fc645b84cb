"""How the reader's ``one_deck`` rules change the cards read, on synthetic validation photos
only (never on ../shared/real-dev): each photo is read once, then its indices are grouped into
cards under each rule, so that the rules are compared on exactly the same reads.

A deck holds each card once. When two indices far apart read the same code, the weaker one is
another card misread; the rules say what becomes of it:
- ``off``: dropped (the shipped default until session 17);
- ``any``: read again as its likeliest code not yet in the photo;
- ``suit``: read again only as the same rank in the other suit of its colour (a club read as
  a spade, a heart as a diamond: the reader's commonest confusion), else dropped.

Which indices count as "far apart" is the reader's ``far_apart`` (in index sizes); with
``--far-apart 7,6`` the "suit" rule is also tried at those distances (``suit@7``, ``suit@6``).
With ``--two``, each rule also with at most two indices a card (``suit+2``): a third index of
a code near its card is another card misread, and is read again as a far one is.
With ``--same-turn 5:0.1,4:0.2``, the "suit" rule is also tried with the reader's
``same_turn_apart`` and ``same_turn_margin`` at those values (``suit~5:0.1``): indices of one code
at least that many index sizes apart whose crops match better as they are than turned half a
turn (a card's two indices are each other turned) are two cards. Every other rule is measured
with it off. With ``--way-up 3:0.5:0,4:0.5:0.7`` (a weights folder with ``way_up.onnx``), the
rules given by ``--same-turn`` (or "suit" alone) are also tried with the reader's
``way_up_apart``, ``way_up_same`` and ``way_up_along`` at those values (``suit~5:0.2^3:0.5:0``):
indices of one code at least that far apart that the way-up reader reads as facing one way
(and, with ALONG, lying along it) are two cards. With ``--twin-rank``, the suit rule and those
also with the reader's ``twin_rank`` at any share (``suit*``, 0.001) and at ``--twin-rank-at``'s
shares (``suit*0.9``): an index read again is as sure of its suit twin as it was of its rank and
colour, when that is at least the share.

For each data set and rule: cards missed and cards read wrong (what a player would have to
mend), precision and recall, and how many cards the rule added, right and wrong.

    python benchmarks/one_deck_rules.py --data data/synth2 --data data/synth4-48 [--photos 800] \
        [--weights models/weights] [--far-apart 7,6] [--same-turn 5:0.1] [--grey] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.compare_weights import grey_photo
from vision.evaluate import synthetic_validation
from vision.reader import ONE_DECK_RULES, Reader, group_indices


def settings_of(base, rule: str):
    """The reader's settings for ``rule``: "off", a rule of ONE_DECK_RULES, or "suit@D" (the
    "suit" rule with far_apart D); a "+2" after any of those: and a card shows at most two indices;
    a "~A:M" after any of those: with same_turn_apart A and same_turn_margin M (else that is off);
    a "^A:S:L" after all: with way_up_apart A, way_up_same S and way_up_along L (else that is off);
    a "*" or "*X" at the very end: with twin_rank 0.001 (any share) or X (else that is off)."""
    if "*" in rule:  # Settings.twin_rank
        name, _, share = rule.rpartition("*")
        return replace(settings_of(base, name), twin_rank=float(share) if share else 0.001)
    base = replace(base, twin_rank=0.0)
    if "^" in rule:  # RULE^APART:SAME:ALONG (Settings.way_up_apart, way_up_same, way_up_along)
        name, _, up = rule.partition("^")
        apart, same, along = (float(v) for v in up.split(":"))
        return replace(settings_of(base, name), way_up_apart=apart, way_up_same=same, way_up_along=along)
    base = replace(base, way_up_apart=0.0)
    if "~" in rule:  # suit~APART:MARGIN (Settings.same_turn_apart, same_turn_margin)
        name, _, turn = rule.partition("~")
        apart, _, margin = turn.partition(":")
        return replace(settings_of(base, name), same_turn_apart=float(apart), same_turn_margin=float(margin))
    base = replace(base, same_turn_apart=0.0)
    if rule == "off":
        return replace(base, one_deck=False)
    if rule.endswith("+2"):  # a card shows at most two indices (Settings.card_indices)
        return replace(settings_of(base, rule[:-2]), card_indices=2)
    name, _, far = rule.partition("@")
    s = replace(base, one_deck=True, one_deck_rule=name)
    return replace(s, far_apart=float(far)) if far else s


def measure(reader: Reader, data: Path, photos: int, rules: tuple[str, ...], as_grey: bool = False) -> dict:
    truths = synthetic_validation(data, photos)
    counts = {r: {"true": 0, "read": 0, "right": 0} for r in rules}
    for t in truths:
        img = grey_photo(t.image) if as_grey else cv2.imread(str(t.image))
        indices = reader.read_indices(img)
        for rule in rules:
            codes = {c.card for c in group_indices(indices, settings_of(reader.settings, rule))}
            c = counts[rule]
            c["true"] += len(t.codes)
            c["read"] += len(codes)
            c["right"] += len(codes & t.codes)
    out = {}
    for rule, c in counts.items():
        out[rule] = {
            "photos": len(truths), "cards_true": c["true"], "cards_read": c["read"], "cards_right": c["right"],
            "cards_missed": c["true"] - c["right"], "cards_wrong": c["read"] - c["right"],
            "precision": c["right"] / c["read"] if c["read"] else 1.0,
            "recall": c["right"] / c["true"] if c["true"] else 1.0,
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, action="append", required=True, help="a folder written by `ginsight dataset`")
    ap.add_argument("--photos", type=int, default=800, help="validation photos per data set (default 800)")
    ap.add_argument("--weights", type=Path, default=None, help="weights folder (default: the shipped one)")
    ap.add_argument("--far-apart", default="", help="more far_apart distances to try the suit rule at, e.g. 7,6")
    ap.add_argument("--two", action="store_true", help="also each rule with at most two indices a card")
    ap.add_argument("--same-turn", default="",
                    help="APART:MARGIN pairs to try the suit rule with same_turn_apart at, e.g. 5:0.1,4:0.2")
    ap.add_argument("--way-up", default="",
                    help="APART:SAME:ALONG triples: the same-turn rules (or suit) with way_up_apart, e.g. 3:0.5:0")
    ap.add_argument("--twin-rank", action="store_true",
                    help="also every same-turn and way-up rule with twin_rank at any share (a trailing *)")
    ap.add_argument("--twin-rank-at", default="", help="and at these shares, e.g. 0.9,0.97 (a trailing *0.9)")
    ap.add_argument("--grey", action="store_true", help="also read every photo in black and white")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    args = ap.parse_args()
    for d in args.data:
        if "real-dev" in str(d):
            raise SystemExit("real-dev is for validation only: decide rules on synthetic data")
    reader = Reader(args.weights)
    rules = ("off", *ONE_DECK_RULES, *(f"suit@{float(d):g}" for d in args.far_apart.split(",") if d.strip()))
    if args.two:
        rules += tuple(f"{r}+2" for r in rules if r != "off")
    turns = tuple(f"suit~{t.strip()}" for t in args.same_turn.split(",") if t.strip())
    for t in turns:
        settings_of(reader.settings, t)  # a malformed pair named before any photo is read
    rules += turns
    ups = tuple(f"{r}^{u.strip()}" for r in (turns or ("suit",)) for u in args.way_up.split(",") if u.strip())
    for u in ups:
        settings_of(reader.settings, u)
    if ups and reader.way_up is None:
        raise SystemExit(f"--way-up: no way_up.onnx in {args.weights or 'models/weights'}")
    rules += ups
    if args.twin_rank:
        rules += tuple(f"{r}*" for r in ("suit", *turns, *ups))
    shares = tuple(f"{float(s):g}" for s in args.twin_rank_at.split(",") if s.strip())
    rules += tuple(f"{r}*{s}" for s in shares for r in ("suit", *turns, *ups))
    if turns or ups:  # every look keeps its crops (and ways up), for the rules that need them
        reader.settings = replace(reader.settings, same_turn_apart=1.0, way_up_apart=1.0 if ups else 0.0)
    figures = {}
    print("| data | rule | missed / wrong | added right / wrong | precision | recall |")
    print("|---|---|---|---|---|---|")
    for d in args.data:
        for look in (("colour", False), ("grey", True))[: 2 if args.grey else 1]:
            key = f"{d}" if look[0] == "colour" else f"{d} (grey)"
            f = figures[key] = measure(reader, d, args.photos, rules, look[1])
            base = f["off"]
            for rule in rules:
                r = f[rule]
                added_right = r["cards_right"] - base["cards_right"]
                added_wrong = r["cards_wrong"] - base["cards_wrong"]
                print(f"| {key} | {rule} | {r['cards_missed']} / {r['cards_wrong']} | "
                      f"{added_right:+d} / {added_wrong:+d} | {r['precision']:.4f} | {r['recall']:.4f} |", flush=True)
    if args.json:
        weights = str(args.weights or "models/weights")
        args.json.write_text(json.dumps({"weights": weights, "figures": figures}, indent=1))


if __name__ == "__main__":
    main()
