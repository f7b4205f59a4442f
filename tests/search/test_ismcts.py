"""MO-ISMCTS: dominant choices in Kuhn and Leduc poker, strategy fusion avoided (the paper's
Fig. 1 game), play against random, searches blind to what the searcher cannot see, phantom
tic-tac-toe's wins in one, and, on games wrapped so that every player sees the whole state,
the moves of exact searches (tic-tac-toe's oracle, expectiminimax on Leduc)."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from typing import Any

import pytest

from plies.agents import make_agent
from plies.arena.match import run_match, summarise
from plies.errors import GameOverError, MissingCapabilityError, SpecError, UnsupportedGameError
from plies.game import CHANCE, Game
from plies.games.kuhn.rules import KuhnPoker, KuhnState
from plies.games.leduc.rules import LeducPoker, LeducState
from plies.games.phantom.rules import PhantomTicTacToe
from plies.games.tictactoe.rules import TicTacToe
from plies.play import play_game
from plies.search import expectiminimax
from plies.search.ismcts import ISMCTS
from plies.testing import Oracle, check_game, random_positions

KUHN = KuhnPoker()
LEDUC = LeducPoker()


def kuhn(cards: str, bets: str) -> KuhnState:
    return KuhnState(tuple(cards), bets)


def leduc(cards: str, *rounds: str) -> LeducState:
    return LeducState(tuple(cards), rounds)


def roots(game: Game[Any, Any], result: Any) -> dict[Any, tuple[int, float]]:
    return {move.action: (move.visits, move.value) for move in result.root}


# Dominant choices -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    ("cards", "bets", "best"),
    [
        ("QK", "b", "bet"),  # P2's K calls a bet: it wins 2, folding loses 1
        ("JK", "b", "bet"),
        ("QJ", "b", "pass"),  # P2's J folds: calling loses 2
        ("KJ", "b", "pass"),
        ("KQ", "pb", "bet"),  # P1's K calls after checking
        ("JQ", "pb", "pass"),  # P1's J folds
    ],
)
def test_kuhn_calls_with_the_king_and_folds_the_jack(
    cards: str, bets: str, best: str, seed: int
) -> None:
    result = ISMCTS(KUHN, seed=seed).search(kuhn(cards, bets), iterations=200)
    assert result.action == best
    assert result.value == (2 if best == "bet" else -1)  # every line after either is exact


def test_leduc_never_folds_the_nuts() -> None:
    """P1's king pairs the public king: no hand beats it, so folding to a raise is the worst
    answer (raising or calling wins the pot in every determinisation)."""
    state = leduc("KQK", "rc", "cr")
    assert list(LEDUC.actions(state)) == ["f", "c", "r"]
    for seed in range(3):
        result = ISMCTS(LEDUC, seed=seed).search(state, iterations=300)
        assert result.action != "f"
        assert roots(LEDUC, result)["f"][1] == -3  # P1 put 3 in: folding loses them
        assert result.value > 3


class CoinGuess(Game[tuple[str, ...], str]):
    """Cowling, Powley & Whitehouse's Fig. 1 game: a hidden coin is tossed; the player takes
    ``safe`` (+0.5), or ``risky`` and then guesses the coin (+1 if right, -1 if wrong). Not
    seeing the coin, risky is worth 0; a search of states (or of determinisations, each
    seeing its coin) believes it worth 1: strategy fusion."""

    name = "coin-guess"
    players = ("P",)
    zero_sum = False

    def initial_state(self) -> tuple[str, ...]:
        return ()

    def to_move(self, state: tuple[str, ...]) -> str:
        return CHANCE if not state else "P"

    def actions(self, state: tuple[str, ...]) -> Sequence[str]:
        if self.is_terminal(state):
            return []
        return (["heads", "tails"], ["safe", "risky"], ["heads", "tails"])[len(state)]

    def chance_outcomes(self, state: tuple[str, ...]) -> Sequence[tuple[str, float]]:
        return [("heads", 0.5), ("tails", 0.5)]

    def result(self, state: tuple[str, ...], action: str) -> tuple[str, ...]:
        return (*state, action)

    def is_terminal(self, state: tuple[str, ...]) -> bool:
        return len(state) == 3 or state[1:] == ("safe",)

    def utility(self, state: tuple[str, ...], player: str) -> float:
        if state[1] == "safe":
            return 0.5
        return 1 if state[2] == state[0] else -1

    def information_key(self, state: tuple[str, ...], player: str) -> str:
        return "/".join(state[1:])  # everything but the coin

    def seen_state(self, state: tuple[str, ...], player: str) -> tuple[str, ...]:
        return ("?", *state[1:]) if state else state

    def seen_action(self, state: tuple[str, ...], action: str, player: str) -> str:
        return "tosses the coin" if not state else action

    def sample_state(
        self, state: tuple[str, ...], player: str, rng: random.Random
    ) -> tuple[str, ...]:
        return (rng.choice(["heads", "tails"]), *state[1:]) if state else state


def test_the_coin_game_keeps_the_contract() -> None:
    check_game(CoinGuess(), playouts=20)


@pytest.mark.parametrize("seed", range(3))
def test_no_strategy_fusion_in_the_papers_first_game(seed: int) -> None:
    game = CoinGuess()
    result = ISMCTS(game, seed=seed).search(("heads",), iterations=2000)
    assert result.action == "safe"
    assert abs(roots(game, result)["risky"][1]) < 0.25  # the guess is right half the time


# Play ---------------------------------------------------------------------------------------


def mean_chips(game: Game[Any, Any], spec: str, hands: int) -> tuple[float, float]:
    """``spec``'s mean winnings a hand against ``random`` over ``hands`` seeded hands, seats
    alternating, and the half-width of their 95% interval."""
    won = []
    for hand in range(hands):
        seat = game.players[hand % 2]
        other = game.players[1 - hand % 2]
        agents = {
            seat: make_agent(spec, game, seed=hand),
            other: make_agent("random", game, seed=hand + hands),
        }
        record = play_game(game, agents, chance=random.Random(hand))
        won.append(game.utility(record.state, seat))
    return statistics.mean(won), 1.96 * statistics.stdev(won) / math.sqrt(hands)


def test_ismcts_beats_random_at_leduc() -> None:
    mean, half = mean_chips(LEDUC, "ismcts:iterations=100", 200)
    assert mean - half > 0.5, (mean, half)


def test_ismcts_beats_random_at_kuhn() -> None:
    mean, half = mean_chips(KUHN, "ismcts:iterations=100", 300)
    assert mean - half > 0.1, (mean, half)


# What the search sees -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "first", "second", "player"),
    [
        (KUHN, kuhn("KJ", ""), kuhn("KQ", ""), "P1"),
        (KUHN, kuhn("JQ", "p"), kuhn("KQ", "p"), "P2"),
        (LEDUC, leduc("JQJ", "rc", "c"), leduc("KQJ", "rc", "c"), "P2"),
        (LEDUC, leduc("QJ", "cr"), leduc("QQ", "cr"), "P1"),
    ],
)  # fmt: skip
def test_the_search_is_blind_to_what_its_player_cannot_see(
    game: Any, first: Any, second: Any, player: str
) -> None:
    """Two states the searcher cannot tell apart give the same search, statistic for
    statistic, under one seed: the hidden card is never read."""
    assert game.information_key(first, player) == game.information_key(second, player)
    assert game.to_move(first) == player
    results = [ISMCTS(game, seed=7).search(state, iterations=500) for state in (first, second)]
    assert results[0].root == results[1].root
    agents = [make_agent("ismcts:iterations=200", game, seed=3) for _ in range(2)]
    assert agents[0](game, first) == agents[1](game, second)
    assert agents[0].last is not None and agents[1].last is not None
    assert agents[0].last.root == agents[1].last.root


@pytest.mark.parametrize("game", [KUHN, LEDUC])
def test_root_statistics_add_up(game: Any) -> None:
    """The root's visits add up to the iterations, most visited first, the chosen action the
    first; values lie within the utilities; only the mover's keys, in one tree per player."""
    for index, state in enumerate(hands_to_play(game, 12)):
        mover = game.to_move(state)
        search = ISMCTS(game, seed=index)
        result = search.search(state, iterations=150)
        visits = [move.visits for move in result.root]
        assert sum(visits) == result.stats.iterations == 150
        assert visits == sorted(visits, reverse=True)
        assert (result.action, result.value) == (result.root[0].action, result.root[0].value)
        assert result.max_player == mover and result.pv == (result.action,)
        assert {move.action for move in result.root} <= set(game.actions(state))
        assert all(-13 <= move.value <= 13 for move in result.root)
        assert result.stats.leaves <= result.stats.nodes <= 150
        tree = search._trees[mover][game.information_key(state, mover)]
        assert tree.decisions == 150


