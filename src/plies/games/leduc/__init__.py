"""Leduc poker's room: the rules (:mod:`.rules`), the board view (:mod:`.view`) and the shipped
CFR strategy (``strategy.json``)."""

from __future__ import annotations

from plies.lazy import lazy_exports

__all__ = ["LeducPoker", "LeducState"]

__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, ".rules"))
