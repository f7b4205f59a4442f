"""Tournament games written out: PGN for games that have it (chess), else one game a line in
the game's own notation."""

from __future__ import annotations

from pathlib import Path

from plies.arena.records import Records
from plies.arena.tournament import opening_line
from plies.capabilities import HasPgn, require
from plies.errors import RenderError
from plies.games import make_game
from plies.lectures.files import check_writable

PGN_RESULTS = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}


def write_pgn(records: Records, path: str | Path) -> int:
    """Every game of ``records`` as PGN, opening moves included (a position opening becomes
    a FEN header); the number of games written."""
    game = make_game(records.game_spec)
    writer = require(game, HasPgn, "PGN output")
    target = check_writable(path)
    texts = []
    for played in records.games():
        start, moves = opening_line(game, played.opening)
        state = start
        for action in moves:
            state = game.result(state, action)
        for notation in played.moves:
            moves.append(game.parse_action(state, notation))
            state = game.result(state, moves[-1])
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


def write_notation(records: Records, path: str | Path) -> int:
    """Every game of ``records`` on a line: ``first - second result: opening | moves  #
    reason``, moves in the game's notation; the number of games written."""
    target = check_writable(path)
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
