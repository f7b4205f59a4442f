"""Strength ladders: a game's named levels, from beginner to the strongest plies has, each a
fixed agent spec, and the file of their measured figures.

A game declares its ladder as the ``ladder`` attribute of its class (:class:`Ladder`, the
capability :class:`HasLadder`): the levels, how each weakens (less depth, fewer nodes or
simulations), and the anchor that ties them to an outside scale, or perfect play for a game
whose solver judges every move. ``plies ladder calibrate GAME`` plays the calibration games
through the arena (:mod:`plies.arena.ladder`) and writes the figures into the game's own room,
``ladder.json`` beside its rules (:func:`ladder_path`); nothing in that file is typed by hand.
The web app's Play page reads it (:func:`measured_levels`): a level whose spec changed since
the file was written shows no figure.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from plies.errors import ParseError, PliesError
from plies.game import Game
from plies.inputs import write_atomically
from plies.registry import game_identity

LADDER_FILE = "ladder.json"
"""The measured figures' file, in the room (package) of the game's class."""
FORMAT = "plies-ladder-1"
"""The ``format`` field of a ladder file."""

Measure = Literal["elo", "mistakes"]


@dataclass(frozen=True)
class Level:
    """One rung: its ``name`` for players, the agent ``spec`` that plays it and how it plays
    (``summary``)."""

    name: str
    spec: str
    summary: str


@dataclass(frozen=True)
class Anchor:
    """The outside player the ladder's Elo is tied to: its ``name`` for the page, its agent
    ``spec``, its rating ``elo`` on the ``scale`` named, and the levels (1-based) it plays in
    the calibration (``meets``; empty: every level)."""

    name: str
    spec: str
    elo: float
    scale: str
    meets: tuple[int, ...] = ()


@dataclass(frozen=True)
class Ladder:
    """A game's levels, weakest first, and how they are measured: ``"elo"`` through games
    among neighbouring levels and against the ``anchor``; ``"mistakes"``, the share of a
    level's moves that perfect play judges mistakes, in games against the game's perfect
    solver. ``default`` is the level (1-based) a newcomer meets first; ``references`` see
    below."""

    levels: tuple[Level, ...]
    measure: Measure = "elo"
    anchor: Anchor | None = None
    default: int = 2
    references: tuple[Anchor, ...] = ()
    """More outside players of the anchor's scale (other settings of the same program), each
    meeting the levels it declares: rated by the games like the levels (not held at their
    nominal ratings), they tie the strong levels to the scale through games against outside
    players rather than through the ladder's own games, which inflate Elo gaps between
    settings of one program; their fitted ratings beside their nominal ones check the scale."""

    def __post_init__(self) -> None:
        if not self.levels:
            raise PliesError("a ladder needs at least one level")
        if len({level.name for level in self.levels}) != len(self.levels):
            raise PliesError("a ladder's levels need different names")
        if len({level.spec for level in self.levels}) != len(self.levels):
            raise PliesError("a ladder's levels need different specs")
        if self.measure == "elo" and self.anchor is None:
            raise PliesError("a ladder measured in Elo needs an anchor")
        if not 1 <= self.default <= len(self.levels):
            raise PliesError(f"the default level {self.default} is not on the ladder")


@runtime_checkable
class HasLadder(Protocol):
    """A game with a strength ladder (:class:`Ladder`) for players to choose from."""

    ladder: Ladder


@dataclass(frozen=True)
class Figure:
    """A level's measured figure: ``value`` (Elo, or the share of moves that are mistakes)
    with its 95% interval ``low`` to ``high``, from ``games`` games (and ``moves`` judged
    moves with the mistakes measure)."""

    spec: str
    value: float
    low: float
    high: float
    games: int
    moves: int = 0
    nominal: float | None = None
    """A reference player's rating on its own scale (None for a level)."""

    def text(self, measure: Measure, scale: str) -> str:
        """The figure for a player: ``about 1520 Elo (1440 to 1600), SCALE`` or ``a mistake
        in 3.1% of its moves (2.0% to 4.6%) ...``."""
        if measure == "mistakes":
            return (
                f"a mistake in {self.value:.1%} of its moves ({self.low:.1%} to "
                f"{self.high:.1%}) from positions not yet lost, judged by perfect play over "
                f"{self.moves} such moves"
            )
        return f"about {self.value:.0f} Elo ({self.low:.0f} to {self.high:.0f}), {scale}"


