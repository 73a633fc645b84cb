"""The rules of three-handed gin, exact: cards, melds, deadwood, knock, layoffs, scoring.

Pure Python with no heavy imports: no I/O, no torch, cv2, ultralytics or streamlit.

>>> from engine import analyse_hand
>>> analyse_hand("AS 2S 3S 7H 7D 7C 9C TC JC KD").deadwood
10
"""

from engine.cards import Card, format_cards, parse_card, parse_cards
from engine.errors import (
    CardParseError,
    DuplicateCardError,
    GinsightError,
    HandSizeError,
    IllegalKnockError,
    InvalidMeldError,
)
from engine.hand import DiscardOption, HandReport, analyse_hand, discard_options
from engine.melds import Arrangement, Meld, all_best_arrangements, best_arrangement, min_deadwood
from engine.rules import DEFAULT_RULES, Rules
from engine.showdown import Layoff, Settlement, best_defence, score, settle

__all__ = [
    "DEFAULT_RULES",
    "Arrangement",
    "Card",
    "CardParseError",
    "DiscardOption",
    "DuplicateCardError",
    "GinsightError",
    "HandReport",
    "HandSizeError",
    "IllegalKnockError",
    "InvalidMeldError",
    "Layoff",
    "Meld",
    "Rules",
    "Settlement",
    "all_best_arrangements",
    "analyse_hand",
    "best_arrangement",
    "best_defence",
    "discard_options",
    "format_cards",
    "min_deadwood",
    "parse_card",
    "parse_cards",
    "score",
    "settle",
]
