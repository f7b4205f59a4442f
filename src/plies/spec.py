"""Spec strings (``name`` or ``name:key=value,key=value`` for games and agents) and the one
check of every number a user gives, in a spec or on the command line.

>>> spec = parse_spec("alphabeta:depth=4")
>>> spec.name, spec.options.integer("depth", None, minimum=1)
('alphabeta', 4)
>>> SECONDS.check("engine: time", float("nan"))
Traceback (most recent call last):
...
plies.errors.SpecError: engine: time must be a finite number, got nan
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from plies.errors import SpecError


@dataclass(frozen=True)
class NumberRange:
    """The values a number may take: finite, at least ``minimum`` (above it when
    ``above_minimum``), at most ``maximum``; whole when ``integer``."""

    minimum: float
    maximum: float
    integer: bool = False
    above_minimum: bool = False

    def check(self, what: str, value: float) -> float:
        """``value`` if it lies in the range, else a :class:`SpecError` naming ``what``."""
        if not math.isfinite(value):
            raise SpecError(f"{what} must be a finite number, got {value}")
        if self.above_minimum and not value > self.minimum:
            above = "a positive number" if self.minimum == 0 else f"above {self.minimum:g}"
            raise SpecError(f"{what} must be {above}, got {value:g}")
        if value < self.minimum:
            raise SpecError(f"{what} must be at least {self.minimum:g}, got {value:g}")
        if value > self.maximum:
            raise SpecError(f"{what} must be at most {_shown(self.maximum)}, got {_shown(value)}")
        return value

    def read(self, what: str, text: str) -> float:
        """The number written in ``text``, checked; a :class:`SpecError` naming ``what``."""
        try:
            value: float = int(text) if self.integer else float(text)
        except ValueError:
            kind = "an integer" if self.integer else "a number"
            raise SpecError(f"{what}={text!r} is not {kind}") from None
        return self.check(what, value)


def _shown(value: float) -> str:
    """``10,000,000,000,000`` for whole numbers, ``1e+30`` for the others."""
    return f"{int(value):,}" if value == int(value) and abs(value) < 1e21 else f"{value:g}"


MAX_DEPTH = 500
"""The deepest search or perft anyone can ask for (the engine's deepest iteration)."""
DEPTH = NumberRange(1, MAX_DEPTH, integer=True)
"""Search depths in plies."""
PERFT_DEPTH = NumberRange(0, MAX_DEPTH, integer=True)
NODES = NumberRange(1, 10**13, integer=True)
"""Node and position budgets (10^13: days of search at any speed plies reaches)."""
ITERATIONS = NumberRange(1, 10**10, integer=True)
"""MCTS iterations."""
SECONDS = NumberRange(0, 10**6, above_minimum=True)
"""Time limits in seconds (10^6: eleven days)."""
TABLE_MB = NumberRange(0, 8192)
"""Transposition table sizes in MB (0: no table)."""
EXPLORATION = NumberRange(0, 10**6)
"""MCTS exploration constants."""
RAVE_VISITS = NumberRange(0, 10**9)
"""RAVE's equivalence visits."""
RESIGN_BELOW = NumberRange(0, 0.5)
"""The chance of winning below which an agent resigns (0: never)."""
PRIOR_WEIGHT = NumberRange(0, 100)
"""The weight of an MCTS tree's prior knowledge (1: as given)."""
GAMES = NumberRange(1, 10**6, integer=True)
"""Games of a match (and of a training generation)."""
PLIES = NumberRange(0, MAX_DEPTH, integer=True)
"""Random plies before each opening of a match."""
SIMULATIONS = NumberRange(1, 10**6, integer=True)
"""PUCT simulations a move."""
TRUNK = NumberRange(1, 512, integer=True)
"""A network's residual blocks or filters."""
LEARNING_RATE = NumberRange(0, 1, above_minimum=True)
FRACTION = NumberRange(0, 1)
RUN_SEED = NumberRange(0, 2**63 - 1, integer=True)
"""Seeds of training and distillation runs (NumPy's seed sequences take non-negative ones)."""


@dataclass
class Options:
    """The ``key=value`` part of a spec, read with typed accessors that name bad values."""

    owner: str
    values: dict[str, str] = field(default_factory=dict)
    _read: set[str] = field(default_factory=set)

    def _take(self, key: str) -> str | None:
        self._read.add(key)
        return self.values.get(key)

    def integer(
        self,
        key: str,
        default: int | None,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> int | None:
        """An integer option from ``minimum`` to ``maximum``, or ``default`` when absent."""
        text = self._take(key)
        if text is None:
            return default
        try:
            value = int(text)
        except ValueError:
            raise SpecError(f"{self.owner}: {key}={text!r} is not an integer") from None
        if minimum is not None and value < minimum:
            raise SpecError(f"{self.owner}: {key} must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise SpecError(f"{self.owner}: {key} must be at most {maximum:,}, got {value:,}")
        return value

    def number(self, key: str, default: float | None, allowed: NumberRange) -> float | None:
        """A number option in the ``allowed`` range, or ``default`` when absent."""
        text = self._take(key)
        if text is None:
            return default
        return allowed.read(f"{self.owner}: {key}", text)

    def text(self, key: str) -> str | None:
        """A free-text option, or None when absent; the caller parses it."""
        return self._take(key)

    def flag(self, key: str, default: bool) -> bool:
        """A boolean option: true/false, yes/no, on/off, 1/0."""
        text = self._take(key)
        if text is None:
            return default
        lowered = text.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise SpecError(f"{self.owner}: {key}={text!r} is not true or false")

    def choice(self, key: str, default: str, choices: tuple[str, ...]) -> str:
        """One of ``choices``."""
        text = self._take(key)
        if text is None:
            return default
        if text not in choices:
            raise SpecError(f"{self.owner}: {key}={text!r} is not one of {', '.join(choices)}")
        return text

    def finish(self) -> None:
        """Refuse keys nobody read."""
        unknown = sorted(set(self.values) - self._read)
        if unknown:
            known = ", ".join(sorted(self._read)) or "none"
            raise SpecError(f"{self.owner}: unknown option {unknown[0]!r} (options: {known})")


@dataclass(frozen=True)
class Spec:
    """A parsed spec: the name and its options."""

    name: str
    options: Options


def spec_name(text: str) -> str:
    """The name of a spec, before its options are read (they may depend on it)."""
    return text.strip().partition(":")[0].strip().lower()


def parse_spec(text: str, positional: str | None = None) -> Spec:
    """Split ``name:key=value,...``; raises :class:`SpecError` on malformed text. With
    ``positional``, a first item without ``=`` is that key's value (``uci:stockfish,...``
    reads as ``uci:cmd=stockfish,...``)."""
    name, rest = spec_name(text), text.strip().partition(":")[2]
    if not name:
        raise SpecError(f"empty name in spec {text!r}")
    return Spec(name, parse_options(name, rest, positional))


def parse_options(owner: str, text: str, positional: str | None = None) -> Options:
    """The options of ``key=value,...`` (the part of a spec after its name), for ``owner``."""
    values: dict[str, str] = {}
    if text.strip():
        for index, item in enumerate(text.split(",")):
            key, sep, value = item.partition("=")
            if index == 0 and positional is not None and not sep and key.strip():
                key, sep, value = positional, "=", key
            key, value = key.strip().lower(), value.strip()
            if not sep or not key or not value:
                raise SpecError(f"{owner}: malformed option {item.strip()!r} (expected key=value)")
            if key in values:
                raise SpecError(f"{owner}: option {key!r} given twice")
            values[key] = value
    return Options(owner, values)


@dataclass(frozen=True)
class Option:
    """One option of an agent kind: its type (``int``, ``number``, ``flag``, ``choice`` or
    ``text``), its default, its allowed values (a range or choices) and what it does."""

    key: str
    kind: str
    help: str
    default: Any = None
    allowed: NumberRange | None = None
    choices: tuple[str, ...] = ()

    def read(self, options: Options) -> Any:
        """This option's value in a spec's options (the default when absent), checked."""
        if self.kind == "flag":
            return options.flag(self.key, bool(self.default))
        if self.kind == "choice":
            return options.choice(self.key, self.default, self.choices)
        if self.kind == "text":
            text = options.text(self.key)
            return self.default if text is None else text
        assert self.allowed is not None
        value = options.number(self.key, self.default, self.allowed)
        return None if value is None else int(value) if self.kind == "int" else value

    def text(self) -> str:
        """``depth=N`` style usage: ``key=`` and what it takes."""
        if self.kind == "flag":
            return f"{self.key}=true|false"
        if self.kind == "choice":
            return f"{self.key}={'|'.join(self.choices)}"
        if self.kind == "text":
            return f"{self.key}=TEXT"
        return f"{self.key}={'N' if self.kind == 'int' else 'X'}"
