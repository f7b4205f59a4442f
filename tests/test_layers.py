"""The house rules of ARCHITECTURE.md, checked on the source: every module belongs to a room;
nothing imports a front end; generic rooms name no particular game (the web app not even as a
word, in its static files too); a game's room imports no other game; front ends reach games
and searches only through the registries and the library's public doors; no cycle between
rooms (lazy imports inside functions count); functions stay short; core (the registry) has no
arrow up into games/ and only games/ imports the package plies.games; kernels load no rules;
views import their rules only for type checking; only the trainer steps a network; only the
pool runs workers."""

from __future__ import annotations

import ast
import re
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
    "pool",
    "lazy",
)
"""The base every room may import: the formal game, its capabilities and errors, specs,
clocks, the compiled-code helpers and the perfect-solver interface, the game registry, the
worker pool."""
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
TRAINER = "plies.learn.trainer"
"""The one module that lowers a loss: it alone calls ``.backward()`` and builds optimisers."""


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def room(module: str) -> str:
    """``core``, ``games`` (the registry), ``games.NAME`` (a game's room), ``games.NAME.agent``
    (the agent that speaks its protocol, ``*_agent.py``: it stands on the agent registry and the
    searches, so it is a room of its own above them, inside the game's folder),
    ``games.NAME.native`` (the game's own compiled search, ``*_native.py``: it stands on
    ``native/``, so it is a room of its own at native's layer, inside the game's folder), or the
    first part under ``plies`` (``search``, ``agents``, ``cli``, ``play``...)."""
    parts = module.split(".")[1:]
    if not parts:
        return "plies"
    if parts[0] in CORE:
        return "core"
    if parts[0] == "games" and module not in SHARED_GAME_MODULES:
        upper = len(parts) > 2 and parts[2].rpartition("_")[2] in ("agent", "native")
        return f"games.{parts[1]}" + (f".{parts[2].rpartition('_')[2]}" if upper else "")
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
    assert room("plies.games.chess.uci_agent") == "games.chess.agent"
    assert room("plies.games.go.mcts_native") == "games.go.native"
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
    if mine in (room(imported), f"{room(imported)}.agent", f"{room(imported)}.native"):
        return True  # its room (a protocol agent's or a compiled search's game)
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
    """The ids of the docstring nodes of a module, its classes and functions, and of the
    docstrings of its constants and attributes (every string standing as a statement)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


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


STATIC_SUFFIXES = (".js", ".css", ".html")
"""The web app's static files: its pages, scripts and styles."""


