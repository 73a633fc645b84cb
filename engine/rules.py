"""Settings of the rules, defaults from RULES.md."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidRulesError


@dataclass(frozen=True, slots=True)
class Rules:
    """The numbers a table may agree on differently.

    ``knock_limit``: the most deadwood a knocker may have (10).
    ``gin_bonus``: 25 (some sources say 20). ``undercut_bonus``: 10.
    ``target``: the total that ends the game (100).

    >>> Rules(knock_limit=-1)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidRulesError: knock_limit must be a whole number >= 0, got -1
    """

    knock_limit: int = 10
    gin_bonus: int = 25
    undercut_bonus: int = 10
    target: int = 100

    def __post_init__(self) -> None:
        for name in ("knock_limit", "gin_bonus", "undercut_bonus", "target"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise InvalidRulesError(f"{name} must be a whole number >= 0, got {value!r}")
        if self.target == 0:
            raise InvalidRulesError("target must be at least 1")


DEFAULT_RULES = Rules()
