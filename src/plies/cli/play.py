"""plies play: a game between agents, a human at the terminal among them. In a game of
imperfect information where a person plays, the terminal shows what the person's seat sees
(:func:`plies.play.seat_view`): the board and moves as it sees them, and no agent's search
(it names what the agent's own seat sees)."""

from __future__ import annotations

import random
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any

import click

from plies.agents import plays_in_person
from plies.capabilities import HasMatchFile, HasPgn, HasPositionNotation, HasSgf
from plies.cli.output import (
    OutputPath,
    game_and_state,
    plural,
    search_summary,
)
from plies.errors import AbandonedError, IllegalMoveError, PliesError
from plies.game import CHANCE, Game
from plies.game_texts import game_text
from plies.play import GameRecord, SeatView, Turn, play_game, seat_agents, seat_view


def turn_printer(quiet: bool, people: Collection[str] = ()) -> Any:
    """Print each move (with its search's summary) and the board after it, as
    :func:`~plies.play.seat_view` shows the game where ``people`` are the seats of people: in
    a game of imperfect information, the moves the seat can tell apart, each once it ends
    (:meth:`~plies.play.SeatView.moves`)."""
    printed = 0

    def on_turn(record: GameRecord, turn: Turn) -> None:
        nonlocal printed
        view = seat_view(record.game, people, record)
        moves = view.moves(record)
        for number in range(printed, len(moves)):
            click.echo(_move_line(number + 1, record.turns[moves[number][-1]], view))
        if len(moves) > printed and turn.player != CHANCE and not quiet:
            click.echo(record.game.display(view.state(record.state)))
        printed = max(printed, len(moves))

    return on_turn


def _move_line(number: int, turn: Turn, view: SeatView) -> str:
    """Move ``number``, ``turn``'s, as ``view``'s seat sees it: the game's own words for a
    move it does not see as played; an agent's search where it sees everything."""
    if turn.player == CHANCE:
        return f"{number}. chance: {view.notation(turn)}"
    if not view.shows(turn):
        return f"{number}. {view.notation(turn)}"
    line = f"{number}. {turn.player} plays {turn.notation}"
    return line if view.hides else line + _search_note(turn)