def _game_words(name: str, text: str) -> list[str]:
    """Where ``text`` (the web app's file ``name``) names a built-in game as a word, as
    ``name:line 'game'``: anywhere in a static file, comments included; in a Python module,
    in its string literals (docstrings aside: they may say which game a capability finds)."""
    from plies.registry import BUILT_IN

    word = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, BUILT_IN)) + r")(?!\w)")
    if name.endswith(STATIC_SUFFIXES):
        lines = list(enumerate(text.splitlines(), start=1))
    else:
        tree = ast.parse(text)
        skipped = _docstrings(tree)
        lines = [
            (node.lineno, node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skipped
        ]
    return [f"{name}:{number} {found!r}" for number, line in lines for found in word.findall(line)]


def test_the_web_names_no_game_even_as_a_word() -> None:
    """The web app draws boards by their kind and look and finds games by capability: no
    route, field, page, script or style of it names a built-in game, not even inside a word
    list, a path or a class name (``/analyse/connect4``, ``.go-board``)."""
    web = PACKAGE / "web"
    named = [
        found
        for path in sorted(web.rglob("*"))
        if path.suffix in (".py", *STATIC_SUFFIXES)
        for found in _game_words(str(path.relative_to(web)), path.read_text(encoding="utf-8"))
    ]
    assert not named, f"the web app names games: {named}"


def test_the_game_word_finder_reads_static_files_whole_and_python_literals() -> None:
    script = 'const a = "/api/x/connect4";\n// come and go\nconst b = "gone", c = "go_on";\n'
    assert _game_words("x.js", script) == ["x.js:1 'connect4'", "x.js:2 'go'"]
    module = '"""Solves connect4."""\n# chess\nROUTE = f"/api/{name}/chess-board"\n"""nim"""\n'
    assert _game_words("x.py", module) == ["x.py:3 'chess'"]


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


def _steps_a_network(node: ast.AST) -> bool:
    """Whether ``node`` calls ``.backward()`` or anything of ``torch.optim`` (an optimiser, a
    learning rate schedule), or imports from ``torch.optim``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        called = ast.unparse(node.func)
        return node.func.attr == "backward" or called.startswith(("torch.optim.", "optim."))
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").startswith("torch.optim") or (
            node.module == "torch" and any(alias.name == "optim" for alias in node.names)
        )
    if isinstance(node, ast.Import):
        return any(alias.name.startswith("torch.optim") for alias in node.names)
    return False


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_trainer_steps_a_network(module: str) -> None:
    if module == TRAINER:
        return
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found = [
        f"line {getattr(node, 'lineno', 0)}" for node in ast.walk(tree) if _steps_a_network(node)
    ]
    assert not found, f"{module} steps a network itself ({', '.join(found)}): use {TRAINER}"


def test_the_stepping_finder_finds_backward_and_optimisers() -> None:
    code = "loss.backward()\nopt = torch.optim.AdamW(p)\nfrom torch.optim import SGD\nx.step()"
    assert [_steps_a_network(n) for n in ast.parse(code).body] == [False, False, True, False]
    calls = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Call)]
    assert [_steps_a_network(n) for n in calls] == [True, True, False]
    assert ast.unparse(calls[1].func) == "torch.optim.AdamW"


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


WORKER_LIBRARIES = ("multiprocessing", "concurrent.futures", "ray")
"""What runs work in other processes: only the one pool (plies.pool) uses it (and
plies.processes, which readies a worker, asks multiprocessing for its parent)."""


def _outside_imports(module: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and not node.level:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", sorted(set(MODULES) - {"plies.pool", "plies.processes"}))
def test_long_jobs_run_workers_only_through_the_one_pool(module: str) -> None:
    found = {
        name
        for name in _outside_imports(module)
        if any(name == lib or name.startswith(lib + ".") for lib in WORKER_LIBRARIES)
    }
    assert not found, f"{module} runs workers itself ({sorted(found)}): use plies.pool.Pool"
    assert "._processes" not in MODULES[module].read_text(encoding="utf-8")


COMPILED = sorted(m for m in MODULES if _is_game(m) and m.endswith("kernel"))
"""The rooms' compiled modules (``kernel.py``, ``solver_kernel.py``, ``endgame_kernel.py``)."""


def _rules_loaded(code: str) -> list[str]:
    """The ``plies.games.*.rules`` modules (and python-chess) that ``code`` loads, in a fresh
    process."""
    code += (
        "; import sys; print(sorted(m for m in sys.modules if m.startswith('plies.games.') "
        "and m.endswith('.rules')) + ['python-chess'] * ('chess' in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded: list[str] = ast.literal_eval(done.stdout)
    return loaded


@pytest.mark.parametrize("module", COMPILED)
def test_a_kernel_loads_no_rules(module: str) -> None:
    """The compiled searches load every kernel (``native/kernels.py``): loading one loads no
    game's rules (a Connect Four search does not load checkers' rules, nor python-chess)."""
    assert _rules_loaded(f"import {module}") == []


def test_the_compiled_searches_load_no_rules() -> None:
    assert COMPILED and _rules_loaded("import plies.native.engine, plies.native.mcts") == []


VIEWS = sorted(m for m in MODULES if _is_game(m) and m.endswith(".view"))


def _imports_at_load(module: str) -> set[str]:
    """The plies modules ``module`` imports when loaded: at its top level, not inside a
    function nor under ``if TYPE_CHECKING:``."""
    names: set[str] = set()
    for node in ast.parse(MODULES[module].read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {r for r in (_resolved(n) for n in names if n.startswith("plies")) if r is not None}


@pytest.mark.parametrize("module", VIEWS)
def test_a_view_imports_its_rules_only_for_type_checking(module: str) -> None:
    """A board view draws what the game object hands it: its room's rules (and other game
    modules) only under ``TYPE_CHECKING``, so rules and view never import each other at load."""
    room_modules = {m for m in _imports_at_load(module) if room(m) == room(module)}
    assert not room_modules, f"{module} imports {sorted(room_modules)} when loaded"


def test_views_are_found() -> None:
    assert len(VIEWS) == 13


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _is_game(m)))
def test_no_game_module_loads_a_view(module: str) -> None:
    """The rules build their view inside ``board_view()``: loading the rules (or any module of
    a room) loads no view."""
    views = {m for m in _imports_at_load(module) if m.endswith(".view")}
    assert not views, f"{module} imports {sorted(views)} when loaded"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_games_folder_imports_the_games_package(module: str) -> None:
    """Every layer reaches the registry as ``plies.registry`` (core); the package
    ``plies.games`` is the public name for users, imported by nothing outside ``games/``."""
    if module.startswith("plies.games"):
        return
    assert "plies.games" not in imports(module), f"{module} imports plies.games"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if room(m) == "core"))
