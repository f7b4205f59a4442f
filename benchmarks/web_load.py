"""The web server under load: ``plies serve`` in a process of its own, driven over 127.0.0.1.

From the repository root::

    PYTHONPATH=src .venv/bin/python benchmarks/web_load.py [--active 200] [--abandoned 200]
        [--seconds 60] [--drivers 16]

1. Warm-up: one game of each agent kind and one analysis of each game (kernels compiled, the
   shipped networks and the solver tables loaded); the server's memory then is the start.
2. ``--abandoned`` games are started and never looked at again: people against ``perfect``,
   ``az``, ``engine`` and ``mcts`` (the agent moving first), and games between agents (chess
   engines, Connect Four engines, Go MCTS), which must pause once nobody watches.
3. ``--active`` games are played for ``--seconds`` by ``--drivers`` threads, a person's moves
   against the same mix of agents (every other game on a clock, 300+3), each game looked at
   every round, with Connect Four and chess analyses among them, and half the finished games
   reviewed (the review runs in the thinking queue; the game is looked at until it is done);
   meanwhile a probe times the light requests (the game list, a page, a session's state).
   Every answer's status is counted: 429 and 503 are the server saying "busy"; a 5xx other
   than 503 is an error.
4. Nobody watches: the server's CPU seconds over a quiet window once every game has paused.
5. Expiry: the server runs with ``--idle-minutes 1`` and ``--no-db`` (a dropped game is gone,
   not read back from the games file); its memory once every game is dropped.

Steps 2 to 5 run ``--cycles`` times on the same server: memory after each cycle's expiry is
compared with the start and with the first cycle's (the process keeps what its first cycle
grew into: compiled code, the allocator's heaps; a leak would grow it cycle after cycle).

Memory is the server process's resident set (``VmRSS``), CPU its user and system time, both
from ``/proc`` (Linux).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
AGAINST_PEOPLE = [
    ("connect4", {"X": "perfect:time=1", "O": "human"}),
    ("connect4", {"X": "human", "O": "perfect:time=1"}),
    ("tictactoe", {"X": "az:simulations=200", "O": "human"}),
    ("connect4", {"X": "az:simulations=100", "O": "human"}),
    ("chess", {"White": "engine:time=0.5", "Black": "human"}),
    ("othello", {"B": "mcts:time=0.5", "W": "human"}),
    ("checkers", {"B": "engine:time=0.5", "W": "human"}),
    ("go:size=9", {"B": "mcts:time=0.5", "W": "human"}),
]
CLOCKS = (None, "300+3")
"""The active games' time controls, in turn: untimed, and five minutes with three seconds a
move (the server calls a flag that falls, and the agents budget their moves)."""
BETWEEN_AGENTS = [
    ("chess", {"White": "engine:time=0.5", "Black": "engine:time=0.5"}),
    ("connect4", {"X": "engine:time=0.3", "O": "perfect:time=1"}),
    ("go:size=9", {"B": "mcts:time=0.5", "W": "mcts:time=0.5"}),
]
ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
ANALYSES = [
    ("/api/analyse/solved", {"position": "4453", "seconds": 1}),
    ("/api/analyse/solved", {"position": "44444453", "seconds": 1}),
    ("/api/analyse/evaluated", {"fen": ITALIAN, "seconds": 1}),
]


class Server:
    """``plies serve`` in a child process, and its memory and CPU from /proc."""

    def __init__(self, thinkers: int, idle_minutes: float) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "plies",
                "serve",
                "--port",
                str(self.port),
                "--thinkers",
                str(thinkers),
                "--idle-minutes",
                str(idle_minutes),
                "--new-games-per-minute",
                "1000000",
                "--no-db",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                request(self.port, "GET", "/api/agents")
                return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> str:
        self.process.terminate()
        try:
            _, errors = self.process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, errors = self.process.communicate()
        return errors


def request(
    port: int,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    connection: http.client.HTTPConnection | None = None,
    token: str = "",
) -> tuple[int, Any]:
    """One request (with a game's owner ``token``); the status and the answer's JSON (None
    for a page)."""
    own = connection is None
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        data = None if body is None else json.dumps(body)
        headers = {} if body is None else {"Content-Type": "application/json"}
        if token:
            headers["X-Plies-Token"] = token
        connection.request(method, path, data, headers)
        answer = connection.getresponse()
        text = answer.read()
        kind = answer.getheader("Content-Type") or ""
        return answer.status, json.loads(text) if "json" in kind else None
    finally:
        if own:
            connection.close()


class Tally:
    """Statuses of every answer, and the light requests' latencies."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter[int] = Counter()
        self.light: list[tuple[float, str]] = []
        self.errors: list[str] = []
        self.refusals: Counter[str] = Counter()

    def count(self, status: int, what: str, answer: Any) -> None:
        with self.lock:
            self.statuses[status] += 1
            if status >= 500 and status != 503:
                self.errors.append(f"{status} {what}: {answer}")
            elif status >= 400:
                message = answer.get("error", "") if isinstance(answer, dict) else ""
                message = re.sub(r"\d+", "N", message)  # counts and times vary
                self.refusals[f"{status} {what}: {message[:90]}"] += 1


def create(
    port: int, game: str, players: dict[str, str], tally: Tally, clock: str | None = None
) -> tuple[str, str] | None:
    """A new game's id and owner token (on ``clock``, a time control, when given)."""
    body = {"game": game, "players": players, "clock": clock}
    status, answer = request(port, "POST", "/api/sessions", body)
    tally.count(status, f"create {game}", answer)
    return (answer["id"], answer["token"]) if status == 201 else None


def analyse(port: int, path: str, body: dict[str, Any], tally: Tally) -> None:
    status, answer = request(port, "POST", path, body)
    tally.count(status, path, answer)


def drive(
    port: int, sessions: list[tuple[str, str]], until: float, tally: Tally, seed: int, pause: float
) -> None:
    """Play a person's moves in ``sessions`` round after round (a round every ``pause``
    seconds at most: people take a moment), with an analysis now and then."""
    chooser = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while time.monotonic() < until:
        began = time.monotonic()
        for session_id, token in sessions:
            if time.monotonic() >= until:
                break
            status, state = request(port, "GET", f"/api/sessions/{session_id}", None, connection)
            tally.count(status, "get", state)
            if status != 200:
                continue
            if state["finished"] and state["review"] is None and chooser.random() < 0.5:
                status, answer = request(
                    port, "POST", f"/api/sessions/{session_id}/review", {}, connection, token
                )
                tally.count(status, "review", answer)
            elif state["finished"] or state["error"]:
                if state["review"] and state["review"]["running"]:
                    continue  # the review is looked at until it is done
                status, answer = request(
                    port, "POST", f"/api/sessions/{session_id}/new", {}, connection, token
                )
                tally.count(status, "new", answer)
            elif state["legal"]:
                move = chooser.choice(state["legal"])["notation"]
                status, answer = request(
                    port,
                    "POST",
                    f"/api/sessions/{session_id}/move",
                    {"move": move},
                    connection,
                    token,
                )
                tally.count(status, "move", answer)
            if chooser.random() < 0.02:
                path, body = chooser.choice(ANALYSES)
                status, answer = request(port, "POST", path, body, connection)
                tally.count(status, path, answer)
        time.sleep(max(0.0, began + pause - time.monotonic()))
    connection.close()


def probe(port: int, session_id: str, until: float, tally: Tally) -> None:
    """Time the light requests, one at a time."""
    paths = ["/api/games", "/", f"/api/sessions/{session_id}", "/api/agents"]
    index = 0
    while time.monotonic() < until:
        path = paths[index % len(paths)]
        began = time.perf_counter()
        status, answer = request(port, "GET", path)
        elapsed = time.perf_counter() - began
        tally.count(status, path, answer)
        with tally.lock:
            tally.light.append((elapsed, path.split("/")[-1] if "sessions" in path else path))
        index += 1
        time.sleep(0.05)


def percentile(values: list[float], part: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(part * len(ordered)))]


