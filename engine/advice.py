"""Advice a strong player would give, with its numbers and one line of reasons.

- :func:`advise_draw`: with 10 cards and the upcard showing, take it or draw from the
  stock, comparing the deadwood after the best discard either way (the stock averaged over
  the cards not seen).
- :func:`advise_turn`: with 11 cards, the best discard, and knock now or play on. The knock
  weighs the undercut risk, estimated by sampling the opponent's possible hands from what
  is known (our cards, the discard pile, the cards the opponent took from it) and settling
  each showdown with layoffs; it also counts the outs to gin.

The opponent model: the opponent holds the cards they took from the pile (and still hold)
plus unseen cards; having played some turns, they kept the best 10 of more cards than 10.
Turns are estimated from the pile (each player discards once a turn); 3 when unknown.
Sampling is seeded, so the same question gets the same answer.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import CODES, PRETTY, Card, cards_to_mask, check_cards, mask_to_cards
from engine.errors import GinsightError
from engine.masks import discard_deadwoods_mask, min_deadwood_mask
from engine.melds import all_best_arrangements
from engine.rules import DEFAULT_RULES, Rules
from engine.showdown import settle_arranged

KNOCK_RISK_LIMIT = 0.25  # knock only when fewer than this share of samples undercut us
LATE_STOCK = 6  # with this few cards left in the stock, any knock expected to gain is taken
DEFAULT_SAMPLES = 300


def _unseen(known: int) -> list[int]:
    return [c for c in range(52) if not known >> c & 1]


def best_discard(mask: int, keep: int = 0, unseen: Sequence[int] = ()) -> tuple[int, int]:
    """(card, deadwood): the discard leaving least deadwood, never a card in ``keep``.

    Ties go to the discard that leaves the most unseen cards that would lower the count
    (keep 9-10 of clubs rather than a lone king), then to the higher-value card, then to
    the later card in deck order.
    """
    deadwoods = discard_deadwoods_mask(mask)
    allowed = [c for c in deadwoods if not keep >> c & 1]
    least = min(deadwoods[c] for c in allowed)
    tied = [c for c in allowed if deadwoods[c] == least]
    if len(tied) > 1 and unseen:
        outs = {c: improving_outs(mask ^ (1 << c), least, unseen) for c in tied}
        most = max(outs.values())
        tied = [c for c in tied if outs[c] == most]
    best = min(tied, key=lambda c: (-min(c % 13 + 1, 10), -c))
    return best, least


def lookahead_discard(mask: int, keep: int, unseen: Sequence[int]) -> tuple[int, float]:
    """(card, expected deadwood): the discard whose 10 cards, after one more card from
    ``unseen`` (and the best discard then), leave the least deadwood on average. Ties go to
    the least deadwood now, then as in :func:`best_discard`."""
    now = discard_deadwoods_mask(mask)
    best = None
    for c in now:
        if keep >> c & 1:
            continue
        rest = mask ^ (1 << c)
        total = 0
        for u in unseen:
            total += min(discard_deadwoods_mask(rest | 1 << u).values())
        key = (total / len(unseen), now[c], -min(c % 13 + 1, 10), -c)
        if best is None or key < best[0]:
            best = (key, c)
    assert best is not None
    return best[1], best[0][0]


def improving_outs(hand10: int, deadwood: int, unseen: Sequence[int]) -> int:
    """How many unseen cards, drawn, would leave less deadwood than ``deadwood``."""
    return sum(1 for u in unseen if min(discard_deadwoods_mask(hand10 | 1 << u).values()) < deadwood)


def gin_outs(hand10: Iterable[int], unseen: Iterable[int]) -> list[Card]:
    """The unseen cards that, drawn, let the hand go gin."""
    mask = cards_to_mask(hand10)
    return [Card(u) for u in unseen if min(discard_deadwoods_mask(mask | 1 << u).values()) == 0]


def _check(cards: Sequence[int], n: int, what: str) -> int:
    return cards_to_mask(check_cards(cards, sizes=(n,), what=what))


def _disjoint(hand: int, named: dict[str, Sequence[int]]) -> int:
    known = hand
    for what, cards in named.items():
        m = cards_to_mask(cards)
        if m & known:
            clash = " ".join(CODES[c] for c in mask_to_cards(m & known))
            raise GinsightError(f"{clash} in {what} is also named elsewhere (one deck)")
        known |= m
    return known


def _possible(took: Sequence[int], pool: Sequence[int], discards: Sequence[int]) -> None:
    """Refuse what no deal can be: the opponent holds 10 cards, so at most 10 of them were
    taken from the pile, and the cards not named anywhere (``pool``) must hold the rest."""
    if len(took) > 10:
        raise GinsightError(f"the opponent holds 10 cards, but {len(took)} are named as taken from the pile")
    if len(pool) < 10 - len(took):
        raise GinsightError(
            f"with the hand, the {len(discards)} cards of the discard pile and the {len(took)} the opponent "
            f"took, {len(pool)} cards are left unseen: too few for the opponent's {10 - len(took)} others"
        )


@dataclass(frozen=True, slots=True)
class DrawAdvice:
    """Take the upcard or draw from the stock."""

    take: bool
    upcard: Card
    take_deadwood: int  # after the best discard, having taken the upcard
    take_discard: Card
    draw_expected: float  # expected deadwood after the best discard, drawing blind
    current_deadwood: int
    reasons: str

    def to_json(self) -> dict[str, Any]:
        return {
            "action": "take" if self.take else "draw",
            "upcard": CODES[self.upcard],
            "take_deadwood": self.take_deadwood,
            "take_discard": CODES[self.take_discard],
            "draw_expected_deadwood": round(self.draw_expected, 2),
            "current_deadwood": self.current_deadwood,
            "reasons": self.reasons,
        }


def advise_draw(
    hand: Sequence[int],
    upcard: int,
    discards: Sequence[int] = (),
    opponent_took: Sequence[int] = (),
    rules: Rules = DEFAULT_RULES,
) -> DrawAdvice:
    """With 10 cards: take the upcard, or draw from the stock?

    >>> from engine.cards import parse_cards, parse_card
    >>> a = advise_draw(parse_cards("5H 6H 9S 9D 2C 3C KS QD JC 4S"), parse_card("7H"))
    >>> a.take, a.take_deadwood, a.reasons.split(":")[0]
    (True, 47, 'Take 7♥')
    """
    mask = _check(hand, 10, "hand")
    known = _disjoint(mask, {"upcard": [upcard], "discards": discards, "opponent's cards": opponent_took})
    up = 1 << upcard
    unseen = _unseen(known)
    _possible(opponent_took, unseen, discards)
    take_discard, take_dw = best_discard(mask | up, keep=up, unseen=unseen)
    draw_total = 0
    for u in unseen:
        draw_total += min(discard_deadwoods_mask(mask | 1 << u).values())
    draw_expected = draw_total / len(unseen) if unseen else float(take_dw)
    current = min_deadwood_mask(mask)
    take = take_dw < draw_expected
    if take:
        reasons = (
            f"Take {PRETTY[upcard]}: deadwood {take_dw} after discarding {PRETTY[take_discard]}, "
            f"against {draw_expected:.1f} expected from the stock (now {current})"
        )
    else:
        reasons = (
            f"Draw from the stock: {draw_expected:.1f} deadwood expected, against {take_dw} "
            f"taking {PRETTY[upcard]} (now {current})"
        )
    return DrawAdvice(take, Card(upcard), take_dw, Card(take_discard), draw_expected, current, reasons)


@dataclass(frozen=True, slots=True)
class KnockEstimate:
    samples: int
    undercut_risk: float  # share of sampled showdowns the opponent undercuts
    expected_points: float  # mean points for us (negative when undercut)


@dataclass(frozen=True, slots=True)
class TurnAdvice:
    """With 11 cards: what to discard, and whether to knock."""

    discard: Card
    deadwood: int
    can_knock: bool
    gin: bool
    knock: bool
    gin_outs: tuple[Card, ...]
    estimate: KnockEstimate | None
    reasons: str

    def to_json(self) -> dict[str, Any]:
        out = {
            "discard": CODES[self.discard],
            "deadwood": self.deadwood,
            "can_knock": self.can_knock,
            "gin": self.gin,
            "action": "knock" if self.knock else "play on",
            "gin_outs": [CODES[c] for c in self.gin_outs],
            "undercut_risk": None,
            "expected_points": None,
            "samples": 0,
            "reasons": self.reasons,
        }
        if self.estimate:
            out["undercut_risk"] = round(self.estimate.undercut_risk, 3)
            out["expected_points"] = round(self.estimate.expected_points, 2)
            out["samples"] = self.estimate.samples
        return out


def estimated_opponent_turns(discards: Sequence[int]) -> int:
    return min(len(discards) // 2, 8) if discards else 3


def sample_opponent(
    rng: random.Random, pool: list[int], took: Sequence[int], turns: int
) -> list[Card]:
    """One possible opponent hand: the cards they took, plus unseen cards, keeping the best
    10 of ``10 + turns`` (they threw their worst card each turn)."""
    extra = min(turns, len(pool) - (10 - len(took)))
    cards = list(took) + rng.sample(pool, 10 - len(took) + max(extra, 0))
    mask = cards_to_mask(cards)
    keep = cards_to_mask(took)
    while mask.bit_count() > 10:
        c, _ = best_discard(mask, keep=keep)
        mask ^= 1 << c
    return mask_to_cards(mask)


def estimate_knock(
    knock_hand: Sequence[int],
    unseen: Sequence[int],
    opponent_took: Sequence[int],
    turns: int,
    samples: int,
    rng: random.Random,
    rules: Rules,
) -> KnockEstimate:
    """Settle the knock against ``samples`` possible opponent hands."""
    took = set(opponent_took)
    pool = [c for c in unseen if c not in took]
    knocker = all_best_arrangements(knock_hand)  # the same for every sample
    undercuts = 0
    total = 0
    for _ in range(samples):
        opp = sample_opponent(rng, pool, opponent_took, turns)
        r = settle_arranged(knocker, opp, rules)
        if r.winner == "knocker":
            total += r.points
        else:
            undercuts += 1
            total -= r.points
    return KnockEstimate(samples, undercuts / samples, total / samples)


def advise_turn(
    hand: Sequence[int],
    discards: Sequence[int] = (),
    opponent_took: Sequence[int] = (),
    *,
    taken_from_pile: int | None = None,
    stock_size: int | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    rules: Rules = DEFAULT_RULES,
    risk_limit: float = KNOCK_RISK_LIMIT,
    lookahead: bool = True,
) -> TurnAdvice:
    """With 11 cards: the best discard, and knock now or play on.

    ``taken_from_pile``: the card just taken from the pile, which may not be discarded.
    ``stock_size``: cards left in the stock, when known: near the end (the hand is about
    to be a draw) any knock expected to gain is advised, whatever the risk.

    >>> from engine.cards import parse_cards
    >>> a = advise_turn(parse_cards("AS 2S 3S 4S 7H 7D 7C 9C TC JC KD"))
    >>> a.discard.code, a.gin, a.knock, a.reasons
    ('KD', True, True, 'Knock: gin, 0 deadwood after discarding K♦')
    """
    mask = _check(hand, 11, "hand")
    known = _disjoint(mask, {"discards": discards, "opponent's cards": opponent_took})
    keep = 0
    if taken_from_pile is not None:
        keep = 1 << taken_from_pile
        if not mask & keep:
            raise GinsightError(f"{CODES[taken_from_pile]} is not in the hand")
    unseen = _unseen(known)
    took = set(opponent_took)
    pool = [u for u in unseen if u not in took]
    _possible(opponent_took, pool, discards)
    discard, deadwood = best_discard(mask, keep=keep, unseen=pool)
    rest = mask ^ (1 << discard)
    outs = tuple(gin_outs(mask_to_cards(rest), pool))
    can_knock = deadwood <= rules.knock_limit
    gin = deadwood == 0
    estimate = None
    if gin:
        knock = True
        reasons = f"Knock: gin, 0 deadwood after discarding {PRETTY[discard]}"
    elif can_knock:
        rng = random.Random(seed * 1_000_003 + mask)
        estimate = estimate_knock(
            mask_to_cards(rest), unseen, opponent_took, estimated_opponent_turns(discards), samples, rng, rules
        )
        late = stock_size is not None and stock_size <= LATE_STOCK
        knock = estimate.expected_points > 0 and (estimate.undercut_risk < risk_limit or late)
        verb = "Knock" if knock else "Play on"
        reasons = (
            f"{verb}: {deadwood} deadwood after discarding {PRETTY[discard]}; "
            f"undercut risk about {estimate.undercut_risk:.0%}; "
            f"expected {estimate.expected_points:+.1f} points; {len(outs)} cards give gin"
        )
    else:
        knock = False
    if not knock and lookahead and pool:
        # Playing on: throw what leaves the best hand after the next draw, on average.
        planned, _ = lookahead_discard(mask, keep, pool)
        if planned != discard:
            discard = planned
            deadwood = discard_deadwoods_mask(mask)[discard]
            rest = mask ^ (1 << discard)
            outs = tuple(gin_outs(mask_to_cards(rest), pool))
    if not knock and not can_knock:
        reasons = (
            f"Play on: discard {PRETTY[discard]}, {deadwood} deadwood "
            f"(a knock needs {rules.knock_limit} or less); {len(outs)} cards give gin"
        )
    elif not knock and estimate is not None:
        reasons = (
            f"Play on: discard {PRETTY[discard]}, {deadwood} deadwood; a knock now risks an undercut "
            f"about {estimate.undercut_risk:.0%} of the time (expected {estimate.expected_points:+.1f} points); "
            f"{len(outs)} cards give gin"
        )
    return TurnAdvice(Card(discard), deadwood, can_knock, gin, knock, outs, estimate, reasons)
