"""The rules of three-handed gin, exact: cards, melds, deadwood, knock, layoffs, scoring,
the three-player table, the hand's state machine, advice and simulation.

Pure Python with no heavy imports: no I/O, no torch, cv2, ultralytics or streamlit. Names are
imported on first use, so that ``ginsight hand`` starts fast.

>>> from engine import analyse_hand
>>> analyse_hand("AS 2S 3S 7H 7D 7C 9C TC JC KD").deadwood
10
"""

from importlib import import_module
from typing import Any

_WHERE = {
    "Card": "cards", "format_cards": "cards", "parse_card": "cards", "parse_cards": "cards",
    "CardParseError": "errors", "DuplicateCardError": "errors", "GameError": "errors", "GinsightError": "errors",
    "HandSizeError": "errors", "IllegalActionError": "errors", "IllegalKnockError": "errors",
    "InvalidMeldError": "errors", "InvalidRulesError": "errors", "RoleDrawTie": "errors",
    "DiscardOption": "hand", "HandReport": "hand", "analyse_hand": "hand", "discard_options": "hand",
    "min_deadwood": "masks",
    "Arrangement": "melds", "Meld": "melds", "all_best_arrangements": "melds", "best_arrangement": "melds",
    "DEFAULT_RULES": "rules", "Rules": "rules",
    "Layoff": "showdown", "Settlement": "showdown", "best_defence": "showdown", "score": "showdown",
    "settle": "showdown",
    "advise_draw": "advice", "advise_turn": "advice",
    "HandState": "game", "Phase": "game", "Action": "game",
    "Table": "table", "Roles": "table", "Seat": "table", "HandResult": "table", "draw_roles": "table",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(import_module(f"engine.{module}"), name)
    globals()[name] = value
    return value
