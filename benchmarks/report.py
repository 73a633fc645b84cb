"""The benchmark scripts' one way of giving their figures: printed as JSON, and written to the
file their ``--json`` names (ending in a newline), when one is named."""

from __future__ import annotations

import json
from pathlib import Path


def report(figures: dict, path: str | Path | None = None, indent: int = 2) -> None:
    """Print ``figures`` as JSON; with ``path``, also write them there."""
    text = json.dumps(figures, indent=indent)
    print(text)
    if path:
        Path(path).write_text(text + "\n")
