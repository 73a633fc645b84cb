"""``ginsight eval``: the reader's figures on YOLO-labelled photos (e.g. ../shared/real-dev)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.errors import GinsightError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, metavar="DIR", help="a folder with images/, labels/, data.yaml")
    parser.add_argument("--weights", metavar="DIR", help="model folder (default: the shipped models/weights)")
    parser.add_argument("--limit", type=int, help="only the first N photos")
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    from vision import Reader, WeightsError
    from vision.evaluate import DataSetError, evaluate

    if args.limit is not None and args.limit < 1:
        raise GinsightError("--limit must be at least 1")
    folder = Path(args.data)
    if not (folder / "data.yaml").exists() or not (folder / "images").is_dir():
        raise GinsightError(f"{folder} needs images/, labels/ and data.yaml (YOLO layout)")
    try:
        reader = Reader(args.weights)
    except (FileNotFoundError, WeightsError) as exc:  # no network, a damaged one, a bad reader.json
        raise GinsightError(str(exc)) from None

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"\r{done}/{total} photos")
        if done == total:
            sys.stderr.write("\n")

    try:
        result = evaluate(reader, folder, args.limit, progress)
    except DataSetError as exc:  # data.yaml, a label line or a photo it cannot read, named
        raise GinsightError(str(exc)) from None
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    o = result["overall"]
    print(f"{result['data']}: {o['photos']} photos")
    print(f"  cards: precision {o['precision']:.3f}, recall {o['recall']:.3f}, exact hands {o['exact_hand_rate']:.1%}")
    print(f"  flagged uncertain: {o['cards_flagged']} of {o['cards_read']} cards read, {o['wrong_flagged']} of the "
          f"{o['cards_wrong']} wrong and {o['right_flagged_share']:.1%} of the right ones; precision of the cards "
          f"not flagged {o['unflagged_precision']:.3f}")
    ap = {k: "n/a" if result[k] is None else f"{result[k]:.3f}" for k in ("index_map50", "index_map50_class_agnostic")}
    print(f"  index mAP50 {ap['index_map50']} (class-agnostic {ap['index_map50_class_agnostic']}); "
          f"median {result['median_ms']:.0f} ms a photo")
    for g, s in result["groups"].items():
        print(f"  {g}: {s['photos']} photos, precision {s['precision']:.3f}, recall {s['recall']:.3f}, "
              f"exact {s['exact_hand_rate']:.1%}; indices found {s['indices_found']:.3f}, "
              f"of those read right {s['found_read_right']:.3f}; wrong flagged {s['wrong_flagged']}, "
              f"wrong not flagged {s['wrong_unflagged']}, right flagged {s['right_flagged']}")
    if result["confused"]:
        print("  most confused (true -> read): "
              + ", ".join(f"{c['true']}->{c['read']} x{c['count']}" for c in result["confused"]))
    return 0
