"""Players for simulated games: a bot picks an action from a :class:`PlayerView`.

- :class:`BaselineBot`: a simple, sensible player: takes the upcard when it lowers the
  count, discards what leaves the least deadwood (highest card on ties), knocks as soon
  as it may.
- :class:`AdviceBot`: plays by :mod:`engine.advice`: take-or-draw by the expected
  deadwood, discards by it, and knocks only when the sampled undercut risk allows.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.advice import advise_draw, advise_turn, best_discard
from engine.cards import DECK, cards_to_mask
from engine.game import PASS, PILE, STOCK, TAKE, Action, Phase, PlayerView
from engine.masks import discard_deadwoods_mask, min_deadwood_mask


class Bot:
    """Chooses one of ``legal`` (never empty) from what ``view`` shows."""

    name = "bot"

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        raise NotImplementedError


@dataclass
class BaselineBot(Bot):
    name: str = "baseline"

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        hand = cards_to_mask(view.hand)
        if view.phase in (Phase.FIRST_CAPTAIN, Phase.FIRST_BOX, Phase.DRAW):
            if legal == [STOCK]:
                return STOCK
            up = view.pile[-1]
            options = discard_deadwoods_mask(hand | 1 << up)
            with_up = min(dw for c, dw in options.items() if c != up)
            wants_pile = with_up < min_deadwood_mask(hand)
            if view.phase is Phase.DRAW:
                return PILE if wants_pile else STOCK
            return TAKE if wants_pile else PASS
        keep = 1 << view.taken_from_pile if view.taken_from_pile is not None else 0
        card, deadwood = best_discard(hand, keep=keep)
        return Action("knock" if deadwood <= view.rules.knock_limit else "discard", DECK[card])


@dataclass
class AdviceBot(Bot):
    name: str = "advice"
    samples: int = 60
    seed: int = 0
    risk_limit: float = 0.25
    lookahead: bool = True

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        if view.phase in (Phase.FIRST_CAPTAIN, Phase.FIRST_BOX, Phase.DRAW):
            if legal == [STOCK]:
                return STOCK
            draw = advise_draw(view.hand, view.pile[-1], view.pile[:-1], view.opponent_took, rules=view.rules)
            if view.phase is Phase.DRAW:
                return PILE if draw.take else STOCK
            return TAKE if draw.take else PASS
        advice = advise_turn(
            view.hand, view.pile, view.opponent_took, taken_from_pile=view.taken_from_pile,
            stock_size=view.stock_size, samples=self.samples, seed=self.seed, rules=view.rules,
            risk_limit=self.risk_limit, lookahead=self.lookahead,
        )
        return Action("knock" if advice.knock else "discard", advice.discard)


BOTS = {"baseline": BaselineBot, "advice": AdviceBot}
