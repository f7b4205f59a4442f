"""Calibrating a game's strength ladder (:mod:`plies.ladder`) through the arena: the games that
measure each level, and the figures they give.

**Elo ladders.** Each level meets its neighbours one and two rungs away, and the anchor and
the references (other settings of the outside program) meet the levels each is declared to
(every level by default), ``games`` games a pairing in pairs on one random opening, colours
swapped (:func:`plies.arena.tournament.pair_games`). The ratings are the arena's
maximum-likelihood Elo with 95% bootstrap intervals over game pairs
(:func:`plies.arena.ratings.rating_intervals`), the anchor held at its rating on its scale
and the references rated like the levels: levels no outside player meets are tied in through
the ladder's own games, whose gaps between settings of one program run larger than against
others (self-play inflation), so the references should meet the strong levels.

**Mistake ladders** (games with a perfect solver): each level plays ``games`` games against
the game's perfect solver (:data:`PERFECT`); every move the level made from a position it had
not lost yet is judged by the solver, as :mod:`plies.mistakes` judges a set's (a mistake
turns the position's outcome for the mover worse: a win drawn or lost, a draw lost; from a
lost position no move is one, so those are not counted). The figure is the share of
mistakes among the moves judged, with its Wilson score interval (Wilson 1927).

The games are kept in a tournament record (:class:`plies.arena.records.Records`), so an
interrupted calibration resumes with the same command.
"""

from __future__ import annotations

import contextlib
import datetime
import math
import os
import platform
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plies.arena.ratings import rating_intervals
from plies.arena.records import PlayedGame, Records, results_of
from plies.arena.tournament import Scheduled, check_players, opening_line, pair_games, run
from plies.capabilities import HasPerfectSolver, require
from plies.errors import MissingCapabilityError, PliesError, UnsupportedGameError
from plies.game import Game
from plies.ladder import Figure, HasLadder, Ladder, LadderFile
from plies.openings import random_openings
from plies.registry import game_identity, make_game

PERFECT = "perfect:time=60"
"""The opponent of a mistakes ladder's levels: the game's perfect solver, with time enough to
solve every position it meets (a level named ``perfect`` plays with the web's budget)."""
Z95 = 1.959964
"""The standard normal quantile of a two-sided 95% interval."""


def players(ladder: Ladder) -> list[str]:
    """Every spec that plays in the calibration: the levels, then the anchor (or the perfect
    opponent)."""
    if ladder.measure == "mistakes":
        return [level.spec for level in ladder.levels] + [PERFECT]
    outside = [_anchor(ladder), *ladder.references]
    return [level.spec for level in ladder.levels] + [player.spec for player in outside]


def pairings(ladder: Ladder) -> list[tuple[str, str]]:
    """Who meets whom (see the module's docstring)."""
    specs = [level.spec for level in ladder.levels]
    if ladder.measure == "mistakes":
        return [(spec, PERFECT) for spec in specs if spec != PERFECT]
    neighbours = [
        (specs[i], specs[j]) for i in range(len(specs)) for j in (i + 1, i + 2) if j < len(specs)
    ]
    outside = []
    for player in (_anchor(ladder), *ladder.references):
        met = player.meets or tuple(range(1, len(specs) + 1))
        if not all(1 <= number <= len(specs) for number in met):
            raise PliesError(f"{player.name} meets levels {met}, not all on the ladder")
        outside += [(specs[number - 1], player.spec) for number in met]
    return neighbours + outside


