"""The Connect Four opening book: built by the solver on a small board, every entry equal to
a fresh decision, mirror images stored once and read back mirrored, a stopped build going on
where it stopped, the perfect agent playing from it move by move, and bad files refused."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from plies.agents import make_agent
from plies.errors import BookError
from plies.games.connect4.book import (
    build_book,
    load_book,
    position_key,
    shipped_book,
)
from plies.games.connect4.rules import ConnectFour
from plies.games.connect4.solver import Connect4Solver
from tests.conftest import assert_one_line_error

SMALL = ConnectFour(width=6, height=5)  # solved in milliseconds, yet not trivial


def _built(path: Path, plies: int) -> list[Any]:
    return list(build_book(path, plies, Connect4Solver(SMALL, book=False)))


def _mirror(game: ConnectFour, moves: str) -> str:
    return "".join(str(game.width + 1 - int(c)) for c in moves)


def test_every_entry_is_the_solvers_decision_and_mirrors_read_back(tmp_path: Path) -> None:
    path = tmp_path / "book.sqlite"
    steps = _built(path, 6)
    book = load_book(path, SMALL)
    assert book.plies == 6 and len(book) == steps[-1].size > 50
    plain = Connect4Solver(SMALL, book=False)
    draw = random.Random(3)
    checked = 0
    for _ in range(120):  # random lines, some of them the agent's (early ones cost seconds)
        moves = "".join(str(draw.randint(1, SMALL.width)) for _ in range(draw.randint(3, 5)))
        try:
            state = SMALL.parse_position(moves)
            mirrored = SMALL.parse_position(_mirror(SMALL, moves))
        except Exception:
            continue
        known = book.lookup(state)
        if known is None or SMALL.is_terminal(state):
            continue
        fresh = plain.decide(state)
        assert (known.score, known.moves) == (fresh.score, fresh.moves), moves
        other = book.lookup(mirrored)
        assert other is not None and position_key(SMALL, state) == position_key(SMALL, mirrored)
        assert other.moves == sorted(SMALL.width - 1 - c for c in fresh.moves)
        checked += 1
    assert checked >= 10


def test_two_worker_processes_build_the_same_book(tmp_path: Path) -> None:
    alone, side_by_side = tmp_path / "alone.sqlite", tmp_path / "two.sqlite"
    _built(alone, 5)
    list(build_book(side_by_side, 5, Connect4Solver(SMALL, book=False), workers=2))
    assert load_book(side_by_side, SMALL).entries == load_book(alone, SMALL).entries


def test_a_ray_cluster_builds_the_same_book(tmp_path: Path, ray_cluster: Any) -> None:
    alone, on_ray = tmp_path / "alone.sqlite", tmp_path / "ray.sqlite"
    _built(alone, 5)
    solver = Connect4Solver(SMALL, book=False)
    list(build_book(on_ray, 5, solver, workers=2, ray_address=ray_cluster.address))
    assert load_book(on_ray, SMALL).entries == load_book(alone, SMALL).entries


def test_a_stopped_build_goes_on_where_it_stopped(tmp_path: Path) -> None:
    whole, stopped = tmp_path / "whole.sqlite", tmp_path / "stopped.sqlite"
    _built(whole, 5)
    build = build_book(stopped, 5, Connect4Solver(SMALL, book=False))
    for _ in range(20):
        next(build)
    build.close()  # as Ctrl-C does
    assert load_book(stopped, SMALL).plies == 0  # not finished
    kept = len(load_book(stopped, SMALL))
    rest = list(build_book(stopped, 5, Connect4Solver(SMALL, book=False)))
    assert len(rest) == len(load_book(whole, SMALL)) - kept  # nothing solved twice
    assert load_book(stopped, SMALL).entries == load_book(whole, SMALL).entries


@pytest.mark.parametrize("seat", [0, 1])
def test_the_perfect_agent_plays_from_the_book_without_searching(tmp_path: Path, seat: int) -> None:
    path = tmp_path / "book.sqlite"
    _built(path, 6)
    book = load_book(path, SMALL)
    judge = Connect4Solver(SMALL, book=False)
    for seed in range(4):
        agent: Any = make_agent("perfect:time=5", SMALL, seed=seed)
        with agent.solvers.lend() as solver:
            solver.book = book
        opponent = make_agent("random" if seed % 2 else "engine:depth=2", SMALL, seed=seed)
        state = SMALL.initial_state()
        while not SMALL.is_terminal(state) and state.moves < 6:
            if state.moves % 2 == seat:
                move = agent(SMALL, state)
                assert agent.last.solved and agent.last.stats.nodes == 0  # the book's
                assert move in judge.decide(state).moves  # it keeps the score
            else:
                move = opponent(SMALL, state)
            state = SMALL.result(state, move)


def test_bad_books_are_refused_in_one_line(run_cli: Any, tmp_path: Path) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database " * 50)
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    small = tmp_path / "small.sqlite"
    _built(small, 2)
    for path, words in [
        (text, "not a readable plies book"),
        (foreign, "not a plies Connect Four book"),
        (small, "a book for a 6x5 board, not 7x6"),
        (tmp_path / "missing.sqlite", "no book at"),
    ]:
        with pytest.raises(BookError, match=words):
            load_book(path, ConnectFour())
        assert_one_line_error(run_cli("solve", "connect4", "4", "--book", str(path)), words)
    before = text.read_bytes()
    for args, words in [
        (["--out", str(text)], "not a readable plies book"),
        (["--out", str(tmp_path / "no" / "b.sqlite")], "there is no directory"),
        (["--out", str(tmp_path)], "it is a directory"),
        (["--out", "/proc/nonexistent/b.sqlite"], "cannot write '/proc/"),
        ([], "Missing option '--plies'"),
    ]:
        plies = ["--plies", "4"] if args else []
        assert_one_line_error(run_cli("book", "build", "connect4", *plies, *args), words)
        assert_one_line_error(  # the flags of old still check alike
            run_cli("solve", "connect4", "--build-book", *plies, *args),
            "--plies N and --out FILE" if not args else words,
        )
    assert_one_line_error(
        run_cli("book", "build", "tictactoe", "--plies", "2", "--out", "b.sqlite"), "has none"
    )
    assert text.read_bytes() == before  # a foreign file is never written
    assert_one_line_error(
        run_cli("solve", "connect4", "4", "--plies", "4"), "goes with --build-book"
    )
    assert_one_line_error(run_cli("solve", "connect4", "--workers", "2"), "goes with --build-book")
    odd = tmp_path / "a#b?c%20d.sqlite"  # characters a URI would misread
    _built(odd, 2)
    assert len(load_book(odd, SMALL)) > 0 and sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [odd.name, "foreign.sqlite", "notes.sqlite", "small.sqlite"]
    )
    with pytest.raises(Exception, match="is for a 6x5 board"):
        Connect4Solver(ConnectFour(), book=load_book(small, SMALL))
    assert_one_line_error(
        run_cli("solve", "connect4", "--build-book", "--plies", "0", "--out", "x"), "--plies"
    )
    assert_one_line_error(run_cli("book", "build", "connect4", "--plies", "25", "--out", "x"), "25")


def test_book_build_and_the_solve_flags_of_old_build_the_same_book(
    run_cli: Any, tmp_path: Path
) -> None:
    spec = "connect4:width=6,height=5"
    new, old = tmp_path / "new.sqlite", tmp_path / "old.sqlite"
    built = run_cli("book", "build", spec, "--plies", "3", "--out", str(new))
    assert built.code == 0 and f"positions in {new}" in built.out and "moved" not in built.err
    again = run_cli("solve", spec, "--build-book", "--plies", "3", "--out", str(old))
    assert again.code == 0 and f"positions in {old}" in again.out
    assert again.err.startswith("note: book builds moved to 'plies book build connect4 ")
    assert load_book(new, SMALL).entries == load_book(old, SMALL).entries != {}


@pytest.mark.skipif(shipped_book() is None, reason="no opening book shipped in this checkout")
def test_the_shipped_book_answers_the_empty_board_at_once(run_cli: Any) -> None:
    result = run_cli("solve", "connect4", "", "--json")
    assert result.code == 0
    data = __import__("json").loads(result.out)
    assert data["book"] is True and data["score"] == 1 and data["best_moves"] == [4]


@pytest.mark.skipif(shipped_book() is None, reason="no opening book shipped in this checkout")
@pytest.mark.parametrize("seat", [0, 1])
def test_the_perfect_agent_plays_a_whole_game_from_the_shipped_book(seat: int) -> None:
    """From the first move: book moves where the book holds the position, solved moves after,
    never the engine's fallback, and every move keeps the score (the book's, or a solver's
    without the book)."""
    game, book = ConnectFour(), shipped_book()
    assert book is not None
    judge = Connect4Solver(game, book=False)
    agent: Any = make_agent("perfect:nodes=60000000", game, seed=seat)
    opponent = make_agent("random" if seat else "engine:depth=2", game, seed=seat)
    state, from_book = game.initial_state(), 0
    while not game.is_terminal(state):
        if state.moves % 2 != seat:
            state = game.result(state, opponent(game, state))
            continue
        move = agent(game, state)
        assert agent.last.solved, agent.last.note  # never the engine's move
        known = book.lookup(state)
        if known is not None:
            from_book += 1
            assert agent.last.stats.nodes == 0 and move in known.moves
            assert agent.last.note.startswith("from the opening book: score")
        else:
            assert move in judge.decide(state).moves
        state = game.result(state, move)
    assert from_book >= 2
    assert game.winner(state) in (None, game.players[seat])  # it never loses


def test_without_a_readable_shipped_book_the_solver_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from plies.games.connect4 import book as connect4_book

    monkeypatch.setattr(connect4_book, "SHIPPED", "missing.sqlite")
    shipped_book.cache_clear()
    try:
        assert shipped_book() is None
        solver = Connect4Solver()
        assert solver.book is None
        solution = solver.solve(solver.game.parse_position("4455"))
        assert solution.score == 18 and solution.nodes > 0
    finally:
        monkeypatch.undo()
        shipped_book.cache_clear()
