"""Drawing the engine's answers: cards, melds in colour, hand reports, advice, showdowns.

Every number shown comes from :mod:`engine`; these functions only lay it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape

import streamlit as st

from engine.advice import TurnAdvice, advise_draw, advise_turn
from engine.cards import CODES, DECK, PRETTY, Card
from engine.errors import GinsightError
from engine.hand import HAND_SIZES, DiscardOption, analyse_hand
from engine.melds import Arrangement, best_arrangement
from engine.rules import DEFAULT_RULES, Rules
from engine.showdown import Settlement
from ui.cardtext import card_label, player_text

MELD_COLOURS = ("#dbeafe", "#dcfce7", "#fef3c7", "#fce7f3", "#ede9fe")
DEADWOOD_COLOUR = "#f3f4f6"
RED_SUITS = (1, 2)  # hearts, diamonds (engine.cards.SUITS order: S H D C)
NO_UPCARD = "—"


def card_html(card: Card) -> str:
    colour = "#b91c1c" if card.suit in RED_SUITS else "#111827"
    return (
        f'<span style="display:inline-block;min-width:2.6em;margin:1px 2px;padding:1px 5px;'
        f'border:1px solid #9ca3af;border-radius:5px;background:#fff;color:{colour};'
        f'font-weight:600;text-align:center">{escape(PRETTY[card])}</span>'
    )


def group_html(cards: Sequence[Card], background: str, caption: str) -> str:
    inner = "".join(card_html(c) for c in cards) or '<span style="color:#6b7280">none</span>'
    return (
        f'<div style="display:inline-block;margin:3px 6px 3px 0;padding:4px 6px;border-radius:8px;'
        f'background:{background}"><div style="font-size:0.75em;color:#374151">{escape(caption)}</div>'
        f"{inner}</div>"
    )


def arrangement_html(arrangement: Arrangement) -> str:
    """The melds, each in its own colour, then the deadwood with its count."""
    parts = [
        group_html(m.cards, MELD_COLOURS[i % len(MELD_COLOURS)], "set" if m.is_set else "run")
        for i, m in enumerate(arrangement.melds)
    ]
    parts.append(group_html(arrangement.deadwood_cards, DEADWOOD_COLOUR, f"deadwood = {arrangement.deadwood}"))
    return "".join(parts)


def html(markup: str) -> None:
    st.markdown(markup, unsafe_allow_html=True)


def pretty(cards: Sequence[Card]) -> str:
    return " ".join(PRETTY[c] for c in cards) or "none"


# --- a hand: melds, deadwood, knock, discard, advice ------------------------------------


@dataclass(frozen=True)
class Known:
    """What else the player knows of the table, for the advice."""

    discards: tuple[Card, ...] = ()  # the discard pile (under the upcard)
    opponent_took: tuple[Card, ...] = ()  # cards the opponent took from the pile and still holds
    taken: Card | None = None  # with 11 cards: the card just taken from the pile


ASK = "ask"  # draw_hand's upcard: draw a select box for it


@dataclass(frozen=True)
class HandView:
    """What the page shows of a hand, worked out before anything is drawn (:func:`hand_view`).

    ``missing``/``extra``: cards short of 10, or beyond 11 (then ``arrangement`` is of the
    cards there are, ``discard`` None and no advice). With 11 cards, ``advice`` is the turn's
    (or ``advice_error`` says why there is none) and ``tie_note`` why the advised discard is
    not the first of the table of every discard.
    """

    cards: tuple[Card, ...]
    arrangement: Arrangement
    missing: int = 0
    extra: int = 0
    discard: Card | None = None
    gin: bool = False
    can_knock: bool = False
    knock_limit: int = DEFAULT_RULES.knock_limit
    options: tuple[DiscardOption, ...] = ()
    advice: TurnAdvice | None = None
    advice_error: str | None = None
    tie_note: str | None = None

    @property
    def complete(self) -> bool:
        """10 or 11 cards: a hand to advise on."""
        return not (self.missing or self.extra)


def hand_view(cards: Sequence[Card], known: Known = Known(), rules: Rules = DEFAULT_RULES) -> HandView:
    """The compute step of a hand's report: melds, deadwood, knock, discard and, with 11
    cards, the advice (which takes a moment: the knock is weighed by sampling). No drawing."""
    n = len(cards)
    if n not in HAND_SIZES:
        return HandView(tuple(cards), best_arrangement(cards) if n < 10 else best_arrangement(()),
                        missing=max(10 - n, 0), extra=max(n - 11, 0), knock_limit=rules.knock_limit)
    report = analyse_hand(cards, rules)
    view = HandView(tuple(cards), report.arrangement, discard=report.discard, gin=report.gin,
                    can_knock=report.can_knock, knock_limit=rules.knock_limit, options=report.options)
    if n == 10:
        return view
    try:
        advice = advise_turn(list(cards), known.discards, known.opponent_took, taken_from_pile=known.taken,
                             rules=rules)
    except GinsightError as exc:  # e.g. a card both in the hand and in the discard pile
        return replace(view, advice_error=player_text(str(exc)))
    arrangement = next(o.arrangement for o in report.options if o.discard == advice.discard)
    return replace(view, advice=advice, discard=advice.discard, gin=advice.gin, can_knock=advice.can_knock,
                   arrangement=arrangement, tie_note=tie_note(report.options, advice, known))


def tie_note(options: Sequence[DiscardOption], advice: TurnAdvice, known: Known) -> str | None:
    """Why the advised discard is not the table's first (least deadwood, ties in deck order)."""
    first = options[0]
    if advice.discard == first.discard:
        return None
    advised = next(o for o in options if o.discard == advice.discard)
    if known.taken == first.discard:
        return f"{PRETTY[first.discard]} was just taken from the pile: it may not be discarded this turn."
    if advised.deadwood == first.deadwood:
        tied = [PRETTY[o.discard] for o in options if o.deadwood == first.deadwood]
        return (f"{', '.join(tied[:-1])} and {tied[-1]} all leave {first.deadwood} deadwood"
                if len(tied) > 2 else f"{tied[0]} and {tied[1]} both leave {first.deadwood} deadwood") + (
            f". The tie goes to {PRETTY[advice.discard]}: of tied discards the advice keeps the hand that more "
            "unseen cards would improve, then throws the higher card.")
    return (f"{PRETTY[advice.discard]} leaves {advised.deadwood} deadwood now, more than {PRETTY[first.discard]}'s "
            f"{first.deadwood}, but the least on average after your next draw: the advice plays on.")


