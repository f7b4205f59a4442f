"""The compiled searches over the games' compiled rules (:class:`plies.capabilities.CompiledRules`):
the engine's negamax (:mod:`.engine`) and MCTS (:mod:`.mcts`) on the kernels of :mod:`.kernels`,
and a game's own compiled MCTS where it has one (:class:`plies.capabilities.HasOwnMcts`, in the
game's folder). :func:`native_search` and :func:`native_mcts` are the doors; Numba loads only
when they find a kernel for the game.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from plies.capabilities import CompiledRules, HasCompiledRules, HasOwnMcts, NativeMcts
from plies.game import Game, WinLossDrawGame

if TYPE_CHECKING:
    from plies.native.engine import CompiledSearch

SWITCHES = (
    "ordering",
    "pvs",
    "quiescence",
    "check_extension",
    "null_move",
    "reductions",
    "repetition",
    "deeper_cutoffs",
    "futility",
    "exchange",
    "probcut",
)
"""The engine's switches a compiled search takes (:class:`plies.search.engine.EngineOptions`'
names), in the order :meth:`~plies.native.engine.CompiledSearch.start` takes them; the
refinements for checks, repetitions and exchanges act where the game's kernel has them."""
FUTILITY_DEPTH = 3
"""Reverse futility pruning acts at this remaining depth and below (both engines)."""
FUTILITY_MARGIN = 0.1
"""EVAL's margin a ply for reverse futility pruning: about 90 centipawns in chess."""
PROBCUT_DEPTH = 4
"""ProbCut tries its half-depth searches from this remaining depth on (both engines)."""


def probcut_depth(depth: int) -> int:
    """ProbCut's shallow depth for ``depth``: half of it, rounded to the same parity, so that
    both searches end with the same side to move (2 for 4, 3 for 5 and 7, 4 for 6 and 8);
    the compiled engine computes the same."""
    return depth // 2 + (depth - depth // 2) % 2


CACHED = "_plies_native_search"
"""The attribute of a game that keeps its compiled engine: the engine lives as long as the game
(a table keyed by games would keep them alive, as the engine's rules refer to their game)."""


def native_search(game: Game[Any, Any]) -> CompiledSearch | None:
    """The compiled engine of ``game`` (:mod:`.engine`, also the UCB1 MCTS of :mod:`.mcts`),
    made once per game and kept with it; None when the game has no compiled rules that the
    engine runs."""
    if not isinstance(game, HasCompiledRules) or not isinstance(game, WinLossDrawGame):
        return None
    kept: dict[str, Any] = getattr(game, "__dict__", {})
    if CACHED in kept:
        search: CompiledSearch | None = kept[CACHED]
        return search
    rules = game.compiled_rules()
    search = None if rules is None else _compile(game, rules)
    if hasattr(game, "__dict__"):
        vars(game)[CACHED] = search  # written directly: a frozen game may keep it too
    return search


def _compile(game: WinLossDrawGame[Any, Any], rules: CompiledRules) -> CompiledSearch | None:
    """The compiled engine for ``rules`` where :data:`.kernels.KERNELS` has their kernel (not
    for a game whose compiled rules are its own tree's, :class:`HasOwnMcts`: the table and its
    kernels are not even loaded)."""
    if isinstance(game, HasOwnMcts):
        return None
    from plies.native.engine import build_search
    from plies.native.kernels import KERNELS

    kernel = KERNELS.get(rules.kernel)
    return None if kernel is None else build_search(game, rules, kernel)


def native_mcts(game: Game[Any, Any]) -> NativeMcts | None:
    """The compiled MCTS of ``game``: its own where it has one (:class:`HasOwnMcts`: Go's, with
    RAVE), else its compiled engine's (:func:`native_search`) where the game has no repetitions
    to count (its playouts and tree do not), else None."""
    if isinstance(game, HasCompiledRules) and isinstance(game, WinLossDrawGame):
        rules = game.compiled_rules()
        if rules is not None and isinstance(game, HasOwnMcts):
            module, _, maker = game.own_mcts().partition(":")
            own: NativeMcts = getattr(importlib.import_module(module), maker)(game, rules)
            return own
    search = native_search(game)
    if search is not None and search.rules.history is not None:
        return None  # its playouts and tree do not count repetitions (chess)
    return search
