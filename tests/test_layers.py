"""The house rules of ARCHITECTURE.md, checked on the source: every module belongs to a room;
nothing imports a front end; generic rooms name no particular game; a game's room imports no
other game; front ends reach games and searches only through the registries and the library's
public doors; no cycle between rooms (lazy imports inside functions count); functions
stay short."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "plies"
FRONT_ENDS = ("plies.cli", "plies.uci", "plies.gtp", "plies.web", "plies.__main__")
CORE = (
    "errors",
    "game",
    "capabilities",
    "spec",
    "inputs",
    "processes",
    "clock",
    "compiled",
    "perfect",
    "registry",
)
"""The base every room may import: the formal game, its capabilities and errors, specs,
clocks, the compiled-code helpers and the perfect-solver interface, the game registry."""
SHARED_GAME_MODULES = ("plies.games", "plies.games.grid")
"""The parts of ``games/`` that are no game: the package (the public names of the registry and
the game classes, loaded lazily) and the grid helpers."""
SEARCH_DOORS = ("plies.search", "plies.search.result", "plies.search.analysis")
"""What front ends may import of ``search/``: its public API (the package), results and move
analysis; agents they build through the agent registry."""
OWN_GAME = {
    "plies.uci": "games.chess",
    "plies.cli.uci": "games.chess",
    "plies.gtp": "games.go",
    "plies.cli.gtp": "games.go",
}
"""Front ends that speak one game's protocol and may import that game."""
LONGEST_FUNCTION = 80


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def room(module: str) -> str:
    """``core``, ``games`` (the registry), ``games.NAME`` (a game's room), ``games.NAME.agent``
    (the agent that speaks its protocol, ``*_agent.py``: it stands on the agent registry and the
    searches, so it is a room of its own above them, inside the game's folder), or the first
    part under ``plies`` (``search``, ``agents``, ``cli``, ``play``...)."""
    parts = module.split(".")[1:]
    if not parts:
        return "plies"
    if parts[0] in CORE:
        return "core"
    if parts[0] == "games" and module not in SHARED_GAME_MODULES:
        adapter = len(parts) > 2 and parts[2].endswith("_agent")
        return f"games.{parts[1]}" + (".agent" if adapter else "")
    return parts[0]


def _resolved(name: str) -> str | None:
    """The plies module that an imported name lives in (``plies.a.b.C`` is ``plies.a.b``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


@cache
def imports(module: str) -> frozenset[str]:
    """Every plies module ``module`` imports, at any level, lazily or not."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    resolved = {_resolved(name) for name in names if name.startswith("plies")}
    return frozenset(name for name in resolved if name is not None and name != module)


def _is_game(module: str) -> bool:
    return room(module).startswith("games.")


def test_a_protocol_agent_is_a_room_of_its_own_in_its_game_folder() -> None:
    assert room("plies.games.go.gtp_agent") == "games.go.agent"
    assert room("plies.games.go.kernel") == room("plies.games.go") == "games.go"
    assert room("plies.registry") == "core" and room("plies.spec") == "core"


def _is_front_end(module: str) -> bool:
    return module.startswith(FRONT_ENDS)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_nothing_imports_a_front_end(module: str) -> None:
    if _is_front_end(module):
        return
    bad = sorted(name for name in imports(module) if _is_front_end(name))
    assert not bad, f"{module} imports the front end(s) {bad}"


def _game_imports_allowed(module: str, imported: str) -> bool:
    """Whether ``module`` may import the game module ``imported``."""
    mine = room(module)
    if mine in (room(imported), f"{room(imported)}.agent"):  # its room (a protocol agent's game)
        return True
    if mine == "native":  # the compiled searches' dispatch names the compiled rules it runs
        return imported.endswith(".kernel")
    if mine == "lectures":  # the lectures' subject is the textbook tree
        return room(imported) == "games.tree"
    return OWN_GAME.get(module) == room(imported)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_games_are_named_only_in_their_room_and_the_registry(module: str) -> None:
    bad = sorted(
        name
        for name in imports(module)
        if _is_game(name) and not _game_imports_allowed(module, name)
    )
    assert not bad, f"{module} imports {bad}"


PROTOCOL_WORDS = {("plies.uci", "go")}
"""Literals of a front end that spell a game's name and mean something else: UCI's ``go``."""


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _games_named(module: str) -> list[str]:
    """The string literals of ``module`` that name a registered game, or a spec of one
    (``"connect4"``, ``"go:size=9"``), with their lines; docstrings aside."""
    from plies.registry import registered_games

    names = set(registered_games())
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    skipped = _docstrings(tree)
    return [
        f"{module}:{node.lineno} {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
        and node.value.split(":")[0] in names
        and (":" not in node.value or "=" in node.value)
        and (module, node.value) not in PROTOCOL_WORDS
        and OWN_GAME.get(module) != f"games.{node.value.split(':')[0]}"
    ]


