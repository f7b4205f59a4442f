"""The layering rules of DESIGN.md, checked on the source: front ends are imported by nobody,
generic code imports no particular game and no compiled kernel, and functions stay short."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "plies"
FRONT_ENDS = ("plies.cli", "plies.uci", "plies.gtp", "plies.web", "plies.__main__")
GENERIC = (
    "search",
    "agents",
    "learn",
    "match.py",
    "play.py",
    "mistakes.py",
    "capabilities.py",
    "spec.py",
    "game.py",
)
LONGEST_FUNCTION = 80


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (at any level, lazily or not)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


SOURCES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_imports_a_front_end(path: Path) -> None:
    module = _module(path)
    if module.startswith(FRONT_ENDS):
        return
    bad = sorted(n for n in _imports(path) if n.startswith(FRONT_ENDS))
    assert not bad, f"{module} imports the front end(s) {bad}"


@pytest.mark.parametrize(
    "path",
    [p for p in SOURCES if p.relative_to(PACKAGE).parts[0] in GENERIC],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_generic_code_imports_no_game_and_no_kernel(path: Path) -> None:
    bad = sorted(
        name
        for name in _imports(path)
        if name.startswith("plies.games.") or "_kernel" in name or name == "plies.games"
    )
    assert not bad, f"{_module(path)} imports {bad}"


def test_no_function_is_longer_than_80_lines() -> None:
    long = []
    for path in SOURCES:
        if "_kernel" in path.name:
            continue  # compiled kernels keep Pons's and the rules' loops whole, for speed
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > LONGEST_FUNCTION:
                    long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({length})")
    assert not long, "functions over 80 lines: " + ", ".join(long)
