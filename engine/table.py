"""The three-player table: seats and roles, the role draw, rotation after each hand, the scores.

Pure bookkeeping shared by the simulated game (:mod:`engine.game`) and the scoresheet of
real games: a :class:`Table` is its players, the first hand's roles and the hands played;
the roles and scores now are those after its last hand, so undo is one hand fewer.

Roles (RULES.md): **box** (plays alone, deals every hand), **captain** (plays for the team),
**sitter** (sits out, never scores). The box and the captain are the two seats that play
a hand (:class:`Seat`). After a hand the box won: the box stays, captain and sitter swap. After a hand
the box lost: the box sits out, the captain goes into the box, the sitter becomes captain.
After a draw nobody moves and the box deals again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal, get_args

from engine.cards import CODES, Card
from engine.errors import GameError, RoleDrawTie
from engine.rules import DEFAULT_RULES, Rules

Role = Literal["box", "captain", "sitter"]
ROLES: tuple[Role, ...] = get_args(Role)
Result = Literal["knock", "undercut", "gin", "draw"]  # how a hand ends
RESULTS: tuple[Result, ...] = get_args(Result)


class Seat(StrEnum):
    """One of the two roles that play a hand. A seat is the word for it (``Seat.BOX ==
    'box'``), so that it reads, prints and goes into JSON as that word.

    >>> Seat("box").other()
    <Seat.CAPTAIN: 'captain'>
    """

    BOX = "box"
    CAPTAIN = "captain"

    def other(self) -> Seat:
        """The seat that plays against this one."""
        return Seat.CAPTAIN if self is Seat.BOX else Seat.BOX


def seat_of(value: object, what: str) -> Seat:
    """``value`` (a seat, or its word) as a :class:`Seat`; :class:`GameError` naming ``what``
    when it is neither."""
    if isinstance(value, str) and value in _SEAT_WORDS:
        return Seat(value)
    raise GameError(f"{what} must be 'box' or 'captain' (the sitter never plays), got {value!r}")


_SEAT_WORDS = frozenset(Seat)


@dataclass(frozen=True, slots=True)
class Roles:
    """Who holds which seat this hand, as player indices 0..2."""

    box: int
    captain: int
    sitter: int

    def __post_init__(self) -> None:
        if sorted((self.box, self.captain, self.sitter)) != [0, 1, 2]:
            raise GameError(f"roles must name three different players, got {self}")

    def role_of(self, player: int) -> Role:
        return ROLES[(self.box, self.captain, self.sitter).index(player)]

    def player(self, seat: Seat) -> int:
        """The player in ``seat`` this hand."""
        return self.box if seat is Seat.BOX else self.captain

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

    ``knocker`` and ``winner`` are seats (None on a draw); given as words, they are read
    as seats. Counts are the knocker's and the defender's (after layoffs); None when not known.
    """

    result: Result
    knocker: Seat | None = None
    winner: Seat | None = None
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
        knocker = seat_of(self.knocker, "knocker")
        winner = seat_of(self.winner, "winner")
        object.__setattr__(self, "knocker", knocker)
        object.__setattr__(self, "winner", winner)
        if self.points < 0:
            raise GameError("points cannot be negative")
        expected = knocker if self.result in ("knock", "gin") else knocker.other()
        if winner is not expected:
            raise GameError(f"on {self.result!r} the winner is the {expected}, not the {winner}")

    @classmethod
    def from_counts(
        cls, knocker: Seat, knocker_deadwood: int, defender_deadwood: int, rules: Rules = DEFAULT_RULES
    ) -> HandResult:
        """Score a hand from the two counts (the defender's after layoffs).

        >>> r = HandResult.from_counts(Seat.BOX, 8, 6)
        >>> r.result, r.winner, r.points
        ('undercut', <Seat.CAPTAIN: 'captain'>, 12)
        """
        from engine.showdown import score  # local: keeps this module light

        seat = seat_of(knocker, "the knocker")
        for name, n in (("knocker", knocker_deadwood), ("defender", defender_deadwood)):
            if not 0 <= n <= 100:
                raise GameError(f"the {name}'s count must be between 0 and 100, got {n}")
        if knocker_deadwood > rules.knock_limit:
            raise GameError(f"the knocker's count {knocker_deadwood} is above the knock limit {rules.knock_limit}")
        outcome, side, points = score(knocker_deadwood, defender_deadwood, rules)
        winner = seat if side == "knocker" else seat.other()
        return cls(outcome, seat, winner, points, knocker_deadwood, defender_deadwood)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A hand as it went into the table: who sat where, the result, the totals after."""

    number: int
    roles: Roles
    result: HandResult
    winner_player: int | None
    scores: tuple[int, int, int]

    @property
    def next_roles(self) -> Roles:
        """The roles for the hand after this one."""
        winner = self.result.winner
        return self.roles.after(None if winner is None else winner is Seat.BOX)


@dataclass(frozen=True, slots=True)
class Table:
    """Three players' totals and seats over a game to ``rules.target``: the first hand's
    roles and the hands played, from which the roles and scores now follow."""

    players: tuple[str, str, str]
    first_roles: Roles
    rules: Rules = DEFAULT_RULES
    history: tuple[HandRecord, ...] = ()

    def __post_init__(self) -> None:
        if len(self.players) != 3:
            raise GameError(f"a game needs three players, got {len(self.players)}")
        names = [n.strip() for n in self.players]
        if any(not n for n in names):
            raise GameError("player names cannot be empty")
        if len({n.casefold() for n in names}) != 3:
            raise GameError("player names must differ")

    @property
    def roles(self) -> Roles:
        """Who sits where for the next hand."""
        return self.history[-1].next_roles if self.history else self.first_roles

    @property
    def scores(self) -> tuple[int, int, int]:
        return self.history[-1].scores if self.history else (0, 0, 0)

    @property
    def winner(self) -> int | None:
        """The player who reached the target (the game is over), else None."""
        scores = self.scores
        best = max(range(3), key=lambda p: scores[p])
        return best if scores[best] >= self.rules.target else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    def player_of(self, seat: Seat) -> int:
        return self.roles.player(seat_of(seat, "seat"))

    def record(self, result: HandResult) -> Table:
        """The table after one more hand. The team's points go to the captain."""
        done = self.winner
        if done is not None:
            raise GameError(f"the game is over: {self.players[done]} reached {self.rules.target}")
        roles = self.roles
        scores = list(self.scores)
        winner = None
        if result.winner is not None:  # None on a draw
            winner = roles.player(result.winner)
            scores[winner] += result.points
        rec = HandRecord(len(self.history) + 1, roles, result, winner, (scores[0], scores[1], scores[2]))
        return replace(self, history=(*self.history, rec))

    def undo(self) -> Table:
        """The table without its last hand."""
        if not self.history:
            raise GameError("no hand to undo")
        return replace(self, history=self.history[:-1])

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
    "RESULTS",
    "ROLES",
    "GameError",  # defined in engine.errors, raised here
    "HandRecord",
    "HandResult",
    "Result",
    "Role",
    "RoleDraw",
    "RoleDrawTie",  # defined in engine.errors, raised here
    "Roles",
    "Seat",
    "Table",
    "draw_roles",
    "format_draw",
    "roles_from_draw",
    "seat_of",
]
