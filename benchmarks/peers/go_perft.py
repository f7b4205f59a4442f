"""plies' Go against OpenSpiel's ``go``: move counts from the empty board, and random games.

Prints figures; exits with status 1 if anything disagrees. OpenSpiel is installed only in the
benchmark's own virtual environment (see ``requirements.txt``). From the repository root::

    benchmarks/.venv-peers/bin/python benchmarks/peers/go_perft.py [--games 50] [--komi 0.5]
        [--depths 2=10,3=7,4=5,5=4,7=3,9=3] [--game-sizes 4,5,7,9] [--long-sizes 3,4,5,7]

(about 90 s on the project's 2-core machine, beside another benchmark). There, every row and
every game agreed; OpenSpiel's superko draws first appear at depth 7 on 2x2 (80) and 3x3 (32),
and at depth 8 on 3x3 there are 448; none up to depth 6 on 4x4 and depth 5 on 5x5.

OpenSpiel's rules (open-spiel 2.0.2, ``open_spiel/games/go/go.cc`` and ``go_board.cc``), and
how they compare with plies' (:mod:`plies.games.go.rules`):

* Suicide is illegal, as in plies (``GoBoard::IsLegalMove``: a stone needs an empty neighbour,
  a friendly neighbouring chain not in atari, or an enemy neighbouring chain in atari).
* Only the simple ko is illegal: ``IsLegalMove`` refuses ``LastKoPoint()``, set by
  ``PlayMove`` when a stone played into an enemy eye captures exactly one stone (a pass clears
  it). A stone that repeats any other earlier board is legal, but ``GoState::DoApplyAction``
  then sets ``superko_``, ``IsTerminal`` ends the game at once and ``Returns`` scores it a draw.
  plies forbids every repetition (positional superko). The ko point forbids exactly the
  repetitions of the board two plies back (the immediate recapture), so the two games have the
  same move paths except that OpenSpiel adds leaves: stones that repeat an older board, each
  ending its game in a draw. Hence OpenSpiel's count = plies' count + those superko leaves.
* A pass is always legal (``LegalActions`` appends it); two passes in a row end the game.
* ``max_game_length`` (default ``2 * size * size``) ends the game after that many moves, scored
  as usual; plies has no cap. The counts never reach it (for a 2x2 board the script raises it
  above the depth).
* Tromp-Taylor area score minus komi; win +1, loss -1, draw 0: plies' default ``plusminus``.
* Actions: ``row * size + column``, row 0 at the bottom, in both; OpenSpiel's pass is
  ``size * size``, plies' is ``PASS`` (-1).

Counts: for each ``size=depth`` of ``--depths``, move paths of 1 to depth plies from the empty
board (a finished game contributes nothing further). ``plies`` is :func:`plies.perft.perft`;
``OpenSpiel`` is a recursion over ``legal_actions``/``child`` that counts the last ply in bulk,
as plies' perft does; both are timed (seconds, one run). ``draws`` is OpenSpiel's own tally of
leaves ending in a superko draw; ``superko`` walks plies' tree and counts, at the last ply, the
stones plies refuses for positional superko that OpenSpiel's ko point would allow (the
resulting board is not the one two plies back). A row agrees when plies + superko = OpenSpiel
and superko = draws.

Games: ``--games`` seeded random games in OpenSpiel per size of ``--game-sizes`` and policy,
each move list replayed in plies. Policies: ``uniform`` (every legal action alike: most games
end in two passes), ``stones`` (a pass only when no stone is legal: the games end at OpenSpiel's
default cap of ``2 * size * size`` moves, full of captures) and, on ``--long-sizes``, ``long``
(``stones`` with the cap raised to ``100 * size * size``: the games end in superko draws after
hundreds or thousands of moves). At every step the legal moves must
be equal, except OpenSpiel's superko-draw stones, which plies must refuse for superko; both
must agree on whether the game has ended. At the end, OpenSpiel's returns must equal plies'
payoffs (after two passes) or the sign of plies' score so far (at the cap), and the area
difference d (black's area minus white's, by plies) must be OpenSpiel's too: replayed in
OpenSpiel with komi d - 0.5, d and d + 0.5, black must win, draw and lose.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from plies.errors import IllegalMoveError
from plies.games.go.rules import PASS, Go, GoState
from plies.perft import perft

DEFAULT_DEPTHS = "2=10,3=7,4=5,5=4,7=3,9=3"
DEFAULT_GAME_SIZES = "4,5,7,9"
SEED = 20261122
UNIFORM, STONES, LONG = "uniform", "stones", "long"
"""Random game policies: every legal action alike; a stone whenever one is legal; the same with
OpenSpiel's length cap raised to ``LONG_CAP * size * size`` (so games end in a superko draw)."""
LONG_CAP = 100
DEFAULT_LONG_SIZES = "3,4,5,7"


