"""Spec strings: ``name`` or ``name:key=value,key=value`` for games and agents.

>>> spec = parse_spec("alphabeta:depth=4")
>>> spec.name, spec.options.integer("depth", None, minimum=1)
('alphabeta', 4)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from plies.errors import SpecError


@dataclass
class Options:
    """The ``key=value`` part of a spec, read with typed accessors that name bad values."""

    owner: str
    values: dict[str, str] = field(default_factory=dict)
    _read: set[str] = field(default_factory=set)

    def _take(self, key: str) -> str | None:
        self._read.add(key)
        return self.values.get(key)

    def integer(self, key: str, default: int | None, *, minimum: int | None = None) -> int | None:
        """An integer option (at least ``minimum``), or ``default`` when absent."""
        text = self._take(key)
        if text is None:
            return default
        try:
            value = int(text)
        except ValueError:
            raise SpecError(f"{self.owner}: {key}={text!r} is not an integer") from None
        if minimum is not None and value < minimum:
            raise SpecError(f"{self.owner}: {key} must be at least {minimum}, got {value}")
        return value

    def real(self, key: str, default: float | None) -> float | None:
        """A positive number option, or ``default`` when absent."""
        text = self._take(key)
        if text is None:
            return default
        try:
            value = float(text)
        except ValueError:
            raise SpecError(f"{self.owner}: {key}={text!r} is not a number") from None
        if not value > 0 or value == float("inf"):
            raise SpecError(f"{self.owner}: {key} must be a positive number, got {text}")
        return value

    def text(self, key: str) -> str | None:
        """A free-text option, or None when absent; the caller parses it."""
        return self._take(key)

    def flag(self, key: str, default: bool) -> bool:
        """A boolean option: true/false, yes/no, on/off, 1/0."""
        text = self._take(key)
        if text is None:
            return default
        lowered = text.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise SpecError(f"{self.owner}: {key}={text!r} is not true or false")

    def choice(self, key: str, default: str, choices: tuple[str, ...]) -> str:
        """One of ``choices``."""
        text = self._take(key)
        if text is None:
            return default
        if text not in choices:
            raise SpecError(f"{self.owner}: {key}={text!r} is not one of {', '.join(choices)}")
        return text

    def finish(self) -> None:
        """Refuse keys nobody read."""
        unknown = sorted(set(self.values) - self._read)
        if unknown:
            known = ", ".join(sorted(self._read)) or "none"
            raise SpecError(f"{self.owner}: unknown option {unknown[0]!r} (options: {known})")


@dataclass(frozen=True)
class Spec:
    """A parsed spec: the name and its options."""

    name: str
    options: Options


def parse_spec(text: str) -> Spec:
    """Split ``name:key=value,...``; raises :class:`SpecError` on malformed text."""
    name, _, rest = text.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise SpecError(f"empty name in spec {text!r}")
    values: dict[str, str] = {}
    if rest.strip():
        for item in rest.split(","):
            key, sep, value = item.partition("=")
            key, value = key.strip().lower(), value.strip()
            if not sep or not key or not value:
                raise SpecError(f"{name}: malformed option {item.strip()!r} (expected key=value)")
            if key in values:
                raise SpecError(f"{name}: option {key!r} given twice")
            values[key] = value
    return Spec(name, Options(name, values))
