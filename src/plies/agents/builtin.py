"""The built-in agents, registered here in :data:`plies.agents.registry.AGENTS`, in this order;
each family in its module: :mod:`.textbook`, :mod:`.mcts`, :mod:`.engine`, :mod:`.perfect`,
:mod:`.ismcts` (the learned ones, ``az``, ``alphago``, ``policy``, ``netengine``:
:mod:`plies.learn.agents`).

===========================  ==================================================================
spec                         agent
===========================  ==================================================================
``random``                   a uniformly random legal move (seeded)
``minimax[:depth=N]``        MINIMAX-SEARCH, to the end or depth-limited with the game's EVAL
``alphabeta[:depth=N]``      ALPHA-BETA-SEARCH, likewise; ``strict=true`` for strict pruning
``expectiminimax:depth=N``   EXPECTIMINIMAX for games with chance (1 by default: the best
                             position after the move); ``prune=true`` for Star1 pruning
``mcts:iterations=N``        Monte Carlo tree search (UCT) for N iterations a move, or
``mcts:time=S``              for S seconds (1 s by default); ``c=`` exploration constant,
                             ``evaluator=playout|eval``, ``solver=false``, ``rave=K``
                             (RAVE's equivalence visits, 0 off; 1000 by default where the
                             game's compiled tree keeps AMAF statistics), and the settings
                             of a game's own compiled tree (its ``mcts_options``);
                             ``selection=puct`` searches with the PUCT of ``az``
                             (:mod:`plies.search.puct`) with uniform priors instead, in
                             two-player zero-sum games; its tree is reused between moves
``ismcts:iterations=N``      information set MCTS (MO-ISMCTS) for games of imperfect
                             information, N iterations or ``time=S`` seconds a move (1 s by
                             default); ``c=`` exploration constant, ``seed=`` a fixed seed
``maxn[:depth=N]``           max^n, for any number of players (each maximises its own utility)
``paranoid[:depth=N]``       the paranoid search: the mover against all the others, alpha-beta
``engine:time=S``            the engine (iterative deepening) for S seconds a move; or
``engine:depth=N``           to depth N, or ``engine:nodes=N``; ``tt=MB`` sizes its table
                             (16 by default, kept between moves); ``pvs``, ``aspiration``,
                             ``ordering``, ``quiescence`` switch its refinements (true/false),
                             and for chess ``captures``, ``checks`` (check extension),
                             ``nullmove``, ``lmr``, ``repetition``
``perfect[:time=S]``         a move that keeps the solved score when the game's perfect solver
                             (Connect Four's) finishes within its budget (S seconds a move, 1
                             by default: 80% for the solver, the rest for the engine's move
                             when it cannot), else the engine's move, and its report says so;
                             ``nodes=N`` bounds the solver in positions, ``depth=D`` sets the
                             fallback engine's depth instead of its time
``cfr[:strategy=FILE]``       in a game of imperfect information, each move drawn from a CFR
                             strategy at the mover's information set: FILE's (``plies solve
                             GAME --save FILE``), else the game's shipped one, else CFR+'s
                             solved when the agent is made (``iterations=N``, 1,000 by default)
``human``                    a person, asked by the front end (the terminal, the browser)
===========================  ==================================================================
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from plies.agents.cfr import CFR_KIND
from plies.agents.engine import ENGINE_KIND
from plies.agents.ismcts import ISMCTS_KIND
from plies.agents.mcts import MCTS_KIND
from plies.agents.perfect import PERFECT_KIND
from plies.agents.registry import Agent, AgentKind, AskMove, Context, register
from plies.agents.textbook import ALPHABETA, EXPECTIMINIMAX, MAXN, MINIMAX, PARANOID
from plies.errors import SpecError
from plies.game import Game
from plies.search import SearchResult


@dataclass
class RandomAgent:
    """Plays a uniformly random legal move."""

    rng: random.Random
    name: str = "random"
    last: SearchResult[Any] | None = None

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.rng.choice(list(game.actions(state)))

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves; a seed restarts the random choices."""
        if seed is not None:
            self.rng.seed(seed)


@dataclass
class HumanAgent:
    """A person's move, asked by the front end that seated them."""

    ask: AskMove
    name: str = "human"
    last: SearchResult[Any] | None = None

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.ask(game, state)

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves, and nothing is random."""


def _random(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    return RandomAgent(random.Random(context.seed))


def _human(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    if context.ask is None:
        raise SpecError("human: nobody to ask here (a match is played by programs)")
    return HumanAgent(context.ask)


BUILT_IN = (
    AgentKind("random", "a uniformly random legal move", (), _random, hidden_information=True),
    MINIMAX,
    ALPHABETA,
    EXPECTIMINIMAX,
    MCTS_KIND,
    ISMCTS_KIND,
    MAXN,
    PARANOID,
    ENGINE_KIND,
    PERFECT_KIND,
    CFR_KIND,
    AgentKind(
        "human",
        "a person, asked by the front end",
        (),
        _human,
        person=True,
        hidden_information=True,
    ),
)
"""The built-in kinds, in the order :data:`~plies.agents.registry.AGENTS` lists them."""
for _kind in BUILT_IN:
    register(_kind)