def test_core_has_no_arrow_up_into_games(module: str) -> None:
    """Core (the registry included) imports nothing in ``games/``: the registry names the
    built-in games' classes by path (``BUILT_IN``) and imports one only when it is asked for."""
    bad = sorted(name for name in imports(module) if name.startswith("plies.games"))
    assert not bad, f"{module} imports {bad}"


def test_the_games_package_names_no_game_module() -> None:
    """``plies.games`` and ``grid.py`` import no game's room: the game classes come from the
    registry's table, lazily."""
    bad = {m: sorted(n for n in imports(m) if _is_game(n)) for m in SHARED_GAME_MODULES}
    assert not any(bad.values()), bad


GENERIC_SEARCH_ROOMS = ("native", "agents")
"""Rooms that once named Go (its compiled tree lived in ``native/``, its playout options in
``agents/``) and must name no game: Go's knowledge reaches them through a capability."""


def _identifiers(path: Path) -> set[str]:
    """Every name ``path``'s code uses or defines (names, attributes, imports, definitions)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.add(node.asname or node.name.rpartition(".")[2])
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
    return found


def _top_level_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


@cache
def go_kernel_vocabulary() -> frozenset[str]:
    """The names Go's kernel defines that no module outside Go's folder and the generic search
    rooms uses (``GoBoard``, ``play_out``, ``cfg_distances``...): Go's own words."""
    elsewhere = set().union(
        *(
            _identifiers(path)
            for module, path in MODULES.items()
            if not room(module).startswith("games.go") and room(module) not in GENERIC_SEARCH_ROOMS
        )
    )
    return frozenset(_top_level_names(MODULES["plies.games.go.kernel"]) - elsewhere)


def _names_go(module: str) -> list[str]:
    """How ``module`` names Go: imports of Go's room, the string ``"go"`` (or a ``go:`` spec),
    Go's kernel's words."""
    found = [f"imports {name}" for name in imports(module) if room(name).startswith("games.go")]
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found += [
        f"the string {node.value!r} (line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and (node.value.lower() == "go" or node.value.lower().startswith("go:"))
    ]
    words = sorted(_identifiers(MODULES[module]) & go_kernel_vocabulary())
    return found + [f"Go's kernel's {word}" for word in words]


def test_the_vocabulary_of_gos_kernel_is_its_own_words() -> None:
    assert {"GoBoard", "play_out", "cfg_distances", "pattern_key"} <= go_kernel_vocabulary()
    assert not {"PASS", "random_playout", "load", "draw"} & go_kernel_vocabulary()


@pytest.mark.parametrize("module", [m for m in sorted(MODULES) if room(m) in GENERIC_SEARCH_ROOMS])
def test_native_and_agents_name_no_go(module: str) -> None:
    """Go's compiled tree and its knowledge live in Go's room (``games/go/mcts_native.py``,
    ``games/go/knowledge.py``); ``native/`` and ``agents/`` reach them through
    :class:`plies.capabilities.HasOwnMcts` alone."""
    named = _names_go(module)
    assert not named, f"{module} names Go: {', '.join(named)}"
