"""The optional training extra: ``ginsight dataset`` and ``ginsight train`` need it, the app does not."""

from __future__ import annotations

from importlib.util import find_spec

from engine.errors import GinsightError

TRAIN_MODULES = ("torch", "ultralytics", "onnx", "cairosvg")
INSTALL_TRAIN = ".venv/bin/pip install -e '.[train]'"


def require_train_extra(command: str) -> None:
    """Raise ``GinsightError`` in one line, naming the command that installs the extra, when a
    module of the train extra is missing."""
    missing = [name for name in TRAIN_MODULES if find_spec(name) is None]
    if missing:
        raise GinsightError(f"`ginsight {command}` needs the training extra ({', '.join(missing)} "
                            f"{'is' if len(missing) == 1 else 'are'} not installed): {INSTALL_TRAIN}")