def load(size: int, komi: float, max_game_length: int | None = None) -> Any:
    """OpenSpiel's ``go`` on a ``size`` board (its default game length cap unless given)."""
    import pyspiel

    params: dict[str, Any] = {"board_size": size, "komi": float(komi)}
    if max_game_length is not None:
        params["max_game_length"] = max_game_length
    return pyspiel.load_game("go", params)


def to_plies(size: int, action: int) -> int:
    return PASS if action == size * size else action


def to_spiel(size: int, action: int) -> int:
    return size * size if action == PASS else action


# Counts ----------------------------------------------------------------------------------------


def spiel_perft(state: Any, depth: int) -> int:
    """OpenSpiel's move paths of ``depth`` plies, the last ply counted in bulk."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(spiel_perft(state.child(a), depth - 1) for a in actions)


def spiel_draws(state: Any, depth: int, pass_action: int, draws: list[int], ply: int = 1) -> None:
    """Add to ``draws[k]`` OpenSpiel's paths of k <= ``depth`` plies that end in a superko
    draw (a stone, not a pass, after which the game is over)."""
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal():
            if action != pass_action:  # not two passes (the length cap lies beyond ``depth``)
                draws[ply] += 1
        elif ply < depth:
            spiel_draws(child, depth, pass_action, draws, ply + 1)


def plies_superko(
    game: Go, state: GoState, before: bytes, depth: int, superko: list[int], ply: int = 1
) -> None:
    """Add to ``superko[k]`` the stones at ply k <= ``depth`` that plies refuses for positional
    superko but a simple ko rule allows (``before``: the board two plies back)."""
    if game.is_terminal(state):
        return
    legal = game.actions(state)
    allowed = set(legal)
    simple_ko = state._replace(seen=frozenset((before,)))
    for point in range(game.size * game.size):
        if state.board[point] or point in allowed:
            continue
        try:
            game.parse_action(state, game.format_action(state, point))
        except IllegalMoveError as error:
            if "superko" not in str(error):
                continue  # suicide
        try:  # legal under simple ko: it repeats a board older than two plies
            game.parse_action(simple_ko, game.format_action(simple_ko, point))
            superko[ply] += 1
        except IllegalMoveError:
            pass
    if ply < depth:
        for action in legal:
            plies_superko(game, game.result(state, action), state.board, depth, superko, ply + 1)


@dataclass
class CountRow:
    size: int
    depth: int
    plies: int
    spiel: int
    draws: int
    superko: int
    plies_s: float
    spiel_s: float

    @property
    def agree(self) -> bool:
        return self.plies + self.superko == self.spiel and self.superko == self.draws


def counts(size: int, depth: int) -> list[CountRow]:
    """The rows for depths 1 to ``depth`` on a ``size`` board."""
    game = Go(size=size, komi=0.5)
    spiel_game = load(size, 0.5, max(2 * size * size, depth + 1))
    draws, superko = [0] * (depth + 1), [0] * (depth + 1)
    spiel_draws(spiel_game.new_initial_state(), depth, size * size, draws)
    start = game.initial_state()
    plies_superko(game, start, start.board, depth, superko)
    rows = []
    for d in range(1, depth + 1):
        began = time.perf_counter()
        plies_count = perft(game, start, d)
        middle = time.perf_counter()
        spiel_count = spiel_perft(spiel_game.new_initial_state(), d)
        ended = time.perf_counter()
        rows.append(
            CountRow(
                size, d, plies_count, spiel_count, draws[d], superko[d], middle - began,
                ended - middle,
            )
        )  # fmt: skip
        print(f"  {size}x{size} depth {d} done", file=sys.stderr, flush=True)
    return rows


def print_counts(rows: Sequence[CountRow]) -> None:
    print(
        f"{'size':>5} {'depth':>5} {'plies':>11} {'OpenSpiel':>11} {'draws':>6} {'superko':>7} "
        f"{'agree':>5} {'plies s':>8} {'OpenSpiel s':>11}"
    )
    for r in rows:
        print(
            f"{r.size:>2}x{r.size:<2} {r.depth:>5} {r.plies:>11,} {r.spiel:>11,} {r.draws:>6,} "
            f"{r.superko:>7,} {'yes' if r.agree else 'NO':>5} {r.plies_s:>8.2f} "
            f"{r.spiel_s:>11.2f}"
        )


# Games -----------------------------------------------------------------------------------------


@dataclass
class GameTally:
    size: int
    policy: str
    games: int = 0
    moves: int = 0
    ends: dict[str, int] = field(default_factory=lambda: {"passes": 0, "superko": 0, "cap": 0})
    black_wins: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)


def spiel_replay(size: int, komi: float, cap: int, moves: Sequence[int]) -> list[float]:
    """OpenSpiel's returns after ``moves`` (its actions) with another komi."""
    state = load(size, komi, cap).new_initial_state()
    for action in moves:
        state.apply_action(action)
    return list(state.returns())


