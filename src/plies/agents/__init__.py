"""Agents: callables ``(game, state) -> action``, built from spec strings through a registry.

See :mod:`plies.agents.builtin` for the built-in kinds and their options (each family in its
module: :mod:`.textbook`, :mod:`.mcts`, :mod:`.engine`, :mod:`.perfect`), and
:mod:`plies.agents.registry` for the registry itself.
"""

from plies.agents.builtin import HumanAgent, RandomAgent  # registers the built-in kinds
from plies.agents.engine import EngineAgent
from plies.agents.mcts import MCTSAgent
from plies.agents.perfect import PerfectAgent
from plies.agents.puct import PUCTAgent
from plies.agents.registry import (
    AGENTS,
    Agent,
    AgentKind,
    AskMove,
    Context,
    Option,
    agent_kind,
    load_plugins,
    make_agent,
    plays_in_person,
    register,
    registered_agents,
)
from plies.agents.textbook import SearchAgent
from plies.errors import EngineFailure

__all__ = [
    "AGENTS",
    "Agent",
    "AgentKind",
    "AskMove",
    "Context",
    "EngineAgent",
    "EngineFailure",
    "HumanAgent",
    "MCTSAgent",
    "Option",
    "PUCTAgent",
    "PerfectAgent",
    "RandomAgent",
    "SearchAgent",
    "agent_kind",
    "load_plugins",
    "make_agent",
    "plays_in_person",
    "register",
    "registered_agents",
]
