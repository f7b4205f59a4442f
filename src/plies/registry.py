"""The game registry: a name and typed options build a game, lazily.

A game is registered with :func:`register_game` (its name, a one-line summary, its typed
options and a factory, or the ``module:attribute`` path of one so that nothing is imported until
the game is asked for). Installed packages add games through the ``plies.games`` entry-point
group, and a spec may name a game by its module path instead of a registered name:

``connect4:width=8``
    a registered game and its options;
``mypkg.kalah:Kalah`` or ``mypkg.kalah:Kalah:pits=4``
    the class (or factory) ``Kalah`` of the importable module ``mypkg.kalah`` (the current
    folder is searched too), with the options it declares in its ``options`` attribute;
``path/to/kalah.py:Kalah``
    the same, from a Python file.

Every option of a game is a keyword argument of its factory and an attribute of the game it
builds, under the same name: that is how :func:`game_spec` writes any game back as the spec
that rebuilds it, and :func:`game_identity` names the game a trained network was made for.

>>> game = make_game("connect4:width=5,height=4")
>>> game_spec(game)
'connect4:width=5,height=4,k=4,scoring=plusminus'
>>> game_identity(game)
'connect4:width=5,height=4,k=4'
>>> make_game("connect5")
Traceback (most recent call last):
...
plies.errors.UnknownNameError: unknown game 'connect5' (games: tictactoe, tictactoe3, tiles, \
nim, connect4, othello, checkers, chess, go, backgammon, kuhn, leduc, phantom, battleship)
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import re
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies.errors import GameDefinitionError, PliesError, SpecError, UnknownNameError
from plies.game import FunctionGame, Game, Scoring
from plies.spec import NumberRange, Option, Options, parse_options, parse_spec, spec_name

PLUGINS = "plies.games"
"""The entry-point group of installed games: ``name = "module:attribute"`` names a game class
or factory (whose ``options`` and ``summary`` attributes describe it), or a module that calls
:func:`register_game` when imported."""

Factory = Callable[..., Game[Any, Any]]
"""Builds a game from its options' values, given as keyword arguments."""


@dataclass(frozen=True)
class GameOption(Option):
    """One option of a game: an :class:`~plies.spec.Option` that is also the factory's keyword
    argument and the game's attribute of the same name. ``convert`` turns the value read into the
    argument (a choice into an enum), ``show`` writes the attribute back into a spec, and
    ``identity`` says whether the option changes the positions and moves of the game (scoring
    does not: a network trained under one scoring plays under the other). An option with
    ``optional`` is written into a spec only away from its default: an option added to a game
    later (backgammon's cube) leaves the specs and identities the game had before it as they
    were."""

    convert: Callable[[Any], Any] | None = None
    show: Callable[[Any], str] | None = None
    identity: bool = True
    optional: bool = False

    @classmethod
    def whole(
        cls, key: str, default: int, help: str, minimum: int = 1, maximum: int = 10**9
    ) -> GameOption:
        """A whole-number option from ``minimum`` to ``maximum``; the game's constructor checks
        the sizes it can play."""
        return cls(key, "int", help, default, NumberRange(minimum, maximum, integer=True))

    def argument(self, options: Options) -> Any:
        """This option's argument for the factory, read from a spec's options."""
        value = self.read(options)
        return value if self.convert is None or value is None else self.convert(value)

    def written(self, game: Game[Any, Any]) -> str:
        """``game``'s value of this option as a spec writes it."""
        value = getattr(game, self.key)
        if self.show is not None:
            return self.show(value)
        if isinstance(value, bool):
            return "true" if value else "false"
        return f"{value:g}" if isinstance(value, float) else str(value)

    def usage(self) -> str:
        """``width=7`` (the default) or ``scoring=plusminus|payoff`` (the choices)."""
        if self.kind == "choice":
            return f"{self.key}={'|'.join(self.choices)}"
        if isinstance(self.default, bool):
            return f"{self.key}={'true' if self.default else 'false'}"
        return f"{self.key}={self.default}"


SCORING = GameOption(
    "scoring",
    "choice",
    "utilities: +1/0/-1 (plusminus) or payoffs 1/0.5/0 (payoff)",
    Scoring.PLUS_MINUS.value,
    choices=tuple(s.value for s in Scoring),
    convert=Scoring,
    show=lambda scoring: str(scoring.value),
    identity=False,
)
"""The scoring option every two-player win/loss/draw game shares."""


