"""Complete three-player games to the target, played by bots, seeded.

Each game seats three bots; every hand is dealt by the box, played through the
:class:`~engine.game.HandState` machine, and recorded on a :class:`~engine.table.Table`.
The per-hand log (:func:`hand_log`) is what an outside check of the rules reads.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.bots import Bot
from engine.game import HandState, Phase
from engine.rules import DEFAULT_RULES, Rules
from engine.table import HandRecord, Table, draw_roles

MAX_ACTIONS = 500  # a hand cannot last longer: 31 stock cards, 2 actions a turn


@dataclass(frozen=True, slots=True)
class PlayedHand:
    game: int
    record: HandRecord
    stock_left: int
    bots: tuple[str, str, str]


def play_hand(state: HandState, bots: dict[str, Bot], check: Callable[[HandState], None] | None = None) -> HandState:
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
    names: Sequence[str],
    bots: Sequence[Bot],
    rng: random.Random,
    rules: Rules = DEFAULT_RULES,
    check: Callable[[HandState], None] | None = None,
) -> Iterator[PlayedHand]:
    """Play one game to ``rules.target``, yielding each hand as it is recorded."""
    table = Table(tuple(names), draw_roles(rng).roles, rules)  # type: ignore[arg-type]
    labels = tuple(b.name for b in bots)
    while not table.over:
        roles = table.roles
        state = HandState.deal(rng, rules)
        play_hand(state, {"box": bots[roles.box], "captain": bots[roles.captain]}, check)
        assert state.outcome is not None
        table = table.record(state.outcome.to_result())
        yield PlayedHand(game, table.history[-1], state.outcome.stock_left, labels)  # type: ignore[arg-type]


def hand_log(played: PlayedHand, names: Sequence[str]) -> dict:
    """One hand as the log's JSON object: exactly the keys of the contract."""
    rec = played.record
    r = rec.result
    knocker = None if r.knocker is None else names[getattr(rec.roles, r.knocker)]
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