def hands_to_play(game: Game[Any, Any], count: int) -> list[Any]:
    """``count`` states where a player is to move, from seeded random hands."""
    rng = random.Random(11)
    states = []
    while len(states) < count:
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.to_move(state) != CHANCE and rng.random() < 0.5:
                states.append(state)
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
    return states


def test_seeded_searches_repeat_and_restart() -> None:
    state = kuhn("QK", "p")
    search = ISMCTS(KUHN, seed=5)
    first = search.search(state, iterations=100).root
    assert ISMCTS(KUHN, seed=5).search(state, iterations=100).root == first
    search.search(state, iterations=100)  # the draws go on
    search.restart(5)
    assert search.search(state, iterations=100).root == first


# Limits and refusals --------------------------------------------------------------------


def test_limits_and_refusals() -> None:
    with pytest.raises(MissingCapabilityError, match="no information sets"):
        ISMCTS(TicTacToe())
    with pytest.raises(SpecError, match="c must be"):
        ISMCTS(KUHN, c=-1)
    search = ISMCTS(KUHN)
    state = kuhn("QK", "")
    for limits, message in [
        ({}, "give a limit"),
        ({"iterations": 0}, "at least 1"),
        ({"seconds": 0.0}, "positive"),
    ]:
        with pytest.raises(SpecError, match=message):
            search.search(state, **limits)
    with pytest.raises(UnsupportedGameError, match="nature"):
        search.search(KUHN.initial_state(), iterations=10)
    with pytest.raises(GameOverError):
        search.search(kuhn("QK", "pp"), iterations=10)


