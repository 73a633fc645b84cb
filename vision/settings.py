"""The reader's settings, grouped by step, and their loading from a weights folder's ``reader.json``.

Each value here is the one the reader ships with; ``docs/reader.md`` gives what each step buys on
photos, side by side with it switched off, and the command that measures it. A ``reader.json``
beside the networks overrides them, a group at a time::

    {"grouping": {"min_card": 0.6}, "looks": {"mirror": false}}

so that a weights folder carries the thresholds it was measured with. A typo is an error that
names the file and the setting, never silently the default.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vision.types import WeightsError


@dataclass(frozen=True)
class Detection:
    """Finding the corner indices (``vision.detect``)."""

    conf: float = 0.15  # a box the detector scores lower is not read
    iou: float = 0.5  # boxes overlapping this much are one index, made one by their mean
    scales: tuple[float, ...] = (1.0, 0.5)  # the photo as it is, and halved: a close-up's big indices
    small_side: float = 30.0  # indices read smaller than this (median, pixels): looked at again ...
    small_scales: tuple[float, ...] = (1.25,)  # ... at these scales too; 0 or () never
    unread: float = 0.7  # a box scored this or more that no card is read from is shown as unread

    def __post_init__(self) -> None:
        _check(0 < self.conf <= 1, f"detection.conf must be a score in (0, 1], not {self.conf!r}")
        _check(0 < self.iou <= 1, f"detection.iou must be an overlap in (0, 1], not {self.iou!r}")
        _check(0 < self.unread <= 1, f"detection.unread must be a score in (0, 1], not {self.unread!r}")
        for name in ("scales", "small_scales"):
            scales = getattr(self, name)
            _check(all(k > 0 for k in scales), f"detection.{name} must be scales above 0, not {scales!r}")
        _check(bool(self.scales), "detection.scales must hold at least one scale")
        _check(self.small_side >= 0, f"detection.small_side must be 0 (off) or more pixels, not {self.small_side!r}")


@dataclass(frozen=True)
class Classification:
    """Reading each index (``vision.classify``)."""

    # each index cut at these sizes (the crop's side over the box's longer side; 1.15 is the
    # training crops'): a box a little off, or an index a little larger or smaller, read three ways
    margins: tuple[float, ...] = (1.0, 1.15, 1.3)
    # each crop turned upright by the way-up reader's angle plus these degrees: the classifier
    # learnt crops turned up to 10 degrees off, and the way-up reader's angle is not exact
    tilts: tuple[float, ...] = (-6.0, 0.0, 6.0)
    min_index: float = 0.35  # an index read less surely than this is dropped

    def __post_init__(self) -> None:
        _check(bool(self.margins) and min(self.margins) > 0,
               f"classification.margins must be one or more sizes above 0, not {self.margins!r}")
        _check(bool(self.tilts), "classification.tilts must hold at least one angle (0: the way-up reader's own)")
        _check(0 <= self.min_index <= 1, f"classification.min_index must be in [0, 1], not {self.min_index!r}")


@dataclass(frozen=True)
class Suits:
    """The black suit reader's say (``vision.suits``), where the weights folder has one."""

    black: bool = True  # a black index's suit decided by the classifier and the suit reader together


@dataclass(frozen=True)
class Grouping:
    """Making cards of the indices read (``vision.grouping``)."""

    min_card: float = 0.64  # a card less sure than this is not reported
    uncertain_below: float = 0.8  # a card less sure than this is flagged for the player to check
    far_apart: float = 9.0  # indices of one code further apart than this many index sizes: two cards
    one_deck: bool = True  # a second index of a code taken, far from its card: read again as its suit twin
    way_up_apart: float = 3.0  # indices of one code this far apart (index sizes) or more ...
    way_up_same: float = 0.5  # ... facing one way (cosine of their ways up at least this): two cards
    # a card's two indices read as two codes: read together, as the code their odds multiplied
    # find likeliest (with at least this share, each index giving it pair_each or more), where
    # they lie as one card's two indices lie (facing opposite ways, cosine pair_cos or less;
    # each along and across the other's way up within these index sizes)
    pair_share: float = 0.5
    pair_each: float = 0.1
    pair_cos: float = -0.5
    pair_along: tuple[float, ...] = (1.5, 5.5)
    pair_across: tuple[float, ...] = (0.0, 4.0)

    def __post_init__(self) -> None:
        for name in ("min_card", "uncertain_below", "pair_share", "pair_each"):
            value = getattr(self, name)
            _check(0 <= value <= 1, f"grouping.{name} must be in [0, 1], not {value!r}")
        for name in ("pair_along", "pair_across"):
            bounds = getattr(self, name)
            _check(len(bounds) == 2 and bounds[0] <= bounds[1],
                   f"grouping.{name} must be two index sizes, the least then the most, not {bounds!r}")