def step_error(game: Go, state: GoState, spiel_state: Any) -> tuple[str | None, set[int]]:
    """Why the legal moves of the two differ, or None (OpenSpiel's superko-draw stones
    excepted), and plies' legal moves."""
    size = game.size
    spiel_legal = {to_plies(size, a) for a in spiel_state.legal_actions()}
    plies_legal = set(game.actions(state))
    if plies_legal - spiel_legal:
        return f"plies alone allows {sorted(plies_legal - spiel_legal)}", plies_legal
    for action in sorted(spiel_legal - plies_legal):
        child = spiel_state.child(to_spiel(size, action))
        try:
            game.parse_action(state, game.format_action(state, action))
            reason = "legal"
        except IllegalMoveError as error:
            reason = str(error)
        if "superko" not in reason or not child.is_terminal() or list(child.returns()) != [0, 0]:
            name = game.format_action(state, action)
            return f"OpenSpiel alone allows {name} ({reason})", plies_legal
    return None, plies_legal


def play(size: int, komi: float, rng: random.Random, tally: GameTally) -> None:
    """One random OpenSpiel game (``tally.policy``) replayed in plies, its ending and
    disagreements added to ``tally``."""
    game = Go(size=size, komi=komi)
    cap = LONG_CAP * size * size if tally.policy == LONG else 2 * size * size
    spiel_state = load(size, komi, cap).new_initial_state()
    state = game.initial_state()
    while True:
        error, plies_legal = step_error(game, state, spiel_state)
        if error:
            tally.errors.append(f"{size}x{size} {game.format_position(state)!r}: {error}")
            return
        legal = spiel_state.legal_actions()
        if tally.policy != UNIFORM and len(legal) > 1:
            legal = legal[:-1]  # the pass is last
        action = rng.choice(legal)
        spiel_state.apply_action(action)
        tally.moves += 1
        if to_plies(size, action) not in plies_legal:
            end = "superko"  # a draw in OpenSpiel, refused by plies (checked by step_error)
            break
        state = game.result(state, to_plies(size, action))
        if spiel_state.is_terminal() or game.is_terminal(state):
            end = "passes" if game.is_terminal(state) else "cap"
            if not spiel_state.is_terminal() or (end == "cap" and len(state.moves) != cap):
                tally.errors.append(
                    f"{size}x{size} {game.format_position(state)!r}: only one game ended"
                )
                return
            break
    tally.ends[end] += 1
    returns = list(spiel_state.returns())
    tally.black_wins += returns[0] > 0
    if end == "superko":
        if returns != [0, 0]:
            tally.errors.append(f"{size}x{size}: superko returns {returns}")
        return
    score = game.score(state)
    expected = (
        list(game.payoffs(state))
        if end == "passes"
        else [float((score > 0) - (score < 0)), float((score < 0) - (score > 0))]
    )
    if returns != expected:
        tally.errors.append(
            f"{size}x{size} {game.format_position(state)!r}: returns {returns}, plies {expected}"
        )
    black, white = game.area(state.board)
    moves = spiel_state.history()
    shifted = [spiel_replay(size, (black - white) + k, cap, moves)[0] for k in (-0.5, 0, 0.5)]
    if shifted != [1, 0, -1]:
        tally.errors.append(
            f"{size}x{size} {game.format_position(state)!r}: area difference {black - white} "
            f"by plies, OpenSpiel's black returns with komi d-0.5, d, d+0.5: {shifted}"
        )


