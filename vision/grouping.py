"""Making cards of the indices read: pure functions of plain values, no networks.

A card shows two corner indices, facing opposite ways. So:

- an index is read from the classifier's probabilities (:func:`index_read`);
- two indices that lie as one card's two indices lie, read as two codes, are read together as
  the code their odds multiplied find likeliest (:func:`read_as_pairs`);
- the indices of one code make one card, with their boxes and a combined confidence, flagged
  uncertain where it is weak (:func:`group_indices`). Indices of one code far apart, or facing
  one way, are two cards: a deck holds each card once, so the weaker is another card misread,
  read again as its suit twin (:func:`read_again`: the same rank in the other suit of its
  colour, the classifier's commonest slip) and flagged, or dropped.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from engine.cards import CODES
from vision.classify import NONE_CLASS
from vision.detect import box_side
from vision.settings import Grouping
from vision.types import Box, CardRead, IndexRead

TWIN_SUIT = {"S": "C", "C": "S", "H": "D", "D": "H"}


def index_read(box: Box, score: float, probs: np.ndarray, min_index: float, up: np.ndarray | None = None,
               top: float | None = None) -> IndexRead | None:
    """One index: the classifier's likeliest class, its confidence sqrt(detector score x
    probability); None when that is "no index" or the confidence is under ``min_index``.

    >>> p = np.zeros(53, np.float32); p[0] = 0.81
    >>> read = index_read((0.0, 0.0, 10.0, 10.0), 1.0, p, 0.35)
    >>> read.card, round(read.confidence, 3)
    ('AS', 0.9)
    """
    k = int(probs.argmax())
    if k == NONE_CLASS:
        return None
    conf = float(np.sqrt(score * probs[k]))
    if conf < min_index:
        return None
    return IndexRead(box, CODES[k], conf, probs, up, top=top)


def suit_twin(code: str) -> str:
    """The same rank in the other suit of its colour.

    >>> suit_twin("2C"), suit_twin("TH")
    ('2S', 'TD')
    """
    return code[:-1] + TWIN_SUIT[code[-1]]


def centre(box: Box) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])


def apart(a: IndexRead, b: IndexRead) -> float:
    """How far apart two indices lie, in sizes of the larger."""
    return float(np.linalg.norm(centre(a.box) - centre(b.box)) / max(box_side(a.box), box_side(b.box)))


def card_frame(box_a: Box, up_a, box_b: Box, up_b) -> tuple[float, float, float]:
    """How index ``b`` lies from index ``a`` in ``a``'s frame: the cosine between the ways they
    face (``up_a``, ``up_b``: unit (x, y) in the image), and how far ``b``'s centre lies below
    ``a``'s (against ``a``'s way up) and to its right, in index sizes (the larger box's). One
    card's two indices face opposite ways, each below and to the right of the other."""
    d = (centre(box_b) - centre(box_a)) / max(box_side(box_a), box_side(box_b))
    u = np.asarray(up_a, np.float64)
    right = np.array([-u[1], u[0]])  # the way an upright index's text runs
    return float(np.dot(u, np.asarray(up_b, np.float64))), float(np.dot(d, -u)), float(np.dot(d, right))


def lie_as_one_card(a: IndexRead, b: IndexRead, settings: Grouping) -> bool:
    """Whether ``a`` and ``b`` (each with its way up) lie as one card's two indices lie, from
    either end."""
    s = settings
    for one, other in ((a, b), (b, a)):
        cos, along, across = card_frame(one.box, one.up, other.box, other.up)
        if not (cos <= s.pair_cos and s.pair_along[0] <= along <= s.pair_along[1]
                and s.pair_across[0] <= across <= s.pair_across[1]):
            return False
    return True


def pair_odds(pa: np.ndarray, pb: np.ndarray) -> tuple[int, float, np.ndarray]:
    """Two indices' probabilities (53 each) multiplied over the 52 codes ("no index" ruled out:
    both are indices) and normalised: the likeliest code's class, its share, and all 52 shares."""
    both = pa[:NONE_CLASS].astype(np.float64) * pb[:NONE_CLASS]
    total = float(both.sum())
    k = int(both.argmax())
    if total <= 0:
        return k, 0.0, both
    return k, float(both[k]) / total, both / total


def detector_score(ix: IndexRead) -> float:
    """The detector's score behind an index read (its confidence is sqrt(score x probability))."""
    return ix.confidence ** 2 / max(float(ix.probs[CODES.index(ix.card)]), 1e-9)


def read_as_pairs(reads: list[IndexRead], settings: Grouping) -> list[IndexRead]:
    """``reads`` (each with its way up) with each two that read two codes and lie as one card's
    two indices lie read as one card: both given the code their probabilities multiplied find
    likeliest (with ``pair_share`` of the odds or more), those probabilities, and each its
    confidence with that code's share in place of its own probability (``paired_share``). The
    surest pairs first; an index is read with at most one other, and with none when it already
    lies so with an index of its own code (its card has its two indices)."""
    s = settings
    if s.pair_share <= 0 or len(reads) < 2:
        return reads
    lie: dict[tuple[int, int], bool] = {}

    def lies(i: int, j: int) -> bool:
        if (i, j) not in lie:
            lie[i, j] = lie[j, i] = lie_as_one_card(reads[i], reads[j], s)
        return lie[i, j]

    n = len(reads)
    paired = {i for i in range(n) for j in range(n)
              if i != j and reads[i].card == reads[j].card and apart(reads[i], reads[j]) <= s.far_apart
              and lies(i, j)}
    found = []
    for i in range(n):
        for j in range(i + 1, n):
            a, b = reads[i], reads[j]
            if a.card == b.card or i in paired or j in paired or apart(a, b) > s.far_apart:
                continue
            k, share, both = pair_odds(a.probs, b.probs)
            # the odds first, the geometry (dearer) only for the few pairs that pass them
            if share >= s.pair_share and min(float(a.probs[k]), float(b.probs[k])) >= s.pair_each and lies(i, j):
                found.append((share, i, j, k, both))
    out, used = list(reads), set()
    for share, i, j, k, both in sorted(found, key=lambda f: -f[0]):
        if i in used or j in used:
            continue
        used |= {i, j}
        probs = np.append(both, 0.0).astype(np.float32)  # "no index" ruled out: both are indices
        for m in (i, j):
            r = reads[m]
            score = min(detector_score(r), 1.0)
            out[m] = replace(r, card=CODES[k], confidence=float(np.sqrt(score * share)), probs=probs,
                             paired_share=share)
    return out


def read_again(ix: IndexRead, taken: set[str], min_index: float) -> IndexRead | None:
    """``ix`` read as its suit twin, given that it is none of ``taken`` (the photo's other cards:
    one deck holds each card once) nor its own code: the classifier's probabilities without
    those, the twin's share of what is left. None when the twin is taken, "no index" is then
    likelier, or the confidence falls under ``min_index``."""
    p = ix.probs.astype(np.float64)  # a copy
    if float(p[CODES.index(ix.card)]) <= 0:
        return None
    score = detector_score(ix)
    for code in taken | {ix.card}:
        p[CODES.index(code)] = 0.0
    if p.sum() <= 0:
        return None
    p /= p.sum()
    twin = CODES.index(suit_twin(ix.card))
    if p[twin] <= 0 or p[NONE_CLASS] > p[twin]:  # taken already, or "no index" likelier
        return None
    only = np.zeros_like(p)
    only[twin] = p[twin]
    return index_read(ix.box, min(score, 1.0), only, min_index, ix.up)


def face_one_way(a: IndexRead, b: IndexRead, settings: Grouping) -> bool:
    """Whether indices ``a`` and ``b`` face one way (within ``way_up_same``): then they are two
    cards, not one card's two indices."""
    return float(np.dot(a.up, b.up)) >= settings.way_up_same


def may_share_card(best: IndexRead, ix: IndexRead, settings: Grouping) -> bool:
    """Whether ``ix`` may be the other index of ``best``'s card (both read as one code): within
    ``far_apart`` index sizes of it, and, from ``way_up_apart`` sizes on, not facing its way."""
    far = apart(best, ix)
    if far > settings.far_apart:
        return False
    if settings.way_up_apart > 0 and far >= settings.way_up_apart and best.up is not None and ix.up is not None:
        return not face_one_way(best, ix, settings)
    return True


def code_card(code: str, group: list[IndexRead], settings: Grouping) -> tuple[CardRead | None, list[IndexRead]]:
    """The card of ``code`` made from its strongest index in ``group`` (sorted strongest first)
    and those that may share its card (None when under ``min_card``), and those indices."""
    best = group[0]
    near = [ix for ix in group if ix is best or may_share_card(best, ix, settings)]
    far = len(near) < len(group)
    miss = 1.0
    for ix in near[:2]:
        miss *= 1 - ix.confidence
    confidence = 1 - miss
    if confidence < settings.min_card:
        return None, near
    # a card whose two indices read two codes, read as one of them: flagged unless the two
    # together are sure of it (read_as_pairs)
    split = any(ix.paired_share is not None and ix.paired_share < settings.uncertain_below for ix in near)
    uncertain = far or split or confidence < settings.uncertain_below
    return CardRead(code, confidence, tuple(ix.box for ix in near), uncertain), near


def one_card_per_code(indices: list[IndexRead], settings: Grouping
                      ) -> tuple[list[tuple[CardRead, list[IndexRead]]], list[IndexRead]]:
    """The cards (not yet in deck order), each with the indices it was read from, and the
    indices far from their code's card."""
    left_over: list[IndexRead] = []
    by_code: dict[str, list[IndexRead]] = {}
    for ix in indices:
        by_code.setdefault(ix.card, []).append(ix)
    cards = []
    for code, group in by_code.items():
        group.sort(key=lambda ix: -ix.confidence)
        card, near = code_card(code, group, settings)
        if card is not None:  # else too weak a card: its indices are dropped
            cards.append((card, near))
            left_over += [ix for ix in group if not any(ix is n for n in near)]
    return cards, left_over


def alternative(card: CardRead, near: list[IndexRead], taken: set[str]) -> str | None:
    """The likeliest other card for ``card``, read from ``near`` (its indices): the code their
    probabilities, averaged, rank first after its own, leaving out ``taken`` (the photo's other
    cards: one deck holds each card once). None when they give no other card a chance.

    >>> p = np.zeros(53, np.float32); p[CODES.index("2S")] = 0.6; p[CODES.index("2C")] = 0.3
    >>> p[CODES.index("3S")] = 0.1
    >>> ix = IndexRead((0.0, 0.0, 9.0, 9.0), "2S", 0.7, p)
    >>> card = CardRead("2S", 0.7, (ix.box,), True)
    >>> alternative(card, [ix], set()), alternative(card, [ix], {"2C"})
    ('2C', '3S')
    """
    if not near:
        return None
    p = np.mean([ix.probs[:NONE_CLASS] for ix in near], axis=0).astype(np.float64)
    for code in taken | {card.card}:
        p[CODES.index(code)] = 0.0
    k = int(p.argmax())
    return CODES[k] if p[k] > 0 else None


def group_indices(indices: list[IndexRead], settings: Grouping, min_index: float
                  ) -> tuple[list[CardRead], list[IndexRead]]:
    """One card per code, in deck order: its indices' boxes, a combined confidence, and a flag
    when unsure; and ``indices`` as the cards report them (an index read again as its suit twin
    carries that code; the others keep the code the classifier read).

    With ``one_deck``, the indices left over because their code's card lies far away are read
    again (:func:`read_again`) and make cards of their own, flagged uncertain."""
    made, far = one_card_per_code(indices, settings)
    again: dict[int, IndexRead] = {}
    if settings.one_deck and far:
        taken = {c.card for c, _ in made}
        for ix in far:
            r = read_again(ix, taken, min_index)
            if r is not None:
                again[id(ix)] = r
        more, _ = one_card_per_code(list(again.values()), settings)  # far apart again: dropped
        made += [(replace(c, uncertain=True), near) for c, near in more]
    codes = {c.card for c, _ in made}
    cards = [replace(c, alternative=alternative(c, near, codes)) for c, near in made]
    cards.sort(key=lambda c: CODES.index(c.card))  # deck order
    return cards, [again.get(id(ix), ix) for ix in indices]
