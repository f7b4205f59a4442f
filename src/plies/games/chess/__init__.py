"""Chess's room: the rules over python-chess (:mod:`.rules`) and the ``uci`` agent that seats a
UCI engine such as Stockfish (:mod:`.uci_agent`)."""

from plies.games.chess.rules import Chess, ChessState

__all__ = ["Chess", "ChessState"]