def _search_note(turn: Turn) -> str:
    """The summary of the search behind ``turn``, in brackets ("" without one)."""
    search = turn.search
    if search is None:
        return ""
    stats = search.stats
    if search.solver_score is not None:
        return f"  [{search.note}; {plural(stats.nodes, 'position')}, {stats.time:.3f} s]"
    if search.note is not None:
        return f"  [{search.note}; {search_summary(search)}]"
    depth = "" if search.score is None else f"depth {search.depth}; "
    return f"  [{depth}value for {turn.player}: {search.value:.3g}; {search_summary(search)}]"


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.option(
    "--first",
    "first_spec",
    default="human",
    show_default=True,
    help="Agent for the first player: human, random, minimax, alphabeta[:depth=N], "
    "engine[:time=S], mcts[:time=S], perfect[:time=S] (connect4)... (plies agents lists "
    "them all).",
)
@click.option(
    "--second",
    "second_spec",
    default=None,
    help="Agent for the second player [default: the game's usual opponent: perfect "
    "alphabeta for the small games, the engine with 1 s a move for connect4, chess, othello "
    "and checkers, mcts:time=1 for go].",
)
@click.option(
    "--third",
    "third_spec",
    default=None,
    help="Agent for the third player of a three-player game [default: as --second].",
)
@click.option("--position", help="Start from this position instead of the initial one.")
@click.option("--seed", type=int, default=None, help="Seed for random agents and the dice.")
@click.option("--quiet", is_flag=True, help="Print the moves only, not the board after each.")
@click.option(
    "--pgn",
    "pgn_path",
    type=OutputPath(),
    help="Chess: write the game to this PGN file when it ends (also when abandoned).",
)
@click.option(
    "--sgf",
    "sgf_path",
    type=OutputPath(),
    help="Go: write the game to this SGF file when it ends (also when abandoned).",
)
@click.option(
    "--mat",
    "mat_path",
    type=OutputPath(),
    help="Backgammon: write the game or match to this match file (.mat) when it ends (also "
    "when abandoned).",
)
def play(
    game_spec: str,
    first_spec: str,
    second_spec: str | None,
    third_spec: str | None,
    position: str | None,
    seed: int | None,
    quiet: bool,
    pgn_path: Path | None,
    sgf_path: Path | None,
    mat_path: Path | None,
) -> None:
    """Play GAME between agents (a human at the terminal among them); nature rolls the dice
    of games with chance."""
    game, state = game_and_state(game_spec, position)
    if len(game.players) > 3:
        raise PliesError(f"'{game.name}' has {len(game.players)} players; plies play seats 3")
    if third_spec is not None and len(game.players) < 3:
        raise PliesError(f"--third: '{game.name}' has only {len(game.players)} players")
    if pgn_path is not None and not isinstance(game, HasPgn):
        raise PliesError(f"--pgn: '{game.name}' has no PGN notation (chess has)")
    if sgf_path is not None and not isinstance(game, HasSgf):
        raise PliesError(f"--sgf: '{game.name}' has no SGF notation (go has)")
    if mat_path is not None and not isinstance(game, HasMatchFile):
        raise PliesError(f"--mat: '{game.name}' writes no match files (backgammon does)")
    given = dict(zip(game.players, (first_spec, second_spec, third_spec), strict=False))
    agents = seat_agents(game, given, seed=seed, ask=ask_at_terminal)
    specs = [given[player] or game.default_opponent for player in game.players]
    click.echo("   ".join(f"{p}: {spec}" for p, spec in zip(game.players, specs, strict=True)))
    people = [p for p, spec in zip(game.players, specs, strict=True) if plays_in_person(spec)]
    so_far = GameRecord(game, state, state)
    click.echo(game.display(seat_view(game, people, so_far).state(state)))
    on_turn = turn_printer(quiet, people)

    def remember(record: GameRecord, turn: Turn) -> None:
        nonlocal so_far
        so_far = record
        on_turn(record, turn)

    try:
        dice = None if seed is None else random.Random(seed)
        record = play_game(game, agents, state, remember, chance=dice)
    except (AbandonedError, KeyboardInterrupt):
        _write_records({"pgn": pgn_path, "sgf": sgf_path, "mat": mat_path}, so_far, specs)
        view = seat_view(game, people, so_far)
        seen = [view.notation(so_far.turns[move[-1]]) for move in view.moves(so_far)]
        moves = (", " if any(" " in move for move in seen) else " ").join(seen) or "-"
        click.echo(f"\ngame abandoned after {len(seen)} moves: {moves}", err=True)
        if isinstance(game, HasPositionNotation) and not view.hides:
            click.echo(
                f"resume with: plies play {game_spec} --position "
                f"'{game.format_position(so_far.state)}'",
                err=True,
            )
        raise
    click.echo(f"game over after {len(record.turns)} moves: {record.outcome()}")
    _write_records({"pgn": pgn_path, "sgf": sgf_path, "mat": mat_path}, record, specs)


def _write_records(paths: dict[str, Path | None], record: GameRecord, specs: list[str]) -> None:
    """Write the game as PGN (chess), SGF (Go) and a match file (backgammon) to the ``paths``
    given for them, the agents' specs as the players' names
    (:func:`plies.game_texts.game_text`)."""
    names = dict(zip(record.game.players, specs, strict=False))
    for kind, path in paths.items():
        if path is not None:
            _write(path, kind.upper(), game_text(record, kind, names, "plies play"))


def _write(path: Path, kind: str, text: str) -> None:
    try:
        path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    except OSError as error:
        raise PliesError(f"--{kind.lower()}: cannot write {path}: {error.strerror}") from None
    click.echo(f"{kind} written to {path}", err=True)


def ask_at_terminal(game: Game[Any, Any], state: Any) -> Any:
    """A person's move at the terminal: the legal moves shown, bad input re-prompted; the end
    of input abandons the game (:class:`AbandonedError`)."""
    moves = [game.format_action(state, a) for a in game.actions(state)]
    legal = (", " if any(" " in m for m in moves) else " ").join(moves)
    click.echo(f"{game.to_move(state)} to move; legal moves: {legal}")
    while True:
        click.echo("your move> ", nl=False)
        text = sys.stdin.readline()
        if not text:
            raise AbandonedError("end of input")
        if not text.strip():
            continue
        try:
            return game.parse_action(state, text)
        except IllegalMoveError as error:
            click.echo(f"{error}; try again")
