"""The suit reader's part in reading an index: on an index the card classifier reads as a
black card, the rank is the classifier's and the black suit is decided by both (the two
readers' odds multiplied; or, by the rule "replace", by the suit reader alone: ``models/suit.py``,
a club or a spade read from a 48-pixel grey crop).

Why: the classifier's worst error is a club read as a spade, where at 32 pixels a soft club's
lobes blur into a spade's blob; the suit reader sees the suit at 48 pixels and answers only that.

The functions take any suits (``suits`` "SHDC": a four-suit reader's say on every index read as
a card); the reader asks the black suit reader alone, by the rule "product".
"""

from __future__ import annotations

import numpy as np

from engine.cards import CODES

# The classes of each suit, rank by rank (A..K: the engine's CODES hold them in that order).
OF_SUIT = {s: np.array([i for i, c in enumerate(CODES) if c[-1] == s]) for s in "SHDC"}


def read_black(probs: np.ndarray) -> np.ndarray:
    """Which rows of the classifier's probabilities (N, 53) read a black card (their likeliest
    class a spade or a club)."""
    return read_as(probs, "SC")


def read_as(probs: np.ndarray, suits: str) -> np.ndarray:
    """Which rows of the classifier's probabilities (N, 53) read a card of one of ``suits``
    (their likeliest class; "no index" is none)."""
    if len(probs) == 0:
        return np.zeros(0, bool)
    return np.isin(probs.argmax(1), np.concatenate([OF_SUIT[s] for s in suits]))


RULES = ("product", "replace")


def with_suit(probs: np.ndarray, suit: np.ndarray, rule: str = "product", suits: str = "SC",
              weight: float = 1.0) -> np.ndarray:
    """The classifier's probabilities (N, 53) with each rank's mass over ``suits`` (by default
    its spade and its club together) shared anew among them by the suit reader's (N, k)
    probabilities of those suits, in that order; other suits and "no index" unchanged, so each
    row still sums to one. ``suits`` "SHDC": a four-suit reader's.

    ``rule`` "replace": shared as the suit reader says alone. "product": as both say, the two
    readers' odds multiplied (each reader's split taken as independent evidence with even
    priors): where the classifier is sure, an unsure suit reader does not overrule it.
    ``weight``: with "product", how much the classifier's split counts (its odds raised to this
    power): 1 as much as the suit reader's, 0 not at all ("replace").
    """
    if rule not in RULES:
        raise ValueError(f"unknown suit rule {rule!r}: one of {', '.join(RULES)}")
    if suit.shape[1:] != (len(suits),):
        raise ValueError(f"the suit reader gives {suit.shape[1:]} probabilities a row, not one per suit of {suits}")
    p = np.array(probs, dtype=np.float32, copy=True)
    cols = np.stack([OF_SUIT[s] for s in suits])  # (k, 13)
    each = p[:, cols]  # (N, k, 13): each suit's mass, rank by rank
    mass = each.sum(1, keepdims=True)  # (N, 1, 13)
    reader = np.asarray(suit, np.float32)[:, :, None]  # (N, k, 1)
    if rule == "replace":
        share = np.broadcast_to(reader, each.shape)
    else:
        both = (each if weight == 1 else np.power(each, weight, dtype=np.float32)) * reader
        total = both.sum(1, keepdims=True)
        share = np.divide(both, total, out=np.broadcast_to(reader, each.shape).copy(), where=total > 0)
    p[:, cols] = mass * share
    return p


def apply_suit_reader(probs: np.ndarray, suit_probs_of, rule: str = "product", suits: str = "SC",
                      weight: float = 1.0) -> np.ndarray:
    """``probs`` (N, 53) with the suit reader's say on the rows read as cards of ``suits`` (the
    black suit reader's: spades and clubs; the grey-photo one's, "SHDC": every card).
    ``suit_probs_of(mask)`` gives the suit reader's (M, k) probabilities for the M rows of
    ``mask`` (so that only those crops are cut and read); ``weight``: :func:`with_suit`'s."""
    mask = read_as(probs, suits)
    if not mask.any():
        return probs
    out = np.array(probs, copy=True)
    out[mask] = with_suit(probs[mask], suit_probs_of(mask), rule, suits, weight)
    return out