def games(
    sizes: Sequence[int], long_sizes: Sequence[int], count: int, komi: float
) -> list[GameTally]:
    """``count`` games per size and policy (``LONG`` only on ``long_sizes``)."""
    tallies = []
    runs = [(size, policy) for size in sizes for policy in (UNIFORM, STONES)]
    runs += [(size, LONG) for size in long_sizes]
    for size, policy in runs:
        tally = GameTally(size, policy)
        rng = random.Random(f"{SEED} {size} {policy}")
        began = time.perf_counter()
        for _ in range(count):
            play(size, komi, rng, tally)
            tally.games += 1
        tally.seconds = time.perf_counter() - began
        tallies.append(tally)
        print(f"  {size}x{size} {policy} games done", file=sys.stderr, flush=True)
    return tallies


def print_games(tallies: Sequence[GameTally], komi: float) -> None:
    print(
        f"{'size':>5} {'policy':<7} {'games':>5} {'moves':>7} {'2 passes':>8} {'superko':>7} "
        f"{'cap':>5} {'B wins':>6} {'errors':>6} {'seconds':>7}   (komi {komi:g})"
    )
    for t in tallies:
        print(
            f"{t.size:>2}x{t.size:<2} {t.policy:<7} {t.games:>5} {t.moves:>7,} "
            f"{t.ends['passes']:>8} {t.ends['superko']:>7} {t.ends['cap']:>5} {t.black_wins:>6} "
            f"{len(t.errors):>6} {t.seconds:>7.1f}"
        )
    for t in tallies:
        for error in t.errors[:5]:
            print("  disagreement:", error)


# Main ------------------------------------------------------------------------------------------


def parse_depths(text: str) -> list[tuple[int, int]]:
    pairs = []
    for item in text.split(","):
        size, _, depth = item.partition("=")
        pairs.append((int(size), int(depth)))
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--depths", default=DEFAULT_DEPTHS, help=f"size=depth,... ({DEFAULT_DEPTHS})"
    )
    parser.add_argument(
        "--games", type=int, default=50, help="random games per size and policy (50)"
    )
    parser.add_argument(
        "--game-sizes",
        default=DEFAULT_GAME_SIZES,
        help=f"sizes of the games ({DEFAULT_GAME_SIZES})",
    )
    parser.add_argument(
        "--long-sizes",
        default=DEFAULT_LONG_SIZES,
        help=f"sizes of the long games ({DEFAULT_LONG_SIZES})",
    )
    parser.add_argument("--komi", type=float, default=0.5, help="komi of the games (0.5)")
    args = parser.parse_args(argv)
    try:
        depths = parse_depths(args.depths) if args.depths else []
        game_sizes = [int(s) for s in args.game_sizes.split(",")] if args.game_sizes else []
        long_sizes = [int(s) for s in args.long_sizes.split(",")] if args.long_sizes else []
    except ValueError:
        parser.error("--depths takes size=depth,... and --game-sizes size,...")
    if any(not 2 <= s <= 19 or d < 1 for s, d in depths) or any(
        not 2 <= s <= 19 for s in (*game_sizes, *long_sizes)
    ):
        parser.error("sizes must be 2 to 19 and depths at least 1")
    from importlib.metadata import version

    print(f"Python {sys.version.split()[0]}; plies {version('plies')}, "
          f"open-spiel {version('open-spiel')}")  # fmt: skip
    rows = [row for size, depth in depths for row in counts(size, depth)]
    if rows:
        print("\nMove paths from the empty board")
        print_counts(rows)
    tallies = games(game_sizes, long_sizes, args.games, args.komi) if args.games > 0 else []
    if tallies:
        print("\nRandom OpenSpiel games replayed in plies")
        print_games(tallies, args.komi)
    failed = any(not r.agree for r in rows) or any(t.errors for t in tallies)
    print("\nall agree" if not failed else "\nDISAGREEMENT (see above)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
