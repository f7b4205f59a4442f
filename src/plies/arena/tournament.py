"""Tournaments: every pairing of a round robin (or a gauntlet: the first player against each
of the others) plays game pairs on the same opening with colours swapped, in worker processes,
the driver writing each finished game to the record at once (:mod:`plies.arena.records`).

The schedule is a function of the players, the format, the number of games, the openings and
the seed alone, and every game is seeded from its schedule key, so a game is the same game
whichever worker plays it and whenever: a rerun on the same file plays only the games not yet
recorded (the games in flight when it stopped are played again), and its table equals that of
a run never stopped. Each worker builds an agent once and resets it with each game's seed.
Workers are processes of this machine, or actors of a Ray cluster (``ray_address``).
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies.agents import Agent, make_agent
from plies.arena.records import PlayedGame, Records, game_key
from plies.capabilities import HasPositionNotation
from plies.clock import TimeControl
from plies.errors import PliesError, SpecError, UnsupportedGameError
from plies.game import Game
from plies.inputs import read_text
from plies.openings import Opening
from plies.play import agent_seed, outcome_text, play_game, seat_agents
from plies.pool import Pool
from plies.registry import make_game

FORMATS = ("round-robin", "gauntlet")


@dataclass(frozen=True)
class Scheduled:
    """One game to play: everything a worker needs, and nothing it has to share."""

    game_spec: str
    key: str
    first: str
    second: str
    pair: int
    leg: int
    opening: str
    seed: int
    time_control: TimeControl | None = None
    start: Any = None
    """The state the opening leads to, when the schedule has it (a random opening's, nature's
    outcomes included); else the worker reads it from :attr:`opening`."""


def pairings(specs: Sequence[str], form: str) -> list[tuple[str, str]]:
    """Who meets whom: every two players (round robin), or the first against each other
    (gauntlet)."""
    if form not in FORMATS:
        raise SpecError(f"unknown format {form!r} (formats: {', '.join(FORMATS)})")
    if len(set(specs)) != len(specs):
        raise SpecError("a player is listed twice: give each spec once")
    if len(specs) < 2:
        raise SpecError("a tournament needs at least two players")
    if form == "gauntlet":
        return [(specs[0], other) for other in specs[1:]]
    return [(a, b) for i, a in enumerate(specs) for b in specs[i + 1 :]]


def opening_line(game: Game[Any, Any], opening: str) -> tuple[Any, list[Any]]:
    """Where an opening starts and its moves: the initial state and the moves of a move list
    (chance moves such as dice are drawn by the game's play, not written), or a position in
    the game's notation and none; :class:`SpecError` naming the problem."""
    text = opening.strip()
    state, moves = game.initial_state(), []
    try:
        for word in text.split():
            if game.is_terminal(state):
                raise SpecError(f"opening {text!r}: the game is over before {word!r}")
            moves.append(game.parse_action(state, word))
            state = game.result(state, moves[-1])
    except PliesError as error:
        if not isinstance(game, HasPositionNotation):
            raise SpecError(f"opening {text!r}: {error}") from None
        try:
            return game.parse_position(text), []
        except PliesError:
            raise SpecError(f"opening {text!r}: {error}") from None
    return game.initial_state(), moves


def opening_state(game: Game[Any, Any], opening: str) -> Any:
    """The state an opening leads to (:func:`opening_line`), a game still to play."""
    state, moves = opening_line(game, opening)
    for action in moves:
        state = game.result(state, action)
    if game.is_terminal(state):
        raise SpecError(f"opening {opening.strip()!r}: the game is already over")
    return state


def read_openings(game: Game[Any, Any], path: str | Path) -> list[str]:
    """The openings of a file, one a line (``#`` comments and blank lines skipped), each
    checked; :class:`SpecError` naming the file and line of the first bad one."""
    lines = read_text(path, "openings file").splitlines()
    openings = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            opening_state(game, text)
        except SpecError as error:
            raise SpecError(f"{path}, line {number}: {error}") from None
        openings.append(text)
    if not openings:
        raise SpecError(f"{str(path)!r} holds no opening")
    return openings


def schedule(
    game_spec: str,
    specs: Sequence[str],
    *,
    form: str = "round-robin",
    games: int = 2,
    openings: Sequence[str | Opening[Any]],
    seed: int = 0,
    time_control: TimeControl | None = None,
) -> list[Scheduled]:
    """Every game of the tournament, pair by pair (:func:`pair_games`), pair ``p`` of every
    pairing from opening ``p`` (cycling through them), each player on ``time_control``'s clock
    if given. ``games`` per pairing must be even."""
    if games < 2 or games % 2:
        raise SpecError(f"games per pairing must be an even number (game pairs), got {games}")
    return [
        task
        for a, b in pairings(specs, form)
        for pair in range(games // 2)
        for task in pair_games(
            game_spec, (a, b), pair, openings[pair % len(openings)], seed, time_control
        )
    ]


def pair_games(
    game_spec: str,
    pairing: tuple[str, str],
    pair: int,
    opening: str | Opening[Any],
    seed: int,
    time_control: TimeControl | None = None,
) -> tuple[Scheduled, Scheduled]:
    """The two games of pair ``pair`` of ``pairing`` (a, b) on one opening: in leg 0 a moves
    first, in leg 1 b; both seeded from the pair (the same dice), keyed by
    :func:`~plies.arena.records.game_key`."""
    a, b = pairing
    text, start = (opening, None) if isinstance(opening, str) else (opening.text, opening.state)
    game_seed = random.Random(f"plies-tournament:{seed}:{a}|{b}|{pair}").getrandbits(63)

    def leg(number: int, first: str, second: str) -> Scheduled:
        key = game_key(first, second, pair, number)
        return Scheduled(
            game_spec, key, first, second, pair, number, text, game_seed, time_control, start
        )

    return leg(0, a, b), leg(1, b, a)


class Worker:
    """Plays scheduled games, building each game and each agent once and reusing them (a
    solver's table, a network, an outside engine's process are not rebuilt per game). Before
    every game each agent is reset with that game's seed (:meth:`~plies.agents.Agent.reset`),
    so a game is the same game whichever worker plays it, and whether its agents are new.
    ``games`` are games already built, by the spec the schedule names them with (a game
    object that has no spec, as :func:`plies.arena.match.run_match` may be given)."""

    def __init__(self, games: Mapping[str, Game[Any, Any]] | None = None) -> None:
        self._games: dict[str, Game[Any, Any]] = dict(games or {})
        self._agents: dict[tuple[str, str, str], Agent] = {}

    def play(self, task: Scheduled) -> PlayedGame:
        """Play one scheduled game to its end. An agent that fails (a crash, an illegal move,
        an outside engine that hangs) loses the game, the reason recorded."""
        game = self._games.get(task.game_spec)
        if game is None:
            game = self._games[task.game_spec] = make_game(task.game_spec)
        first, second = game.players
        specs = {first: task.first, second: task.second}
        agents = {
            first: self._agent(game, task, task.first, "first"),
            second: self._agent(game, task, task.second, "second"),
        }
        return _play_out(game, task, specs, agents)

    def play_many(self, batch: Sequence[Scheduled]) -> list[PlayedGame]:
        """Play a batch of games, one after another."""
        return [self.play(task) for task in batch]

    def _agent(self, game: Game[Any, Any], task: Scheduled, spec: str, role: str) -> Agent:
        seed = agent_seed(task.seed, 0, role)
        key = (task.game_spec, spec, role if task.first == task.second else "")
        agent = self._agents.get(key)
        if agent is None:
            agent = self._agents[key] = make_agent(spec, game, seed=seed)
        agent.reset(seed)
        return agent

    def close(self) -> None:
        """Stop what the agents run (outside engines' processes)."""
        for agent in self._agents.values():
            close = getattr(agent, "close", None)
            if callable(close):
                close()
        self._agents.clear()


def play(task: Scheduled) -> PlayedGame:
    """Play one scheduled game with agents built for it (:meth:`Worker.play`)."""
    worker = Worker()
    try:
        return worker.play(task)
    finally:
        worker.close()


def _play_out(
    game: Game[Any, Any], task: Scheduled, specs: dict[str, str], agents: dict[str, Agent]
) -> PlayedGame:
    """The game from its opening to the end (:func:`~plies.play.play_game` with forfeits, on
    the task's clocks, the dice drawn from its seed: both legs of a pair see the same), as the
    record stores it."""
    state = opening_state(game, task.opening) if task.start is None else task.start
    dice = random.Random(task.seed)
    record = play_game(
        game, agents, state, chance=dice, time_control=task.time_control, forfeits=True
    )
    if record.loss is None:
        reason = outcome_text(game, record.state)
    else:
        reason = f"{specs[record.loss.player]} ({record.loss.player}) {record.loss.why}"
    return PlayedGame(
        task.key,
        task.first,
        task.second,
        task.pair,
        task.leg,
        task.opening,
        tuple(turn.notation for turn in record.turns),
        tuple(turn.seconds for turn in record.turns),
        record.score(game.players[0]),
        reason,
        task.seed,
    )


def check_players(game_spec: str, specs: Sequence[str]) -> None:
    """Build every agent once now, so a bad spec fails before any game."""
    game = make_game(game_spec)
    if len(game.players) != 2:
        raise UnsupportedGameError(
            f"a tournament needs a two-player game; '{game.name}' has {len(game.players)}"
        )
    first, second = game.players
    for spec in specs:
        seat_agents(game, {first: spec, second: spec}, seed=agent_seed(0, 0, "check"))


_WORKER: Worker | None = None
"""The worker of a pool's process (:func:`_start_worker`)."""


def _start_worker() -> None:
    """A pool's worker: one :class:`Worker` for all its games."""
    global _WORKER
    _WORKER = Worker()


def _play_in_worker(batch: list[Scheduled]) -> list[PlayedGame]:
    assert _WORKER is not None, "a pool process starts its worker first"
    return _WORKER.play_many(batch)


def run(
    records: Records,
    games: Sequence[Scheduled],
    concurrency: int | None = 1,
    *,
    ray_address: str | None = None,
) -> Generator[PlayedGame, None, None]:
    """Play the ``games`` not yet in ``records``, ``concurrency`` at a time (1: in this
    process; with ``ray_address``, as Ray actors of that cluster, one per CPU it has when
    ``concurrency`` is None), writing each to the record as it finishes and yielding it.
    Workers (:class:`plies.pool.Pool`) get the games in batches of about
    :data:`BATCH_SECONDS` of play (one game at a time when games are slow). A worker that
    dies costs only its batches in flight: it is replaced and those games played again.
    Stopping the iteration (Ctrl-C) stops the workers; what was written stays."""
    if concurrency is not None and concurrency < 1:
        raise SpecError(f"the concurrency must be at least 1, got {concurrency}")
    done = records.finished_keys()
    todo = [task for task in games if task.key not in done]
    if concurrency == 1 and ray_address is None:
        worker = Worker()
        try:
            for task in todo:
                record = worker.play(task)
                records.add(record)
                yield record
        finally:
            worker.close()
        return
    pool = Pool(
        concurrency or (None if ray_address else 2),
        setup=_start_worker,
        ray_address=ray_address,
        asked_as="--concurrency",
    )
    with pool:
        queue = _Queue(todo, pool.size)
        for _, played in pool.results(_play_in_worker, queue.batches(pool)):
            queue.finished(played)
            records.add_many(played)
            yield from played


BATCH_SECONDS = 0.1
"""About how long a batch of games sent to a worker at once should take: cheap games travel
many to a message, so the messages do not cost more than the games."""
DRIVER_MESSAGES = 1000
"""The batches a second the driver is meant to take in at most: with many workers, batches
grow to keep to it."""
BATCH_MOST = 4096
"""The most games in a batch."""


class _Queue:
    """The games still to hand out, in batches of about :data:`BATCH_SECONDS` of play (or
    longer with many workers, so the driver takes in at most :data:`DRIVER_MESSAGES` batches a
    second), sized from the last batch's games: at most twice the last size, and never more
    than a fair share of what is left."""

    def __init__(self, todo: Sequence[Scheduled], workers: int) -> None:
        self.pending = list(reversed(todo))
        self.workers = workers
        self.size = 1

    def __bool__(self) -> bool:
        return bool(self.pending)

    def batches(self, pool: Pool) -> Iterator[list[Scheduled]]:
        """The batches as ``pool`` takes them (its number of workers known by then)."""
        while self.pending:
            self.workers = pool.size
            yield self.take()

    def take(self) -> list[Scheduled]:
        share = max(1, -(-len(self.pending) // (2 * self.workers)))
        return [self.pending.pop() for _ in range(min(self.size, share, len(self.pending)))]

    def finished(self, played: Sequence[PlayedGame]) -> None:
        per_game = sum(sum(record.seconds) for record in played) / max(1, len(played))
        seconds = max(BATCH_SECONDS, self.workers / DRIVER_MESSAGES)
        target = int(seconds / max(per_game, 1e-6))
        self.size = max(1, min(BATCH_MOST, 2 * self.size, target))
