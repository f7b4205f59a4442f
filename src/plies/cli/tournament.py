"""plies tournament: agents play game pairs in worker processes, every game kept in SQLite;
a rerun on the same file resumes; ``plies tournament report FILE`` prints the standings."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from plies.cli.output import (
    Number,
    OutputPath,
    echo_json,
    exit_interrupted,
    until_interrupted,
)
from plies.errors import PliesError
from plies.registry import make_game
from plies.spec import GAMES, NumberRange

CONCURRENCY = NumberRange(1, 256, integer=True)
GAMES_OPTION = click.option(
    "--games",
    type=Number(GAMES),
    default=10,
    show_default=True,
    help="Games per pairing, an even number: pairs on one opening, colours swapped.",
)
"""``--games``: of a tournament's pairings, and of a ladder's calibration."""
ANCHOR_ELO = NumberRange(-10_000, 10_000)


ANCHOR = click.option(
    "--anchor", metavar="SPEC", help="Rate this player at --anchor-elo [default: the mean at 0]."
)
ANCHOR_ELO_OPTION = click.option(
    "--anchor-elo",
    type=Number(ANCHOR_ELO),
    default=0.0,
    help="The anchor's rating (e.g. a Stockfish level's UCI_Elo) [default: 0].",
)
PGN = click.option("--pgn", type=OutputPath(), help="Write every game as PGN (chess).")
SGF = click.option("--sgf", type=OutputPath(), help="Write every game as SGF (Go).")
MAT = click.option(
    "--mat",
    type=OutputPath(),
    help="Write each game as a match file (backgammon): FILE.mat becomes FILE-1.mat, FILE-2.mat...",
)


class _RunByDefault(click.Group):
    """``plies tournament GAME SPEC...`` runs one; ``plies tournament report FILE`` reports."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if (args and args[0] not in self.commands and not args[0].startswith("-")) or (
            args and args[0].startswith("-") and args[0] not in ("-h", "--help")
        ):
            args = ["run", *args]
        return super().parse_args(ctx, args)


@click.group("tournament", cls=_RunByDefault)
def tournament_command() -> None:
    """Tournaments between agents: plies tournament GAME SPEC SPEC [SPEC...] --db FILE runs
    (or resumes) one; plies tournament report FILE prints its standings again."""


