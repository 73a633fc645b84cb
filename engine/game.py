"""One hand of three-handed gin as a state machine, in the manner of python-chess and
OpenSpiel: a :class:`Phase`, :meth:`HandState.legal_actions`, :meth:`HandState.apply` that
refuses an illegal action with a clear error, and an outcome record when the hand ends.

The box deals; the box and the captain get 10 cards each, the next card starts the
discard pile (the upcard), the rest is the stock. First turn: the captain may take the
upcard; if not, the box may; if neither, the captain draws from the stock. After that,
each turn is take (stock or pile) then discard, or take then knock (knock = discard face
down and lay out). A knock is allowed on any turn, the first included. When a discard
leaves two cards in the stock and nobody knocked, the hand is a draw.

Where RULES.md is silent, as players of gin expect: a card taken from the discard pile may
not be discarded in the same turn (nor knocked with), so a turn always changes the hand.

>>> import random
>>> state = HandState.deal(random.Random(7))
>>> state.phase, state.to_play, len(state.hands[Seat.CAPTAIN]), len(state.stock)
(<Phase.FIRST_CAPTAIN: 'first_captain'>, <Seat.CAPTAIN: 'captain'>, 10, 31)
>>> [str(a) for a in state.legal_actions()]
['take', 'pass']
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal, get_args

from engine.cards import CODES, DECK, Card, cards_to_mask, parse_card
from engine.errors import GameError, GinsightError, IllegalActionError
from engine.masks import min_deadwood_mask
from engine.melds import Meld
from engine.rules import DEFAULT_RULES, Rules
from engine.showdown import Settlement, settle
from engine.table import HandResult, Result, Seat, seat_of

DRAW_AT = 2  # the hand is a draw when a discard leaves this many cards in the stock

ActionKind = Literal["take", "pass", "stock", "pile", "discard", "knock"]
ACTION_KINDS: tuple[ActionKind, ...] = get_args(ActionKind)
CARD_ACTIONS: tuple[ActionKind, ...] = ("discard", "knock")  # the kinds that name a card


class Phase(Enum):
    FIRST_CAPTAIN = "first_captain"  # the captain may take the upcard, or pass
    FIRST_BOX = "first_box"  # the captain passed: the box may take it, or pass
    DRAW = "draw"  # take the top of the stock or of the pile
    DISCARD = "discard"  # discard, or knock with a discard
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Action:
    """``take`` / ``pass`` (first turn), ``stock`` / ``pile`` (draw), ``discard X`` /
    ``knock X`` (X the card put down; a knock may name the melds laid)."""

    kind: ActionKind
    card: Card | None = None
    melds: tuple[Meld, ...] | None = None

    def __str__(self) -> str:
        return self.kind if self.card is None else f"{self.kind} {CODES[self.card]}"

    @classmethod
    def parse(cls, text: str) -> Action:
        """``'take'``, ``'pass'``, ``'stock'``, ``'pile'``, ``'discard QS'``, ``'knock 7H'``."""
        parts = text.split()
        if not parts:
            raise IllegalActionError("empty action")
        word = parts[0].lower()
        kind = next((k for k in ACTION_KINDS if k == word), None)
        if kind is not None:
            if kind in CARD_ACTIONS and len(parts) == 2:
                return cls(kind, parse_card(parts[1]))
            if kind not in CARD_ACTIONS and len(parts) == 1:
                return cls(kind)
        raise IllegalActionError(f"not an action: {text!r} (take, pass, stock, pile, discard X, knock X)")


TAKE, PASS, STOCK, PILE = Action("take"), Action("pass"), Action("stock"), Action("pile")


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How the hand ended. Seats, not players: the table maps seats to players."""

    result: Result
    knocker: Seat | None
    winner: Seat | None
    points: int
    knocker_deadwood: int | None
    defender_deadwood: int | None
    stock_left: int
    settlement: Settlement | None = None

    def to_result(self) -> HandResult:
        return HandResult(
            self.result, self.knocker, self.winner, self.points, self.knocker_deadwood, self.defender_deadwood
        )