def test_front_ends_name_no_game() -> None:
    """A front end serves every game alike: it names none in its code (a game it needs is
    found by a capability, or given as an option whose default the library holds), except the
    game whose protocol ``uci.py`` and ``gtp.py`` (and their commands) speak."""
    named = [found for module in MODULES if _is_front_end(module) for found in _games_named(module)]
    assert not named, f"front ends name games: {named}"


def test_the_game_name_finder_finds_literals_not_docstrings() -> None:
    assert [found.split()[-1] for found in _games_named("plies.lectures")] == ["'tictactoe'"]
    assert _games_named("plies.uci") == []  # chess is its game; its "go" is a command


def _front_end_breaks(module: str) -> set[tuple[str, str]]:
    return {
        (module, name)
        for name in imports(module)
        if room(name) in ("search", "native") and name not in SEARCH_DOORS
    }


def test_front_ends_reach_searches_only_through_the_library() -> None:
    found = set().union(*(_front_end_breaks(m) for m in MODULES if _is_front_end(m)))
    assert not found, f"front ends import search modules: {sorted(found)}"


def _room_graph() -> dict[str, dict[str, list[str]]]:
    """room -> imported room -> the module imports behind the arrow."""
    graph: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for module in MODULES:
        for name in imports(module):
            if room(name) != room(module):
                graph[room(module)][room(name)].append(f"{module} -> {name}")
    return graph


def _cycles(graph: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """The strongly connected groups of more than one room (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(room_name: str) -> None:
        index[room_name] = low[room_name] = len(index)
        stack.append(room_name)
        for other in graph.get(room_name, {}):
            if other not in index:
                visit(other)
                low[room_name] = min(low[room_name], low[other])
            elif other in stack:
                low[room_name] = min(low[room_name], index[other])
        if low[room_name] == index[room_name]:
            group = []
            while not group or group[-1] != room_name:
                group.append(stack.pop())
            if len(group) > 1:
                groups.append(sorted(group))

    for room_name in list(graph):
        if room_name not in index:
            visit(room_name)
    return groups


def test_no_cycle_between_rooms() -> None:
    graph = _room_graph()
    cycles = _cycles(graph)
    described = [
        f"{group}: "
        + "; ".join(arrow for a in group for b in group for arrow in graph[a].get(b, [])[:2])
        for group in cycles
    ]
    assert not cycles, "import cycles between rooms: " + " | ".join(described)


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph: dict[str, dict[str, list[str]]] = {
        "a": {"b": ["a.x -> b.y"]},
        "b": {"c": ["b.y -> c.z"]},
        "c": {"a": ["c.z -> a.x"]},
        "d": {"a": ["d -> a"]},
    }
    assert _cycles(graph) == [["a", "b", "c"]]


def _is_compiled(decorator: ast.expr) -> bool:
    """Whether a decorator compiles its function (``@compiled``, ``@numba.njit(...)``)."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("compiled", "njit")


def test_no_function_is_longer_than_80_lines() -> None:
    long = []
    for path in MODULES.values():
        if path.stem.endswith("kernel"):
            continue  # compiled kernels keep Pons's and the rules' loops whole, for speed
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if any(_is_compiled(decorator) for decorator in node.decorator_list):
                    continue  # a compiled function: one recursive body (numba issue 6061)
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > LONGEST_FUNCTION:
                    long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({length})")
    assert not long, "functions over 80 lines: " + ", ".join(long)


@pytest.mark.parametrize("name", ["connect4", "go", "tictactoe3", "nim", "chess"])
def test_building_a_game_imports_no_other_game_and_no_python_chess(name: str) -> None:
    """In a fresh process: the registry, the agents and the searches load no game, and
    building one game loads its room alone (python-chess only for chess)."""
    code = (
        "import sys, plies.agents, plies.search, plies.games as g; g.make_game(sys.argv[1]); "
        "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('plies.games.')}) "
        "+ ['python-chess'] * ('chess' in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    expected = {"tictactoe"} if name == "tictactoe3" else {name}
    expected |= {"python-chess"} if name == "chess" else set()
    loaded = set(ast.literal_eval(done.stdout)) - {"registry", "grid"}  # the shared modules
    assert loaded == expected, done.stdout
