"""Invariants over many seeded simulated games."""

import random

import pytest

from engine.bots import AdviceBot, BaselineBot
from engine.game import Phase
from engine.simulate import hand_log, play_game

NAMES = ("P1", "P2", "P3")


def games(n, seed):
    out = []
    for g in range(n):
        lineup = [AdviceBot(samples=12) if (g + i) % 3 == 0 else BaselineBot() for i in range(3)]
        checks = []

        def check(state, checks=checks):
            assert state.card_count() == 52  # conserved every action
            assert len(set(state.stock + state.pile + state.hands["box"] + state.hands["captain"])) == 52
            in_hand = {"box": len(state.hands["box"]), "captain": len(state.hands["captain"])}
            if state.phase is Phase.DISCARD:
                assert in_hand[state.to_play] == 11
            checks.append(1)

        hands = [hand_log(p, NAMES) for p in play_game(g, NAMES, lineup, random.Random(seed + g), check=check)]
        assert checks
        out.append(hands)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1000, 2000])
def test_simulated_games_keep_the_rules(seed):
    for hands in games(8, seed):
        totals = dict.fromkeys(NAMES, 0)
        for i, h in enumerate(hands):
            assert h["dealer"] == h["box"]
            assert {h["box"], h["captain"], h["sitter"]} == set(NAMES)
            if h["result"] == "draw":
                assert h["knocker"] is None and h["winner"] is None and h["points"] == 0
            else:
                assert h["winner"] != h["sitter"] and h["knocker"] in (h["box"], h["captain"])
                totals[h["winner"]] += h["points"]
                assert h["knocker_deadwood"] <= 10
                if h["result"] == "gin":
                    assert h["knocker_deadwood"] == 0
                elif h["result"] == "undercut":
                    assert h["defender_deadwood"] <= h["knocker_deadwood"]
                    assert h["points"] == 10 + h["knocker_deadwood"] - h["defender_deadwood"]
                else:
                    assert h["points"] == h["defender_deadwood"] - h["knocker_deadwood"]
            assert h["scores"] == totals  # totals are the sum of hand points; the sitter gains nothing
            finished = max(totals.values()) >= 100
            assert finished == (i == len(hands) - 1)  # the game ends exactly when someone reaches 100
            if i + 1 < len(hands):
                nxt = hands[i + 1]
                if h["result"] == "draw":
                    assert (nxt["box"], nxt["captain"], nxt["sitter"]) == (h["box"], h["captain"], h["sitter"])
                elif h["winner"] == h["box"]:
                    assert (nxt["box"], nxt["captain"], nxt["sitter"]) == (h["box"], h["sitter"], h["captain"])
                else:
                    assert (nxt["box"], nxt["captain"], nxt["sitter"]) == (h["captain"], h["sitter"], h["box"])
