"""RLCard doing the job of ``ginsight hand --jsonl``: the baseline for the end-to-end row.

One hand a line on stdin, the same JSON on stdout (cards, melds, deadwood cards, deadwood,
gin, can_knock; for 11 cards every discard), computed with RLCard's
``melding.get_meld_clusters`` + ``utils.get_deadwood_count``.
"""

from __future__ import annotations

import json
import sys

from rlcard.games.gin_rummy.utils import melding, utils


def best(hand):
    best_cluster, best_count = [], utils.get_deadwood_count(hand, [])
    for cluster in melding.get_meld_clusters(hand):
        count = utils.get_deadwood_count(hand, cluster)
        if count < best_count:
            best_cluster, best_count = cluster, count
    return best_cluster, best_count


def layout(hand):
    cluster, count = best(hand)
    used = {c for meld in cluster for c in meld}
    return {
        "melds": [[str(c) for c in sorted(m, key=utils.get_card_id)] for m in cluster],
        "deadwood_cards": [str(c) for c in hand if c not in used],
        "deadwood": count,
    }


def main() -> None:
    for line in sys.stdin:
        codes = line.split()
        if not codes:
            continue
        hand = [utils.card_from_text(c) for c in codes]
        hand.sort(key=utils.get_card_id)
        if len(hand) == 10:
            out = {"cards": [str(c) for c in hand], **layout(hand)}
            out["gin"], out["can_knock"] = out["deadwood"] == 0, out["deadwood"] <= 10
        else:
            options = []
            for card in hand:
                rest = [c for c in hand if c != card]
                options.append({"discard": str(card), **layout(rest)})
            options.sort(key=lambda o: o["deadwood"])
            best = {k: options[0][k] for k in ("melds", "deadwood_cards", "deadwood")}
            out = {"cards": [str(c) for c in hand], **best}
            out["gin"], out["can_knock"] = out["deadwood"] == 0, out["deadwood"] <= 10
            out["discard"], out["options"] = options[0]["discard"], options
        sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