@dataclass(frozen=True)
class LadderFile:
    """What ``plies ladder calibrate`` measured: each level's :class:`Figure`, on the
    ``scale`` named, with how it was obtained (``command``, ``games`` played, ``hardware``,
    ``hours``, the ``date`` written)."""

    game: str
    measure: Measure
    scale: str
    figures: tuple[Figure, ...]
    command: str
    games: int
    hardware: str
    hours: float
    date: str

    def to_json(self) -> dict[str, Any]:
        """The file's JSON object."""
        return {"format": FORMAT, **asdict(self)}


def ladder_path(game: object) -> Path:
    """Where ``game``'s ladder file lives: beside the module of its class."""
    module = sys.modules[type(game).__module__]
    if module.__file__ is None:
        raise PliesError(f"the game's module {module.__name__} has no folder")
    return Path(module.__file__).parent / LADDER_FILE


def write_ladder_file(game: object, ladder_file: LadderFile, path: Path | None = None) -> Path:
    """Write ``ladder_file`` (atomically) to ``path``, by default :func:`ladder_path`."""
    target = ladder_path(game) if path is None else path
    text = json.dumps(ladder_file.to_json(), indent=1) + "\n"
    write_atomically(target, lambda file: file.write(text.encode()))
    return target


def read_ladder_file(path: Path) -> LadderFile:
    """The ladder file at ``path``; :class:`ParseError` naming the file when it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.pop("format") != FORMAT:
            raise ValueError(f"not {FORMAT}")
        figures = tuple(Figure(**figure) for figure in data.pop("figures"))
        ladder_file = LadderFile(figures=figures, **data)
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as error:
        raise ParseError(f"{path}: not a ladder file ({error})") from None
    for figure in figures:
        if not all(math.isfinite(x) for x in (figure.value, figure.low, figure.high)):
            raise ParseError(f"{path}: the figure of {figure.spec!r} is not a finite number")
    return ladder_file


@dataclass(frozen=True)
class MeasuredLevel:
    """A level with its figure for players (``figure``: None when it was not measured, or
    measured with another spec), and the figure's source (``source``)."""

    level: Level
    figure: str | None
    source: str | None


def measured_levels(game: Game[Any, Any], path: Path | None = None) -> tuple[MeasuredLevel, ...]:
    """``game``'s levels with their figures from its ladder file (``path``, by default
    :func:`ladder_path`): none when the game has no ladder; no figures when the file is
    missing or damaged, or was measured for the game with other options."""
    if not isinstance(game, HasLadder):
        return ()
    ladder = game.ladder
    path = ladder_path(game) if path is None else path
    try:
        ladder_file = read_ladder_file(path) if path.exists() else None
    except ParseError:
        ladder_file = None
    if ladder_file is not None and ladder_file.game != game_identity(game):
        ladder_file = None
    figures = {} if ladder_file is None else {f.spec: f for f in ladder_file.figures}
    measured = []
    for level in ladder.levels:
        figure = figures.get(level.spec)
        if figure is None or ladder_file is None:
            measured.append(MeasuredLevel(level, None, None))
            continue
        source = (
            f"{ladder_file.games} games by `{ladder_file.command}` on {ladder_file.hardware}, "
            f"{ladder_file.date}"
        )
        text = figure.text(ladder_file.measure, ladder_file.scale)
        measured.append(MeasuredLevel(level, text, source))
    return tuple(measured)