def hand_report(
    cards: Sequence[Card], slot: str, known: Known = Known(), rules: Rules = DEFAULT_RULES, *, strict: bool = True,
    upcard: str | None = ASK,
) -> None:
    """The analysis of 10 or 11 cards, with the advice: :func:`hand_view`, then :func:`draw_hand`."""
    with st.spinner("Weighing the knock…"):
        view = hand_view(cards, known, rules)
    draw_hand(view, slot, known, rules, strict=strict, upcard=upcard)


def draw_hand(view: HandView, slot: str, known: Known = Known(), rules: Rules = DEFAULT_RULES, *,
              strict: bool = True, upcard: str | None = ASK) -> None:
    """The render step: a hand's :class:`HandView`. ``strict``: a wrong number of cards is an
    error (a photo or typed hand), else a note (the live video, where hands come and go).
    ``upcard``: a card code or None when the page chose it already, else a select box asks."""
    n = len(view.cards)
    if not view.complete:
        if view.missing:
            count, fix = view.missing, "add the missed card" + ("s" if view.missing > 1 else "")
            text = (f"{n} card{'s' if n != 1 else ''}, {count} missing: a hand has 10 cards, or 11 just after "
                    f"taking one. Correct the cards above: {fix}.")
        else:
            count = view.extra
            text = (f"{n} cards: a hand has 10 cards, or 11 just after taking one. Correct the cards above: "
                    f"remove {count} wrong card{'s' if count > 1 else ''}.")
        (st.error if strict else st.info)(text)
        if view.missing and n:
            html(f'<div style="margin-bottom:0.4em"><b>Melds so far</b> (of the {n} cards there are)</div>'
                 f"{arrangement_html(view.arrangement)}")
        return
    cols = st.columns(3)
    cols[0].metric("Deadwood", view.arrangement.deadwood)
    cols[1].metric("Knock", "gin" if view.gin else "legal" if view.can_knock else "not legal")
    cols[2].metric("Best discard", metric_card(view.discard) if view.discard is not None else "—")
    lead = f"after discarding {PRETTY[view.discard]}" if view.discard is not None else ""
    html(f'<div style="margin-bottom:0.4em"><b>Melds</b> {escape(lead)}</div>{arrangement_html(view.arrangement)}')
    deadwood = view.arrangement.deadwood
    if view.gin:
        st.markdown(f"**Gin**: no deadwood{' after the discard' if n == 11 else ''}.")
    elif view.can_knock:
        st.markdown(f"**Knock is legal**: deadwood {deadwood} ≤ {view.knock_limit}.")
    else:
        st.markdown(f"**Knock is not legal**: deadwood {deadwood} > {view.knock_limit}.")
    if view.advice_error is not None:
        st.error(f"No advice: {view.advice_error}.")
    elif view.advice is not None:
        show_turn_advice(view.advice, known)
        discard_table(view)
    else:
        try:
            draw_advice(view.cards, slot, known, rules, upcard)
        except GinsightError as exc:  # the upcard or the pile names a card of the hand
            st.error(f"No advice: {player_text(str(exc))}.")


