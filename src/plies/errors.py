"""The one exception hierarchy of plies.

Every error a user can cause derives from :class:`PliesError`; its message is one line that names
the problem, and the CLI prints it as ``plies: error: <message>`` with exit status 2.
"""

from __future__ import annotations


class PliesError(Exception):
    """Base of every error caused by bad input or an unsupported request."""


LONGEST_MESSAGE = 400
"""The most characters of an error line a front end shows: a message that quotes a huge input
keeps its start and its end (where the reason is) with the middle cut."""


def one_line(message: str, longest: int = LONGEST_MESSAGE) -> str:
    """``message`` on one line, its middle cut when it is longer than ``longest``.

    >>> one_line("position '" + "4" * 1000 + "': column 4 is full", 90)
    "position '444444444444444444444444444444 [... 969 characters cut] 4': column 4 is full"
    """
    line = " ".join(message.split())
    if len(line) <= longest:
        return line
    room = max(longest - 30, 30)  # about 30 characters for the mark of the cut
    head, tail = room * 2 // 3, room // 3
    cut = len(line) - head - tail
    return f"{line[:head]} [... {cut:,} characters cut] {line[-tail:]}"


class ParseError(PliesError, ValueError):
    """Text (a tree, a position, a move, a spec) could not be read."""


class TreeError(ParseError):
    """An explicit game tree is malformed (brackets, empty input, non-numeric leaves...)."""


class InvalidPositionError(ParseError):
    """A position is well formed but cannot arise in the game (or breaks its rules)."""


class IllegalMoveError(ParseError):
    """A move is malformed or not legal in the given state."""


class UnknownNameError(PliesError, LookupError):
    """An unknown game, algorithm, agent or option was named."""


class SpecError(PliesError, ValueError):
    """A ``name:key=value,...`` spec has a bad key or value."""


class MissingCapabilityError(PliesError, TypeError):
    """An algorithm needs an optional capability (e.g. an evaluation function) the game lacks."""


class UnsupportedGameError(PliesError, TypeError):
    """An algorithm was given a game outside its scope (e.g. not two-player zero-sum)."""


class GameOverError(PliesError):
    """A move or search was asked for in a terminal state."""


class RenderError(PliesError):
    """A drawing could not be produced (unknown format, Graphviz's ``dot`` missing...)."""


class OutputError(PliesError):
    """An output file or folder cannot be written where it was asked for (checked before the
    work that fills it: :func:`plies.inputs.check_output`)."""


class GameDefinitionError(PliesError):
    """A game broke the formal definition (e.g. a non-terminal state with no legal actions)."""


class BudgetExhaustedError(PliesError):
    """A search given a budget of positions or seconds ran out of it before it finished."""


class AbandonedError(PliesError):
    """The person playing ended the game (end of input at the terminal, a closed page)."""


class CheckpointError(PliesError):
    """A network checkpoint is missing, unreadable, or made for another game or shape."""


class RunFolderError(PliesError):
    """A training run folder is missing, foreign, or asked to resume with other settings."""


class DeviceError(PliesError):
    """A compute device (``cuda``, say) was asked for and is not available."""


class Resigns(PliesError):
    """An agent resigns: raised by its ``__call__`` instead of a move. The game loop
    (:func:`plies.play.play_game`) records it as the mover's loss, ``resigns``, a result like
    any other (not a failure); elsewhere it reads as any error, one line."""


class BookError(PliesError):
    """An opening book is missing, unreadable, or made for another game or board."""


class EndgameError(PliesError):
    """An endgame database that cannot be built or read (a foreign, truncated or missing
    file, a folder that cannot be written, too little disk)."""


class BusyError(PliesError):
    """The work asked for must wait longer than the caller allows: every worker is busy (a
    server says "try again in ``retry_after`` seconds")."""

    def __init__(self, message: str, retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LabellingError(PliesError):
    """Labelling positions stopped: a worker died or its teacher failed. The chunks finished
    before are kept, and the same command goes on from them."""


class RateLimitError(BusyError):
    """A client asked for more than its share (a server's limit of new games a minute)."""


class EngineFailure(PliesError):
    """An engine crashed, ran past its time, or answered with an illegal move or none: it
    loses the game. ``reason`` says which (``crashed``, ``timed out after 1.1 s``, ``illegal
    move e2e5``, ``no move``)."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(name, reason)
        self.name, self.reason = name, reason

    def __str__(self) -> str:
        return f"{self.name}: {self.reason}"


class StrategyError(PliesError):
    """A strategy file is missing, damaged, made for another game, or holds probabilities
    that are not a distribution over an information set's actions."""


class GameTooLargeError(PliesError):
    """An exact computation needs the whole game tree, and the game's is too large to walk
    (exploitability of a blind game: sampling is what is left)."""
