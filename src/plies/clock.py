"""Clocks: a time control (``BASE[+INCREMENT]`` seconds, as cutechess-cli and fastchess write
``tc=60+0.6``) and the share of a clock one move may take, used by the arena for any agent
that keeps a clock (:class:`Clocked`) and by ``plies uci`` for ``go wtime ... btime ...``.

>>> control = parse_time_control("60+0.5")
>>> control, str(control)
(TimeControl(base=60.0, increment=0.5), '60+0.5')
>>> move_budget(60.0, 0.5)
2.375
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from plies.errors import SpecError

MOVES_TO_GO = 30
"""Moves assumed left to the next time control when none is given."""
INCREMENT_SHARE = 0.75
"""The part of the increment spent on the current move."""
CLOCK_SHARE = 0.5
"""No move takes more than this part of the remaining clock."""
MIN_MOVE_SECONDS = 0.01
"""The shortest search the time manager asks for."""
MAX_BASE_SECONDS = 7 * 24 * 3600.0
"""The longest clock a time control may start with (a week)."""


@dataclass(frozen=True)
class TimeControl:
    """Each player's clock starts at ``base`` seconds and gains ``increment`` after each of
    their moves (Fischer); a player whose clock runs out loses."""

    base: float
    increment: float = 0.0

    def __str__(self) -> str:
        return f"{self.base:g}" + (f"+{self.increment:g}" if self.increment else "")


def parse_time_control(text: str) -> TimeControl:
    """``BASE[+INCREMENT]`` in seconds (``60``, ``10+0.1``); :class:`SpecError` naming the
    problem otherwise."""
    base_text, _, increment_text = text.strip().partition("+")
    try:
        base = float(base_text)
        increment = float(increment_text) if increment_text else 0.0
    except ValueError:
        raise SpecError(
            f"time control {text!r}: give BASE[+INCREMENT] in seconds, e.g. 60+0.5"
        ) from None
    if not (math.isfinite(base) and 0 < base <= MAX_BASE_SECONDS):
        raise SpecError(f"time control {text!r}: the base must be over 0 and at most a week")
    if not (math.isfinite(increment) and 0 <= increment <= base):
        raise SpecError(f"time control {text!r}: the increment must be 0 to the base")
    return TimeControl(base, increment)


def move_budget(remaining: float, increment: float, moves_to_go: int | None = None) -> float:
    """The seconds the next move may take: the remaining clock over the moves to go (else
    :data:`MOVES_TO_GO`) plus 3/4 of the increment, at most half the remaining clock (never
    negative)."""
    remaining = max(remaining, 0.0)
    budget = remaining / (moves_to_go or MOVES_TO_GO) + INCREMENT_SHARE * increment
    return min(budget, CLOCK_SHARE * remaining)


@runtime_checkable
class Clocked(Protocol):
    """An agent that plays to a clock: before each move it is told the time left on its clock
    and its increment, and budgets the move from them (:func:`move_budget`) instead of its
    own time a move; its depth, node or iteration limits still apply."""

    def set_clock(self, remaining: float, increment: float) -> None: ...
