"""Search effort by game stage: the lecture's table of average states checked.

The lecture compares minimax with alpha-beta on 3x3 tic-tac-toe by the average number of states
each one checks when started from a position with a given number of marks on the board
(see ``REFERENCES.md``, section Tic-tac-toe)::

    marks   minimax   alpha-beta
      0     549,946     29,019
      2       7,293      1,308
      4       176.2       81.8
      6        11.0        9.2
      8         1.3        1.3

:func:`effort_table` measures the same thing for any game. For each ply count p it enumerates
every distinct state reachable in exactly p moves from ``game.initial_state()`` (breadth first,
states compared by equality; for tic-tac-toe p is the number of marks), keeps the non-terminal
ones, searches each of them to the end of the game with every requested algorithm of
:data:`plies.search.ALGORITHMS` (full depth, the default non-strict pruning rule, children in the
order of ``game.actions``) and averages ``stats.nodes``: the calls of MAX-VALUE and MIN-VALUE,
the root included. Minimax's averages are therefore exact properties of the game tree;
alpha-beta's depend on the move order.

Every state counts once however many move orders reach it, and terminal states are left out
(there is nothing to search). Under these rules the 2- and 4-mark minimax averages of
tic-tac-toe are 7,638 and 181.7, not the lecture's 7,293 and 176.2: every 2- and 4-mark
position is reachable and non-terminal, so no exhaustive average can give the lecture's
figures, which look like averages over a sample of positions.

>>> from plies.game import define_game
>>> game = define_game(
...     name="take-away", players=("A", "B"),
...     initial_state=lambda: (4, "A"),
...     to_move=lambda s: s[1],
...     actions=lambda s: [n for n in (1, 2) if n <= s[0]],
...     result=lambda s, a: (s[0] - a, "B" if s[1] == "A" else "A"),
...     is_terminal=lambda s: s[0] == 0,
...     utility=lambda s, p: -1 if s[1] == p else 1,
... )
>>> [(row.plies, row.positions, row.mean_nodes["minimax"]) for row in effort_table(game, [0, 1])]
[(0, 1, 12.0), (1, 2, 5.5)]
"""

from __future__ import annotations

import importlib.util
import math
import os
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from plies.errors import RenderError, SpecError, UnknownNameError
from plies.game import Game
from plies.inputs import check_output
from plies.search import ALGORITHMS
from plies.spec import PLIES

S = TypeVar("S", bound=Hashable)

Progress = Callable[[int, int], None]
"""``progress(done, total)``: positions searched so far, and in all."""

_NO_MATPLOTLIB = "matplotlib is not installed: pip install 'plies[plot]'"


@dataclass(frozen=True)
class EffortRow:
    """One row of the table: the non-terminal positions after ``plies`` moves, and the effort.

    The dictionaries are keyed by algorithm name. With no positions (every state that many moves
    deep is terminal, or none exists) the means are NaN and the other figures 0.
    """

    plies: int
    """Moves from the initial state (for tic-tac-toe, the marks on the board)."""
    positions: int
    """Distinct non-terminal states reachable in exactly ``plies`` moves: the searches averaged."""
    mean_nodes: dict[str, float]
    """Average ``stats.nodes`` (nodes visited, the root included) over those positions."""
    total_nodes: dict[str, int]
    """Sum of ``stats.nodes`` over the positions."""
    min_nodes: dict[str, int]
    """Fewest nodes visited from any one of the positions."""
    max_nodes: dict[str, int]
    """Most nodes visited from any one of the positions."""
    seconds: dict[str, float]
    """Wall-clock seconds spent searching the positions."""

    def ratio(self, algorithm: str = "alphabeta", baseline: str = "minimax") -> float:
        """``mean_nodes[algorithm] / mean_nodes[baseline]``; NaN with no positions."""
        for name in (algorithm, baseline):
            if name not in self.mean_nodes:
                raise UnknownNameError(
                    f"algorithm {name!r} was not measured (measured: {', '.join(self.mean_nodes)})"
                )
        if self.positions == 0:
            return math.nan
        return self.mean_nodes[algorithm] / self.mean_nodes[baseline]