@dataclass
class HandState:
    """A hand in play. ``hands`` by seat; ``stock`` and ``pile`` with their tops last."""

    hands: dict[Seat, list[Card]]
    stock: list[Card]
    pile: list[Card]
    rules: Rules = DEFAULT_RULES
    phase: Phase = Phase.FIRST_CAPTAIN
    to_play: Seat = Seat.CAPTAIN
    taken_from_pile: Card | None = None  # may not be discarded this turn
    must_draw_stock: bool = False  # the captain's first draw after both passed
    took_from_pile: dict[Seat, list[Card]] = field(default_factory=lambda: {seat: [] for seat in Seat})
    outcome: HandOutcome | None = None
    turns: int = 0

    @classmethod
    def deal(cls, rng: random.Random, rules: Rules = DEFAULT_RULES) -> HandState:
        """Shuffle and deal: 10 each, one at a time, the captain (non-dealer) first."""
        deck = list(DECK)
        rng.shuffle(deck)
        return cls.from_deck(deck, rules)

    @classmethod
    def from_deck(cls, deck: list[Card], rules: Rules = DEFAULT_RULES) -> HandState:
        """Deal from a deck in order (``deck[0]`` is dealt first). For scripted hands."""
        if sorted(deck) != list(DECK):
            raise GameError("a deal needs the 52 cards of one deck")
        captain = [deck[i] for i in range(0, 20, 2)]
        box = [deck[i] for i in range(1, 20, 2)]
        upcard = deck[20]
        stock = list(reversed(deck[21:]))  # deck[21] is the top of the stock
        return cls({Seat.BOX: box, Seat.CAPTAIN: captain}, stock, [upcard], rules)

    # --- queries ------------------------------------------------------------------
    @property
    def opponent(self) -> Seat:
        return self.to_play.other()

    @property
    def upcard(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def card_count(self) -> int:
        return len(self.stock) + len(self.pile) + sum(len(h) for h in self.hands.values())

    def can_knock_with(self, card: Card) -> bool:
        hand = self.hands[self.to_play]
        return min_deadwood_mask(cards_to_mask(hand) ^ (1 << card)) <= self.rules.knock_limit

    def legal_actions(self) -> list[Action]:
        if self.phase in (Phase.FIRST_CAPTAIN, Phase.FIRST_BOX):
            return [TAKE, PASS]
        if self.phase is Phase.DRAW:
            return [STOCK] if self.must_draw_stock or not self.pile else [STOCK, PILE]
        if self.phase is Phase.DISCARD:
            hand = self.hands[self.to_play]
            mask = cards_to_mask(hand)
            limit = self.rules.knock_limit
            out: list[Action] = []
            for c in sorted(hand):
                if c == self.taken_from_pile:
                    continue
                out.append(Action("discard", c))
                if min_deadwood_mask(mask ^ (1 << c)) <= limit:
                    out.append(Action("knock", c))
            return out
        return []

    # --- moves --------------------------------------------------------------------
    def apply(self, action: Action | str) -> HandState:
        """Play ``action`` for the player to move; raises :class:`IllegalActionError`."""
        if isinstance(action, str):
            action = Action.parse(action)
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalActionError("the hand is over")
        who = self.to_play
        if phase in (Phase.FIRST_CAPTAIN, Phase.FIRST_BOX):
            if action.kind == "take":
                self._take_pile(who)
            elif action.kind == "pass":
                if phase is Phase.FIRST_CAPTAIN:
                    self.phase, self.to_play = Phase.FIRST_BOX, Seat.BOX
                else:  # both passed: the captain starts by drawing from the stock
                    self.phase, self.to_play, self.must_draw_stock = Phase.DRAW, Seat.CAPTAIN, True
            else:
                raise IllegalActionError(f"{who} must 'take' the upcard or 'pass' on the first turn, not {action}")
        elif phase is Phase.DRAW:
            if action.kind == "stock":
                self.hands[who].append(self.stock.pop())
                self.phase, self.must_draw_stock, self.taken_from_pile = Phase.DISCARD, False, None
            elif action.kind == "pile":
                if self.must_draw_stock:
                    raise IllegalActionError("both passed the upcard: the captain must draw from the stock")
                if not self.pile:
                    raise IllegalActionError("the discard pile is empty")
                self._take_pile(who)
            else:
                raise IllegalActionError(f"{who} must take a card first ('stock' or 'pile'), not {action}")
        else:  # DISCARD
            if action.kind not in ("discard", "knock") or action.card is None:
                raise IllegalActionError(f"{who} must 'discard X' or 'knock X', not {action}")
            card = action.card
            hand = self.hands[who]
            if card not in hand:
                raise IllegalActionError(f"{CODES[card]} is not in the {who}'s hand")
            if card == self.taken_from_pile:
                raise IllegalActionError(f"{CODES[card]} was just taken from the pile: it cannot be put back this turn")
            if action.kind == "knock":
                self._knock(who, card, action.melds)
            else:
                hand.remove(card)
                self.pile.append(card)
                self.turns += 1
                self.taken_from_pile = None
                if len(self.stock) <= DRAW_AT:
                    self.phase = Phase.OVER
                    self.outcome = HandOutcome("draw", None, None, 0, None, None, len(self.stock))
                else:
                    self.phase, self.to_play = Phase.DRAW, self.opponent
        return self

    def _take_pile(self, who: Seat) -> None:
        card = self.pile.pop()
        self.hands[who].append(card)
        self.took_from_pile[who].append(card)
        self.taken_from_pile = card
        self.phase = Phase.DISCARD

    def _knock(self, who: Seat, card: Card, melds: tuple[Meld, ...] | None) -> None:
        hand = [c for c in self.hands[who] if c != card]
        count = min_deadwood_mask(cards_to_mask(hand))
        if count > self.rules.knock_limit:
            raise IllegalActionError(
                f"cannot knock discarding {CODES[card]}: count {count} is above {self.rules.knock_limit}"
            )
        defender = who.other()
        try:
            result = settle(hand, self.hands[defender], list(melds) if melds else None, self.rules)
        except GinsightError as exc:
            raise IllegalActionError(str(exc)) from None
        self.hands[who] = hand
        self.pile.append(card)
        self.turns += 1
        self.phase = Phase.OVER
        winner = who if result.winner == "knocker" else defender
        self.outcome = HandOutcome(
            result.outcome, who, winner, result.points, result.knocker.deadwood, result.defender.deadwood,
            len(self.stock), result,
        )

    def copy(self) -> HandState:
        return HandState(
            {s: list(h) for s, h in self.hands.items()}, list(self.stock), list(self.pile), self.rules,
            self.phase, self.to_play, self.taken_from_pile, self.must_draw_stock,
            {s: list(h) for s, h in self.took_from_pile.items()}, self.outcome, self.turns,
        )

    def view(self, seat: Seat) -> PlayerView:
        """What ``seat`` can see: its hand, the pile, the stock's size, and the cards the
        opponent took from the pile (still in the opponent's hand)."""
        seat = seat_of(seat, "seat")
        other = seat.other()
        opp_hand = set(self.hands[other])
        return PlayerView(
            seat, tuple(self.hands[seat]), tuple(self.pile), len(self.stock),
            tuple(c for c in self.took_from_pile[other] if c in opp_hand), self.phase, self.taken_from_pile,
            self.rules,
        )


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player's knowledge at a decision: what bots and the advice are given."""

    seat: Seat
    hand: tuple[Card, ...]
    pile: tuple[Card, ...]
    stock_size: int
    opponent_took: tuple[Card, ...]
    phase: Phase
    taken_from_pile: Card | None
    rules: Rules


__all__ = ["ACTION_KINDS", "CARD_ACTIONS", "DRAW_AT", "PASS", "PILE", "STOCK", "TAKE", "Action",
           "ActionKind", "HandOutcome", "HandState",
           "IllegalActionError",  # defined in engine.errors, raised here
           "Phase", "PlayerView"]
