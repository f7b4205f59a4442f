"""plies: adversarial search, from the lecture's trees to strong game players.

The formal game is :class:`plies.game.Game` (or :func:`plies.game.define_game`); the textbook
searches are :func:`plies.search.minimax` and :func:`plies.search.alphabeta`; games are built by
name with :func:`plies.games.make_game`.
"""

__version__ = "0.1.0"