def test_time_limit_alone_ends_the_search() -> None:
    result = ISMCTS(KUHN, seed=1).search(kuhn("QK", ""), seconds=0.05)
    assert result.stats.iterations == sum(move.visits for move in result.root) >= 1


def test_iterate_reports_as_it_goes() -> None:
    state = leduc("QK", "")
    reports = list(ISMCTS(LEDUC, seed=2).iterate(state, iterations=250, every=100))
    assert [r.stats.iterations for r in reports] == [100, 200, 250]


# Perfect information: against exact searches ------------------------------------------------


class SeeAll:
    """Every player sees the whole state: the key is the state, and the only determinisation
    is the state itself. ISMCTS is then UCT with a table per player."""

    def information_key(self, state: Any, player: str) -> str:
        return repr(state)

    def seen_state(self, state: Any, player: str) -> Any:
        return state

    def seen_action(self, state: Any, action: Any, player: str) -> str:
        return str(self.format_action(state, action))  # type: ignore[attr-defined]

    def sample_state(self, state: Any, player: str, rng: random.Random) -> Any:
        return state


class SeenTicTacToe(SeeAll, TicTacToe):
    name = "seen-tictactoe"


class SeenLeduc(SeeAll, LeducPoker):
    name = "seen-leduc"


@pytest.mark.parametrize("game", [SeenTicTacToe(), SeenLeduc()])
def test_the_wrapped_games_keep_the_contract(game: Any) -> None:
    check_game(game, playouts=10)


