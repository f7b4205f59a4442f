"""Network checkpoints: the weights with what they were made for (game, tensor shape, network
shape), written atomically and checked on loading, so a checkpoint of another game, board size
or network shape is refused with one line instead of failing inside PyTorch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import nn

from plies.capabilities import HasTensorEncoding
from plies.errors import CheckpointError, DeviceError, SpecError
from plies.game import Game
from plies.inputs import write_atomically
from plies.learn import DEVICES
from plies.learn.network import NetShape, build_network
from plies.registry import game_identity

FORMAT = "plies-network-1"


@dataclass(frozen=True)
class Checkpoint:
    """A loaded network (in eval mode, on its device) and its metadata."""

    network: nn.Module
    shape: NetShape
    game: str
    info: dict[str, Any] = field(default_factory=dict)


def resolve_device(name: str) -> torch.device:
    """``auto`` (CUDA when present, else CPU), ``cpu`` or ``cuda``; a
    :class:`DeviceError` for an unknown name or an absent GPU."""
    if name not in DEVICES:
        raise DeviceError(f"unknown device {name!r} (devices: {', '.join(DEVICES)})")
    if name == "cuda" and not torch.cuda.is_available():
        raise DeviceError("device 'cuda' asked for, but PyTorch sees no CUDA GPU here")
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def made_for(recorded: object, game: Game[Any, Any]) -> bool:
    """Whether a checkpoint that records ``recorded`` as its game was made for ``game``: its
    identity (:func:`~plies.registry.game_identity`), or the ``repr`` that checkpoints
    recorded before identities were specs (``ConnectFour(width=7, height=6, k=4)``)."""
    return recorded in (game_identity(game), repr(game))


def save_checkpoint(
    path: Path, network: nn.Module, shape: NetShape, game: Game[Any, Any], **info: Any
) -> None:
    """Write ``network`` with its shape, game and ``info`` (JSON-like values) to ``path``."""
    state = {k: v.detach().cpu() for k, v in network.state_dict().items()}
    payload = {
        "format": FORMAT,
        "game": game_identity(game),
        "shape": shape.to_json(),
        "info": info,
        "weights": state,
    }
    write_atomically(path, lambda file: torch.save(payload, file))


def load_checkpoint(
    path: Path | str,
    game: Game[Any, Any],
    kind: str | tuple[str, ...],
    device: torch.device | None = None,
) -> Checkpoint:
    """The network saved at ``path`` for ``game``, of head ``kind`` (or one of several), in
    eval mode; a
    :class:`CheckpointError` naming the problem when the file is missing, unreadable, or made
    for another game, board size, head or shape."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"checkpoint {str(path)!r} does not exist")
    payload = _read_payload(path)
    where = f"checkpoint {str(path)!r}"
    if not made_for(payload.get("game"), game):
        raise CheckpointError(f"{where} is for {payload.get('game')}, not {game_identity(game)}")
    try:
        shape = NetShape(**payload["shape"])
    except (TypeError, KeyError, SpecError) as error:
        raise CheckpointError(f"{where} has an unreadable network shape ({error})") from None
    kinds = (kind,) if isinstance(kind, str) else kind
    if shape.kind not in kinds:
        raise CheckpointError(
            f"{where} holds a {shape.kind} network; this needs {' or '.join(kinds)}"
        )
    if not isinstance(game, HasTensorEncoding) or shape != NetShape.for_game(
        game, shape.kind, shape.blocks, shape.filters, shape.bins
    ):
        raise CheckpointError(f"{where}: its tensor shape does not match {game_identity(game)}")
    network = build_network(shape)
    try:
        network.load_state_dict(payload["weights"])
    except (RuntimeError, KeyError, TypeError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise CheckpointError(f"{where}: its weights do not fit its shape ({first})") from None
    network.to(device or torch.device("cpu")).eval()
    return Checkpoint(network, shape, payload["game"], dict(payload.get("info") or {}))


def export_checkpoint(source: Path, target: Path, **info: Any) -> None:
    """Copy the checkpoint ``source`` to ``target`` without its optimiser state (a third of
    the size: what a shipped or shared model needs), adding ``info``."""
    if not source.is_file():
        raise CheckpointError(f"checkpoint {str(source)!r} does not exist")
    payload = _read_payload(source)
    payload["info"] = {
        **{k: v for k, v in dict(payload.get("info") or {}).items() if k != "optimiser"},
        **info,
    }
    write_atomically(target, lambda file: torch.save(payload, file))


def _read_payload(path: Path) -> dict[str, Any]:
    where = f"checkpoint {str(path)!r}"
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # any file at all: torch's readers fail in many ways
        first = str(error).strip().splitlines()[0][:120] if str(error).strip() else ""
        kind = type(error).__name__
        raise CheckpointError(
            f"{where} is not a plies network checkpoint ({kind}: {first})"
        ) from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise CheckpointError(f"{where} is not a plies network checkpoint ({FORMAT})")
    return payload
