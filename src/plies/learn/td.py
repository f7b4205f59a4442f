"""Self-play training by TD(lambda), as TD-Gammon learned (Tesauro 1992, 1995; Sutton 1988), for a
game whose compiled code learns its network online (:class:`~plies.capabilities.HasTdLearning`):
the network plays both sides without search and every move pulls its last prediction towards the
next. This is the one training of plies that steps no optimiser: TD(lambda) updates the weights
after every move from eligibility traces, in the game's compiled code (the one supervised loop,
:mod:`plies.learn.trainer`, trains on examples).

A run folder holds ``config.json`` (the game and the settings), ``network.npz`` (the network and
its dice, written atomically after every block of games), ``metrics.jsonl`` (a line a block: the
games trained, the seconds, and the equity of the network against the game's hand-written
evaluation over duplicate pairs of games, with its 95% interval) and ``curves.png``, that learning
curve drawn after every block (as ``plies learn plot`` draws it). The same command on the same
folder goes on where it stopped (Ctrl-C or a kill loses at most the block in progress).
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from plies.capabilities import HasTdLearning, TdNetwork, require
from plies.errors import RenderError, RunFolderError, SpecError
from plies.game import Game
from plies.inputs import write_atomically
from plies.registry import game_identity

FORMAT = "plies-td-run"
MAX_GAMES = 10**9
MAX_BLOCK = 10**6
MAX_PAIRS = 10**5
MAX_HIDDEN = 1024


@dataclass(frozen=True)
class TdSettings:
    """A run's settings: the hidden units, the step size ``alpha`` and the trace decay
    ``lam``, the seed of the first weights and dice, the games between two checkpoints and the
    duplicate pairs of games against the hand-written evaluation after each (the same
    dice after every block, so that the curve's points differ by the network alone)."""

    hidden: int = 80
    alpha: float = 0.1
    lam: float = 0.7
    seed: int = 1
    block: int = 5_000
    pairs: int = 1_000

    def __post_init__(self) -> None:
        if not (math.isfinite(self.alpha) and 0 < self.alpha <= 10):
            raise SpecError(f"--alpha must be above 0 and at most 10, not {self.alpha}")
        if not (math.isfinite(self.lam) and 0 <= self.lam <= 1):
            raise SpecError(f"--lambda must be from 0 to 1, not {self.lam}")
        for name, count, most in (
            ("hidden", self.hidden, MAX_HIDDEN),
            ("block", self.block, MAX_BLOCK),
            ("pairs", self.pairs, MAX_PAIRS),
        ):
            if not 1 <= count <= most:
                raise SpecError(f"--{name} must be 1 to {most}, not {count}")


@dataclass(frozen=True)
class Block:
    """What one block of games did: the games trained in all after it, its seconds, the turns
    a game, and the network's points a game against the hand-written evaluation with its 95%
    interval's half width."""

    games: int
    seconds: float
    turns_per_game: float
    equity_vs_hand: float
    margin: float
    block: int

    @property
    def games_per_second(self) -> float:
        return self.block / self.seconds if self.seconds > 0 else math.inf


def recorded_settings(folder: Path) -> TdSettings | None:
    """The settings a run folder's ``config.json`` records, None where it records none."""
    try:
        found = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        return TdSettings(**found["settings"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


class TdRun:
    """A run folder (see the module's text) for ``game``, made or reopened with ``settings``
    (recorded in ``config.json`` for the next time; the hidden size cannot change)."""

    def __init__(self, folder: Path, game: Game[Any, Any], settings: TdSettings) -> None:
        self.folder = folder
        self.learning = require(game, HasTdLearning, "TD(lambda) self-play training")
        self.identity = game_identity(game)
        self.settings = settings
        self.network = self._open()

    @property
    def network_file(self) -> Path:
        return self.folder / "network.npz"

    @property
    def metrics_file(self) -> Path:
        return self.folder / "metrics.jsonl"

    def _open(self) -> TdNetwork:
        config = self.folder / "config.json"
        if self.folder.exists() and not self.folder.is_dir():
            raise RunFolderError(f"{str(self.folder)!r} is a file, not a run folder")
        if config.exists():
            try:
                found = json.loads(config.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                folder = str(self.folder)
                raise RunFolderError(f"{folder!r}: unreadable config.json ({error})") from None
            if not isinstance(found, dict) or found.get("format") != FORMAT:
                raise RunFolderError(f"{str(self.folder)!r} holds other work than TD training")
            if found.get("game") != self.identity:
                raise RunFolderError(
                    f"{str(self.folder)!r} trains {found.get('game')!r}, not {self.identity}"
                )
            if self.network_file.exists():
                network = self.learning.load_td_network(self.network_file)
                if network.hidden != self.settings.hidden:
                    raise RunFolderError(
                        f"{str(self.folder)!r} trains a network of {network.hidden} hidden units,"
                        f" not {self.settings.hidden}"
                    )
                self._record(config)
                return network
        elif self.folder.exists() and any(self.folder.iterdir()):
            raise RunFolderError(f"{str(self.folder)!r} is not empty and holds no TD training")
        self._record(config)
        return self.learning.fresh_td_network(self.settings.hidden, self.settings.seed)

    def _record(self, config: Path) -> None:
        record = {"format": FORMAT, "game": self.identity, "settings": asdict(self.settings)}
        text = json.dumps(record, indent=1)
        write_atomically(config, lambda file: file.write(text.encode()))

    def run(self, games: int, report: Callable[[Block], None] | None = None) -> Block | None:
        """Train until the network has played ``games`` self-play games in all, a block at a
        time, each block saved with its line of metrics; the last block's figures (None when
        there was nothing left to train)."""
        if not 0 <= games <= MAX_GAMES:
            raise SpecError(f"--games must be 0 to {MAX_GAMES}, not {games}")
        last = None
        while self.network.games < games:
            size = min(self.settings.block, games - self.network.games)
            last = self._block(size)
            if report is not None:
                report(last)
        return last

    def _block(self, size: int) -> Block:
        start = time.perf_counter()
        _, turns = self.network.train(size, self.settings.alpha, self.settings.lam)
        seconds = time.perf_counter() - start
        points = np.asarray(self.network.against_hand(self.settings.pairs, self.settings.seed))
        mean = float(points.mean())
        margin = 1.96 * float(points.std(ddof=1)) / math.sqrt(len(points)) if len(points) > 1 else 0
        block = Block(self.network.games, seconds, turns / size, mean, margin, size)
        self.network.save(self.network_file)
        line = {
            "generation": self._generations() + 1,
            "games_trained": block.games,
            "seconds": round(seconds, 2),
            "turns_per_game": round(block.turns_per_game, 2),
            "alpha": self.settings.alpha,
            "lambda": self.settings.lam,
            "equity_vs_hand": round(mean, 4),
            "equity_vs_hand_low": round(mean - margin, 4),
            "equity_vs_hand_high": round(mean + margin, 4),
        }
        kept = self.metrics_file.read_bytes() if self.metrics_file.exists() else b""
        text = (json.dumps(line) + "\n").encode()
        write_atomically(self.metrics_file, lambda file: file.write(kept + text))
        self._plot()
        return block

    def _plot(self) -> None:
        """Draw the learning curve into ``curves.png`` (skipped without matplotlib)."""
        from plies.learn.plots import plot_metrics, read_metrics

        with contextlib.suppress(RenderError):
            plot_metrics(read_metrics(self.folder), self.folder / "curves.png")

    def _generations(self) -> int:
        if not self.metrics_file.exists():
            return 0
        return sum(1 for line in self.metrics_file.read_text().splitlines() if line.strip())
