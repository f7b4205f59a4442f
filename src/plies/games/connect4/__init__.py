"""Connect Four's room: the rules (:mod:`.rules`), their compiled form (:mod:`.kernel`), Pascal
Pons's solver (:mod:`.solver`, :mod:`.solver_kernel`) and its opening book (:mod:`.book`, the
shipped ``book.sqlite``)."""

from __future__ import annotations

from plies.lazy import lazy_exports

__all__ = ["ConnectFour", "ConnectFourState"]

# the game and state types, imported on first use (importing the room's kernel alone, as the
# compiled searches do, loads no rules)
__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, ".rules"))
