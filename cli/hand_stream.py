"""``ginsight hand --jsonl``: one hand a line on stdin, one JSON object a line on stdout.

Kept apart from :mod:`cli.hand` so that a stream imports only the solver on masks and its
JSON text (no argparse, dataclasses or json): start-up is most of the cost of a short
stream. A line that is not plain codes takes the careful path, which imports the rest.
"""

from __future__ import annotations

from engine.cards import CARD_SPELLINGS
from engine.errors import GinsightError
from engine.hand_text import HAND_SIZES, hand_text_from_mask

KNOCK_LIMIT = 10  # Rules().knock_limit, without importing engine.rules (a test holds them equal)

_BITS = {spelling: 1 << card for spelling, card in CARD_SPELLINGS.items()}


def _careful(line: str, limit: int) -> str:
    """A line off the fast path: a JSON list of codes, other spellings, or bad input (the
    error is worded here)."""
    import json

    from engine.cards import parse_cards
    from engine.hand import hand_json_text
    from engine.rules import Rules

    text = line.strip()
    if text.startswith("["):  # a JSON list of codes is accepted too
        tokens = json.loads(text)
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise GinsightError("a JSON line must be a list of card strings")
        cards = parse_cards(tokens, sizes=HAND_SIZES)
    else:
        cards = parse_cards(text, sizes=HAND_SIZES)
    return hand_json_text(cards, Rules(knock_limit=limit))


def _error_line(exc: Exception) -> str:
    import json

    return json.dumps({"error": str(exc)})


def run_jsonl(stdin, stdout, knock_limit: int = KNOCK_LIMIT) -> int:
    """One hand a line in, one JSON object a line out; a bad line gets ``{"error"}``."""
    write = stdout.write
    bits = _BITS
    for line in stdin:
        tokens = line.split()
        if not tokens:
            continue
        try:
            # The common line: plain codes, no duplicates. Anything else takes the
            # careful path, which also words the error.
            # A sum of distinct bits has as many bits set as there are tokens; a duplicate
            # carries into fewer, so the count check below also catches duplicates.
            try:
                mask = sum(map(bits.__getitem__, tokens))
            except KeyError:
                mask = -1
            if mask > 0 and len(tokens) in HAND_SIZES and mask.bit_count() == len(tokens):
                out = hand_text_from_mask(mask, knock_limit)
            else:
                out = _careful(line, knock_limit)
        except (GinsightError, ValueError) as exc:
            out = _error_line(exc)
        write(out + "\n")
    stdout.flush()
    return 0
