"""The three-player table: roles, the role draw, rotation after each hand, the scores.

Pure bookkeeping shared by the simulated game (:mod:`engine.game`) and the scoresheet of
real games: a :class:`Table` is rebuilt by replaying its hands, so undo is "replay one
fewer".

Roles (RULES.md): **box** (plays alone, deals every hand), **captain** (plays for the team),
**sitter** (sits out, never scores). After a hand the box won: the box stays, captain and
sitter swap. After a hand the box lost: the box sits out, the captain goes into the box,
the sitter becomes captain. After a draw nobody moves and the box deals again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.cards import CODES, Card
from engine.errors import GinsightError
from engine.rules import DEFAULT_RULES, Rules

ROLES = ("box", "captain", "sitter")
RESULTS = ("knock", "undercut", "gin", "draw")


class GameError(GinsightError):
    """A result or action the game cannot take (wrong player, game over, ...)."""


class RoleDrawTie(GameError):
    """Tied players in the role draw must draw again; ``players`` says who."""

    def __init__(self, players: Sequence[int]) -> None:
        self.players = tuple(players)
        names = " and ".join(f"player {q + 1}" for q in self.players)
        super().__init__(f"tie in the role draw: {names} must draw again")


@dataclass(frozen=True, slots=True)
class Roles:
    """Who holds which seat this hand, as player indices 0..2."""

    box: int
    captain: int
    sitter: int

    def __post_init__(self) -> None:
        if sorted((self.box, self.captain, self.sitter)) != [0, 1, 2]:
            raise GameError(f"roles must name three different players, got {self}")

    def role_of(self, player: int) -> str:
        return ROLES[(self.box, self.captain, self.sitter).index(player)]

    def after(self, box_won: bool | None) -> Roles:
        """The roles for the next hand: ``box_won`` True, False, or None for a draw."""
        if box_won is None:
            return self
        if box_won:
            return Roles(self.box, self.sitter, self.captain)
        return Roles(self.captain, self.sitter, self.box)


@dataclass(frozen=True, slots=True)
class RoleDraw:
    """The draw for the first hand's roles: each round, the cards drawn by whoever drew."""

    rounds: tuple[tuple[tuple[int, Card], ...], ...]
    roles: Roles


def roles_from_draw(draws: Sequence[Sequence[Card]]) -> RoleDraw:
    """Roles from the cards each player drew (player i's draws in order: the first card,
    then any redraws after ties). Highest rank in the box, middle captain, lowest sits
    out; K high, A low; suits do not count. Tied players draw again.

    >>> from engine.cards import parse_card as p
    >>> roles_from_draw([[p("7H")], [p("KS")], [p("2C")]]).roles
    Roles(box=1, captain=0, sitter=2)
    >>> roles_from_draw([[p("9H"), p("3D")], [p("9S"), p("JC")], [p("2C")]]).roles
    Roles(box=1, captain=0, sitter=2)
    """
    used = [0, 0, 0]
    rounds: list[tuple[tuple[int, Card], ...]] = []

    if len(draws) != 3:
        raise GameError(f"the role draw needs three players' cards, got {len(draws)}")
    seen = [c for d in draws for c in d]
    if len(set(seen)) != len(seen):
        raise GameError("the same card was drawn twice in the role draw")

    def order(players: list[int]) -> list[int]:
        picks = []
        for p in players:
            if used[p] >= len(draws[p]):
                raise RoleDrawTie(players)
            picks.append((p, draws[p][used[p]]))
            used[p] += 1
        rounds.append(tuple(picks))
        by_rank: dict[int, list[int]] = {}
        for p, card in picks:
            by_rank.setdefault(card.rank, []).append(p)
        out: list[int] = []
        for rank in sorted(by_rank, reverse=True):
            group = by_rank[rank]
            out += group if len(group) == 1 else order(group)
        return out

    ranking = order([0, 1, 2])
    for p in range(3):
        if used[p] < len(draws[p]):
            raise GameError(f"player {p + 1} drew more cards than the ties asked for")
    return RoleDraw(tuple(rounds), Roles(*ranking))


