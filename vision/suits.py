"""The suit reader's part in reading an index: on an index the card classifier reads as a
black card, the rank is the classifier's and the black suit is decided by both (the two
readers' odds multiplied; or, by the rule "replace", by the suit reader alone: ``models/suit.py``,
a club or a spade read from a 48-pixel grey crop).

Why: the classifier's worst error is a club read as a spade, where at 32 pixels a soft club's
lobes blur into a spade's blob; the suit reader sees the suit at 48 pixels and answers only that.
"""

from __future__ import annotations

import numpy as np

from engine.cards import CODES

SPADES = np.array([i for i, c in enumerate(CODES) if c[-1] == "S"])
CLUBS = np.array([i for i, c in enumerate(CODES) if c[-1] == "C"])
BLACK = np.concatenate([SPADES, CLUBS])


def read_black(probs: np.ndarray) -> np.ndarray:
    """Which rows of the classifier's probabilities (N, 53) read a black card (their likeliest
    class a spade or a club)."""
    if len(probs) == 0:
        return np.zeros(0, bool)
    return np.isin(probs.argmax(1), BLACK)


RULES = ("product", "replace")


def with_suit(probs: np.ndarray, suit: np.ndarray, rule: str = "product") -> np.ndarray:
    """The classifier's probabilities (N, 53) with each rank's black mass (its spade and its
    club together) shared anew between the two by the suit reader's (N, 2) spade and club
    probabilities; red cards and "no index" unchanged, so each row still sums to one.

    ``rule`` "replace": shared as the suit reader says alone. "product": as both say, the two
    readers' odds multiplied (each reader's spade-v-club split taken as independent evidence
    with even priors): where the classifier is sure, an unsure suit reader does not overrule it.
    """
    if rule not in RULES:
        raise ValueError(f"unknown suit rule {rule!r}: one of {', '.join(RULES)}")
    p = np.array(probs, dtype=np.float32, copy=True)
    spade, club = p[:, SPADES], p[:, CLUBS]
    mass = spade + club
    if rule == "replace":
        share = np.broadcast_to(suit[:, :1], mass.shape)
    else:
        s, c = spade * suit[:, :1], club * suit[:, 1:2]
        total = s + c
        share = np.divide(s, total, out=np.broadcast_to(suit[:, :1], mass.shape).copy(), where=total > 0)
    p[:, SPADES] = mass * share
    p[:, CLUBS] = mass * (1 - share)
    return p


def apply_suit_reader(probs: np.ndarray, suit_probs_of, rule: str = "product") -> np.ndarray:
    """``probs`` (N, 53) with the suit reader's say on the rows read as black cards.
    ``suit_probs_of(mask)`` gives the suit reader's (M, 2) probabilities for the M rows of
    ``mask`` (so that only those crops are cut and read)."""
    mask = read_black(probs)
    if not mask.any():
        return probs
    out = np.array(probs, copy=True)
    out[mask] = with_suit(probs[mask], suit_probs_of(mask), rule)
    return out