def metric_card(card: Card) -> str:
    """A card in a metric's value, red for hearts and diamonds (metrics take Markdown)."""
    return f":red[{PRETTY[card]}]" if card.suit in RED_SUITS else PRETTY[card]


def discard_table(view: HandView) -> None:
    with st.expander("Every discard"):
        st.table(
            [
                {"discard": PRETTY[o.discard], "deadwood": o.deadwood,
                 "melds": " | ".join(str(m) for m in o.arrangement.melds) or "—",
                 "advice": "advised" if o.discard == view.discard else ""}
                for o in view.options
            ]
        )
        if view.tie_note:
            st.caption(view.tie_note)


def show_turn_advice(advice: TurnAdvice, known: Known, prefix: str = "") -> None:
    st.markdown(f"**Advice**: {_after(prefix, advice.reasons)}.")
    undercut_risk(advice, known)


def undercut_risk(advice: TurnAdvice, known: Known) -> None:
    """The undercut risk and why: what the estimate is built from."""
    if advice.gin:
        st.markdown("**Undercut risk**: none, a gin hand cannot be undercut.")
        return
    if advice.estimate is None:
        st.markdown(f"**Undercut risk**: no knock yet ({advice.deadwood} deadwood).")
    else:
        e = advice.estimate
        basis = ["your cards"]
        if known.discards:
            basis.append(f"the {len(known.discards)} cards of the discard pile")
        if known.opponent_took:
            basis.append(f"the opponent's {pretty(known.opponent_took)} taken from the pile")
        st.markdown(
            f"**Undercut risk**: about {e.undercut_risk:.0%}. Reasons: {e.samples} showdowns settled, "
            f"layoffs included, against hands the opponent may hold given {', '.join(basis)}; "
            f"the opponent undercuts in {e.undercut_risk:.0%} of them, and a knock now averages "
            f"{e.expected_points:+.1f} points."
        )
    outs = advice.gin_outs
    st.markdown(f"**Gin outs**: {len(outs)} unseen card{'s' if len(outs) != 1 else ''} give gin"
                + (f" ({pretty(outs)})." if outs else "."))


def upcard_select(key: str, exclude: Sequence[Card] = ()) -> str | None:
    """A select box for the upcard: a card code, or None while none is chosen."""
    in_hand = {CODES[c] for c in exclude}
    options = [NO_UPCARD] + [code for code in CODES if code not in in_hand]
    upcard = st.selectbox(
        "Upcard (top of the discard pile)", options, key=key,
        format_func=lambda code: code if code == NO_UPCARD else card_label(code),
        help="The card you may take instead of drawing from the stock.",
    )
    return None if upcard == NO_UPCARD else upcard