def schedule(
    game_spec: str, game: Game[Any, Any], ladder: Ladder, games: int, seed: int
) -> list[Scheduled]:
    """Every calibration game: ``games`` (even) a pairing, pair ``p`` on random opening ``p``
    (cycling through them where the game has fewer distinct openings than pairs)."""
    if games < 2 or games % 2:
        raise PliesError(f"games per pairing must be an even number (game pairs), got {games}")
    openings = random_openings(game, games // 2, game.opening_plies, seed)
    return [
        task
        for pairing in pairings(ladder)
        for pair in range(games // 2)
        for task in pair_games(game_spec, pairing, pair, openings[pair % len(openings)], seed)
    ]


def figures(game: Game[Any, Any], ladder: Ladder, played: Sequence[PlayedGame]) -> list[Figure]:
    """Each level's figure from the calibration games ``played`` (levels without a game are
    left out)."""
    if ladder.measure == "mistakes":
        return _mistake_figures(game, ladder, played)
    anchor = _anchor(ladder)
    standings = rating_intervals(results_of(played), anchor.spec, anchor.elo)
    by_spec = {row.name: row for row in standings.players}
    nominal = {reference.spec: reference.elo for reference in ladder.references}
    specs = [level.spec for level in ladder.levels] + list(nominal)
    return [
        Figure(
            spec,
            round(row.elo, 1),
            round(row.low, 1),
            round(row.high, 1),
            row.games,
            nominal=nominal.get(spec),
        )
        for spec in specs
        if (row := by_spec.get(spec)) is not None
    ]


def _mistake_figures(
    game: Game[Any, Any], ladder: Ladder, played: Sequence[PlayedGame]
) -> list[Figure]:
    judge = move_judge(game)
    result = []
    for level in ladder.levels:
        games = [record for record in played if level.spec in (record.first, record.second)]
        if not games:
            continue
        moves = mistakes = 0
        for record in games:
            judged = _judged_moves(game, record, level.spec, judge)
            moves += len(judged)
            mistakes += sum(judged)
        low, high = wilson_interval(mistakes, moves)
        share = mistakes / max(moves, 1)
        result.append(
            Figure(level.spec, round(share, 5), round(low, 5), round(high, 5), len(games), moves)
        )
    return result


def move_judge(game: Game[Any, Any]) -> Callable[[Any, Any], bool | None]:
    """A function telling whether a move is a mistake in a state, by the game's perfect
    solver (:mod:`plies.mistakes`' rule): the outcome the move leaves its mover (the solved
    score of the position after it, or the end's result) is worse than the position's; None
    from a lost position, where no move can be. Each position is solved once (``decide``: its
    opening book answers early positions at once)."""
    solver = require(game, HasPerfectSolver, "a ladder judged by perfect play").perfect_solver()
    if solver is None:
        raise UnsupportedGameError(f"game '{game.name}' is out of its perfect solver's reach")
    known: dict[Any, int] = {}

    def outcome(state: Any, player: str) -> int:
        """The sign of ``state``'s value for ``player`` with perfect play."""
        if game.is_terminal(state):
            others = [game.utility(state, p) for p in game.players if p != player]
            return _sign(int(game.utility(state, player) - max(others)))
        if state not in known:
            known[state] = _sign(solver.decide(state, keep_table=True).score)
        return known[state] if game.to_move(state) == player else -known[state]

    def is_mistake(state: Any, move: Any) -> bool | None:
        mover = game.to_move(state)
        before = outcome(state, mover)
        if before < 0:
            return None
        return outcome(game.result(state, move), mover) < before

    return is_mistake


def _judged_moves(
    game: Game[Any, Any],
    record: PlayedGame,
    spec: str,
    is_mistake: Callable[[Any, Any], bool | None],
) -> list[bool]:
    """Whether each move ``spec`` made in ``record`` after the opening from a position it had
    not lost yet was a mistake."""
    start, opening = opening_line(game, record.opening)
    state = start
    for action in opening:
        state = game.result(state, action)
    judged = []
    for notation in record.moves:
        move = game.parse_action(state, notation)
        mover = record.first if game.to_move(state) == game.players[0] else record.second
        verdict = is_mistake(state, move) if mover == spec else None
        if verdict is not None:
            judged.append(verdict)
        state = game.result(state, move)
    return judged


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score interval (95%) of a proportion: ``successes`` of ``trials``."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    scale = Z95 * Z95 / trials
    centre = (share + scale / 2) / (1 + scale)
    half = Z95 * math.sqrt(share * (1 - share) / trials + scale / (4 * trials)) / (1 + scale)
    return max(0.0, centre - half), min(1.0, centre + half)


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def _anchor(ladder: Ladder) -> Any:
    assert ladder.anchor is not None, "an Elo ladder has an anchor (Ladder checks it)"
    return ladder.anchor


@dataclass
class Calibration:
    """The calibration of ``game_spec``'s ladder: ``games`` games a pairing, openings and
    dice from ``seed``. Built by :func:`calibration`, which checks everything first."""

    game_spec: str
    game: Game[Any, Any]
    ladder: Ladder
    games: int
    seed: int
    planned: list[Scheduled] = field(default_factory=list)

    def run(
        self, records: Records, concurrency: int | None = 1, ray_address: str | None = None
    ) -> Generator[PlayedGame, None, None]:
        """Play the calibration games ``records`` lacks (:func:`plies.arena.tournament.run`),
        yielding each as it is written."""
        return run(records, self.planned, concurrency, ray_address=ray_address)

    def ladder_file(self, records: Records, command: str) -> LadderFile:
        """The figures of the games in ``records`` that belong to this calibration."""
        keys = {task.key for task in self.planned}
        played = [record for record in records.games() if record.key in keys]
        if not played:
            raise PliesError("no calibration game has been played yet")
        return LadderFile(
            game=game_identity(self.game),
            measure=self.ladder.measure,
            scale=("perfect play" if self.ladder.anchor is None else self.ladder.anchor.scale),
            figures=tuple(figures(self.game, self.ladder, played)),
            command=command,
            games=len(played),
            hardware=hardware(),
            hours=round(sum(sum(record.seconds) for record in played) / 3600, 2),
            date=datetime.date.today().isoformat(),
        )


def calibration(game_spec: str, games: int = 10, seed: int = 0) -> Calibration:
    """The calibration of ``game_spec``'s ladder, checked before any game: a game with a
    ladder, an even number of games, and every player built once."""
    game = make_game(game_spec)
    if not isinstance(game, HasLadder):
        raise MissingCapabilityError(f"game '{game.name}' has no strength ladder to calibrate")
    ladder = game.ladder
    if ladder.measure == "mistakes":
        move_judge(game)  # a solver in reach, before any game
    planned = schedule(game_spec, game, ladder, games, seed)
    check_players(game_spec, players(ladder))
    return Calibration(game_spec, game, ladder, games, seed, planned)


def hardware() -> str:
    """This machine in a few words: its processor and cores."""
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.partition(":")[2].strip()
                break
    return f"{model}, {os.cpu_count()} cores"
