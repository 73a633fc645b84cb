"""The engine's errors: each says which kind of wrong, and all are ``ValueError``s.

- :class:`CardParseError`: a token is not a card (unknown rank or suit).
- :class:`DuplicateCardError`: the same card given twice (one deck).
- :class:`HandSizeError`: the wrong number of cards where a number is required.
- :class:`InvalidMeldError`: a declared meld is not a set or run, or not in the hand.
- :class:`IllegalKnockError`: a knock that the rules do not allow.
"""

from __future__ import annotations


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
