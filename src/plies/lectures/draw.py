"""Pictures of searched trees through Graphviz: MAX as up-triangles, MIN as down-triangles,
chance nodes as circles (their expected values inside, the probabilities on their edges),
leaves as boxes; values and alpha/beta written in; pruned branches dashed and greyed, the cut
edge marked in red; the principal variation drawn bold.

:func:`dot_source` builds the Graphviz text with the Python binding alone; :func:`draw_tree`
renders it with Graphviz's ``dot`` program, which must be installed separately
(``apt-get install graphviz``, ``brew install graphviz``, or https://graphviz.org/download/).
:func:`check_drawable` checks a target before the search that the picture shows.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import graphviz

from plies.errors import RenderError
from plies.game import CHANCE
from plies.games.tree import Path as NodePath
from plies.inputs import check_output
from plies.lectures.tree_report import (
    ALGORITHM_NAMES,
    NodeReport,
    TreeReport,
    number,
    probability_text,
    searched_text,
)

FORMATS = (".svg", ".png")
_SHAPES = {"MAX": "triangle", "MIN": "invtriangle", CHANCE: "circle", "leaf": "box"}
_NO_DOT = (
    "cannot draw: Graphviz's 'dot' program is not installed "
    "(apt-get install graphviz, brew install graphviz, or https://graphviz.org/download/)"
)


def _node_id(path: NodePath) -> str:
    return "n" + "_".join(map(str, path))


def _window(low: float | None, high: float | None) -> str:
    return f"α={number(low)} β={number(high)}".replace("inf", "∞")


def _node_label(node: NodeReport) -> str:
    if node.player == "leaf":
        return f"{node.label}\n{number(node.minimax)}"
    lines = [node.label, searched_text(node).replace("<=", "≤").replace(">=", "≥")]
    if node.alpha_out is not None:
        lines.append(_window(node.alpha_out, node.beta_out))
    return "\n".join(lines)


def dot_source(report: TreeReport) -> str:
    """The Graphviz (dot) text of the searched tree."""
    algorithm = ALGORITHM_NAMES.get(report.algorithm, report.algorithm)
    rule = f", {report.rule} pruning" if report.rule else ""
    if report.order == "rtl":
        rule += ", children right to left"
    if report.bounds is not None:
        rule += f", leaves in [{number(report.bounds[0])}, {number(report.bounds[1])}]"
    graph = graphviz.Digraph("tree")
    graph.attr(
        label=f"{algorithm}{rule}: value {number(report.value)}", labelloc="t", ordering="out"
    )
    graph.attr("node", fontname="Helvetica", fontsize="11")
    on_pv = {report.pv[:i] for i in range(len(report.pv) + 1)}
    cut_tops = {path for branch in report.pruned_branches for path in branch.skipped}
    for node in report.nodes:
        style = {"shape": _SHAPES[node.player], "margin": "0.02"}
        if node.pruned:
            style.update(style="dashed", color="grey60", fontcolor="grey60")
        elif node.path in on_pv:
            style.update(penwidth="2.5", color="navy")
        graph.node(_node_id(node.path), _node_label(node), **style)
        if not node.path:
            continue
        edge: dict[str, str] = {}
        if node.probability is not None:
            edge.update(label=probability_text(node.probability), fontsize="10")
        if node.path in cut_tops:
            edge.update(style="dashed", color="red", fontcolor="red")
            edge["label"] = " ".join(filter(None, ["✂", edge.get("label")]))
        elif node.pruned:
            edge.update(style="dashed", color="grey60")
        elif node.path in on_pv:
            edge.update(penwidth="2.5", color="navy")
        graph.edge(_node_id(node.path[:-1]), _node_id(node.path), **edge)
    return str(graph.source)


def _format(target: Path) -> str:
    """The image format the file name ends in, svg or png; :class:`RenderError` for others."""
    suffix = target.suffix.lower()
    if suffix not in FORMATS:
        raise RenderError(f"cannot draw to {str(target)!r}: the file name must end in .svg or .png")
    return suffix[1:]


def check_drawable(path: str | Path, dot: bool = True) -> Path:
    """``path`` checked before any search: a .svg or .png name that can be written (see
    :func:`~plies.inputs.check_output`), with Graphviz's ``dot`` installed (unless
    ``dot`` is False: the caller shows its report first and lets :func:`draw_tree` say that
    Graphviz is missing); :class:`RenderError` naming the problem otherwise."""
    target = Path(path)
    _format(target)
    check_output(target)
    if dot and shutil.which("dot") is None:
        raise RenderError(_NO_DOT)
    return target


def draw_tree(report: TreeReport, path: str | Path) -> Path:
    """Render the tree to ``path`` (.svg or .png); :class:`RenderError` if that cannot be done."""
    target = Path(path)
    image_format = _format(target)
    if shutil.which("dot") is None:
        raise RenderError(_NO_DOT)
    source = graphviz.Source(dot_source(report))
    try:
        image = source.pipe(format=image_format)
    except graphviz.ExecutableNotFound:
        raise RenderError(_NO_DOT) from None
    except graphviz.CalledProcessError as error:
        raise RenderError(f"cannot draw: dot failed: {error}") from None
    try:
        target.write_bytes(image)
    except OSError as error:
        raise RenderError(f"cannot write {str(target)!r}: {error.strerror}") from None
    return target
