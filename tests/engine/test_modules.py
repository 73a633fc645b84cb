"""The engine's shape: its errors in one module, no private name used outside its module,
and no import of the tests by the code they test."""

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import engine
from engine import errors

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(m.name for m in pkgutil.iter_modules(engine.__path__, "engine."))


def python_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py") if ".venv" not in p.parts)


@pytest.mark.parametrize("name", MODULES)
def test_every_engine_error_is_defined_in_errors(name):
    module = importlib.import_module(name)
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Exception) and value.__module__.startswith("engine"):
            assert value.__module__ == "engine.errors", f"{value.__name__} is defined in {value.__module__}"


def test_engine_errors_are_value_errors_with_one_base():
    found = [v for v in vars(errors).values() if isinstance(v, type) and v.__module__ == "engine.errors"]
    assert sorted(e.__name__ for e in found) == [
        "CardParseError", "DuplicateCardError", "GameError", "GinsightError", "HandSizeError", "IllegalActionError",
        "IllegalKnockError", "InvalidMeldError", "InvalidRulesError", "RoleDrawTie",
    ]
    assert all(issubclass(e, errors.GinsightError) and issubclass(e, ValueError) for e in found)
    assert issubclass(errors.IllegalActionError, errors.GameError) and issubclass(errors.RoleDrawTie, errors.GameError)


def private_imports(path: Path) -> list[str]:
    """``from engine.x import _y`` and ``engine.x._y``-style uses of another module's private names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "engine":
            out += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    return out


@pytest.mark.parametrize("folder", ["engine", "cli", "ui", "scoresheet", "vision", "benchmarks", "tests"])
def test_no_private_engine_name_is_imported(folder):
    found = {str(p.relative_to(ROOT)): private_imports(p) for p in python_files(folder)}
    assert {k: v for k, v in found.items() if v} == {}


def test_code_outside_the_tests_does_not_import_them():
    for path in python_files("engine", "cli", "ui", "scoresheet", "vision", "benchmarks", "datasets", "models"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else (
                [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            assert not any(n == "tests" or n.startswith("tests.") for n in names), path.relative_to(ROOT)
