"""Complete three-player games to the target, played by bots, seeded.

Each game seats three bots; every hand is dealt by the box, played through the
:class:`~engine.game.HandState` machine, and recorded on a :class:`~engine.table.Table`.
The per-hand log (:func:`hand_log`) is what an outside check of the rules reads.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.bots import Bot
from engine.game import HandState, Phase
from engine.rules import DEFAULT_RULES, Rules
from engine.table import HandRecord, Seat, Table, draw_roles

MAX_ACTIONS = 500  # a hand cannot last longer: 31 stock cards, 2 actions a turn


@dataclass(frozen=True, slots=True)
class PlayedHand:
    game: int
    record: HandRecord
    stock_left: int
    bots: tuple[str, ...]  # the bots' names, player by player


def play_hand(state: HandState, bots: dict[Seat, Bot], check: Callable[[HandState], None] | None = None) -> HandState:
    """Play a dealt hand to its end. ``bots`` by seat; ``check`` is called after every action."""
    for _ in range(MAX_ACTIONS):
        if state.phase is Phase.OVER:
            return state
        legal = state.legal_actions()
        action = bots[state.to_play].act(state.view(state.to_play), legal)
        state.apply(action)
        if check:
            check(state)
    raise RuntimeError("hand did not end")  # cannot happen: the stock runs down


def play_game(
    game: int,
    names: tuple[str, str, str],
    bots: Sequence[Bot],
    rng: random.Random,
    rules: Rules = DEFAULT_RULES,
    check: Callable[[HandState], None] | None = None,
) -> Iterator[PlayedHand]:
    """Play one game to ``rules.target``, yielding each hand as it is recorded."""
    table = Table(names, draw_roles(rng).roles, rules)
    labels = tuple(b.name for b in bots)
    while not table.over:
        roles = table.roles
        state = HandState.deal(rng, rules)
        play_hand(state, {Seat.BOX: bots[roles.box], Seat.CAPTAIN: bots[roles.captain]}, check)
        assert state.outcome is not None
        table = table.record(state.outcome.to_result())
        yield PlayedHand(game, table.history[-1], state.outcome.stock_left, labels)


def hand_log(played: PlayedHand, names: Sequence[str]) -> dict[str, Any]:
    """One hand as the log's JSON object: exactly the keys of the contract."""
    rec = played.record
    r = rec.result
    knocker = None if r.knocker is None else names[rec.roles.player(r.knocker)]
    return {
        "game": played.game,
        "hand": rec.number,
        "box": names[rec.roles.box],
        "captain": names[rec.roles.captain],
        "sitter": names[rec.roles.sitter],
        "dealer": names[rec.roles.box],
        "result": r.result,
        "knocker": knocker,
        "winner": None if rec.winner_player is None else names[rec.winner_player],
        "points": r.points,
        "knocker_deadwood": r.knocker_deadwood,
        "defender_deadwood": r.defender_deadwood,
        "stock_left": played.stock_left,
        "scores": {names[p]: rec.scores[p] for p in range(3)},
    }
