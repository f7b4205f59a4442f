"""A web game's clocks: :class:`plies.play.Clocks` (Fischer, as the arena keeps them) run on the
wall clock, the mover's from the moment its turn began, so that a page shows both clocks
running and a flag falls even while nobody moves.

Times are wall-clock seconds (``time.time``), so clocks written to the games' database go on
after a server restart from where they were: the mover's time kept running meanwhile, as a
player's clock does when the other side's connection drops.

>>> from plies.clock import parse_time_control
>>> now = [100.0]
>>> clocks = GameClocks(parse_time_control("60+2"), ("W", "B"), now=lambda: now[0])
>>> clocks.begin("W"); now[0] += 10
>>> round(clocks.left("W"), 1), clocks.running
(50.0, 'W')
>>> clocks.end("W") is None, clocks.left("W")
(True, 52.0)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from plies.clock import Clocked, TimeControl, parse_time_control
from plies.errors import SpecError
from plies.play import Clocks, Loss

PRESETS = {"1+0": "60", "3+2": "180+2", "5+3": "300+3", "10+5": "600+5", "15+10": "900+10"}
"""The time controls the Play page offers, as players name them (minutes + seconds a move) and
as a time control (seconds)."""
MOST_BASE_SECONDS = 3 * 3600.0
"""The longest clock a web game may start with."""


def web_time_control(text: str | None) -> TimeControl | None:
    """A time control as the Play page sends it, ``BASE+INC`` in seconds (None or empty:
    untimed); a :class:`SpecError` naming the problem, or a base over three hours."""
    if text is None or not text.strip():
        return None
    control = parse_time_control(text)
    if control.base > MOST_BASE_SECONDS:
        raise SpecError(f"time control {text!r}: the base may be at most three hours here")
    return control


class GameClocks:
    """Each player's clock under ``control``; ``now`` is the wall clock (for tests)."""

    def __init__(
        self,
        control: TimeControl,
        players: Sequence[str],
        now: Callable[[], float] = time.time,
    ) -> None:
        self.clocks = Clocks(control, players)
        self.now = now
        self.running: str | None = None
        self.since = 0.0
        self.fallen: Loss | None = None

    @property
    def control(self) -> TimeControl:
        return self.clocks.control

    def begin(self, player: str, agent: Any = None) -> None:
        """Start ``player``'s clock (its turn begins); an agent that keeps a clock is told its
        time and budgets its move from it."""
        self.running, self.since = player, self.now()
        if isinstance(agent, Clocked):
            agent.set_clock(self.left(player), self.control.increment)

    def end(self, player: str) -> Loss | None:
        """Stop ``player``'s clock after its move: the loss when it ran out, else None (and
        the increment added)."""
        if self.running != player:
            return None
        elapsed = max(0.0, self.now() - self.since)
        self.running = None
        loss = self.clocks.stop(player, elapsed)
        if loss is not None:
            self.fallen = loss
        return loss

    def left(self, player: str) -> float:
        """``player``'s time left now (its running turn counted)."""
        left = self.clocks.left[player]
        if self.running == player:
            left -= max(0.0, self.now() - self.since)
        return left

    def flag(self) -> Loss | None:
        """The loss of the mover whose clock has run out, else None."""
        if self.running is not None and self.left(self.running) < 0:
            self.fallen = Loss(self.running, f"loses on time ({self.control} s)")
            self.clocks.left[self.running] = 0.0
            self.running = None
        return self.fallen

    def seconds_to_flag(self) -> float | None:
        """Seconds until the running clock falls (None when none runs)."""
        return None if self.running is None else max(0.0, self.left(self.running))

    def to_json(self) -> dict[str, Any]:
        """The clocks as the page shows them: the control, each player's seconds left (never
        below 0) and whose clock runs."""
        return {
            "control": str(self.control),
            "left": {p: round(max(0.0, self.left(p)), 2) for p in self.clocks.left},
            "running": self.running,
        }

    def saved(self) -> dict[str, Any]:
        """What a database keeps to restore the clocks (:meth:`restored`)."""
        return {
            "control": str(self.control),
            "left": dict(self.clocks.left),
            "running": self.running,
            "since": self.since,
        }

    @classmethod
    def restored(
        cls, saved: dict[str, Any], players: Sequence[str], now: Callable[[], float] = time.time
    ) -> GameClocks:
        """The clocks :meth:`saved` kept, running on from then."""
        clocks = cls(parse_time_control(saved["control"]), players, now)
        clocks.clocks.left.update({p: float(saved["left"][p]) for p in players})
        clocks.running, clocks.since = saved["running"], float(saved["since"])
        return clocks
