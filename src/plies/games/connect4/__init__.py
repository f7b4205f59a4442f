"""Connect Four's room: the rules (:mod:`.rules`), their compiled form (:mod:`.kernel`), Pascal
Pons's solver (:mod:`.solver`, :mod:`.solver_kernel`) and its opening book (:mod:`.book`, the
shipped ``book.sqlite``)."""

from plies.games.connect4.rules import ConnectFour, ConnectFourState

__all__ = ["ConnectFour", "ConnectFourState"]
