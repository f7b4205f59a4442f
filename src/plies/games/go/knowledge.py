"""Go's knowledge in its compiled MCTS (:mod:`.mcts_native`): the playout policy's rules and
the weight of the tree's priors, with their defaults, and the ``mcts`` options that set them
(offered for Go alone, through :meth:`plies.games.go.Go.mcts_options`)."""

from __future__ import annotations

from plies.spec import FRACTION, PRIOR_WEIGHT, Option

PLAYOUT_RULES = ("capture", "pattern", "selfatari")
"""The playout policy's rules, in the order of its rates (:data:`plies.games.go.kernel.CAPTURE`
...)."""
KNOWLEDGE = {"capture": 0.9, "pattern": 0.95, "selfatari": 0.9, "prior": 1.0}
"""Go's knowledge and its defaults: each playout rule's rate, and the weight of the priors
(0: none, untried moves then count as wins)."""
_HELP = {
    "capture": ("the playouts' capture and atari-escape rate", FRACTION),
    "pattern": ("the playouts' 3x3 shape rate", FRACTION),
    "selfatari": ("the rate at which playouts refuse a self-atari", FRACTION),
    "prior": ("the weight of the tree's priors, 0 none", PRIOR_WEIGHT),
}
MCTS_OPTIONS = tuple(
    Option(key, "number", f"compiled Go: {help} ({KNOWLEDGE[key]:g})", None, allowed)
    for key, (help, allowed) in _HELP.items()
)
"""The ``mcts`` options of Go's knowledge (unset: :data:`KNOWLEDGE`'s default)."""