MAX_ROWS = 64
"""The most ply counts one table may have."""


def _check_plies(plies: Sequence[int]) -> list[int]:
    counts = list(plies)
    if not counts:
        raise SpecError("no ply counts given; name at least one, e.g. 0")
    if len(counts) > MAX_ROWS:
        raise SpecError(f"{len(counts):,} ply counts given; a table has at most {MAX_ROWS} rows")
    for p in counts:
        if isinstance(p, bool) or not isinstance(p, int):
            raise SpecError(f"ply count {p!r} is not a whole number")
        if p < 0:
            raise SpecError(f"ply count {p} is negative; plies are moves from the initial state")
        PLIES.check("ply count", p)
    repeated = sorted({p for p in counts if counts.count(p) > 1})
    if repeated:
        raise SpecError(f"ply count {repeated[0]} is given twice")
    return counts


def _check_algorithms(algorithms: Sequence[str]) -> list[str]:
    if isinstance(algorithms, str):
        algorithms = [algorithms]
    names = list(dict.fromkeys(algorithms))
    if not names:
        raise SpecError(f"no algorithms given; choose from {', '.join(ALGORITHMS)}")
    for name in names:
        if name not in ALGORITHMS:
            raise UnknownNameError(
                f"unknown algorithm {name!r} (algorithms: {', '.join(ALGORITHMS)})"
            )
    return names


def positions_by_ply(game: Game[S, Any], plies: Sequence[int]) -> dict[int, list[S]]:
    """The distinct non-terminal states reachable in exactly p moves, for each p in ``plies``.

    Breadth first from ``game.initial_state()``; each layer keeps the first-found order, so the
    result is deterministic. Terminal states end their line of play and are not listed.
    """
    wanted = set(_check_plies(plies))
    found: dict[int, list[S]] = {}
    layer: list[S] = [game.initial_state()]
    for depth in range(max(wanted) + 1):
        live = [state for state in layer if not game.is_terminal(state)]
        if depth in wanted:
            found[depth] = live
        beyond = sorted(p for p in wanted if p > depth)
        if not live and beyond:  # every game is over: no row past this one has a position
            raise SpecError(
                f"ply count {beyond[0]}: every game of {game.name} is over after {depth} plies"
            )
        if depth == max(wanted):
            break
        following: dict[S, None] = {}
        for state in live:
            for action in game.actions(state):
                following[game.result(state, action)] = None
        layer = list(following)
    return found


def effort_table(
    game: Game[Any, Any],
    plies: Sequence[int],
    algorithms: Sequence[str] = ("minimax", "alphabeta"),
    *,
    progress: Progress | None = None,
) -> list[EffortRow]:
    """All rows of :func:`effort_rows` as a list."""
    return list(effort_rows(game, plies, algorithms, progress=progress))


def effort_rows(
    game: Game[Any, Any],
    plies: Sequence[int],
    algorithms: Sequence[str] = ("minimax", "alphabeta"),
    *,
    progress: Progress | None = None,
) -> Iterator[EffortRow]:
    """Average nodes each algorithm visits from the non-terminal positions ``p`` plies deep.

    Yields one :class:`EffortRow` per entry of ``plies``, in the order given, as each is done
    (so an interrupted run keeps the rows finished so far). ``progress(done, total)``
    is called with ``done = 0`` before the first search and after every position (all
    algorithms searched), ``total`` being the positions of all rows together.

    Raises :class:`SpecError` for a missing or negative ply count and :class:`UnknownNameError`
    for an algorithm not in :data:`plies.search.ALGORITHMS`; errors the searches raise (such as
    :class:`UnsupportedGameError`) pass through.
    """
    counts = _check_plies(plies)
    names = _check_algorithms(algorithms)
    layers = positions_by_ply(game, counts)
    total = sum(len(layers[p]) for p in counts)
    done = 0
    if progress is not None:
        progress(done, total)
    for p in counts:
        states = layers[p]
        nodes: dict[str, list[int]] = {name: [] for name in names}
        seconds = dict.fromkeys(names, 0.0)
        for state in states:
            for name in names:
                started = time.perf_counter()
                result = ALGORITHMS[name](game, state)
                seconds[name] += time.perf_counter() - started
                nodes[name].append(result.stats.nodes)
            done += 1
            if progress is not None:
                progress(done, total)
        yield EffortRow(
            plies=p,
            positions=len(states),
            mean_nodes={n: sum(nodes[n]) / len(states) if states else math.nan for n in names},
            total_nodes={n: sum(nodes[n]) for n in names},
            min_nodes={n: min(nodes[n], default=0) for n in names},
            max_nodes={n: max(nodes[n], default=0) for n in names},
            seconds=seconds,
        )


