"""The benchmark scripts' one way of giving their figures: printed as JSON, and written to the
file their ``--json`` names (ending in a newline), when one is named; and of naming the machine."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path


def machine() -> str:
    """The machine a figure was measured on, as the scripts record it: its architecture, the
    CPUs this process may use, and Python's version."""
    return f"{platform.machine()}, {len(os.sched_getaffinity(0))} CPUs, Python {platform.python_version()}"


def report(figures: dict, path: str | Path | None = None, indent: int = 2) -> None:
    """Print ``figures`` as JSON; with ``path``, also write them there."""
    text = json.dumps(figures, indent=indent)
    print(text)
    if path:
        Path(path).write_text(text + "\n")
