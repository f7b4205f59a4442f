"""The learned agents' entries in the agent table: ``az``, ``alphago``, ``policy`` and
``netengine``. PyTorch is imported only when one is built, so the table lists them where
PyTorch is not installed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plies.agents.engine import ENGINE_SEARCH_OPTIONS, engine_agent
from plies.agents.mcts import MCTS_OPTIONS, mcts_agent, own_mcts_options
from plies.agents.registry import Agent, AgentKind, Context, Option, register
from plies.errors import PliesError
from plies.game import Game, require_two_player_zero_sum
from plies.learn import DEVICES
from plies.learn.models import strongest
from plies.registry import game_identity
from plies.search.puct import DEFAULT_C_PUCT, PUCTConfig
from plies.spec import PRIOR_WEIGHT, SECONDS, SIMULATIONS, NumberRange

C_PUCT = NumberRange(0, 100, above_minimum=True)
LEAVES = NumberRange(1, 256, integer=True)
VISITS = NumberRange(1, 10**6, integer=True)

MODEL = Option(
    "model",
    "text",
    "a checkpoint file, or a shipped model's name (default: the game's strongest shipped "
    "model, plies learn models)",
)
DEVICE = Option("device", "choice", "where the network runs", "auto", choices=DEVICES)


def _players() -> Any:
    try:
        from plies.learn import players
    except ImportError:
        raise PliesError("learned agents need PyTorch: pip install 'plies[learn]'") from None
    return players


def _checkpoint(
    game: Game[Any, Any], values: Mapping[str, Any], context: Context, kinds: tuple[str, ...]
) -> Any:
    """The network the agent's ``model`` names, loaded once by a server for all its agents
    (``context.shared``), else for this agent."""
    players = _players()
    model = values["model"] or strongest(game, kinds) or game.name
    device = values["device"]

    def load() -> Any:
        return players.load_model(game, model, kinds, device)

    if context.shared is None:
        return load()
    details = (game_identity(game), kinds, device)
    return context.shared.model(players.model_path(model), details, load)


def _az(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    players = _players()
    from plies.learn.network import POLICY_VALUE

    checkpoint = _checkpoint(game, values, context, (POLICY_VALUE,))
    config = PUCTConfig(c_puct=values["c"], leaves_per_tree=values["leaves"])
    agent: Agent = players.AZAgent(
        game,
        checkpoint,
        context.name,
        values["simulations"],
        values["time"],
        config,
        context.seed,
    )
    return agent


def _alphago(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    players = _players()
    from plies.learn.network import POLICY_VALUE

    checkpoint = _checkpoint(game, values, context, (POLICY_VALUE,))
    learned = players.learned_prior(game, checkpoint, values["net"], values["after"])
    return mcts_agent(game, values, context, learned)


def _policy(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    players = _players()
    checkpoint = _checkpoint(game, values, context, players.KINDS_FOR_POLICY)
    by_value = values["by"] == "value"
    agent: Agent = players.PolicyAgent(game, checkpoint, context.name, by_value)
    return agent


def _netengine(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    require_two_player_zero_sum(game, "netengine")
    players = _players()
    from plies.learn.network import POLICY_VALUE

    checkpoint = _checkpoint(game, values, context, (POLICY_VALUE,))
    return engine_agent(game, values, context.name, players.ValueEvaluation(game, checkpoint))


register(
    AgentKind(
        "az",
        "AlphaZero: PUCT search guided by a policy-value network (800 simulations a move)",
        (
            MODEL,
            Option("simulations", "int", "simulations a move", 800, SIMULATIONS),
            Option("time", "number", "seconds a move (instead of simulations)", None, SECONDS),
            Option("c", "number", "c_puct, the weight of the priors", DEFAULT_C_PUCT, C_PUCT),
            Option("leaves", "int", "leaves per network call (virtual loss)", 8, LEAVES),
            DEVICE,
        ),
        _az,
    )
)
register(
    AgentKind(
        "alphago",
        "mcts with a policy network's prior in its compiled tree (AlphaGo 2016, in small; Go)",
        (
            *MCTS_OPTIONS,
            MODEL,
            DEVICE,
            Option("net", "number", "the weight of the network's prior", 1.0, PRIOR_WEIGHT),
            Option("after", "int", "a node's visits before the network sees it", 32, VISITS),
        ),
        _alphago,
        game_options=own_mcts_options,
    )
)
register(
    AgentKind(
        "policy",
        "a network's own choice, no search (policy-value or action-value network)",
        (
            MODEL,
            DEVICE,
            Option(
                "by",
                "choice",
                "move: the network's move (policy or action values); value: the move to the "
                "position a policy-value network values best",
                "move",
                choices=("move", "value"),
            ),
        ),
        _policy,
    )
)
register(
    AgentKind(
        "netengine",
        "the engine (Python) with a policy-value network's value as EVAL (1 s a move by default)",
        (MODEL, DEVICE, *ENGINE_SEARCH_OPTIONS),
        _netengine,
    )
)