def _algorithms_of(rows: Sequence[EffortRow]) -> list[str]:
    return list(dict.fromkeys(name for row in rows for name in row.mean_nodes))


def _number(value: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:,.0f}" if value == int(value) and abs(value) >= 1000 else f"{value:,.1f}"


def format_effort_table(rows: Sequence[EffortRow], *, label: str = "plies") -> str:
    """A plain text table: ``label`` (e.g. ``marks``), positions, mean nodes per algorithm, and
    the ratio alphabeta/minimax when both were measured. Columns are right-aligned."""
    names = _algorithms_of(rows)
    header = [label, "positions", *(f"{name} mean" for name in names)]
    with_ratio = "minimax" in names and "alphabeta" in names
    if with_ratio:
        header.append("alphabeta/minimax")
    body: list[list[str]] = []
    for row in rows:
        cells = [str(row.plies), f"{row.positions:,}"]
        cells += [_number(row.mean_nodes.get(name, math.nan)) for name in names]
        if with_ratio:
            ratio = row.ratio() if row.positions else math.nan
            cells.append("-" if math.isnan(ratio) else f"{ratio:.3f}")
        body.append(cells)
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = [
        "  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True))
        for line in [header, *body]
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def check_plottable(path: str | os.PathLike[str]) -> None:
    """What :func:`plot_effort` needs, checked before the searches: a ``.png`` name that can be
    written (see :func:`~plies.inputs.check_output`) and matplotlib installed;
    :class:`RenderError` naming the problem otherwise."""
    check_output(_png_name(path))
    if importlib.util.find_spec("matplotlib") is None:
        raise RenderError(_NO_MATPLOTLIB)


def _png_name(path: str | os.PathLike[str]) -> str:
    target = os.fspath(path)
    if not target.lower().endswith(".png"):
        raise RenderError(f"cannot write {target!r}: the effort plot is a PNG; name a .png file")
    return target


def plot_effort(
    rows: Sequence[EffortRow],
    path: str | os.PathLike[str],
    *,
    label: str = "plies",
    title: str | None = None,
) -> None:
    """Write a PNG of mean nodes against ``plies``: one line per algorithm, log-scale y axis.

    Needs matplotlib (``pip install 'plies[plot]'``); drawn with the Agg backend without
    touching pyplot's global state. Raises :class:`RenderError` when matplotlib is missing, the
    path does not end in ``.png``, there is nothing to plot, or the file cannot be written.
    """
    target = _png_name(path)
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise RenderError(_NO_MATPLOTLIB) from None
    measured = [row for row in rows if row.positions > 0]
    if not measured:
        raise RenderError("no positions were searched, so there is nothing to plot")
    figure = Figure(figsize=(6.4, 4.2), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for name in _algorithms_of(measured):
        points = [(row.plies, row.mean_nodes[name]) for row in measured if name in row.mean_nodes]
        axes.plot([x for x, _ in points], [y for _, y in points], marker="o", label=name)
    axes.set_yscale("log")
    axes.set_xticks(sorted({row.plies for row in measured}))
    axes.set_xlabel(label)
    axes.set_ylabel("mean nodes visited (log scale)")
    axes.set_title(title or "Search effort: average nodes visited per position")
    axes.grid(True, which="major", alpha=0.4)
    axes.legend()
    try:
        figure.savefig(target, format="png", dpi=100)
    except OSError as error:
        raise RenderError(f"cannot write {target!r}: {error.strerror or error}") from None
