"""The script GNU Backgammon runs for the ``gnubg`` agent (:mod:`.gnubg_agent`), in its own
Python: ``gnubg -t -q -r -p gnubg_server.py``. It reads requests on standard input, one JSON
object a line, ``{"board": [OPPONENT, MOVER], "dice": [D1, D2], "context": {...}, "filters":
[...]}`` (the arguments of ``gnubg.findbestmove``), and answers each with one line: :data:`MARK`
and ``{"move": [FROM, TO, ...]}``, or ``{"error": TEXT}``; a request ``{"evaluate": [OPPONENT,
MOVER], "context": {...}}`` is answered ``{"outputs": [...]}``: ``gnubg.evaluate``'s cubeless
P(win), P(win gammon), P(win backgammon), P(lose gammon), P(lose backgammon) and equity for the
side on roll (MOVER). It first says
``{"ready": true}``, and ends on the line ``quit`` or at the end of its input. gnubg's other
output (its banner) has no mark.

Cubeless money play: the cube is centred at 1 and the Jacoby rule off, so a gammon counts 2 and
a backgammon 3, as in plies. Nothing of plies is imported here: gnubg's Python has no plies."""

from __future__ import annotations

import json
import sys
from typing import Any

MARK = "plies-gnubg: "
"""The start of every line the script answers with."""


def say(answer: dict[str, Any]) -> None:
    """Write one marked answer line."""
    print(MARK + json.dumps(answer), flush=True)


def main() -> None:
    """Answer requests until ``quit`` or the end of the input."""
    import gnubg

    cube = gnubg.calcgammonprice({**gnubg.cubeinfo(1, -1, 1, 0), "jacoby": 0})
    say({"ready": True})
    for line in sys.stdin:
        if line.strip() == "quit":
            break
        try:
            request = json.loads(line)
            if "evaluate" in request:
                answer = {
                    "outputs": list(gnubg.evaluate(request["evaluate"], cube, request["context"]))
                }
            else:
                move = gnubg.findbestmove(
                    request["board"], cube, request["context"], request["dice"], request["filters"]
                )
                answer = {"move": list(move)}
        except Exception as error:  # gnubg raises plain Exceptions
            say({"error": f"{type(error).__name__}: {error}"})
        else:
            say(answer)


if __name__ == "__main__":
    main()
