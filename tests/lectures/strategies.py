"""Hypothesis strategies of textbook trees, shared by the lecture tests."""

from __future__ import annotations

from hypothesis import strategies as st

trees = st.recursive(
    st.integers(min_value=-9, max_value=9),
    lambda children: st.lists(children, min_size=1, max_size=4),
    max_leaves=30,
)
"""Trees as nested lists of small integers (their ``str`` is a tree text)."""


def _chance_text(children: list[str]) -> str:
    shares = {1: ["1"], 2: ["1/2", "1/2"], 3: ["1/4", "1/4", "1/2"]}[len(children)]
    return "{" + ", ".join(f"{p}: {c}" for p, c in zip(shares, children, strict=True)) + "}"


chance_trees = st.recursive(
    st.integers(min_value=-9, max_value=9).map(str),
    lambda children: st.one_of(
        st.lists(children, min_size=1, max_size=3).map(lambda cs: "[" + ", ".join(cs) + "]"),
        st.lists(children, min_size=1, max_size=3).map(_chance_text),
    ),
    max_leaves=20,
)
"""Tree texts with chance nodes (probabilities 1, 1/2 1/2, or 1/4 1/4 1/2) among the
decision nodes."""