def cycle(server: Server, args: argparse.Namespace, number: int) -> float:
    """Abandoned games, active games with the light requests timed, a quiet window, expiry;
    the server's memory once every game is dropped."""
    tally = Tally()
    print(f"-- cycle {number}")
    mix = AGAINST_PEOPLE + BETWEEN_AGENTS
    for index in range(args.abandoned):
        create(server.port, *mix[index % len(mix)], tally)
    print(f"{args.abandoned} abandoned games started: {server.rss_mb():.0f} MB")

    active = [  # every other game on a clock (the person's runs out if its driver is slow)
        create(server.port, *AGAINST_PEOPLE[i % len(AGAINST_PEOPLE)], tally, CLOCKS[i % 2])
        for i in range(args.active)
    ]
    owned = [session for session in active if session is not None]
    ids = [session_id for session_id, _ in owned]
    until = time.monotonic() + args.seconds
    peak = [server.rss_mb()]
    shares = [owned[d :: args.drivers] for d in range(args.drivers)]
    threads = [
        threading.Thread(target=drive, args=(server.port, share, until, tally, d, args.pause))
        for d, share in enumerate(shares)
    ]
    threads.append(threading.Thread(target=probe, args=(server.port, ids[0], until, tally)))
    cpu_before = server.cpu_seconds()
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        peak.append(server.rss_mb())
        time.sleep(0.5)
    cpu_active = server.cpu_seconds() - cpu_before
    light = [seconds for seconds, _ in tally.light]
    print(
        f"{len(ids)} active games for {args.seconds:g} s by {args.drivers} drivers, a look at "
        f"each game every {args.pause:g} s at most: server CPU {cpu_active:.1f} s "
        f"({cpu_active / args.seconds:.2f} cores)"
    )
    print(
        f"light requests: {len(light)}, p50 {percentile(light, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(light, 0.99) * 1000:.1f} ms, max {max(light) * 1000:.1f} ms, "
        f"mean {statistics.mean(light) * 1000:.1f} ms"
    )
    print(
        f"statuses: {dict(sorted(tally.statuses.items()))}; errors (5xx but 503): "
        f"{len(tally.errors)}"
    )
    for line in tally.errors[:5]:
        print("  ", line[:200])
    for line, count in tally.refusals.most_common(6):
        print(f"   {count} x {line}")
    slowest = sorted(tally.light, reverse=True)[:5]
    print("slowest light requests: " + ", ".join(f"{p} {s * 1000:.0f} ms" for s, p in slowest))
    print(f"memory at the peak: {max(peak):.0f} MB")

    time.sleep(25)  # watch_seconds (20) and a move in flight (0.5-1 s)
    quiet_before, quiet = server.cpu_seconds(), 20.0
    time.sleep(quiet)
    unwatched = server.cpu_seconds() - quiet_before
    print(
        f"nobody watching {args.abandoned + len(ids)} games: {unwatched:.2f} CPU s in {quiet:g} s"
    )

    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        status, _ = request(server.port, "GET", f"/api/sessions/{ids[0]}")
        if status == 404:
            break
        time.sleep(5)
    time.sleep(12)  # the sweep that dropped the first drops the rest within its round
    return server.rss_mb()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--active", type=int, default=200)
    parser.add_argument("--abandoned", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--drivers", type=int, default=16)
    parser.add_argument("--thinkers", type=int, default=2)
    parser.add_argument("--cycles", type=int, default=2)
    parser.add_argument(
        "--pause", type=float, default=2.0, help="seconds between a person's two looks"
    )
    args = parser.parse_args()
    print(
        f"machine: {os.cpu_count()} cores; server: plies serve --thinkers {args.thinkers} "
        "--idle-minutes 1"
    )
    server = Server(args.thinkers, idle_minutes=1)
    fresh = server.rss_mb()
    try:
        tally = Tally()
        warming = [
            threading.Thread(target=analyse, args=(server.port, path, body, tally))
            for path, body in ANALYSES[:1] * args.thinkers
        ]  # as many Connect Four analyses at once as thinkers: the server's solvers are made
        for thread in warming:
            thread.start()
        for thread in warming:
            thread.join()
        for path, body in ANALYSES[1:]:
            analyse(server.port, path, body, tally)
        for game, players in AGAINST_PEOPLE + BETWEEN_AGENTS:
            create(server.port, game, players, tally)
        time.sleep(25)  # the warm-up games pause once unwatched
        start = server.rss_mb()
        print(f"memory: {fresh:.0f} MB fresh, {start:.0f} MB after the warm-up (the start)")
        after = []
        for number in range(1, args.cycles + 1):
            after.append(cycle(server, args, number))
            print(
                f"memory after expiry: {after[-1]:.0f} MB ({(after[-1] / start - 1) * 100:+.1f}%"
                f" of the start, {(after[-1] / after[0] - 1) * 100:+.1f}% of cycle 1's)"
            )
    finally:
        errors = server.stop()
    tracebacks = errors.count("Traceback")
    print(f"server log: {len(errors.splitlines())} lines, {tracebacks} tracebacks")
    if tracebacks:
        print(errors[-3000:])


if __name__ == "__main__":
    main()
