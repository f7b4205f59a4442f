"""The compiled searches over the games' compiled rules (:class:`plies.capabilities.CompiledRules`):
the engine's negamax (:mod:`.engine`), MCTS (:mod:`.mcts`) and Go's MCTS with RAVE
(:mod:`.go_mcts`), on the kernels of :mod:`.kernels`. :func:`native_search` and
:func:`native_mcts` are the doors; Numba loads only when they find a kernel for the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from plies.capabilities import CompiledRules, HasCompiledRules, NativeMcts
from plies.game import Game, WinLossDrawGame

if TYPE_CHECKING:
    from plies.native.engine import NativeSearch

GO = "go"
"""The kernel of Go's compiled rules, which only :mod:`.go_mcts` runs."""

_searches: WeakKeyDictionary[Game[Any, Any], NativeSearch | None] = WeakKeyDictionary()
"""Each game's compiled engine, made once (it then loads once)."""


def native_search(game: Game[Any, Any]) -> NativeSearch | None:
    """The compiled engine of ``game`` (:mod:`.engine`, also the UCB1 MCTS of :mod:`.mcts`),
    made once per game; None when the game has no compiled rules that the engine runs."""
    if not isinstance(game, HasCompiledRules) or not isinstance(game, WinLossDrawGame):
        return None
    if game not in _searches:
        rules = game.compiled_rules()
        _searches[game] = None if rules is None else _compile(game, rules)
    return _searches[game]


def _compile(game: WinLossDrawGame[Any, Any], rules: CompiledRules) -> NativeSearch | None:
    """The compiled engine for ``rules`` where :data:`.kernels.KERNELS` has their kernel."""
    if rules.kernel == GO:
        return None
    from plies.native.engine import build_search
    from plies.native.kernels import KERNELS

    kernel = KERNELS.get(rules.kernel)
    return None if kernel is None else build_search(game, rules, kernel)


def native_mcts(game: Game[Any, Any]) -> NativeMcts | None:
    """The compiled MCTS of ``game``: Go's with RAVE (:mod:`.go_mcts`) for Go's compiled rules,
    else its compiled engine's (:func:`native_search`), else None."""
    if isinstance(game, HasCompiledRules) and isinstance(game, WinLossDrawGame):
        rules = game.compiled_rules()
        if rules is not None and rules.kernel == GO:
            from plies.native.go_mcts import GoMcts

            return GoMcts(game, rules)
    return native_search(game)