@tournament_command.command("run")
@click.argument("game_spec", metavar="GAME")
@click.argument("specs", metavar="SPEC SPEC [SPEC...]", nargs=-1, required=True)
@click.option("--db", "path", required=True, type=OutputPath(), help="The record.")
@click.option(
    "--format",
    "form",
    type=click.Choice(["round-robin", "gauntlet"]),
    default="round-robin",
    show_default=True,
    help="Everyone against everyone, or the first against each other.",
)
@GAMES_OPTION
@click.option(
    "--openings",
    metavar="random:K|FILE",
    help="K random moves before each pair (default: per game), or a file of openings, one a "
    "line (moves or a position in the game's notation).",
)
@click.option(
    "--concurrency",
    type=Number(CONCURRENCY),
    help="Games at once: worker processes [default: cores], or Ray actors [default: the "
    "cluster's CPUs].",
)
@click.option(
    "--ray",
    "ray_address",
    metavar="ADDRESS|auto|local",
    help="Play on a Ray cluster (its address, auto: the one this machine belongs to, local: "
    "one started here for the run); only this process writes to --db.",
)
@click.option(
    "--time-control",
    "time_control",
    metavar="BASE[+INC]",
    help="A clock per player and game: BASE seconds, INC more after each move (60+0.5); "
    "engine, mcts, az, perfect and uci agents budget their moves from it, a clock that runs out "
    "loses [default: none, each agent's own time a move].",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of openings and agents.")
@click.option(
    "--sprt",
    metavar="ELO0,ELO1[,ALPHA,BETA]",
    help="Two players only: stop once the SPRT on game pairs accepts H0 (Elo <= ELO0) or H1 "
    "(Elo >= ELO1) for the first against the second [alpha = beta = 0.05].",
)
@ANCHOR
@ANCHOR_ELO_OPTION
@PGN
@SGF
@MAT
@click.option("--json", "as_json", is_flag=True, help="Print the standings as one JSON object.")
def run_command(
    game_spec: str,
    specs: Sequence[str],
    path: Path,
    form: str,
    games: int,
    openings: str | None,
    concurrency: int | None,
    ray_address: str | None,
    time_control: str | None,
    seed: int,
    sprt: str | None,
    anchor: str | None,
    anchor_elo: float,
    pgn: Path | None,
    sgf: Path | None,
    mat: Path | None,
    as_json: bool,
) -> None:
    """Run (or resume) a tournament of GAME between the agent SPECs, kept in --db FILE.

    Every pairing plays --games games in pairs on one opening, colours swapped; games run in
    --concurrency worker processes; each finished game is written to FILE at once, so Ctrl-C
    (or a crash) loses nothing and the same command resumes. The standings give maximum
    likelihood Elo ratings with 95% bootstrap intervals over game pairs.
    """

    from plies.arena.driver import Tournament
    from plies.pool import ray_cluster

    tournament = Tournament(
        game_spec,
        specs,
        form=form,
        games=games,
        openings=openings,
        seed=seed,
        time_control=time_control,
        sprt=sprt,
        anchor=anchor,
        anchor_elo=anchor_elo,
    )
    _check_records(game_spec, pgn, sgf, mat)
    tournament.validate()
    cluster = contextlib.nullcontext() if ray_address is None else ray_cluster(ray_address)
    workers = concurrency if ray_address is not None else concurrency or os.cpu_count() or 1
    with cluster, tournament.open(path) as records:  # the cluster is reached before the file
        with until_interrupted() as interruption:
            _play(tournament, records, workers, ray_address)
        report(records, as_json, anchor, anchor_elo, specs)
        _export(records, (pgn, sgf, mat, None), as_json)
        verdict, test = tournament.verdict(records), tournament.test
        if verdict is not None and test is not None:
            click.echo(
                f"SPRT {specs[0]} vs {specs[1]} (elo0 {test.elo0:g}, elo1 {test.elo1:g}, "
                f"alpha {test.alpha:g}, beta {test.beta:g}): {verdict.state}, LLR "
                f"{verdict.llr:+.3f} in [{test.lower:.3f}, {test.upper:.3f}]"
            )
    if interruption.happened:
        exit_interrupted(f"the finished games are kept in {path}: run the same command to resume")


LIVE_SECONDS = 1.0
"""The least time between two refits of the live standings."""
LIVE_SAMPLES = 200
"""Bootstrap samples of the live standings' intervals (the final report draws 1,000)."""


class _LiveStandings:
    """The standings so far as a Rich table, refitted in the driver's thread (the record's
    connection is its own) at most every :data:`LIVE_SECONDS`."""

    def __init__(self, records: Any, anchor: tuple[str | None, float]) -> None:
        self.records, self.anchor = records, anchor
        self.table: Any = ""
        self.fitted_at = -LIVE_SECONDS

    def update(self, force: bool = False) -> None:
        from rich.table import Table

        from plies.arena.ratings import STANDINGS_HEADER, rating_intervals, standings_rows
        from plies.arena.records import results_of

        if not force and time.monotonic() - self.fitted_at < LIVE_SECONDS:
            return
        self.fitted_at = time.monotonic()
        games = self.records.games()
        try:
            standings = rating_intervals(results_of(games), *self.anchor, samples=LIVE_SAMPLES)
        except PliesError as error:  # players not yet linked by games
            self.table = f"{len(games)} games so far: {error}"
            return
        table = Table(title=f"standings after {len(games)} games", title_justify="left")
        for column, name in enumerate(STANDINGS_HEADER):
            table.add_column(name, justify="right" if column in (0, 2, 3, 4, 5) else "left")
        for row in standings_rows(standings):
            table.add_row(*row)
        self.table = table

    def __rich__(self) -> Any:
        return self.table


def _play(tournament: Any, records: Any, workers: int | None, ray_address: str | None) -> None:
    """Play the games not yet recorded under a progress bar and a live table of the standings
    (on a terminal; the LLR in the bar with an SPRT, which stops the games once decided)."""
    from rich.console import Console, Group
    from rich.live import Live
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    planned = tournament.planned
    already = len(records.finished_keys() & {task.key for task in planned})
    progress = Progress(
        TextColumn("games"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}")
    )
    bar = progress.add_task("", total=len(planned), completed=already)
    live_standings = _LiveStandings(records, (tournament.anchor, tournament.anchor_elo))
    console = Console(stderr=True)
    shown = Live(Group(progress, live_standings), console=console, transient=True)
    with shown if console.is_terminal else contextlib.nullcontext():
        if already:
            live_standings.update(force=True)
        games_played = tournament.run(records, workers, ray_address)
        try:
            for record in games_played:
                description = f"last: {record.first} - {record.second}"
                verdict, test = tournament.last_verdict, tournament.test
                if verdict is not None and test is not None:
                    description = f"LLR {verdict.llr:+.2f} [{test.lower:.2f}, {test.upper:.2f}]"
                progress.update(bar, advance=1, description=description)
                if console.is_terminal:
                    live_standings.update()
        finally:
            games_played.close()  # stops the workers now, wherever Ctrl-C struck


@tournament_command.command("report")
@click.argument("path", type=click.Path(exists=True, dir_okay=False), metavar="FILE")
@ANCHOR
@ANCHOR_ELO_OPTION
@PGN
@SGF
@MAT
@click.option(
    "--export",
    type=OutputPath(),
    help="Write every game on a line in the game's notation.",
)
@click.option(
    "--plot",
    type=OutputPath(),
    help="Draw the ratings with their intervals to FILE.png.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the standings as one JSON object.")
def report_command(
    path: str,
    anchor: str | None,
    anchor_elo: float,
    pgn: Path | None,
    sgf: Path | None,
    mat: Path | None,
    export: Path | None,
    plot: Path | None,
    as_json: bool,
) -> None:
    """Print the standings of a tournament file; write its games out; plot the ratings."""
    from plies.arena.ratings import check_plot_target
    from plies.arena.records import Records, stored_game

    game_spec = stored_game(path)
    _check_records(game_spec, pgn, sgf, mat)
    if plot is not None:
        check_plot_target(plot)
    records = Records(path, game_spec, time_control=None)
    standings = report(records, as_json, anchor, anchor_elo)
    _export(records, (pgn, sgf, mat, export), as_json)
    if plot is not None and standings is not None:
        from plies.arena.ratings import plot_ratings

        plot_ratings(standings, plot)
        if not as_json:
            click.echo(f"ratings drawn to {plot}")
    records.close()


def _check_records(
    game_spec: str, pgn: Path | None, sgf: Path | None, mat: Path | None = None
) -> None:
    """A one-line error before any work when --pgn, --sgf or --mat is asked of a game without
    that notation (the options' type has checked that their files can be written)."""
    from plies.capabilities import HasMatchFile, HasPgn, HasSgf, require

    for path, capability, option in (
        (pgn, HasPgn, "--pgn"),
        (sgf, HasSgf, "--sgf"),
        (mat, HasMatchFile, "--mat"),
    ):
        if path is not None:
            require(make_game(game_spec), capability, option)


def _export(records: Any, paths: tuple[Path | None, ...], quiet: bool) -> None:
    """Write the games to the ``paths`` asked for: PGN, SGF, match files, one a line."""
    from plies.arena.export import write_mat, write_notation, write_pgn, write_sgf

    writers = (write_pgn, write_sgf, write_mat, write_notation)
    for target, write in zip(paths, writers, strict=True):
        if target is not None:
            count = write(records, target)
            if not quiet:
                click.echo(f"{count} games written to {target}")


def report(
    records: Any,
    as_json: bool,
    anchor: str | None = None,
    anchor_elo: float = 0,
    entrants: Sequence[str] = (),
) -> Any:
    """The standings: Elo with 95% intervals, games, points and score per player, best first
    (printed, and returned; None before any game). An anchor among ``entrants`` (the players
    of a run) that has not finished a game yet is left out, with a note."""
    from plies.arena.ratings import format_standings, rating_intervals
    from plies.arena.records import results_of

    games = records.games()
    if not games:
        click.echo(f"{records.game_spec}: no game finished yet")
        return None
    played = {game.first for game in games} | {game.second for game in games}
    if anchor is not None and anchor not in played and anchor in entrants:
        click.echo(f"{anchor} has no finished game yet: the mean is at 0", err=True)
        anchor = None
    standings = rating_intervals(results_of(games), anchor, anchor_elo)
    if as_json:
        echo_json(
            {
                "game": records.game_spec,
                "games": len(games),
                "first_move_elo": round(standings.first_move, 1),
                "players": [
                    {
                        "spec": s.name,
                        "games": s.games,
                        "points": s.points,
                        "score": round(s.score, 4),
                        "elo": round(s.elo, 1),
                        "elo_low": round(s.low, 1),
                        "elo_high": round(s.high, 1),
                        "los_next": None if s.los is None else round(s.los, 4),
                    }
                    for s in standings.players
                ],
            }
        )
        return standings
    click.echo(f"{records.game_spec}: {len(games)} games")
    click.echo(format_standings(standings))
    return standings