class GameEntry:
    """A registered game: its name, summary, typed options and factory (or its path). A summary
    or options given as ``None`` are the ones the factory declares (its ``summary`` and
    ``options`` attributes), read when first asked: a game registered by path is imported only
    then."""

    __slots__ = ("_options", "_summary", "factory", "name")

    def __init__(
        self,
        name: str,
        summary: str | None,
        options: tuple[GameOption, ...] | None,
        factory: Factory | str,
    ) -> None:
        self.name, self.factory = name, factory
        self._summary, self._options = summary, options

    def __repr__(self) -> str:
        return f"GameEntry({self.name!r}, factory={self.factory!r})"

    @property
    def summary(self) -> str:
        """The one-line summary (the factory's ``summary``, or its docstring's first line)."""
        if self._summary is None:
            self._summary = _summary(self.load())
        return self._summary

    @property
    def options(self) -> tuple[GameOption, ...]:
        """The typed options, in the order a spec writes them."""
        if self._options is None:
            self._options = _declared(self.load())
        return self._options

    def load(self) -> Factory:
        """The factory, imported now if it was registered by path."""
        if isinstance(self.factory, str):
            factory: Factory = _attribute(self.factory, self.name)
            return factory
        return self.factory

    def usage(self) -> str:
        """The options with their defaults or choices (``width=7,height=6,...``), or ``none``."""
        return ",".join(option.usage() for option in self.options) or "none"

    def build(self, options: Options) -> Game[Any, Any]:
        """The game these options describe; unknown options and bad values raise, and so does
        a factory that fails (one :class:`GameDefinitionError` naming the game)."""
        arguments = {option.key: option.argument(options) for option in self.options}
        options.finish()
        factory = self.load()
        try:
            game = factory(**arguments)
        except PliesError:
            raise
        except Exception as error:  # a developer's factory: named in one line, no traceback
            raise GameDefinitionError(
                f"{self.name}: building the game failed ({type(error).__name__}: {error})"
            ) from error
        if not isinstance(game, Game):
            raise GameDefinitionError(f"{self.name}: {factory!r} built {game!r}, not a Game")
        if not isinstance(factory, type) and self.name in GAMES:
            _BUILT_BY[id(game)] = (weakref.ref(game), self.name)
        return game


_BUILT_BY: dict[int, tuple[weakref.ref[Game[Any, Any]], str]] = {}
"""Games built by a registered factory function (not a class), by id: the registered name
that :func:`game_spec` writes them back under."""

GAMES: dict[str, GameEntry] = {}
"""The registered games by name, in the order registered (installed games once loaded)."""

_NAME = re.compile(r"[a-z][a-z0-9_-]*")


def register_game(
    name: str,
    summary: str | None,
    options: tuple[GameOption, ...] | None,
    factory: Factory | str,
) -> GameEntry:
    """Register a game under ``name`` (lower case letters, digits, ``-`` and ``_``); its
    ``factory`` takes the ``options`` as keyword arguments, and may be given as
    ``"module:attribute"`` to be imported on first use. A ``summary`` or ``options`` of
    ``None`` are read from the factory's attributes when first asked."""
    if not _NAME.fullmatch(name):
        raise SpecError(f"game name {name!r} must be lower case letters, digits, - and _")
    if name in GAMES:
        raise SpecError(f"game {name!r} is registered twice")
    checked = None if options is None else _checked(options, name)
    GAMES[name] = entry = GameEntry(name, summary, checked, factory)
    return entry


def game_entry(name: str) -> GameEntry:
    """The game registered as ``name`` (installed games included), or an
    :class:`UnknownNameError` listing the games."""
    if name not in GAMES:
        _load_plugins(name)
    entry = GAMES.get(name)
    if entry is None:
        raise UnknownNameError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    return entry


def registered_games() -> dict[str, GameEntry]:
    """Every registered game, installed ones included."""
    _load_plugins(None)
    return GAMES


def _load_plugins(name: str | None) -> None:
    """Load the installed games of the :data:`PLUGINS` group: the one called ``name``, or all."""
    for point in importlib.metadata.entry_points(group=PLUGINS):
        if (name is None or point.name == name) and point.name not in GAMES:
            try:
                loaded = point.load()
            except Exception as error:  # a broken package is named, not a traceback
                raise GameDefinitionError(
                    f"installed game {point.name!r} ({point.value}) fails to load: {error}"
                ) from error
            if point.name not in GAMES and callable(loaded):
                register_game(point.name, _summary(loaded), _declared(loaded), loaded)


