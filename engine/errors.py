"""The engine's errors: each says which kind of wrong, and all are ``ValueError``s.

- :class:`CardParseError`: a token is not a card (unknown rank or suit).
- :class:`DuplicateCardError`: the same card given twice (one deck).
- :class:`HandSizeError`: the wrong number of cards where a number is required.
- :class:`InvalidMeldError`: a declared meld is not a set or run, or not in the hand.
- :class:`IllegalKnockError`: a knock that the rules do not allow.
- :class:`InvalidRulesError`: a setting of the rules out of range.
- :class:`GameError`: a result or action the game cannot take; its kinds
  :class:`IllegalActionError` (not legal in this state of the hand) and
  :class:`RoleDrawTie` (tied players in the role draw must draw again).

Every one is a :class:`GinsightError`, so a caller that shows errors as one line catches that.
"""

from __future__ import annotations

from collections.abc import Sequence


class GinsightError(ValueError):
    """Base of every error the engine raises on bad input."""


class CardParseError(GinsightError):
    """A token that is not a card, e.g. ``'1S'`` or ``'AX'``."""


class DuplicateCardError(GinsightError):
    """The same card appears twice where one deck is in play."""


class HandSizeError(GinsightError):
    """A hand with the wrong number of cards."""


class InvalidMeldError(GinsightError):
    """A declared meld that is not a valid set or run of the hand's cards."""


class IllegalKnockError(GinsightError):
    """A knock the rules forbid (count above the knock limit)."""


class InvalidRulesError(GinsightError):
    """A setting of :class:`~engine.rules.Rules` out of range, e.g. a negative knock limit."""


class GameError(GinsightError):
    """A result or action the game cannot take (wrong player, game over, ...)."""


class IllegalActionError(GameError):
    """An action that is not legal in this state of the hand (the message says why)."""


class RoleDrawTie(GameError):
    """Tied players in the role draw must draw again; ``players`` says who (indices 0..2).

    >>> RoleDrawTie([0, 2])
    RoleDrawTie('tie in the role draw: player 1 and player 3 must draw again')
    """

    def __init__(self, players: Sequence[int]) -> None:
        self.players = tuple(players)
        names = " and ".join(f"player {q + 1}" for q in self.players)
        super().__init__(f"tie in the role draw: {names} must draw again")
