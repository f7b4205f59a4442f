"""A tournament as a library object: configure it, :meth:`~Tournament.validate` it (every
check before any work), :meth:`~Tournament.run` it into its record (resuming what the record
holds), then read its :meth:`~Tournament.standings` and, with an SPRT, its
:meth:`~Tournament.verdict`. ``plies tournament`` is this object behind a progress bar; a
notebook calls it the same way:

>>> import tempfile, pathlib
>>> tournament = Tournament("tictactoe", ["random", "alphabeta"], games=2)
>>> tournament.validate()
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with tournament.open(folder / "t.sqlite") as records:
...     played = list(tournament.run(records))
...     standings = tournament.standings(records)
>>> len(played), [row.name for row in standings.players]
(2, ['alphabeta', 'random'])
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plies.agents import plays_in_person
from plies.arena.ratings import Standings, rating_intervals
from plies.arena.records import PlayedGame, Records, results_of
from plies.arena.sprt import SPRT, SPRTStatus, parse_sprt, pentanomial
from plies.arena.tournament import Scheduled, check_players, pairings, read_openings, run, schedule
from plies.clock import TimeControl, parse_time_control
from plies.errors import PliesError
from plies.openings import Opening, random_openings
from plies.registry import make_game


@dataclass
class Tournament:
    """Agents ``players`` (specs) play ``game`` (a spec) in pairs of games on one opening,
    colours swapped: ``games`` games a pairing of the ``form``, openings from ``openings``
    (``random:K`` for K random plies, a file of openings, or None for the game's own number of
    random plies), every choice seeded by ``seed``; ``time_control`` (``BASE[+INC]``) gives
    each player a clock; ``sprt`` (``ELO0,ELO1[,ALPHA,BETA]``) tests the first player against
    the second and stops once decided; the standings put ``anchor`` at ``anchor_elo``."""

    game: str
    players: Sequence[str]
    form: str = "round-robin"
    games: int = 10
    openings: str | None = None
    seed: int = 0
    time_control: str | None = None
    sprt: str | None = None
    anchor: str | None = None
    anchor_elo: float = 0.0
    _test: SPRT | None = field(default=None, init=False, repr=False)
    _control: TimeControl | None = field(default=None, init=False, repr=False)
    _planned: list[Scheduled] | None = field(default=None, init=False, repr=False)
    last_verdict: SPRTStatus | None = field(default=None, init=False, repr=False)
    """The SPRT's state after the last game :meth:`run` yielded (None without an SPRT)."""

    def validate(self) -> None:
        """Check everything before any game: the game, the players (no person, each built
        once), the form, an even number of games, the SPRT, the clock, the anchor and the
        openings; a :class:`~plies.errors.PliesError` names the first problem."""
        game = make_game(self.game)
        self._test = None if self.sprt is None else parse_sprt(self.sprt)
        self._control = None if self.time_control is None else parse_time_control(self.time_control)
        if self._test is not None and len(self.players) != 2:
            raise PliesError("an SPRT tests one player against another: give exactly two players")
        if self.anchor is not None and self.anchor not in self.players:
            raise PliesError(f"the anchor {self.anchor!r} is not one of the players")
        if any(plays_in_person(spec) for spec in self.players):
            raise PliesError("a tournament is played by programs: use 'plies play' yourself")
        pairings(self.players, self.form)
        if self.games % 2:
            raise PliesError(f"the games of a pairing must be even (game pairs), got {self.games}")
        check_players(self.game, self.players)
        self._planned = schedule(
            self.game,
            self.players,
            form=self.form,
            games=self.games,
            openings=self._openings(game),
            seed=self.seed,
            time_control=self._control,
        )

    def _openings(self, game: Any) -> Sequence[str | Opening[Any]]:
        """One opening a game pair: random plies from the seed, or a file's lines."""
        text = self.openings
        if text is not None and not text.startswith("random"):
            return read_openings(game, text)
        plies = game.opening_plies
        if text is not None and text != "random":
            word = text.removeprefix("random:")
            if not word.isdigit():
                raise PliesError(f"openings {text!r}: give random:K (K random moves) or a file")
            plies = int(word)
        return random_openings(game, self.games // 2, plies, self.seed)

    @property
    def planned(self) -> list[Scheduled]:
        """Every game of the tournament (after :meth:`validate`)."""
        if self._planned is None:
            self.validate()
        assert self._planned is not None
        return self._planned

    @contextmanager
    def open(self, path: str | Path) -> Iterator[Records]:
        """The tournament's record at ``path`` (new, or one of the same game and clock to
        resume), closed after the ``with`` block."""
        control = "" if self.time_control is None else str(parse_time_control(self.time_control))
        records = Records(path, self.game, control)
        try:
            yield records
        finally:
            records.close()

    def run(
        self, records: Records, concurrency: int | None = 1, ray_address: str | None = None
    ) -> Generator[PlayedGame, None, None]:
        """Play the games ``records`` lacks, ``concurrency`` at a time (worker processes, or
        Ray actors of ``ray_address``), yielding each as it is written; with an SPRT, stop as
        soon as it decides. Closing the iteration (Ctrl-C) stops the workers; what was written
        stays."""
        games = run(records, self.planned, concurrency, ray_address=ray_address)
        try:
            for record in games:
                self.last_verdict = verdict = self.verdict(records)
                yield record
                if verdict is not None and verdict.state != "continue":
                    return
        finally:
            games.close()

    def standings(self, records: Records) -> Standings:
        """Maximum likelihood Elo ratings with 95% bootstrap intervals over game pairs; an
        anchor without a finished game leaves the mean at 0."""
        games = records.games()
        played = {game.first for game in games} | {game.second for game in games}
        anchor = self.anchor if self.anchor in played else None
        return rating_intervals(results_of(games), anchor, self.anchor_elo)

    @property
    def test(self) -> SPRT | None:
        """The SPRT of the first player against the second, or None."""
        if self._test is None and self.sprt is not None:
            self._test = parse_sprt(self.sprt)
        return self._test

    def verdict(self, records: Records) -> SPRTStatus | None:
        """The SPRT's state on the finished game pairs of the first player (None without one)."""
        test = self.test
        return None if test is None else test.status(sprt_counts(records.games(), self.players[0]))


def sprt_counts(games: Sequence[PlayedGame], player: str) -> tuple[int, int, int, int, int]:
    """The pentanomial counts of ``player``'s finished game pairs."""
    pairs: dict[int, list[float]] = {}
    for game in games:
        score = game.result if game.first == player else 1 - game.result
        pairs.setdefault(game.pair, []).append(score)
    return pentanomial((scores[0], scores[1]) for scores in pairs.values() if len(scores) == 2)
