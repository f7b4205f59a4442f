"""The curves of a training run or a distillation (``metrics.jsonl``, one JSON object per
generation or epoch), drawn to a PNG with matplotlib: losses, strength, mistake rates."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from plies.errors import PliesError, RenderError
from plies.inputs import check_output

PANELS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("loss", lambda key: key.endswith("loss")),
    (
        "strength",
        lambda key: key == "policy_vs_random" or "accuracy" in key or key.startswith("equity_vs"),
    ),
    ("mistake rate", lambda key: key.endswith("mistake_rate")),
)
"""The plot's panels: a title and which metrics it draws."""


def read_metrics(directory: Path) -> list[dict[str, Any]]:
    """The lines of ``directory/metrics.jsonl``, or a one-line error."""
    path = directory / "metrics.jsonl"
    if not path.is_file():
        raise PliesError(
            f"{str(directory)!r} has no metrics.jsonl (not a run folder, or no "
            "generation or epoch finished yet)"
        )
    lines = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            raise PliesError(f"{str(path)!r}: line {number} is not JSON") from None
        if not isinstance(record, dict):
            raise PliesError(f"{str(path)!r}: line {number} is not a JSON object")
        lines.append(record)
    if not lines:
        raise PliesError(f"{str(path)!r} holds no metrics yet")
    return lines


def _figures(record: dict[str, Any]) -> Iterator[tuple[str, float]]:
    """The numbers of one metrics line, those under ``evaluation`` included."""
    for key, value in [*record.items(), *(record.get("evaluation") or {}).items()]:
        if isinstance(value, int | float) and not isinstance(value, bool):
            yield key, float(value)


def plot_metrics(metrics: list[dict[str, Any]], path: Path) -> None:
    """A PNG with a panel per kind of curve (:data:`PANELS`) found in ``metrics``, against the
    games trained (TD self-play), the generation (a training run) or the epoch (a
    distillation)."""
    if path.suffix.lower() != ".png":
        raise RenderError(f"cannot write {str(path)!r}: the curves are a PNG; name a .png file")
    check_output(path)
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        raise RenderError("matplotlib is not installed: pip install 'plies[plot]'") from None
    axis = next((k for k in ("games_trained", "generation", "epoch") if k in metrics[0]), "line")
    series: dict[str, list[tuple[float, float]]] = {}
    for number, record in enumerate(metrics, 1):
        x = float(record.get(axis, number))
        for key, value in _figures(record):
            if key != axis:
                series.setdefault(key, []).append((x, value))
    panels = [(title, [k for k in series if wanted(k)]) for title, wanted in PANELS]
    panels = [(title, keys) for title, keys in panels if keys]
    if not panels:
        raise RenderError(f"no losses, strength or mistake rates among {', '.join(series)}")
    figure = Figure(figsize=(6.4, 2.6 * len(panels)), layout="constrained")
    FigureCanvasAgg(figure)
    for place, (title, keys) in enumerate(panels, 1):
        axes = figure.add_subplot(len(panels), 1, place)
        for key in keys:
            axes.plot(*zip(*series[key], strict=True), marker=".", label=key)
        axes.set_title(title)
        axes.set_xlabel(axis)
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.grid(True, alpha=0.4)
        axes.legend()
    try:
        figure.savefig(path, format="png", dpi=100)
    except OSError as error:
        raise RenderError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