def make_game(spec: str) -> Game[Any, Any]:
    """Build a game from ``name[:key=value,...]`` or a module path (``mypkg.kalah:Kalah``,
    ``kalah.py:Kalah[:key=value,...]``); unknown names and options raise errors."""
    entry, options = spec_entry(spec)
    return entry.build(options)


def spec_entry(spec: str) -> tuple[GameEntry, Options]:
    """The game that ``spec`` names (a registered one, or the class or factory of a module
    path, imported now) and its options, not yet read."""
    if not is_module_path(spec):
        parsed = parse_spec(spec)
        return game_entry(parsed.name), parsed.options
    target, _, rest = spec.strip().partition(":")
    attribute, _, option_text = rest.partition(":")
    attribute = attribute.strip()
    if not attribute:
        raise SpecError(f"game {spec!r}: name the game after the module (module:Class)")
    factory = _attribute(f"{target}:{attribute}", target)
    entry = GameEntry(attribute, _summary(factory), _declared(factory), factory)
    return entry, parse_options(attribute, option_text)


def is_module_path(spec: str) -> bool:
    """Whether ``spec`` names its game by a module path (``mypkg.kalah:Kalah``, ``kalah:Kalah``,
    ``path/kalah.py:Kalah``) rather than a registered name (``connect4:width=8``)."""
    target, _, rest = spec.strip().partition(":")
    attribute = rest.partition(":")[0].strip()
    if "." in target or "/" in target or os.sep in target:
        return True
    return attribute.isidentifier() and spec_name(target) not in _names_with_installed(target)


def _names_with_installed(name: str) -> dict[str, GameEntry]:
    """The registered games, ``name`` loaded first if an installed package provides it."""
    if name not in GAMES:
        _load_plugins(name)
    return GAMES


_PATH_MODULES: dict[str, Path] = {}
"""The modules loaded from game files, by their private module names: their specs name the
file, their identities its name (``kalah.py:Kalah`` is known as ``kalah:Kalah``)."""


def _attribute(path: str, owner: str) -> Any:
    """The object that ``module:attribute`` (or ``file.py:attribute``) names."""
    module_name, _, attribute = path.partition(":")
    module = _module(module_name.strip(), owner)
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise UnknownNameError(f"{owner}: module {module_name!r} has no {attribute!r}") from None


def _module(name: str, owner: str) -> Any:
    """Import ``name``, a module (searched in the current folder too) or a ``.py`` file."""
    if name.endswith(".py") or "/" in name or os.sep in name:
        return _module_from_file(Path(name))
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and (name == error.name or name.startswith(f"{error.name}.")):
            raise UnknownNameError(f"{owner}: no module named {name!r}") from None
        raise GameDefinitionError(f"{owner}: module {name!r} fails to load: {error}") from None
    except Exception as error:
        raise GameDefinitionError(f"{owner}: module {name!r} fails to load: {error}") from None


FILE_MODULES = "plies_game_file_"
"""The prefix of a game file's private module name; the rest is its absolute path in hex, so
that any process (a worker unpickling a state of the game) finds the file from the name."""


class _GameFiles(importlib.abc.MetaPathFinder):
    """Finds a game file's module by its private name (:data:`FILE_MODULES`)."""

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(FILE_MODULES):
            return None
        try:
            file = Path(bytes.fromhex(fullname.removeprefix(FILE_MODULES)).decode())
        except ValueError:
            return None
        if not file.is_file():
            return None
        _PATH_MODULES[fullname] = file
        return importlib.util.spec_from_file_location(fullname, file)


sys.meta_path.append(_GameFiles())


def _module_from_file(path: Path) -> Any:
    """The module of a game file, imported once under its private name (so that no file
    shadows a library: a game file may be called ``chess.py``)."""
    path = path.expanduser().resolve()
    if not path.is_file():
        raise UnknownNameError(f"game file {str(path)!r} does not exist")
    try:
        return importlib.import_module(FILE_MODULES + str(path).encode().hex())
    except Exception as error:
        raise GameDefinitionError(f"game file {str(path)!r} fails to load: {error}") from None


