"""The learned agents: ``az`` (PUCT search guided by a policy-value network, AlphaZero) and
``policy`` (the network alone, no search: the most probable move of a policy-value network, or
the best predicted move of an action-value network, or with ``by=value`` the move to the
position a policy-value network values best); and ``netengine``'s EVAL, a policy-value
network's value (:class:`ValueEvaluation`).

A model is a checkpoint path or the name of a model shipped in ``plies/learn/models``; by
default the game's strongest shipped model, as measured (:func:`plies.learn.models.strongest`:
``connect4-distilled`` for Connect Four, ``tictactoe``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from contextlib import AbstractContextManager
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import torch

from plies.agents.puct import PUCTAgent
from plies.capabilities import HasHashKey, HasTensorEncoding, LearnedPrior, optional, require
from plies.errors import CheckpointError
from plies.game import Game, WinLossDrawGame
from plies.learn.checkpoint import Checkpoint, load_checkpoint, resolve_device
from plies.learn.evaluator import NetworkEvaluator, masked_softmax, one_thread
from plies.learn.network import ACTION_VALUE, POLICY_VALUE, bin_centres
from plies.search import SearchResult
from plies.search.puct import PUCTConfig

MODELS = "plies.learn.models"


def shipped_models() -> list[str]:
    """The names of the models that ship inside the package."""
    folder = resources.files(MODELS)
    return sorted(p.name[:-3] for p in folder.iterdir() if p.name.endswith(".pt"))


def model_path(model: str) -> Path:
    """A shipped model's file for a name, else ``model`` read as a path."""
    shipped = resources.files(MODELS) / f"{model}.pt"
    if "/" not in model and "\\" not in model and shipped.is_file():
        return Path(str(shipped))
    path = Path(model).expanduser()
    if not path.is_file():
        names = ", ".join(shipped_models()) or "none"
        raise CheckpointError(
            f"model {model!r} is neither a file nor a shipped model (shipped: {names})"
        )
    return path


def load_model(game: Game[Any, Any], model: str, kinds: tuple[str, ...], device: str) -> Checkpoint:
    """The checkpoint of ``model`` for ``game``, of one of ``kinds``, on ``device``."""
    require(game, HasTensorEncoding, "a learned agent")
    return load_checkpoint(model_path(model), game, kinds, resolve_device(device))


