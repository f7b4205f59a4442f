"""Lazy exports: a package names what it exports and where each lives, and imports the module
only when the name is first used (so importing a game's compiled kernel, or the package of
the games, loads no rules).

>>> __getattr__ = lazy_exports("plies.games.nim", {"Nim": ".rules"})
>>> __getattr__("Nim").name
'nim'
>>> __getattr__("Chess")
Traceback (most recent call last):
...
AttributeError: module 'plies.games.nim' has no attribute 'Chess'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, modules: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` that imports each exported name from its module
    (``modules``: name -> module, absolute or relative to ``package``) on first use:
    ``__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, ".rules"))``."""
    table = dict(modules)

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module, package), name)

    __getattr__.__doc__ = f"The names {package} exports, imported on first use."
    return __getattr__