@dataclass(frozen=True)
class Looks:
    """Extra looks at a photo (``vision.looks``)."""

    # a photo squeezed to a square (a 16:9 webcam frame, a 4:3 photo) is also read stretched
    # back by each of these, where the classifier reads its indices surer so by aspect_probe
    aspects: tuple[float, ...] = (1.78, 0.75, 0.5625)
    aspect_probe: float = 0.03
    # a photo whose indices read surer flipped left-right (a selfie camera's) is read flipped too
    mirror: bool = True
    mirror_strong: float = 0.4  # the boxes weighed: those read this surely one way or the other
    mirror_least: float = 0.3  # read flipped only where they read at least this surely flipped

    def __post_init__(self) -> None:
        _check(all(f > 0 for f in self.aspects), f"looks.aspects must be stretches above 0, not {self.aspects!r}")


GROUPS = {"detection": Detection, "classification": Classification, "suits": Suits, "grouping": Grouping,
          "looks": Looks}


@dataclass(frozen=True)
class Settings:
    """All the reader's settings, a group per step."""

    detection: Detection = field(default_factory=Detection)
    classification: Classification = field(default_factory=Classification)
    suits: Suits = field(default_factory=Suits)
    grouping: Grouping = field(default_factory=Grouping)
    looks: Looks = field(default_factory=Looks)

    def changed(self, **dotted: Any) -> Settings:
        """These settings with some changed, named ``group__name`` (``grouping__min_card=0.6``)
        or given as a dict of dotted names (``**{"grouping.min_card": 0.6}``).

        >>> Settings().changed(**{"looks.mirror": False}).looks.mirror
        False
        """
        groups: dict[str, dict[str, Any]] = {}
        for key, value in dotted.items():
            group, _, name = key.replace("__", ".").partition(".")
            if group not in GROUPS or name not in {f.name for f in dataclasses.fields(GROUPS[group])}:
                raise ValueError(f"unknown setting {key!r}")
            groups.setdefault(group, {})[name] = value
        return dataclasses.replace(self, **{g: dataclasses.replace(getattr(self, g), **v) for g, v in groups.items()})

    @classmethod
    def load(cls, folder: Path) -> Settings:
        """The settings of a weights folder: the defaults, overridden by its ``reader.json``.
        Raises ``WeightsError`` naming the file and what is wrong: not JSON, not an object of
        groups, an unknown (misspelt) setting, a value of the wrong kind or out of its range."""
        path = Path(folder) / "reader.json"
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text())
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise WeightsError(f"{path}: not JSON ({exc})") from None
        except OSError as exc:  # a folder of that name, a file it may not read
            raise WeightsError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        if not isinstance(data, dict):
            raise WeightsError(f"{path}: must be a JSON object of setting groups, not {type(data).__name__}")
        changes = {}
        for group, values in data.items():
            if group not in GROUPS:
                raise WeightsError(f"{path}: unknown setting group {group!r}{_near(group, GROUPS)}")
            if not isinstance(values, dict):
                raise WeightsError(f"{path}: {group} must be an object of settings, not {values!r}")
            kinds = {f.name: f.type for f in dataclasses.fields(GROUPS[group])}
            for name, value in values.items():
                if name not in kinds:
                    raise WeightsError(f"{path}: unknown setting {group}.{name}{_near(name, kinds)}")
                wrong = _wrong_kind(f"{group}.{name}", str(kinds[name]), value)
                if wrong:
                    raise WeightsError(f"{path}: {wrong}")
                changes[f"{group}.{name}"] = _setting_value(str(kinds[name]), value)
        try:
            return cls().changed(**changes)
        except ValueError as exc:
            raise WeightsError(f"{path}: {exc}") from None


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


def _near(name: str, names) -> str:
    near = difflib.get_close_matches(name, list(names), n=1)
    return f" ({near[0]}?)" if near else ""


def _is_number(v: object) -> bool:
    """A JSON number a setting can hold: not a boolean, not NaN or infinite."""
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _wrong_kind(name: str, kind: str, value: object) -> str | None:
    """What is wrong with ``value`` (from JSON) for the setting ``name`` of the type ``kind``
    (its annotation, as written), or None."""
    if kind.startswith("tuple"):
        if isinstance(value, list) and all(_is_number(v) for v in value):
            return None
        return f"{name} must be a list of numbers, not {value!r}"
    checks = {"float": (_is_number, "a number"),
              "bool": (lambda v: isinstance(v, bool), "true or false")}
    ok, what = checks[kind]
    return None if ok(value) else f"{name} must be {what}, not {value!r}"


def _setting_value(kind: str, value: Any) -> Any:
    """A JSON value (checked by _wrong_kind) as the setting holds it: a list as a tuple of
    floats, a whole number as a float."""
    if kind.startswith("tuple"):
        return tuple(float(v) for v in value)
    return float(value) if kind == "float" else value
