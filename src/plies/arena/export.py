"""Tournament games written out: PGN for games that have it (chess), SGF for Go, match files
for backgammon, and one game a line in the game's own notation for every game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from plies.arena.records import PlayedGame, Records
from plies.arena.tournament import opening_line
from plies.capabilities import HasMatchFile, HasPgn, HasSgf, require
from plies.errors import RenderError
from plies.game import Game
from plies.inputs import check_output
from plies.play import RESIGNS
from plies.registry import make_game

PGN_RESULTS = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}
SGF_FORFEITS = {1.0: "B+F", 0.0: "W+F", 0.5: "0"}
"""SGF's results of a game that did not end on the board (the first player is black)."""
SGF_RESIGNATIONS = {1.0: "B+R", 0.0: "W+R"}
"""SGF's results of a game that a player resigned."""


def _replay(game: Game[Any, Any], played: PlayedGame) -> tuple[Any, list[Any], Any]:
    """The start of ``played``, its moves (opening included) and its last state."""
    start, moves = opening_line(game, played.opening)
    state = start
    for action in moves:
        state = game.result(state, action)
    for notation in played.moves:
        moves.append(game.parse_action(state, notation))
        state = game.result(state, moves[-1])
    return start, moves, state


def write_pgn(records: Records, path: str | Path) -> int:
    """Every game of ``records`` as PGN, opening moves included (a position opening becomes
    a FEN header); the number of games written."""
    game = make_game(records.game_spec)
    writer = require(game, HasPgn, "PGN output")
    target = check_output(path)
    texts = []
    for played in records.games():
        start, moves, _ = _replay(game, played)
        headers = {
            "Event": f"plies tournament ({records.game_spec})",
            "Round": f"{played.pair + 1}.{played.leg + 1}",
            "White": played.first,
            "Black": played.second,
            "Termination": played.reason,
        }
        texts.append(writer.pgn(start, moves, PGN_RESULTS.get(played.result, "*"), headers))
    _write(target, "\n\n".join(texts) + "\n")
    return len(texts)


def write_sgf(records: Records, path: str | Path) -> int:
    """Every game of ``records`` as one SGF collection (the first player is black), opening
    moves included; a game that did not end on the board has its reason as a comment and
    result ``B+R`` or ``W+R`` (a resignation), else ``B+F`` or ``W+F`` (a forfeit). The number
    of games written."""
    game = make_game(records.game_spec)
    writer = require(game, HasSgf, "SGF output")
    target = check_output(path)
    texts = []
    for played in records.games():
        start, moves, state = _replay(game, played)
        ended = game.is_terminal(state)
        result = writer.result_text(state) if ended else _unfinished_result(played)
        headers = {
            "GN": f"plies tournament ({records.game_spec}) {played.pair + 1}.{played.leg + 1}",
            "PB": played.first,
            "PW": played.second,
        }
        if not ended:
            headers["GC"] = played.reason
        texts.append(writer.sgf(start, moves, result, headers).strip())
    _write(target, "\n".join(texts) + "\n")
    return len(texts)


def mat_paths(path: str | Path, count: int) -> list[Path]:
    """Where :func:`write_mat` writes ``count`` games for ``path``: ``games.mat`` becomes
    ``games-1.mat``, ``games-2.mat``..."""
    target = Path(path)
    return [target.with_name(f"{target.stem}-{n}{target.suffix}") for n in range(1, count + 1)]


def write_mat(records: Records, path: str | Path) -> int:
    """Every game of ``records`` as a match file of its own (GNU Backgammon reads one match a
    file), named by :func:`mat_paths`, the first player White; the number of games written.
    A match file starts at an opening roll: games from random openings of a game with dice
    (written without their dice) cannot be replayed (``--openings random:0`` starts each game
    at its opening roll)."""
    game = make_game(records.game_spec)
    writer = require(game, HasMatchFile, "match file output")
    played = list(records.games())
    for target, one in zip(mat_paths(path, len(played)), played, strict=True):
        start, moves, _ = _replay(game, one)
        _write(check_output(target), writer.match_file(start, moves, [one.first, one.second]))
    return len(played)


def _unfinished_result(played: PlayedGame) -> str:
    """The SGF result of a game that did not end on the board: a resignation (its reason is
    ``SPEC (PLAYER) resigns``) or a forfeit."""
    resigned = played.reason.endswith(f") {RESIGNS}")
    return (SGF_RESIGNATIONS if resigned else SGF_FORFEITS).get(played.result, "?")


def write_notation(records: Records, path: str | Path) -> int:
    """Every game of ``records`` on a line: ``first - second result: opening | moves  #
    reason``, moves in the game's notation; the number of games written."""
    target = check_output(path)
    lines = [
        f"{g.first} - {g.second} {g.result:g}: {g.opening or '-'} | {' '.join(g.moves)}  # "
        f"{g.reason}"
        for g in records.games()
    ]
    _write(target, "\n".join(lines) + "\n")
    return len(lines)


def _write(target: Path, text: str) -> None:
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise RenderError(f"cannot write {str(target)!r}: {error.strerror}") from None
