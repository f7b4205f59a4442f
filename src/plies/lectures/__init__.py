"""What serves a course: the analysis of a searched tree, the effort table, and pictures.

* :mod:`plies.lectures.tree_report`: every node of a textbook tree searched by minimax,
  alpha-beta, expectiminimax or Star1, with its true value, what the search proved about it,
  and what was pruned (:func:`~plies.lectures.tree_report.analyse_tree`);
* :mod:`plies.lectures.quiz`: a student's values and pruned edges checked against the search,
  the first mistake explained in words;
* :mod:`plies.lectures.random_tree`: random exercise trees (with chance nodes if asked) and
  their text;
* :mod:`plies.lectures.effort`: the lecture's table of nodes visited by moves already played;
* :mod:`plies.lectures.draw`: pictures of searched trees through Graphviz;

The tree itself, as a game, is :mod:`plies.games.tree`; this package is the front ends' door to
it (:func:`parse_tree` and its types).
"""

from plies.games.tree import ORDERS, Node, Path, parse_tree

TOUR_GAME = "tictactoe"
"""The game of the terminal tour (``plies demo``): small enough for minimax to solve from the
start in seconds, the lectures' first example of a game solved."""

__all__ = ["ORDERS", "TOUR_GAME", "Node", "Path", "parse_tree"]
