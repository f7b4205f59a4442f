"""Residual networks over a game's planes (AlphaZero's architecture, Silver et al. 2018, scaled
down): a 3x3 convolution stem, ``blocks`` residual blocks of ``filters`` channels, and heads.

- :class:`PolicyValueNet`: policy logits over the game's action indices and a value in
  [-1, 1] for the mover, from one forward pass (what PUCT search calls).
- :class:`ActionValueNet`: for every action, logits over ``bins`` classes of the move's value
  (the value-bin target of "Grandmaster-level chess without search", Ruoss et al. 2024), for
  play without search.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import torch
from torch import nn

from plies.capabilities import HasTensorEncoding
from plies.errors import SpecError

POLICY_VALUE = "policy-value"
ACTION_VALUE = "action-value"
KINDS = (POLICY_VALUE, ACTION_VALUE)
MAX_BLOCKS = 40
MAX_FILTERS = 512
MAX_BINS = 256


@dataclass(frozen=True)
class NetShape:
    """Everything that fixes a network's parameters: the game's tensor shape and action count,
    the trunk's size, and the head (``kind``; ``bins`` for action values)."""

    kind: str
    planes: int
    rows: int
    columns: int
    actions: int
    blocks: int
    filters: int
    bins: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise SpecError(f"network kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if not 1 <= self.blocks <= MAX_BLOCKS:
            raise SpecError(f"blocks={self.blocks} must be 1 to {MAX_BLOCKS}")
        if not 1 <= self.filters <= MAX_FILTERS:
            raise SpecError(f"filters={self.filters} must be 1 to {MAX_FILTERS}")
        if self.kind == ACTION_VALUE and not 2 <= self.bins <= MAX_BINS:
            raise SpecError(f"bins={self.bins} must be 2 to {MAX_BINS}")

    @classmethod
    def for_game(
        cls,
        game: HasTensorEncoding,
        kind: str = POLICY_VALUE,
        blocks: int | None = None,
        filters: int | None = None,
        bins: int = 0,
    ) -> NetShape:
        """The shape for ``game``; trunk size from :func:`default_trunk` where not given."""
        planes, rows, columns = game.tensor_shape()
        default_blocks, default_filters = default_trunk(rows * columns)
        return cls(
            kind,
            planes,
            rows,
            columns,
            game.action_count(),
            default_blocks if blocks is None else blocks,
            default_filters if filters is None else filters,
            bins,
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def default_trunk(cells: int) -> tuple[int, int]:
    """(blocks, filters) by board size: small enough for self-play on a CPU.

    3x3 tic-tac-toe gets 2 x 32, Connect Four's 42 cells 4 x 32, 8x8 boards 4 x 48 (measured:
    4 x 64 on Connect Four spends 75% of self-play in convolutions, at 1,600 simulations/s).
    """
    if cells <= 16:
        return 2, 32
    if cells <= 49:
        return 4, 32
    return 4, 48


class _ResidualBlock(nn.Module):
    """Two 3x3 convolutions with batch norm and a skip connection (He et al. 2016)."""

    def __init__(self, filters: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.norm1 = nn.BatchNorm2d(filters)
        self.conv2 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.norm2 = nn.BatchNorm2d(filters)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.norm1(self.conv1(x)))
        return torch.relu(x + self.norm2(self.conv2(y)))


class _Trunk(nn.Module):
    def __init__(self, shape: NetShape) -> None:
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(shape.planes, shape.filters, 3, padding=1, bias=False),
            nn.BatchNorm2d(shape.filters),
            nn.ReLU(),
        )
        self.blocks = nn.Sequential(*(_ResidualBlock(shape.filters) for _ in range(shape.blocks)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.blocks(self.stem(x))  # type: ignore[no-any-return]


def _head(shape: NetShape, channels: int, outputs: int, hidden: int | None = None) -> nn.Module:
    """1x1 convolution to ``channels`` planes, then one or two linear layers."""
    cells = shape.rows * shape.columns
    layers: list[nn.Module] = [
        nn.Conv2d(shape.filters, channels, 1, bias=False),
        nn.BatchNorm2d(channels),
        nn.ReLU(),
        nn.Flatten(),
    ]
    if hidden is None:
        layers.append(nn.Linear(channels * cells, outputs))
    else:
        layers += [nn.Linear(channels * cells, hidden), nn.ReLU(), nn.Linear(hidden, outputs)]
    return nn.Sequential(*layers)


class PolicyValueNet(nn.Module):
    """``forward(planes) -> (policy logits [batch, actions], value [batch] in [-1, 1])``."""

    def __init__(self, shape: NetShape) -> None:
        super().__init__()
        self.shape = shape
        self.trunk = _Trunk(shape)
        self.policy = _head(shape, 2, shape.actions)
        self.value = _head(shape, 1, 1, hidden=64)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.trunk(x)
        return self.policy(features), torch.tanh(self.value(features)).squeeze(-1)


class ActionValueNet(nn.Module):
    """``forward(planes) -> logits [batch, actions, bins]`` over the value bins of each move."""

    def __init__(self, shape: NetShape) -> None:
        super().__init__()
        self.shape = shape
        self.trunk = _Trunk(shape)
        self.head = _head(shape, 4, shape.actions * shape.bins, hidden=256)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits = self.head(self.trunk(x))
        return logits.view(-1, self.shape.actions, self.shape.bins)  # type: ignore[no-any-return]


def bin_centres(bins: int) -> torch.Tensor:
    """The value each of ``bins`` equal classes over [-1, 1] stands for (its centre)."""
    edges = torch.linspace(-1.0, 1.0, bins + 1)
    return (edges[:-1] + edges[1:]) / 2


def build_network(shape: NetShape) -> nn.Module:
    """A fresh, randomly initialised network of ``shape``."""
    return PolicyValueNet(shape) if shape.kind == POLICY_VALUE else ActionValueNet(shape)
