"""Agents: callables ``(game, state) -> action``, built from spec strings through a registry.

See :mod:`plies.agents.builtin` for the built-in kinds and their options, and
:mod:`plies.agents.registry` for the registry itself.
"""

from plies.agents._process import EngineFailure
from plies.agents.builtin import (
    EngineAgent,
    HumanAgent,
    MCTSAgent,
    PerfectAgent,
    RandomAgent,
    SearchAgent,
)
from plies.agents.gtp_engine import GTPAgent
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
    register,
)
from plies.agents.uci_engine import UCIAgent

load_plugins()

__all__ = [
    "AGENTS",
    "Agent",
    "AgentKind",
    "AskMove",
    "Context",
    "EngineAgent",
    "EngineFailure",
    "GTPAgent",
    "HumanAgent",
    "MCTSAgent",
    "Option",
    "PerfectAgent",
    "RandomAgent",
    "SearchAgent",
    "UCIAgent",
    "agent_kind",
    "load_plugins",
    "make_agent",
    "register",
]