def draw_advice(cards: Sequence[Card], slot: str, known: Known, rules: Rules, upcard: str | None = ASK) -> None:
    """Take the upcard or draw from the stock."""
    if upcard == ASK:
        upcard = upcard_select(f"{slot}.upcard", cards)
    if upcard is None or upcard in {CODES[c] for c in cards}:
        st.caption("Choose the upcard (not one of your cards) for take-or-draw advice.")
        return
    up = DECK[CODES.index(upcard)]
    advice = advise_draw(list(cards), up, known.discards, known.opponent_took, rules)
    st.markdown(f"**Advice**: {advice.reasons}.")
    if advice.take:  # and then: the discard, and whether to knock
        after = Known(known.discards, known.opponent_took, up)
        with st.spinner("Weighing the knock…"):
            turn = advise_turn([*cards, up], after.discards, after.opponent_took, taken_from_pile=up, rules=rules)
        show_turn_advice(turn, after, prefix=f"having taken {PRETTY[up]}, ")


def _after(prefix: str, reasons: str) -> str:
    """``reasons`` following ``prefix`` mid-sentence: "having taken Q♣, knock: gin"."""
    return prefix + reasons[:1].lower() + reasons[1:] if prefix else reasons


# --- a showdown ---------------------------------------------------------------------------


def explain_points(s: Settlement, rules: Rules) -> str:
    """How the engine's points follow from the two counts (the scoring rules, in words)."""
    k, d = s.knocker.deadwood, s.defender.deadwood
    if s.outcome == "gin":
        return f"Gin: the knocker scores the gin bonus {rules.gin_bonus} + the defender's {d} = {s.points} points."
    if s.outcome == "knock":
        return f"Knock: the knocker's {k} is lower than the defender's {d}: the knocker scores {d} − {k} = {s.points}."
    return (
        f"Undercut: the defender's {d} is not above the knocker's {k}: the defender scores the undercut bonus "
        f"{rules.undercut_bonus} + {k} − {d} = {s.points}."
    )


def layoff_colour(knocker: Arrangement, meld) -> str:
    """The colour of the knocker's meld that a layoff joins, as :func:`arrangement_html` drew it."""
    for i, m in enumerate(knocker.melds):
        if m == meld or m.mask & meld.mask == m.mask or m.mask & meld.mask == meld.mask:
            return MELD_COLOURS[i % len(MELD_COLOURS)]
    return DEADWOOD_COLOUR


def settlement(s: Settlement, rules: Rules, names: tuple[str, str] = ("Knocker", "Defender")) -> None:
    """Both arrangements, the layoffs, the outcome and the points, line by line."""
    winner = names[0] if s.winner == "knocker" else names[1]
    st.markdown(f"#### {s.outcome.capitalize()}: {winner} scores {s.points}")  # a headline, not an alert:
    # the page's one success message is the hand recorded
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{names[0]}** (knocked)")
        html(arrangement_html(s.knocker))
    with right:
        st.markdown(f"**{names[1]}** (defended)")
        html(arrangement_html(s.defender.arrangement))
        if s.defender.layoffs:
            html("".join(group_html([x.card], layoff_colour(s.knocker, x.meld), f"laid off onto {x.meld}")
                         for x in s.defender.layoffs))
    lines = [f"{names[0]}'s deadwood: {pretty(s.knocker.deadwood_cards)} = {s.knocker.deadwood}"
             + (" (gin)" if s.outcome == "gin" else "")]
    if s.outcome == "gin":
        lines.append("Nothing may be laid off onto a gin hand.")
    elif not s.defender.layoffs:
        lines.append(f"{names[1]} lays off nothing.")
    lines += [f"{names[1]} lays off {PRETTY[x.card]} onto {x.meld}." for x in s.defender.layoffs]
    lines.append(
        f"{names[1]}'s deadwood after layoffs: {pretty(s.defender.arrangement.deadwood_cards)} = {s.defender.deadwood}"
    )
    lines.append(explain_points(s, rules))
    st.markdown("\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1)))