class PolicyAgent:
    """Plays the network's choice with no search."""

    last: SearchResult[Any] | None = None

    def __init__(
        self, game: Game[Any, Any], checkpoint: Checkpoint, name: str, by_value: bool = False
    ) -> None:
        self.game = game
        self.encoding = require(game, HasTensorEncoding, "the policy agent")
        self.checkpoint = checkpoint
        self.name = name
        self.device = next(checkpoint.network.parameters()).device
        if by_value and checkpoint.shape.kind != POLICY_VALUE:
            raise CheckpointError(
                f"choosing by value needs a {POLICY_VALUE} network, not {checkpoint.shape.kind}"
            )
        self.by_value = by_value

    def scores(self, state: Any, actions: list[Any]) -> np.ndarray:
        """One number per action, higher better: its prior, or its expected value, or (by
        value) the value of the position it leads to."""
        if self.by_value:
            return self._child_values(state, actions)
        indices = [self.encoding.action_index(state, a) for a in actions]
        planes = torch.from_numpy(self.encoding.encode(state)[None]).to(self.device)
        with torch.inference_mode():
            output = self.checkpoint.network(planes)
        if self.checkpoint.shape.kind == POLICY_VALUE:
            return masked_softmax(output[0][0].float().cpu().numpy(), indices)
        probabilities = torch.softmax(output[0].float(), dim=-1).cpu()
        expected = probabilities @ bin_centres(self.checkpoint.shape.bins)
        return expected.numpy()[indices]

    def _child_values(self, state: Any, actions: list[Any]) -> np.ndarray:
        """The mover's value after each action, in [-1, 1]: the sign of the game's utility
        where the game ends, else minus the network's value for the next mover (all open
        children in one network call): the state-value player of Ruoss et al. 2024."""
        game, mover = self.game, self.game.to_move(state)
        children = [game.result(state, action) for action in actions]
        values = np.zeros(len(actions))
        open_rows = [i for i, child in enumerate(children) if not game.is_terminal(child)]
        for i, child in enumerate(children):
            if game.is_terminal(child):
                values[i] = np.sign(game.utility(child, mover))
        if open_rows:
            planes = np.stack([self.encoding.encode(children[i]) for i in open_rows])
            with torch.inference_mode():
                _, value = self.checkpoint.network(torch.from_numpy(planes).to(self.device))
            for i, child_value in zip(open_rows, value.float().cpu().numpy(), strict=True):
                next_mover = game.to_move(children[i])
                values[i] = child_value if next_mover == mover else -child_value
        return values

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        actions = list(game.actions(state))
        return actions[int(np.argmax(self.scores(state, actions)))]

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves, and nothing is random."""


class AZAgent(PUCTAgent):
    """PUCT search (:class:`~plies.agents.puct.PUCTAgent`) with a policy-value network for
    ``simulations`` a move, or for ``seconds`` instead when given."""

    def __init__(
        self,
        game: Game[Any, Any],
        checkpoint: Checkpoint,
        name: str,
        simulations: int,
        seconds: float | None,
        config: PUCTConfig,
        seed: int | None,
    ) -> None:
        evaluator = NetworkEvaluator(
            require(game, HasTensorEncoding, "the az agent"),
            checkpoint.network,
            next(checkpoint.network.parameters()).device,
        )
        super().__init__(
            evaluator,
            config,
            name=name,
            algorithm="az",
            simulations=simulations if seconds is None else None,
            seconds=seconds,
            seed=seed,
            calls_name="network calls",
        )

    def searching(self) -> AbstractContextManager[object]:
        """PyTorch on one thread (:func:`~plies.learn.evaluator.one_thread`)."""
        return one_thread()


KINDS_FOR_POLICY = (POLICY_VALUE, ACTION_VALUE)


def learned_prior(
    game: Game[Any, Any], checkpoint: Checkpoint, weight: float, after: int
) -> LearnedPrior:
    """The policy of ``checkpoint``'s network as a compiled tree's prior (the ``alphago``
    agent), on one PyTorch thread."""
    evaluator = NetworkEvaluator(
        require(game, HasTensorEncoding, "the alphago agent"),
        checkpoint.network,
        next(checkpoint.network.parameters()).device,
    )

    def policy(states: Sequence[Any], indices: Sequence[Sequence[int]]) -> list[list[float]]:
        with one_thread():
            priors, _ = evaluator(states, indices)
        return [row.tolist() for row in priors]

    return LearnedPrior(policy, evaluator.encoding, weight, after)


LEAD_BOUND = 0.999
"""A network's value as EVAL stays within this of a win or a loss, short of a proven one."""
CACHED_VALUES = 1 << 16
"""Positions whose network value :class:`ValueEvaluation` keeps (the most recent)."""


class ValueEvaluation:
    """EVAL(s, p) from a policy-value network's value, for depth-limited alpha-beta (the
    engine, as ``netengine``): the utility of a finished game, else the network's value for
    the mover turned to ``p``'s view, kept strictly inside (-1, 1) and placed between the loss
    and win utilities (:meth:`~plies.game.WinLossDrawGame.estimate`). A learned evaluation in
    place of a hand-written one, as the value network of Silver et al. 2016 and the state-value
    network of Ruoss et al. 2024, here under alpha-beta. Values are cached by the game's hash
    key; ``calls`` counts the network's forward passes."""

    def __init__(self, game: Game[Any, Any], checkpoint: Checkpoint) -> None:
        if checkpoint.shape.kind != POLICY_VALUE:
            raise CheckpointError(
                f"a network's value as EVAL needs a {POLICY_VALUE} network, "
                f"not {checkpoint.shape.kind}"
            )
        self.game = game
        self.encoding = require(game, HasTensorEncoding, "a network's value as EVAL")
        self.network = checkpoint.network
        self.device = next(checkpoint.network.parameters()).device
        hashed = optional(game, HasHashKey)
        self.key: Callable[[Any], Hashable] = (
            (lambda state: state) if hashed is None else hashed.hash_key
        )
        self.cache: dict[Hashable, float] = {}
        self.calls = 0

    def lead(self, state: Any) -> float:
        """The network's value of an unfinished ``state`` for its mover, in (-1, 1)."""
        key = self.key(state)
        lead = self.cache.get(key)
        if lead is None:
            planes = torch.from_numpy(self.encoding.encode(state)[None]).to(self.device)
            with torch.inference_mode(), one_thread():
                _, value = self.network(planes)
            self.calls += 1
            lead = min(max(float(value[0]), -LEAD_BOUND), LEAD_BOUND)
            if len(self.cache) >= CACHED_VALUES:
                del self.cache[next(iter(self.cache))]
            self.cache[key] = lead
        return lead

    def __call__(self, state: Any, player: str) -> float:
        game = self.game
        if game.is_terminal(state):
            return game.utility(state, player)
        lead = self.lead(state)
        if player != game.to_move(state):
            lead = -lead
        return game.estimate(lead, player) if isinstance(game, WinLossDrawGame) else lead
