"""Strategies of games with information sets, and their files.

A behaviour strategy gives, for each player and each of the player's information keys
(:meth:`~plies.capabilities.HasInformationSets.information_key`), probabilities over the
actions there, named by their notation. A strategy file is JSON::

    {"plies": "strategy", "version": 1, "game": "kuhn", "solver": "cfr+",
     "iterations": 1000, "seconds": 0.01, "exploitability": 8.7e-05, "value": -0.0556,
     "strategy": {"P1": {"K:": {"pass": 0.2, "bet": 0.8}, ...}, "P2": {...}},
     "regret": {...}, "total": {...}}

``regret`` and ``total`` (optional, the solver's tables in the order of each set's actions)
let a solver go on where it stopped. Reading checks everything a player would trust: the
format, the game, and that each set's probabilities are a distribution.

>>> strategy = Strategy("kuhn", {"P1": {"K:": {"pass": 0.25, "bet": 0.75}}})
>>> text = strategy_json(strategy)
>>> read_strategy_text(text, "kuhn").probabilities("P1", "K:")
{'pass': 0.25, 'bet': 0.75}
>>> read_strategy_text(text.replace("0.75", "0.7"), "kuhn")
Traceback (most recent call last):
...
plies.errors.StrategyError: strategy file: P1's information set 'K:': the probabilities sum \
to 0.95, not 1
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plies.errors import PliesError, StrategyError
from plies.inputs import read_text, write_atomically

FORMAT, VERSION = "strategy", 1
MOST_BYTES = 512 * 1024 * 1024
"""The largest strategy file read (a sampling solver's million sets and their tables)."""
SMALL = 10_000
"""Strategies of at most this many sets are written indented, to be read; larger ones tight."""
TOLERANCE = 1e-6
"""How far a set's probabilities may sum from 1 (the file keeps them to 17 digits)."""

Table = dict[str, dict[str, dict[str, float]]]
"""player -> information key -> action notation -> probability."""
Tables = dict[str, dict[str, list[float]]]
"""player -> information key -> a number per action (a solver's regrets or totals)."""


@dataclass(frozen=True)
class Strategy:
    """A behaviour strategy of ``game`` (its spec) and how it was made: the solver, its
    iterations and seconds, the exploitability and first player's value measured (None
    where not), and the solver's tables to go on from (empty where not kept)."""

    game: str
    table: Table
    solver: str = ""
    iterations: int = 0
    seconds: float = 0.0
    exploitability: float | None = None
    value: float | None = None
    regret: Tables = field(default_factory=dict)
    total: Tables = field(default_factory=dict)

    def probabilities(self, player: str, key: str) -> dict[str, float] | None:
        """The probabilities of each action at ``player``'s information set ``key``, or None
        where the strategy says nothing (a set a sampling solver never reached)."""
        return self.table.get(player, {}).get(key)

    def sets(self) -> int:
        """How many information sets the strategy covers."""
        return sum(len(keys) for keys in self.table.values())


def strategy_json(strategy: Strategy) -> str:
    """The strategy file's text."""
    body: dict[str, Any] = {
        "plies": FORMAT,
        "version": VERSION,
        "game": strategy.game,
        "solver": strategy.solver,
        "iterations": strategy.iterations,
        "seconds": round(strategy.seconds, 3),
        "exploitability": strategy.exploitability,
        "value": strategy.value,
        "strategy": strategy.table,
    }
    if strategy.regret:
        body["regret"], body["total"] = strategy.regret, strategy.total
    if strategy.sets() > SMALL:
        return json.dumps(body, separators=(",", ":")) + "\n"
    return json.dumps(body, indent=1) + "\n"


def write_strategy(path: Path, strategy: Strategy) -> None:
    """Write the strategy file at ``path`` (atomically: an interrupted write leaves the old)."""
    text = strategy_json(strategy)
    write_atomically(path, lambda stream: stream.write(text.encode()))


def read_strategy(path: str | Path, game: str) -> Strategy:
    """The strategy in file ``path``, checked to be ``game``'s (its spec); a
    :class:`StrategyError` of one line names what is wrong."""
    try:
        text = read_text(path, "strategy file", MOST_BYTES)
    except PliesError as error:
        raise StrategyError(str(error)) from None
    return read_strategy_text(text, game, f"strategy file {str(path)!r}")


def read_strategy_text(text: str, game: str, what: str = "strategy file") -> Strategy:
    """The strategy written in ``text`` (see :func:`read_strategy`)."""
    try:
        body = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise StrategyError(f"{what} is not JSON ({error})") from None
    if not isinstance(body, dict) or body.get("plies") != FORMAT:
        raise StrategyError(f"{what} is not a plies strategy file")
    if body.get("version") != VERSION:
        raise StrategyError(f"{what} has version {body.get('version')!r}; plies reads {VERSION}")
    if body.get("game") != game:
        raise StrategyError(f"{what} is made for game {body.get('game')!r}, not {game!r}")
    table = _table(body.get("strategy"), what)
    regret, total = _tables(body.get("regret"), what), _tables(body.get("total"), what)
    return Strategy(
        game,
        table,
        solver=_kind(body.get("solver", ""), str, what, "solver"),
        iterations=_kind(body.get("iterations", 0), int, what, "iterations"),
        seconds=float(_kind(body.get("seconds", 0.0), (int, float), what, "seconds")),
        exploitability=_optional_number(body.get("exploitability"), what),
        value=_optional_number(body.get("value"), what),
        regret=regret,
        total=total,
    )


def _kind(value: Any, kind: type | tuple[type, ...], what: str, name: str) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool):
        raise StrategyError(f"{what}: {name} is {value!r}")
    return value


def _optional_number(value: Any, what: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise StrategyError(f"{what}: {value!r} is not a number")
    return float(value)


def _table(raw: Any, what: str) -> Table:
    """The strategy's table, each set's probabilities checked to be a distribution."""
    if not isinstance(raw, dict):
        raise StrategyError(f"{what} has no strategy table")
    table: Table = {}
    for player, keys in raw.items():
        if not isinstance(keys, dict):
            raise StrategyError(f"{what}: {player}'s strategy is not a table of sets")
        table[player] = {}
        for key, shares in keys.items():
            where = f"{what}: {player}'s information set {key!r}"
            table[player][key] = _distribution(shares, where)
    return table


def _distribution(shares: Any, where: str) -> dict[str, float]:
    if not isinstance(shares, dict) or not shares:
        raise StrategyError(f"{where} has no probabilities")
    checked: dict[str, float] = {}
    for action, share in shares.items():
        number = _optional_number(share, where)
        if number is None or number < 0:
            raise StrategyError(f"{where}: {action!r} has probability {share!r}")
        checked[action] = number
    total = sum(checked.values())
    if abs(total - 1) > TOLERANCE:
        raise StrategyError(f"{where}: the probabilities sum to {total:.6g}, not 1")
    return checked


def _tables(raw: Any, what: str) -> Tables:
    """A solver's tables (regrets or totals), or empty where the file has none."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(isinstance(keys, dict) for keys in raw.values()):
        raise StrategyError(f"{what}: a solver's table is not a table of sets")
    tables: Tables = {}
    for player, keys in raw.items():
        tables[player] = {}
        for key, numbers in keys.items():
            if not isinstance(numbers, list) or not all(
                isinstance(n, int | float) and not isinstance(n, bool) and math.isfinite(n)
                for n in numbers
            ):
                raise StrategyError(f"{what}: {player}'s solver numbers at {key!r} are damaged")
            tables[player][key] = [float(n) for n in numbers]
    return tables
