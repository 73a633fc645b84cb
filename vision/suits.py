"""The black suit reader's part in reading an index: on an index the card classifier reads as a
black card, the rank is the classifier's and the black suit is decided by both, the two
readers' odds multiplied (``models/suit.py``: a club or a spade read from a 48-pixel grey crop).

Why: the classifier's worst error is a club read as a spade, where at 32 pixels a soft club's
lobes blur into a spade's blob; the suit reader sees the suit at 48 pixels and answers only that.
"""

from __future__ import annotations

import numpy as np

from engine.cards import CODES

# The classes of each suit, rank by rank (A..K: the engine's CODES hold them in that order).
OF_SUIT = {s: np.array([i for i, c in enumerate(CODES) if c[-1] == s]) for s in "SHDC"}
BLACK = np.stack([OF_SUIT["S"], OF_SUIT["C"]])  # (2, 13): the spades, then the clubs


def read_black(probs: np.ndarray) -> np.ndarray:
    """Which rows of the classifier's probabilities (N, 53) read a black card (their likeliest
    class a spade or a club; "no index" is none)."""
    if len(probs) == 0:
        return np.zeros(0, bool)
    return np.isin(probs.argmax(1), BLACK.ravel())


def with_suit(probs: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """The classifier's probabilities (N, 53) with each rank's mass over the spade and the club
    shared anew by the two readers' odds multiplied (each reader's split taken as independent
    evidence with even priors): where the classifier is sure, an unsure suit reader does not
    overrule it. ``suit``: the suit reader's (N, 2) probabilities of spade and club. Red cards
    and "no index" are unchanged, so each row still sums to one."""
    if suit.shape[1:] != (2,):
        raise ValueError(f"the black suit reader gives {suit.shape[1:]} probabilities a row, not 2 (spade, club)")
    p = np.array(probs, dtype=np.float32, copy=True)
    each = p[:, BLACK]  # (N, 2, 13): each black suit's mass, rank by rank
    reader = np.asarray(suit, np.float32)[:, :, None]  # (N, 2, 1)
    both = each * reader
    total = both.sum(1, keepdims=True)
    share = np.divide(both, total, out=np.broadcast_to(reader, each.shape).copy(), where=total > 0)
    p[:, BLACK] = each.sum(1, keepdims=True) * share
    return p


def apply_suit_reader(probs: np.ndarray, suit_probs_of) -> np.ndarray:
    """``probs`` (N, 53) with the suit reader's say on the rows read as black cards.
    ``suit_probs_of(mask)`` gives the suit reader's (M, 2) probabilities for the M rows of
    ``mask`` (so that only those crops are cut and read)."""
    mask = read_black(probs)
    if not mask.any():
        return probs
    out = np.array(probs, copy=True)
    out[mask] = with_suit(probs[mask], np.asarray(suit_probs_of(mask), np.float32))
    return out