def test_tictactoe_seen_whole_finds_the_oracles_moves() -> None:
    game = SeenTicTacToe()
    oracle = Oracle(game)
    positions = [
        state
        for state in random_positions(game, 120, 7, range(2, 7))
        if not game.is_terminal(state) and len(oracle.best_moves(state)) < len(game.actions(state))
    ]
    assert len(positions) > 80
    for index, state in enumerate(positions):
        result = ISMCTS(game, seed=index).search(state, iterations=1000)
        assert result.action in oracle.best_moves(state), game.display(state)


def test_leduc_seen_whole_finds_expectiminimaxs_moves() -> None:
    """Where expectiminimax (both cards known, the public card to come) ranks one action
    half a chip or more above the others, the search takes it."""
    game = SeenLeduc()
    checked = 0
    for index, state in enumerate(hands_to_play(game, 60)):
        if len(state.cards) < 2:
            continue
        mover = game.to_move(state)
        values = {
            action: expectiminimax(game, game.result(state, action), max_player=mover).value
            for action in game.actions(state)
        }
        best, *others = sorted(values.values(), reverse=True)
        if not others or best - others[0] < 0.5:
            continue
        checked += 1
        result = ISMCTS(game, seed=index).search(state, iterations=3000)
        assert values[result.action] == best, (game.display(state), values)
    assert checked > 20


# Phantom tic-tac-toe ------------------------------------------------------------------------

PHANTOM = PhantomTicTacToe()


def phantom(*moves: str) -> Any:
    state = PHANTOM.initial_state()
    for move in moves:
        state = PHANTOM.result(state, PHANTOM.parse_action(state, move))
    return state


@pytest.mark.parametrize(
    ("moves", "win"),
    [
        (("a1", "b2", "b2", "b1", "c3", "c3"), "c1"),  # X bumped into both O's: c1 wins
        (("a3", "b2", "b2", "b3", "a1", "a1"), "c3"),  # the only line X can still make
        (("b2", "b2", "a1", "c1", "c1", "a2", "c3", "c3"), "a3"),  # O bumped into X's three
    ],
)
def test_phantom_takes_a_win_in_one_that_every_determinisation_has(
    moves: tuple[str, ...], win: str
) -> None:
    state = phantom(*moves)
    mover = PHANTOM.to_move(state)
    cell = PHANTOM.parse_action(state, win)
    rng = random.Random(0)
    for _ in range(50):  # the win is there whatever the hidden marks
        drawn = PHANTOM.sample_state(state, mover, rng)
        assert PHANTOM.winner(PHANTOM.result(drawn, cell)) == mover
    for seed in range(3):
        result = ISMCTS(PHANTOM, seed=seed).search(state, iterations=1000)
        assert PHANTOM.format_action(state, result.action) == win


def test_phantom_tries_a_winning_cell_that_may_be_taken() -> None:
    """X holds a1 and b1 and has seen none of O's two marks: c1 wins unless O holds it, and
    then the bump shows it and X tries again, so c1 is the move."""
    state = phantom("a1", "b2", "b1", "c3")
    assert PHANTOM.information_key(state, "X") == "X:a1 b1"
    for seed in range(3):
        result = ISMCTS(PHANTOM, seed=seed).search(state, iterations=1000)
        assert PHANTOM.format_action(state, result.action) == "c1"


def test_ismcts_beats_random_at_phantom() -> None:
    result = summarise(run_match(PHANTOM, "ismcts:iterations=100", "random", 40, seed=1))
    assert result.score > 0.65 and result.elo_low > 0, result
