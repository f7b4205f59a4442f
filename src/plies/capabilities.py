"""Every optional capability of a game, declared in one place and checked one way.

The six parts of the formal definition (:class:`plies.game.Game`) are all a game must have.
Everything else an algorithm or front end may use is a small protocol here: a game has the
capability when it has the protocol's members (``isinstance(game, HasEvaluation)``), and
:func:`require` returns the game seen as that capability or raises one error,
:class:`~plies.errors.MissingCapabilityError`, naming what is missing and who needed it:

>>> from plies.registry import make_game
>>> require(make_game("tictactoe"), HasEvaluation, "alphabeta with a depth limit").name
'tictactoe'
>>> require(make_game("nim"), HasEvaluation, "alphabeta with a depth limit")
Traceback (most recent call last):
...
plies.errors.MissingCapabilityError: game 'nim' has no evaluation function (evaluate); \
alphabeta with a depth limit needs one

Compiled parts of a game (perft, playouts, solvers) are reached only through these protocols,
so generic code never imports a kernel; a game's compiled rules are data
(:class:`CompiledRules`) that the compiled searches of :mod:`plies.native` run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar, runtime_checkable

from plies.errors import MissingCapabilityError

if TYPE_CHECKING:
    from collections.abc import Hashable

    import numpy as np
    from numpy.typing import NDArray

    from plies.game import Game
    from plies.perfect import PerfectSolver
    from plies.spec import Option

C = TypeVar("C")


# Search -------------------------------------------------------------------------------------


@runtime_checkable
class HasEvaluation(Protocol):
    """EVAL(s, p): a heuristic estimate of s for player p, for depth-limited search."""

    def evaluate(self, state: Any, player: str) -> float: ...


@runtime_checkable
class HasLinearEvaluation(Protocol):
    """EVAL as a weighted sum of features, ``w1 f1 + ... + wn fn`` (the lectures' linear
    evaluation function), whose weights Texel's method fits to data (:mod:`plies.learn.tune`).

    ``evaluation_features`` gives the features of a state from the first player's view (by
    weight index; None where EVAL is no weighted sum, as Othello's disc count near the end), so
    that the first player's evaluation is their weighted sum, in the game's own units;
    ``with_evaluation_weights`` makes the same game evaluating with other weights (``source``
    says where they come from). A game whose sum is a log-odds of winning in fixed units also
    has ``evaluation_scale`` (K, logits per unit), which the tuner then keeps instead of
    fitting it."""

    def evaluation_weights(self) -> Sequence[float]: ...

    def evaluation_names(self) -> Sequence[str]: ...

    def evaluation_features(self, state: Any) -> Mapping[int, float] | None: ...

    def with_evaluation_weights(self, weights: Sequence[float], source: str) -> Any: ...


@runtime_checkable
class HasEvaluations(Protocol):
    """Several evaluation functions to choose from (``engine:evaluation=NAME``): Othello's
    fitted patterns and its hand-written terms. ``evaluations`` names them, the one in use
    first; ``with_evaluation`` is the same game evaluating with another (a
    :class:`~plies.errors.SpecError` for an unknown name)."""

    def evaluations(self) -> tuple[str, ...]: ...

    def with_evaluation(self, name: str) -> Any: ...


class ChanceEngine(Protocol):
    """A game's own compiled search for the engine in a game with chance nodes: ``iterate``
    yields a result per depth completed (the last possibly cut short by ``seconds`` or the
    event ``stop``), to ``depth`` moves or its ``max_depth``."""

    max_depth: int

    def iterate(
        self, state: Any, depth: int | None, seconds: float | None, stop: Any | None = None
    ) -> Iterator[Any]: ...


@runtime_checkable
class HasChanceEngine(Protocol):
    """The engine of a game with chance nodes, its own and compiled (backgammon's expectimax
    over the dice with move filters): ``chance_engine()`` names its maker as
    ``module:attribute``, a room at :mod:`plies.native`'s layer in the game's folder
    (``games/<name>/*_native.py``) that the game's rules never import; the maker takes the game
    (its evaluation chosen, :class:`HasEvaluations`) and gives a :class:`ChanceEngine`."""

    def chance_engine(self) -> str: ...


class TdNetwork(Protocol):
    """A network learning by self-play with TD(lambda) in its game's compiled code: the games
    it has trained on, its training, its games against the game's hand-written evaluation
    (the learning curve's reference) and its file."""

    games: int

    @property
    def hidden(self) -> int: ...

    def train(self, games: int, alpha: float, lam: float) -> tuple[Any, int]: ...

    def against_hand(self, pairs: int, seed: int) -> Any: ...

    def save(self, path: Path) -> None: ...


@runtime_checkable
class HasTdLearning(Protocol):
    """An evaluation network the game learns by self-play with TD(lambda) (Sutton 1988;
    Tesauro's TD-Gammon) in its own compiled code (:mod:`plies.learn.td` drives it):
    ``fresh_td_network`` makes one of ``hidden`` units from ``seed``, ``load_td_network``
    reads one back (a :class:`~plies.errors.CheckpointError` for a damaged file)."""

    def fresh_td_network(self, hidden: int, seed: int) -> TdNetwork: ...

    def load_td_network(self, path: Path) -> TdNetwork: ...


@runtime_checkable
class HasProbCut(Protocol):
    """ProbCut's margin (Buro 1995): how far, in the engine's scores (a win is 1), a search
    of half the depth may stray from the full one; the engine's ``probcut`` prunes a node whose
    half-depth search lies that far beyond the window. Measured for the game's evaluation
    (Othello's: ``benchmarks/othello_probcut.py``)."""

    probcut_margin: float


@runtime_checkable
class HasHashKey(Protocol):
    """A fast hash key (e.g. Zobrist) where hashing the state itself is slow."""

    def hash_key(self, state: Any) -> int: ...


@runtime_checkable
class HasMoveOrdering(Protocol):
    """Move-ordering hints: the legal actions, most promising first."""

    def ordered_actions(self, state: Any) -> Sequence[Any]: ...


@runtime_checkable
class HasValueBounds(Protocol):
    """Bounds ``(lower, upper)`` on every utility and evaluation of the game, for every
    player: what pruning at chance nodes (*-minimax) and value normalisation (MCTS) need."""

    value_bounds: tuple[float, float]


@runtime_checkable
class HasNoisyMoves(Protocol):
    """Moves that change the evaluation sharply (captures): searched past the horizon by
    quiescence, never reduced, tried early."""

    def is_capture(self, state: Any, action: Any) -> bool: ...


@runtime_checkable
class HasCaptures(Protocol):
    """A generator of the noisy moves alone, faster than filtering every legal move."""

    def captures(self, state: Any) -> Sequence[Any]: ...


@runtime_checkable
class HasCheck(Protocol):
    """Whether the side to move is in check (check extension, late-move reductions)."""

    def in_check(self, state: Any) -> bool: ...


@runtime_checkable
class HasNullMove(Protocol):
    """The state with the turn passed, or None where passing would be unsound (null-move
    pruning)."""

    def null_move(self, state: Any) -> Any | None: ...


@runtime_checkable
class HasExchange(Protocol):
    """Whether a noisy move loses no material by static exchange evaluation (the engine's
    quiescence then skips the ones that do, and orders them last)."""

    def wins_exchange(self, state: Any, action: Any) -> bool: ...


@runtime_checkable
class HasRepetition(Protocol):
    """Whether the state repeats one of its history's (scored as a draw inside a search)."""

    def is_repetition(self, state: Any) -> bool: ...


@runtime_checkable
class HasRandomPlayout(Protocol):
    """A fast playout (compiled, say): the utilities for every player at the end of a game of
    uniformly random moves from ``state``, drawn with ``rng`` (the same ``rng`` state, the same
    game)."""

    def random_playout(self, state: Any, rng: random.Random) -> Sequence[float]: ...


@runtime_checkable
class HasPerft(Protocol):
    """A game's own perft, following its published convention (often compiled)."""

    def perft(self, state: Any, depth: int) -> int: ...


@runtime_checkable
class HasPerfectSolver(Protocol):
    """An exact solver of the game's positions (Connect Four's), built on demand; None when
    the game's options put it out of the solver's reach."""

    def perfect_solver(self) -> PerfectSolver | None: ...


@runtime_checkable
class HasEndgameSolver(Protocol):
    """An exact solver that reaches only the end of the game (Othello's: about 20 empty
    squares in a second), which the engine plays with where it reaches (``exact``)."""

    def endgame_solver(self) -> PerfectSolver: ...


@runtime_checkable
class HasPositionClasses(Protocol):
    """Positions in classes, each numbered densely, for retrograde analysis (endgame
    databases, :mod:`plies.solvers.retrograde`). ``position_classes(size)`` lists the classes
    of a size (checkers: the pieces on the board); every move leads to a position of the same
    size or a smaller one, so the sizes are solved in increasing order, and the classes of a
    size are listed so that a move leads to the same class or an earlier one.
    ``class_positions`` says how many positions a class has, ``class_position`` gives the one
    with a number, ``position_class`` the class of a state (raising
    :class:`~plies.errors.InvalidPositionError` for one outside every class) and
    ``position_number`` its number there."""

    def position_classes(self, size: int) -> Sequence[Hashable]: ...

    def class_positions(self, position_class: Hashable) -> int: ...

    def class_position(self, position_class: Hashable, number: int) -> Any: ...

    def position_class(self, state: Any) -> Hashable: ...

    def position_number(self, position_class: Hashable, state: Any) -> int: ...


OPEN, WIN, LOSS, DRAW = 0, 1, 2, 3
"""Retrograde analysis's outcomes for the side to move (``OPEN``: not decided yet)."""


@dataclass(frozen=True)
class ClassMoves:
    """The moves of every position of one class (:class:`HasClassMoves`): the moves of
    position ``i`` are ``starts[i]:starts[i + 1]``, each leading to position
    ``child_numbers[k]`` of class ``classes[child_classes[k]]``; ``ends`` holds the outcome
    (:data:`WIN`, :data:`LOSS` or :data:`DRAW` for the side to move) of each finished
    position and :data:`OPEN` elsewhere."""

    starts: Any
    child_classes: Any
    child_numbers: Any
    classes: Sequence[Hashable]
    ends: Any


@runtime_checkable
class HasDrawCount(Protocol):
    """A draw rule that counts plies (checkers' 80 quiet plies): ``plies_to_draw(state)``
    is how many plies may pass before it draws the game unless something resets the count. An
    endgame database's win in that many plies or more cannot be trusted there."""

    def plies_to_draw(self, state: Any) -> int: ...


@runtime_checkable
class HasCompiledEndgames(Protocol):
    """Endgame tables as the compiled engine probes them: ``compiled_endgames(table, size)``
    packs every class of up to ``size`` that ``table(class)`` holds (a solved table, or None)
    into the arrays the game's kernel reads."""

    def compiled_endgames(self, table: Callable[[Any], Any], size: int) -> tuple[Any, ...]: ...


@runtime_checkable
class HasShippedEndgames(Protocol):
    """Endgame databases that ship inside the package (:mod:`plies.solvers.endgames`): the
    folder that holds them."""

    def shipped_endgames(self) -> Path: ...


@runtime_checkable
class HasPackedEndgames(Protocol):
    """Endgame tables packed several classes to a file (checkers' shipped tables: a file a
    number of pieces), read where a folder has no file of the class itself: the pack in
    ``folder`` that holds ``position_class`` and the class's arrays as its own file holds them
    (``outcomes``, ``distances``, ``meta``), or None where no pack there holds it."""

    def packed_endgame(
        self, folder: Path, position_class: Hashable
    ) -> tuple[Path, Mapping[str, Any]] | None: ...


@runtime_checkable
class HasClassMoves(Protocol):
    """The moves of a whole class at once (:class:`ClassMoves`), compiled where the game has
    kernels: what retrograde analysis builds otherwise from ``actions`` and ``result``, one
    position at a time."""

    def class_moves(self, position_class: Hashable) -> ClassMoves: ...


@dataclass(frozen=True)
class CompiledRules:
    """A game's rules and EVAL as its compiled kernel (``plies.games.<name>.kernel``) reads
    them: what :mod:`plies.native`'s dispatch needs to run its compiled searches on the game."""

    kernel: str
    """The kernel's name (``"connect4"``), which the dispatch maps to the kernel."""
    encode: Callable[[Any], Sequence[int]]
    """A state as the kernel's row of words (non-negative ints below 2**64)."""
    params: tuple[int, ...] = ()
    """The words the kernel reads from ``params[1]`` on (the dispatch puts the kernel's id in
    ``params[0]``): the game's options and EVAL's constants."""
    floats: tuple[float, ...] = ()
    """Real constants the kernel reads (Go's komi)."""
    tables: NDArray[np.int64] | None = None
    """Words the kernel reads after the ``params``: an evaluation's look-up tables (Othello's
    patterns)."""
    encode_move: Callable[[Any], int] = int
    """An action as the kernel's move code, and back."""
    decode_move: Callable[[int], Any] = int
    noisy: bool = False
    """Whether the game marks noisy moves (``is_capture``): the compiled engine's quiescence
    searches them."""
    playout: bool = False
    """Whether the kernel has its own random playout (compiled MCTS simulates with it)."""
    work: tuple[int, int] = (0, 0)
    """The shape of the int64 work space the kernel's move generator needs."""
    longest: int | None = None
    """The most plies a game lasts, and the most distinct moves a player has, where bounded."""
    moves: int | None = None
    words: int = 8
    """int64 words in a state's row."""
    checks: bool = False
    """Whether the kernel tells check and passes the turn (``in_check``, ``pass_turn``): the
    compiled engine then extends checks, prunes by null moves and futility and reduces late
    quiet moves, as the Python engine does for a game with ``in_check`` and ``null_move``."""
    exchange: bool = False
    """Whether the kernel evaluates exchanges (``wins_exchange``), as the game's
    :class:`HasExchange`."""
    history: Callable[[Any], Sequence[int]] | None = None
    """The keys of a state's earlier positions that a repetition would recur (since the last
    irreversible move), oldest first, for a game whose engine scores repetitions as draws
    (``is_repetition``); None for a game without repetitions."""


@runtime_checkable
class HasCompiledRules(Protocol):
    """Rules compiled for :mod:`plies.native`'s searches (:class:`CompiledRules`); None when the
    game's options put it out of the kernel's reach."""

    def compiled_rules(self) -> CompiledRules | None: ...


class NativeRun(Protocol):
    """One compiled engine search in progress (see :class:`NativeSearch`)."""

    def search(self, depth: int, alpha: float, beta: float, hint: Any | None) -> float:
        """The root's negamax score at ``depth`` within (alpha, beta), ``hint`` searched first;
        blocks without holding the GIL until done or stopped."""
        ...

    def stop(self) -> None:
        """End the running search at its next node (safe from another thread)."""
        ...

    def limit_nodes(self, nodes: int) -> None: ...

    def limit_time(self, seconds: float) -> None:
        """End the searches ``seconds`` from now."""
        ...

    @property
    def aborted(self) -> bool:
        """Whether the last :meth:`search` was ended by a limit (its score means nothing)."""
        ...

    def counts(self) -> tuple[int, int, int, int, int]:
        """(nodes, leaves, cutoffs, deepest ply, horizon hits) of the whole search so far."""
        ...

    def line(self) -> tuple[Any, ...]:
        """The root's principal variation from the last :meth:`search`."""
        ...

    def root_best(self) -> tuple[Any | None, float]:
        """The best root move the last :meth:`search` proved and its score (None: none)."""
        ...


class NativeTree(Protocol):
    """A Monte Carlo tree search compiled with a game's rules (see :class:`NativeSearch`):
    UCB1, random playouts and MCTS-Solver, its tree kept between searches. Its nodes have the
    attributes of :class:`plies.search.mcts.TreeNode`."""

    def root_for(self, state: Any, levels: int, mover: int) -> Any:
        """The kept tree's node for ``state`` within ``levels`` plies of the root, made the
        root; else a fresh tree for ``state``, whose mover has index ``mover``."""
        ...

    def forget(self) -> None: ...

    def load(self, state: Any, mover: int) -> None:
        """Load the compiled code now (an iteration from ``state``, then forgotten)."""
        ...

    def seed(self, rng: random.Random) -> None:
        """Draw the playouts' random state from ``rng``."""
        ...

    def start(self) -> None:
        """Zero the counters for a new search."""
        ...

    def run(self, iterations: int) -> int:
        """Up to ``iterations`` iterations, blocking without the GIL; fewer when stopped or
        when the root is proven. The number done."""
        ...

    def stop(self) -> None: ...

    def limit_time(self, seconds: float) -> None:
        """End the runs ``seconds`` from now."""
        ...

    def counts(self) -> tuple[int, int, int]:
        """(nodes expanded, playouts, deepest node) of this search."""
        ...


class LearnedPrior(NamedTuple):
    """A policy network as a compiled MCTS tree's prior: ``policy(states, indices)`` gives each
    state's probabilities over the listed action indices (the game's ``action_index``, which
    ``encoding`` has), ``weight`` scales the virtual visits it gives, and a node gets it once
    its visits reach ``after``."""

    policy: Callable[[Sequence[Any], Sequence[Sequence[int]]], Sequence[Sequence[float]]]
    encoding: HasTensorEncoding
    weight: float
    after: int


class NativeMcts(Protocol):
    """A game's compiled Monte Carlo tree search (:class:`NativeTree`); ``amaf`` says whether
    its trees keep all-moves-as-first statistics for RAVE, ``knowledge`` names the game's own
    settings (playout rules, priors: each a number) with their defaults, ``learns`` whether its
    trees take a :class:`LearnedPrior`."""

    amaf: bool
    knowledge: Mapping[str, float]
    learns: bool

    def tree(
        self,
        exploration: float,
        scale: float,
        utilities: tuple[float, float, float],
        bounds: tuple[float, float],
        solving: bool,
        rave: float = 0.0,
        knowledge: Mapping[str, float] | None = None,
        learned: LearnedPrior | None = None,
    ) -> NativeTree:
        """An empty compiled MCTS tree: UCB1's ``exploration`` constant and value ``scale``,
        the first player's utilities of a win, loss and draw, the solver's (win, loss) bounds
        and whether it runs, RAVE's equivalence visits (0: off; only where ``amaf``), the
        game's ``knowledge`` settings (only those it names; its defaults for the others), and
        a ``learned`` prior (only where it ``learns``)."""
        ...


@runtime_checkable
class HasOwnMcts(Protocol):
    """A compiled Monte Carlo tree search of the game's own, which :func:`plies.native.native_mcts`
    runs in place of its compiled engine's (Go's: RAVE, and the game's knowledge in its
    playouts and priors). ``own_mcts()`` names its maker as ``module:attribute``, a room at
    :mod:`plies.native`'s layer in the game's folder (``games/<name>/*_native.py``) that the
    game's rules never import; the maker takes the game and its :class:`CompiledRules` and
    gives a :class:`NativeMcts`; the game's compiled rules are then that tree's alone (the
    compiled engine does not run them). ``mcts_options()`` are the settings its trees take (their
    ``knowledge``, each a number), which the ``mcts`` agent offers for this game alone."""

    def own_mcts(self) -> str: ...

    def mcts_options(self) -> Sequence[Option]: ...


class NativeSearch(NativeMcts, Protocol):
    """The engine's negamax compiled with a game's rules and EVAL: the Python engine's search
    node for node (:mod:`plies.search.engine` drives it and reports); and compiled MCTS."""

    def table(self, slots: int) -> Any:
        """A transposition table of ``slots`` entries, to keep between searches."""
        ...

    def load(self, state: Any) -> None:
        """Load the compiled engine now (about a second, once a process), not on a clock."""
        ...

    def start(
        self,
        state: Any,
        table: Any | None,
        generation: int,
        switches: tuple[bool, ...],
        scale: tuple[float, float, float, float, float, float],
        root_moves: Collection[Any] | None = None,
        endgames: tuple[Any, ...] | None = None,
    ) -> NativeRun:
        """A search of ``state``: ``switches`` are the engine options named by
        :data:`plies.native.SWITCHES`, in that order; ``scale`` the
        normalised utilities of a win, loss and draw for the mover, the engine's centre and
        unit, and the score of a win at the root; ``root_moves`` the legal moves searched at
        the root (None: all), the root then kept out of the table.; ``endgames`` the compiled
        endgame tables it probes below the root (:class:`HasCompiledEndgames`)"""
        ...


# Rules --------------------------------------------------------------------------------------


@runtime_checkable
class HasChance(Protocol):
    """Chance nodes: P(r) for each outcome r of a chance state (the dice of backgammon)."""

    def chance_outcomes(self, state: Any) -> Sequence[tuple[Any, float]]:
        """The outcomes of chance state ``state`` with their probabilities (summing to 1), in
        the order of ACTIONS(s)."""
        ...


@runtime_checkable
class HasInformationSets(Protocol):
    """Imperfect information (AIMA 4th ed., section 5.6): each player sees only part of the
    state (poker's cards, a blind opponent's moves).

    A player's *information state* is what that player has observed; its key
    (:meth:`information_key`) is a string. The states in which the player to move has one key
    form an *information set*: they have the same mover and the same legal actions, in the
    same order (:func:`plies.testing.check_game` checks it), so a strategy maps each key to
    probabilities over those actions. Chance deals hidden cards as :data:`~plies.game.CHANCE`
    moves (:class:`HasChance`). Searches that assume the state is known (minimax, alpha-beta,
    the engine, MCTS) refuse these games; front ends show a person only what the person's seat
    sees (:meth:`seen_state`, :meth:`seen_action`).
    """

    def information_key(self, state: Any, player: str) -> str:
        """The key of ``player``'s information state at ``state``: it depends on what
        ``player`` has observed and on nothing else (Kuhn poker: ``K:pb``, the player's card
        and the bets)."""
        ...

    def seen_state(self, state: Any, player: str) -> Any:
        """``state`` as ``player`` sees it: a state of the game's type whose hidden parts are
        masked (the opponent's card unknown until a showdown shows it). Front ends draw it;
        no rule is asked of it."""
        ...

    def seen_action(self, state: Any, action: Any, player: str) -> str:
        """How ``player`` sees ``action`` played at ``state``: its notation where ``player``
        sees it, else words that hide it (``deals P2 a card``)."""
        ...

    def sample_state(self, state: Any, player: str, rng: random.Random) -> Any:
        """A state drawn from those ``player`` cannot tell from ``state`` (a determinisation:
        hidden cards dealt again from the unseen ones), using only what ``player`` has
        observed; it has ``player``'s key of ``state``."""
        ...


@runtime_checkable
class HasShippedStrategy(Protocol):
    """A strategy that ships with the game (a CFR solution), played by the ``cfr`` agent
    unless it is given another."""

    def shipped_strategy(self) -> Path:
        """The strategy file (:mod:`plies.solvers.cfr`'s format)."""
        ...


# Learning -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Symmetry:
    """A symmetry of the board as two permutations: ``cells[i]`` is the cell (flat, row-major)
    whose content lands on cell ``i``, ``actions[j]`` the action index that becomes index
    ``j``. Applied to planes ``x[:, cells]`` (flattened) and to a policy ``p[actions]``."""

    cells: tuple[int, ...]
    actions: tuple[int, ...]


@runtime_checkable
class HasTensorEncoding(Protocol):
    """A state as planes from the mover's point of view, a fixed map between actions and the
    indices of a policy vector, and the board's symmetries (identity first): what learned
    search and training need (AlphaZero, Silver et al. 2018)."""

    def tensor_shape(self) -> tuple[int, int, int]:
        """(planes, rows, columns) of :meth:`encode`'s array."""
        ...

    def action_count(self) -> int:
        """The length of a policy vector: every action index is below it."""
        ...

    def encode(self, state: Any) -> Any:
        """A float32 NumPy array of :meth:`tensor_shape`, the mover's stones in plane 0."""
        ...

    def action_index(self, state: Any, action: Any) -> int: ...

    def index_action(self, state: Any, index: int) -> Any: ...

    def symmetries(self) -> Sequence[Symmetry]: ...


# Notation -----------------------------------------------------------------------------------


class JudgedMove(Protocol):
    """An engine's verdict on one move: whether it is the engine's own (``agrees``), what it
    loses in centipawns (``loss``) and in expected score (``expected_loss``)."""

    @property
    def agrees(self) -> bool: ...

    @property
    def loss(self) -> int: ...

    @property
    def expected_loss(self) -> float: ...

    def to_json(self) -> dict[str, Any]: ...


class EngineJudge(Protocol):
    """An outside engine that judges moves at a fixed depth (see :class:`HasEngineJudge`)."""

    loss_cap: int
    """The most centipawns one move can lose in the mean."""

    def positions(self, lines: Sequence[str]) -> list[tuple[int, Any]]:
        """The positions of a set file's lines, with their line numbers."""
        ...

    def verdicts(
        self, agent: Callable[[Any, Any], Any], positions: Iterable[tuple[int, Any]]
    ) -> Iterator[JudgedMove]:
        """The verdict on ``agent``'s move in each position, one at a time."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class HasEngineJudge(Protocol):
    """Moves judged by an outside engine searching to a fixed depth, where no perfect solver
    reaches (chess: Stockfish): ``plies evaluate GAME SPEC --depth N --engine COMMAND``."""

    def engine_judge(self, command: str | None, depth: int) -> EngineJudge: ...


@runtime_checkable
class HasPositionNotation(Protocol):
    """A parse/format pair for positions in the game's usual notation."""

    def parse_position(self, text: str) -> Any: ...

    def format_position(self, state: Any) -> str: ...


@runtime_checkable
class HasPgn(Protocol):
    """Whole games written as PGN (chess), and read back."""

    def pgn(
        self,
        start: Any,
        moves: Iterable[Any],
        result_text: str = "*",
        headers: Mapping[str, str] | None = None,
    ) -> str: ...

    def result_text(self, state: Any) -> str: ...

    def pgn_moves(self, text: str) -> tuple[str | None, list[str]]:
        """A PGN game's start (None: the usual one) and moves in the game's notation."""
        ...


@runtime_checkable
class HasSgf(Protocol):
    """Whole games written as SGF (Go), and read back."""

    def sgf(
        self,
        start: Any,
        moves: Iterable[Any],
        result_text: str = "?",
        headers: Mapping[str, str] | None = None,
    ) -> str: ...

    def result_text(self, state: Any) -> str: ...

    def sgf_moves(self, text: str) -> tuple[str | None, list[str]]:
        """An SGF game's start (None: the usual one) and moves in the game's notation."""
        ...


@runtime_checkable
class HasMatchFile(Protocol):
    """Whole games written as a backgammon match file (``.mat``, JellyFish's text, which GNU
    Backgammon reads), and read back."""

    def match_file(self, start: Any, moves: Iterable[Any], names: Sequence[str]) -> str:
        """The game played from ``start`` with ``moves`` by the players ``names``."""
        ...

    def match_moves(self, text: str) -> tuple[str | None, list[str]]:
        """A match file's start (None: the usual one) and moves in the game's notation."""
        ...


# Front ends ---------------------------------------------------------------------------------


@runtime_checkable
class HasTermination(Protocol):
    """Why a finished game ended, in the words its players use (chess: ``checkmate``,
    ``stalemate``, ``threefold repetition``...; Go: the score), for the result a front end
    shows."""

    def termination(self, state: Any) -> str | None: ...


@runtime_checkable
class HasGtp(Protocol):
    """A game outside programs play over the Go Text Protocol (Go: GNU Go; Othello: GRhino),
    for the ``gtp`` agent."""

    def gtp_setup(self) -> tuple[str, ...]:
        """The commands that start a new game of these options (``boardsize``,
        ``clear_board``, ``komi``), in order."""
        ...

    def gtp_moves(self, state: Any) -> tuple[Any, ...] | None:
        """The moves from the start to ``state`` where the state keeps them (Go's), else None
        (the agent follows the game from what it sees)."""
        ...

    def gtp_vertex(self, action: Any) -> str | None:
        """``action`` as ``play`` names it, or None for a move the engine makes by itself
        and is not told (GRhino's forced pass)."""
        ...


@runtime_checkable
class HasDraws(Protocol):
    """Whether a game of these options can end drawn, so that its players may agree a draw
    before its end (chess, draughts, Connect Four; Go only with a whole-number komi)."""

    def can_draw(self) -> bool: ...


@runtime_checkable
class HasCentipawns(Protocol):
    """Engine scores in centipawns, the unit chess programs and players read (UCI ``cp``)."""

    def score_centipawns(self, score: float) -> int:
        """An engine score strictly inside (-1, 1) in centipawns."""
        ...


class BoardView(Protocol):
    """How the web pages draw a game's positions and turn clicks into moves (read by
    :mod:`plies.web.boards`, whose docstring describes the views)."""

    def drawing(self, state: Any, last: Any, flipped: bool) -> dict[str, Any]:
        """The game's own fields of ``state``'s view (``kind`` first): ``last`` is the action
        that led to ``state``; ``flipped`` turns the board round where it has a side."""
        ...

    def path(self, state: Any, action: Any, notation: str) -> list[str]:
        """The ids of the targets clicked to make ``action`` (written ``notation``)."""
        ...

    def status(self, state: Any) -> str | None:
        """Who moves or how the game ended, in a line; None for the front end's own line."""
        ...


@runtime_checkable
class HasBoardView(Protocol):
    """A picture of the board for the web pages (else they show the game's text display)."""

    def board_view(self) -> BoardView: ...


DESCRIPTIONS: dict[type, str] = {
    HasEvaluation: "evaluation function (evaluate)",
    HasHashKey: "hash key (hash_key)",
    HasMoveOrdering: "move ordering (ordered_actions)",
    HasValueBounds: "value bounds (value_bounds)",
    HasNoisyMoves: "noisy moves (is_capture)",
    HasCaptures: "captures generator (captures)",
    HasCheck: "check test (in_check)",
    HasNullMove: "null move (null_move)",
    HasExchange: "static exchange evaluation (wins_exchange)",
    HasLinearEvaluation: "a linear evaluation (evaluation_weights, evaluation_features)",
    HasEvaluations: "choice of evaluations (evaluations, with_evaluation)",
    HasProbCut: "a ProbCut margin (probcut_margin)",
    HasChanceEngine: "an engine of its own for its chance nodes (chance_engine)",
    HasTdLearning: "self-play TD(lambda) training (fresh_td_network, load_td_network)",
    HasRepetition: "repetition test (is_repetition)",
    HasRandomPlayout: "compiled playout (random_playout)",
    HasPerft: "perft counter (perft)",
    HasPerfectSolver: "perfect solver",
    HasEndgameSolver: "endgame solver (endgame_solver)",
    HasPositionClasses: "positions in numbered classes (position_classes, position_number)",
    HasClassMoves: "a class's moves at once (class_moves)",
    HasDrawCount: "a counted draw rule (plies_to_draw)",
    HasShippedEndgames: "shipped endgame databases (shipped_endgames)",
    HasPackedEndgames: "endgame tables packed several to a file (packed_endgame)",
    HasCompiledEndgames: "endgame tables for the compiled engine (compiled_endgames)",
    HasCompiledRules: "compiled rules (compiled_rules)",
    HasOwnMcts: "compiled MCTS of its own (own_mcts, mcts_options)",
    HasChance: "chance nodes (chance_outcomes)",
    HasInformationSets: "information sets (information_key, seen_state, seen_action, sample_state)",
    HasShippedStrategy: "shipped strategy (shipped_strategy)",
    HasPositionNotation: "position notation",
    HasPgn: "PGN notation",
    HasSgf: "SGF notation",
    HasMatchFile: "match files (.mat)",
    HasTensorEncoding: "tensor encoding (encode, action_index, symmetries)",
    HasEngineJudge: "an engine that judges moves (engine_judge)",
    HasTermination: "why a finished game ended (termination)",
    HasDraws: "draws (can_draw)",
    HasGtp: "a Go Text Protocol description (gtp_setup, gtp_moves, gtp_vertex)",
    HasCentipawns: "scores in centipawns (score_centipawns)",
    HasBoardView: "board view (board_view)",
}
"""What each capability is called in error messages."""


def require(game: Game[Any, Any], capability: type[C], purpose: str) -> C:
    """``game`` as ``capability``, or a :class:`MissingCapabilityError` naming the missing
    capability and ``purpose``, what needed it."""
    if not isinstance(game, capability):
        what = DESCRIPTIONS[capability]
        plural = what.startswith(("value bounds", "information sets"))
        need = "needs them" if plural else "needs one"
        raise MissingCapabilityError(f"game '{game.name}' has no {what}; {purpose} {need}")
    return game


def optional(game: Game[Any, Any], capability: type[C], wanted: bool = True) -> C | None:
    """``game`` as ``capability`` when it has it and the caller wants it, else None."""
    return game if wanted and isinstance(game, capability) else None
