"""Cards as players write them (``10♥``), wherever a player looks: labels, messages, the role
draw. Engine codes (``TH``) stay in the JSON and the command line.

>>> card_label("TH")
'10♥'
>>> player_text("card in both hands: AS TH")
'card in both hands: A♠ 10♥'
>>> typed_card(" 10h ")
'TH'
"""

from __future__ import annotations

import re

from engine.cards import CODES, PRETTY, parse_card

# A canonical code standing alone in a message ("card in both hands: AS", "'QH' in discards").
_CODE = re.compile(r"(?<![\w♠♥♦♣])([A2-9TJQK][SHDC])(?![\w♠♥♦♣])")
# In a role draw ("draw: Ann 7H, Bob KS; redraw: ..."), the card ends each player's entry.
_DRAWN = re.compile(r" ([A2-9TJQK][SHDC])(?=,|;|$)")
RED_SUITS = ("H", "D")

def card_label(code: str) -> str:
    """``'QS'`` -> ``'Q♠'``; anything else (a spelling typed into a card box) as it is."""
    return PRETTY[CODES.index(code)] if code in CODES else code

def player_text(message: str) -> str:
    """A message with every card code in it written as players write cards."""
    return _CODE.sub(lambda m: card_label(m.group(1)), message)

def role_draw_text(described: str) -> str:
    """The stored role draw (``draw: Ann 7H, Bob KS``) with its cards as players write them."""
    return _DRAWN.sub(lambda m: " " + card_label(m.group(1)), described)

def typed_card(text: str) -> str:
    """The code of a card in any spelling the command line takes (``2c``, ``TH``, ``10h``,
    ``q♠``). Raises :class:`engine.errors.CardParseError` naming the text when it is none."""
    return parse_card(text.strip()).code

def is_red(code: str) -> bool:
    return code[-1] in RED_SUITS

