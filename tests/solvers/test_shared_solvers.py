"""Perfect solvers lent from a pool (a server's agents share them): one solver to one agent
at a time, kept with its table; agents seated with shared memory play as agents with their
own solver do; a solver that does not free up in time makes the agent play the engine's move;
networks shared by file are loaded once."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from plies.agents import PerfectAgent, make_agent
from plies.agents.shared import SharedMemory
from plies.errors import BudgetExhaustedError, BusyError
from plies.games.connect4.rules import ConnectFour
from plies.games.connect4.solver import Connect4Solver
from plies.games.tictactoe.rules import TicTacToe
from plies.perfect import PerfectSolver, SolverPool

GAME = ConnectFour()
POSITIONS = ["4444443332", "52753311433677442422", "52753311433677442422121", "4", ""]


def test_a_pool_lends_each_solver_to_one_borrower_and_keeps_it() -> None:
    made: list[PerfectSolver] = []

    def make() -> PerfectSolver:
        made.append(Connect4Solver(GAME))
        return made[-1]

    pool = SolverPool(make, size=1, shared=True)
    with pool.lend() as first:
        with pytest.raises(BusyError), pool.lend(wait=0.05):
            pass
        stop = threading.Event()
        stop.set()
        with pytest.raises(BudgetExhaustedError), pool.lend(stop=stop):
            pass
    with pool.lend() as again:
        assert again is first
    assert len(made) == 1

    wide = SolverPool(make, size=2)
    with wide.lend() as one, wide.lend() as other:
        assert one is not other
    assert len(made) == 3 and len(wide.made) == 2


def test_a_waiting_borrower_gets_the_solver_when_it_is_given_back() -> None:
    pool = SolverPool.of(Connect4Solver(GAME))
    got: list[PerfectSolver] = []
    with pool.lend() as held:
        waiter = threading.Thread(target=lambda: got.append(pool.lend(wait=5).__enter__()))
        waiter.start()
        time.sleep(0.1)
        assert got == []
    waiter.join()
    assert got == [held]


def test_agents_sharing_one_solver_play_as_agents_with_their_own() -> None:
    shared = SharedMemory(solvers=1)
    sharing = [make_agent("perfect:time=5", GAME, shared=shared) for _ in range(3)]
    own = make_agent("perfect:time=5", GAME)
    for text in POSITIONS:
        state = GAME.parse_position(text)
        expected = own(GAME, state)
        for agent in sharing:
            assert agent(GAME, state) == expected, text
            assert agent.last is not None and agent.last.solved
    pool = shared.solver_pool(GAME)
    assert pool is not None and pool.shared and len(pool.made) == 1
    assert all(isinstance(a, PerfectAgent) and a.solvers is pool for a in sharing)
    sharing[0].reset()  # a shared table holds what is proven for everyone: it is kept
    assert shared.solver_pool(TicTacToe()) is None


def test_an_agent_waiting_too_long_for_a_shared_solver_plays_the_engines_move() -> None:
    shared = SharedMemory(solvers=1)
    agent = make_agent("perfect:time=0.3,depth=2", GAME, shared=shared)
    pool = shared.solver_pool(GAME)
    assert pool is not None
    state = GAME.parse_position("4444443332")
    with pool.lend():
        action = agent(GAME, state)
    assert action in GAME.actions(state)
    assert agent.last is not None and not agent.last.solved
    assert agent.last.note is not None and agent.last.note.startswith("not solved within")
    assert agent(GAME, state) == make_agent("perfect:time=5", GAME)(GAME, state)


def test_a_network_file_is_loaded_once_until_it_changes(tmp_path: Path) -> None:
    shared = SharedMemory()
    file = tmp_path / "net.pt"
    file.write_bytes(b"one")
    loads: list[int] = []

    def load() -> object:
        loads.append(1)
        return object()

    first = shared.model(file, ("tictactoe", "pv"), load)
    assert shared.model(file, ("tictactoe", "pv"), load) is first and len(loads) == 1
    assert shared.model(file, ("tictactoe", "av"), load) is not first and len(loads) == 2
    file.write_bytes(b"two!")
    os.utime(file, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert shared.model(file, ("tictactoe", "pv"), load) is not first and len(loads) == 3
    assert shared.models() == 2


def test_learned_agents_seated_with_shared_memory_share_the_network() -> None:
    pytest.importorskip("torch", reason="the learn extra is not installed")
    shared = SharedMemory()
    game = TicTacToe()
    one = make_agent("az:simulations=20", game, shared=shared, seed=1)
    two = make_agent("policy", game, shared=shared)
    three = make_agent("az:simulations=20", game, shared=shared, seed=2)
    own = make_agent("az:simulations=20", game, seed=1)
    assert shared.models() == 2  # az and policy ask for different kinds
    assert one.evaluator.network is three.evaluator.network  # type: ignore[attr-defined]
    assert one.evaluator.network is not own.evaluator.network  # type: ignore[attr-defined]
    state = game.initial_state()
    assert one(game, state) == own(game, state)
    assert two(game, state) in game.actions(state)