def _declared(factory: Any) -> tuple[GameOption, ...]:
    """The options a game class or factory declares in its ``options`` attribute."""
    options = getattr(factory, "options", ())
    if not isinstance(options, tuple) or not all(isinstance(o, GameOption) for o in options):
        raise GameDefinitionError(
            f"{factory!r}: 'options' must be a tuple of plies.registry.GameOption"
        )
    return _checked(options, repr(factory))


def _checked(options: tuple[GameOption, ...], owner: str) -> tuple[GameOption, ...]:
    """``options``, each of a known kind with what it needs (a range, or choices)."""
    for option in options:
        if option.kind not in ("int", "number", "flag", "choice", "text"):
            raise GameDefinitionError(f"{owner}: option {option.key!r} has kind {option.kind!r}")
        if option.kind in ("int", "number") and option.allowed is None:
            raise GameDefinitionError(f"{owner}: option {option.key!r} needs a NumberRange")
        if option.kind == "choice" and not option.choices:
            raise GameDefinitionError(f"{owner}: option {option.key!r} needs its choices")
    return options


def _summary(factory: Any) -> str:
    summary = getattr(factory, "summary", None)
    if isinstance(summary, str):
        return summary
    return (getattr(factory, "__doc__", None) or "").strip().partition("\n")[0]


def _entry_of(game: Game[Any, Any]) -> GameEntry | None:
    """The registered entry that built ``game`` (its class, or a factory function), if any."""
    built = _BUILT_BY.get(id(game))
    if built is not None and built[0]() is game:
        return GAMES[built[1]]
    cls = type(game)
    path = f"{cls.__module__}:{cls.__qualname__}"
    for entry in GAMES.values():
        if entry.factory is cls or entry.factory == path:
            return entry
    return None


def _written(options: tuple[GameOption, ...], game: Game[Any, Any], everything: bool) -> str:
    return ",".join(
        f"{option.key}={option.written(game)}"
        for option in options
        if (everything or option.identity)
        and not (option.optional and getattr(game, option.key) == option.default)
    )


def game_spec(game: Game[Any, Any]) -> str:
    """The spec that rebuilds ``game`` in any process: its registered name or module path,
    with the value of every option (a game made by :func:`~plies.game.define_game` has no
    spec: its name stands in)."""
    return _spec(game, everything=True)


def game_identity(game: Game[Any, Any]) -> str:
    """What a trained network records of its game: the spec less the options that leave the
    positions and moves alone (scoring); a game made by :func:`~plies.game.define_game` is
    known by its name."""
    return _spec(game, everything=False)


def _spec(game: Game[Any, Any], everything: bool) -> str:
    entry = _entry_of(game)
    if entry is not None:
        written = _written(entry.options, game, everything)
        return f"{entry.name}:{written}" if written else entry.name
    if isinstance(game, FunctionGame):
        return game.name
    cls = type(game)
    file = _PATH_MODULES.get(cls.__module__)
    module = cls.__module__ if file is None else str(file) if everything else file.stem
    written = _written(_declared(cls), game, everything)
    base = f"{module}:{cls.__qualname__}"
    return f"{base}:{written}" if written else base


BUILT_IN: dict[str, str] = {
    "tictactoe": "plies.games.tictactoe.rules:TicTacToe",
    "tictactoe3": "plies.games.tictactoe.three:TicTacToe3",
    "tiles": "plies.games.tiles.rules:TileGame",
    "nim": "plies.games.nim.rules:Nim",
    "connect4": "plies.games.connect4.rules:ConnectFour",
    "othello": "plies.games.othello.rules:Othello",
    "checkers": "plies.games.checkers.rules:Checkers",
    "chess": "plies.games.chess.rules:Chess",
    "go": "plies.games.go.rules:Go",
    "backgammon": "plies.games.backgammon.rules:Backgammon",
    "kuhn": "plies.games.kuhn.rules:KuhnPoker",
    "leduc": "plies.games.leduc.rules:LeducPoker",
    "phantom": "plies.games.phantom.rules:PhantomTicTacToe",
    "battleship": "plies.games.battleship.rules:Battleship",
}
"""The games plies ships, the one list of them: name -> the class, in its room, that declares
the game's ``summary`` and ``options`` (read, and the class imported, only when asked)."""

for _name, _path in BUILT_IN.items():
    register_game(_name, None, None, _path)