def draw_roles(rng: random.Random) -> RoleDraw:
    """Draw for roles with a shuffled deck: each player a card, ties drawing again."""
    deck = [Card(i) for i in range(52)]
    rng.shuffle(deck)
    draws: list[list[Card]] = [[], [], []]
    while True:
        try:
            return roles_from_draw(draws)
        except RoleDrawTie as tie:
            for p in tie.players:
                draws[p].append(deck.pop())


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended, by seat: enough to score it and rotate the roles.

    ``knocker`` is 'box' or 'captain' (None on a draw); ``winner`` likewise.
    Counts are the knocker's and the defender's (after layoffs); None when not known.
    """

    result: str
    knocker: str | None = None
    winner: str | None = None
    points: int = 0
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise GameError(f"result must be one of {', '.join(RESULTS)}, got {self.result!r}")
        if self.result == "draw":
            if self.knocker is not None or self.winner is not None or self.points:
                raise GameError("a draw has no knocker, no winner and no points")
            return
        for name in ("knocker", "winner"):
            if getattr(self, name) not in ("box", "captain"):
                raise GameError(f"{name} must be 'box' or 'captain' (the sitter never plays)")
        if self.points < 0:
            raise GameError("points cannot be negative")
        expected = self.knocker if self.result in ("knock", "gin") else _other(self.knocker)
        if self.winner != expected:
            raise GameError(f"on {self.result!r} the winner is the {expected}, not the {self.winner}")

    @classmethod
    def from_counts(
        cls, knocker: str, knocker_deadwood: int, defender_deadwood: int, rules: Rules = DEFAULT_RULES
    ) -> HandResult:
        """Score a hand from the two counts (the defender's after layoffs)."""
        from engine.showdown import score  # local: keeps this module light

        if knocker not in ("box", "captain"):
            raise GameError("the knocker must be 'box' or 'captain'")
        for name, n in (("knocker", knocker_deadwood), ("defender", defender_deadwood)):
            if not 0 <= n <= 100:
                raise GameError(f"the {name}'s count must be between 0 and 100, got {n}")
        if knocker_deadwood > rules.knock_limit:
            raise GameError(f"the knocker's count {knocker_deadwood} is above the knock limit {rules.knock_limit}")
        outcome, side, points = score(knocker_deadwood, defender_deadwood, rules)
        winner = knocker if side == "knocker" else _other(knocker)
        return cls(outcome, knocker, winner, points, knocker_deadwood, defender_deadwood)


def _other(seat: str | None) -> str:
    return "captain" if seat == "box" else "box"


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A hand as it went into the table: who sat where, the result, the totals after."""

    number: int
    roles: Roles
    result: HandResult
    winner_player: int | None
    scores: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Table:
    """Three players' totals and seats over a game to ``rules.target``."""

    players: tuple[str, str, str]
    first_roles: Roles
    rules: Rules = DEFAULT_RULES
    history: tuple[HandRecord, ...] = ()
    roles: Roles = field(default=None)  # type: ignore[assignment]
    scores: tuple[int, int, int] = (0, 0, 0)

    def __post_init__(self) -> None:
        if len(self.players) != 3:
            raise GameError(f"a game needs three players, got {len(self.players)}")
        names = [n.strip() for n in self.players]
        if any(not n for n in names):
            raise GameError("player names cannot be empty")
        if len({n.casefold() for n in names}) != 3:
            raise GameError("player names must differ")
        if self.roles is None:
            object.__setattr__(self, "roles", self.first_roles)

    @property
    def winner(self) -> int | None:
        """The player who reached the target (the game is over), else None."""
        best = max(range(3), key=lambda p: self.scores[p])
        return best if self.scores[best] >= self.rules.target else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    def player_of(self, seat: str) -> int:
        return getattr(self.roles, seat)

    def record(self, result: HandResult) -> Table:
        """The table after one more hand. The team's points go to the captain."""
        if self.over:
            raise GameError(f"the game is over: {self.players[self.winner]} reached {self.rules.target}")
        scores = list(self.scores)
        winner = None
        if result.result != "draw":
            winner = self.player_of(result.winner)
            scores[winner] += result.points
        rec = HandRecord(len(self.history) + 1, self.roles, result, winner, (scores[0], scores[1], scores[2]))
        box_won = None if result.result == "draw" else result.winner == "box"
        return replace(self, history=(*self.history, rec), roles=self.roles.after(box_won), scores=rec.scores)

    def undo(self) -> Table:
        """The table without its last hand."""
        if not self.history:
            raise GameError("no hand to undo")
        table = Table(self.players, self.first_roles, self.rules)
        for rec in self.history[:-1]:
            table = table.record(rec.result)
        return table

    def describe_roles(self) -> str:
        r = self.roles
        return f"box {self.players[r.box]}, captain {self.players[r.captain]}, sits out {self.players[r.sitter]}"


def format_draw(draw: RoleDraw, players: Sequence[str]) -> str:
    lines = []
    for i, rnd in enumerate(draw.rounds):
        label = "draw" if i == 0 else "redraw"
        lines.append(f"{label}: " + ", ".join(f"{players[p]} {CODES[c]}" for p, c in rnd))
    return "; ".join(lines)


__all__ = [
    "ROLES",
    "GameError",
    "HandRecord",
    "HandResult",
    "RoleDraw",
    "RoleDrawTie",
    "Roles",
    "Table",
    "draw_roles",
    "format_draw",
    "roles_from_draw",
]
