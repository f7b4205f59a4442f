"""Learned search: games as tensors, residual policy-value networks, PUCT search with batched
network calls, self-play training in run folders, and learned evaluation without search.

Needs the optional extra ``learn`` (PyTorch); this package's ``__init__`` and
:mod:`plies.learn.agents` import no PyTorch, so the agent table lists ``az`` and ``policy``
everywhere and building one without PyTorch says what to install.
"""

DEVICES = ("auto", "cpu", "cuda")
"""Where a network runs: ``auto`` is CUDA when PyTorch sees a GPU, else the CPU."""
