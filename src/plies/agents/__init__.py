"""Agents: callables ``(game, state) -> action``, built from spec strings through a registry.

See :mod:`plies.agents.builtin` for the built-in kinds and their options, and
:mod:`plies.agents.registry` for the registry itself.
"""

from plies.agents.builtin import (
    EngineAgent,
    HumanAgent,
    MCTSAgent,
    PerfectAgent,
    RandomAgent,
    SearchAgent,
)
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
