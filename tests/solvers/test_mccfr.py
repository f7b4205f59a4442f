"""Monte Carlo CFR, external and outcome sampling: they learn Kuhn and Leduc poker
(exploitability measured exactly on the walked tree), keep only sets they reached, go on from
their saved tables, and outcome sampling learns games too large to walk."""

from __future__ import annotations

from pathlib import Path

import pytest

from plies.agents import make_agent
from plies.errors import MissingCapabilityError, StrategyError
from plies.play import play_game
from plies.registry import make_game
from plies.solvers.cfr import CfrSolver, exploitability, game_tree, strategy_rows
from plies.solvers.mccfr import ExternalSampling, OutcomeSampling
from plies.solvers.strategy import read_strategy, write_strategy


def measured(name: str, solver: ExternalSampling) -> float:
    tree = game_tree(make_game(name))
    return exploitability(tree, strategy_rows(tree, solver.strategy())).exploitability


def test_it_learns_kuhn() -> None:
    solver = ExternalSampling(make_game("kuhn"), seed=3)
    solver.run(200)
    early = measured("kuhn", solver)
    solver.run(9800)
    late = measured("kuhn", solver)
    assert late < 0.03 < early
    assert solver.strategy().sets() == 12


def test_it_learns_leduc() -> None:
    solver = ExternalSampling(make_game("leduc"), seed=5)
    solver.run(3000)
    assert measured("leduc", solver) < 0.5  # uniform play: 2.37


@pytest.mark.parametrize(("name", "figure"), [("kuhn", 0.458333), ("leduc", 2.373611)])
def test_uniform_play_is_as_exploitable_as_openspiel_says(name: str, figure: float) -> None:
    """OpenSpiel 2.0.2's exploitability of its UniformRandomPolicy, measured here."""
    solver = CfrSolver(make_game(name), "cfr")  # before any iteration: uniform
    assert exploitability(solver.tree, solver.average()).exploitability == pytest.approx(
        figure, abs=1e-6
    )


def test_it_goes_on_from_its_saved_tables(tmp_path: Path) -> None:
    game = make_game("kuhn")
    first = ExternalSampling(game, seed=1)
    first.run(300)
    path = tmp_path / "kuhn.json"
    write_strategy(path, first.strategy())
    second = ExternalSampling(game, seed=2, resume=read_strategy(path, "kuhn"))
    assert second.iterations == 300
    assert second.regret == first.regret
    assert second.run(10) == 10 and second.iterations == 310


def test_it_refuses_another_solvers_strategy_and_perfect_information() -> None:
    game = make_game("kuhn")
    cfr = CfrSolver(game, "cfr")
    cfr.run(3)
    with pytest.raises(StrategyError, match="made by 'cfr'"):
        ExternalSampling(game, resume=cfr.strategy())
    with pytest.raises(MissingCapabilityError, match="Monte Carlo CFR needs them"):
        ExternalSampling(make_game("nim"))


def test_stop_ends_between_iterations() -> None:
    solver = ExternalSampling(make_game("kuhn"), seed=1)
    assert solver.run(100, stop=lambda: solver.iterations >= 7) == 7


def test_outcome_sampling_learns_kuhn() -> None:
    solver = OutcomeSampling(make_game("kuhn"), seed=4)
    solver.run(300)
    early = measured("kuhn", solver)
    solver.run(19700)
    assert measured("kuhn", solver) < 0.04 < early


def test_outcome_sampling_learns_something_of_phantom_tic_tac_toe_and_its_agent_plays_it(
    tmp_path: Path,
) -> None:
    """A game an iteration, whatever the game's size: phantom's tree cannot be walked."""
    game = make_game("phantom")
    solver = OutcomeSampling(game, seed=1)
    assert solver.run(300) == 300
    strategy = solver.strategy()
    assert strategy.sets() == solver.sets() > 300
    path = tmp_path / "phantom.json"
    write_strategy(path, strategy)
    agent = make_agent(f"cfr:strategy={path}", game, seed=1)
    record = play_game(game, {"X": agent, "O": make_agent("random", game, seed=2)})
    assert game.is_terminal(record.state)


def test_the_samplers_stop_when_their_tables_are_full(monkeypatch: pytest.MonkeyPatch) -> None:
    import plies.solvers.mccfr as mccfr

    monkeypatch.setattr(mccfr, "MOST_SETS", 50)
    solver = OutcomeSampling(make_game("phantom"), seed=1)
    ran = solver.run(10_000)
    assert ran < 10_000 and solver.full() and solver.sets() >= 50
