"""Backgammon: the full rules, as a game with chance nodes; the doubling cube and match play are
options (money play without the cube by default).

Board. White (``O`` on the board) and Black (``X``) each have 15 checkers and race them round
the board in opposite directions, home and off. Each player numbers the points from its own side:
it moves from its 24 point down towards its 1 point, its home board is 1..6, and its point p is
the opponent's point 25 - p. Both start with two checkers on 24, five on 13, three on 8 and five
on 6.

Chance. The initial state is a chance state, the opening roll: each player rolls one die, ties
are rolled again, and the higher die moves first using both dice: 30 equally likely outcomes,
written ``White 3-1`` (White won the roll with 3 against 1 and plays 3-1). After every turn the
next player rolls: 21 outcomes written larger die first, ``3-1`` (probability 2/36) or ``6-6``
(1/36). In a chance state :meth:`Backgammon.to_move` is :data:`~plies.game.CHANCE`.

Turns. An action is a whole turn: the checker moves for the roll (a double is played four
times). A checker on the bar must enter (on the opponent's home board) before any other moves;
a checker may not land on a point with two or more opposing checkers, and landing on a single
one (a blot) hits it onto the bar. A player whose checkers left on the board are all home bears
them off: a die takes off a checker from the point of its number, or, when no checker stands on
that point or higher, one from the highest occupied point. As many dice as possible must be
played, and when only one of two dice can be, the larger one if it can. Turns reaching the same
position are one action. When no move is possible the only action is the empty turn, written
``pass``.

Notation. Moves are written in the usual way from the mover's side: ``24/18 13/11``, ``bar/22``,
``6/off``, a hit marked ``13/7*``, a checker moving on ``24/18*/13`` (intermediate points are
written only where they hit) and repeats ``8/5(2)``. :meth:`Backgammon.parse_action` reads the
parts in any order, with or without ``*``, and with chains such as ``24/18/13`` or ``24/13``, by
matching them against the legal turns. Positions are each side's checkers by point in its own
numbering, ``bar`` and ``off`` counts, then who moves: ``opening`` (the opening roll is next),
``W to roll`` or ``W 3-1`` (White to move with 3-1). States hold integers only, so their hashes
are the same in every process:

>>> game = Backgammon()
>>> start = game.initial_state()
>>> game.to_move(start), len(game.actions(start))
('chance', 30)
>>> game.format_position(start)
'W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / opening'
>>> state = game.result(start, game.parse_action(start, "White 3-1"))
>>> game.to_move(state), len(game.actions(state))
('White', 16)
>>> state = game.result(state, game.parse_action(state, "6/5 8/5"))
>>> game.format_position(state)
'W 24:2 13:5 8:2 6:4 5:2 / B 24:2 13:5 8:3 6:5 / B to roll'
>>> state = game.parse_position("W 6:2 4:1 off:12 / B bar:1 20:14 / B 6-4")
>>> [game.format_action(state, a) for a in game.actions(state)]
['bar/21*/15', 'bar/21* 20/14']
>>> state = game.parse_position("W 6:3 5:2 4:2 3:2 2:2 1:2 off:2 / B bar:2 13:13 / B 4-4")
>>> [game.format_action(state, a) for a in game.actions(state)]
['pass']

The cube (``backgammon:cube=true``, money play; ``backgammon:match=N``, a match to N points).
Before its roll a side that may double (the cube in the middle or its own; see
:meth:`Backgammon.may_double`) chooses ``roll`` or ``double``; after ``double`` the opponent
chooses ``take`` (the cube doubles and is the taker's), ``drop`` (the game ends, the doubler
scoring the cube's value before the double) or, with ``beavers=true``, ``beaver`` (takes and
doubles again at once, keeping the cube); then the doubler rolls. A game's points are multiplied
by the cube; with ``jacoby=true`` gammons and backgammons count single while the cube is in the
middle at 1. A match is one formal game: when a game ends and nobody has N points, the next one
starts with its opening roll, the scores carried on; the game after a player first reaches N - 1
is the Crawford game, where nobody doubles. Positions of cube games add ``cube 2 W`` (value and
owner; ``cube 1`` in the middle) and, in a match, ``match 7 W 3 B 1`` (``crawford`` when it is
the Crawford game); the mover's part may be ``W doubles`` (Black answers), ``W rolls`` (the cube
decided, the dice come next) or ``B drops`` (the game over):

>>> game = Backgammon(match=5)
>>> state = game.parse_position("W 6:5 5:5 4:5 / B 6:5 5:5 4:5 / W to roll / match 5 W 2 B 3")
>>> game.actions(state)
['roll', 'double']
>>> state = game.result(state, game.parse_action(state, "double"))
>>> game.to_move(state), game.actions(state)
('Black', ['take', 'drop'])
>>> game.format_position(game.result(state, "take"))
'W 6:5 5:5 4:5 / B 6:5 5:5 4:5 / W rolls / cube 2 B / match 5 W 2 B 3'
>>> game.format_position(game.result(state, "drop"))
'W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / opening / cube 1 / match 5 W 3 B 3'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from plies.capabilities import BoardView
from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import CHANCE, Game
from plies.ladder import Anchor, Ladder, Level
from plies.registry import GameOption
from plies.spec import NumberRange

if TYPE_CHECKING:
    from plies.games.backgammon.cube import Decision, MatchScore, Owner
    from plies.games.backgammon.network import Network

WHITE, BLACK = 0, 1
SIDES = ("White", "Black")
LETTERS = ("W", "B")
SYMBOLS = ("O", "X")
CHECKERS = 15
BAR = 25
"""The point a checker on the bar moves from, in the mover's numbering."""
OFF = 0
"""The point a borne-off checker moves to, in the mover's numbering."""
OPENING = -1
"""The mover of the state before the opening roll (nobody has the move yet)."""
START = {24: 2, 13: 5, 8: 3, 6: 5}
"""Each side's starting checkers by point, in its own numbering."""
EVALUATIONS = ("learned", "hand")
"""EVAL's choices (``engine:evaluation=``, ``Backgammon(evaluation=...)``)."""
TURN_CACHE = 2048
"""Positions whose legal turns are kept (least recently used dropped first)."""
CENTRED = -1
"""The cube's owner while it is in the middle (either side may double)."""
MAX_CUBE = 64
"""The highest cube of money play: a cube of 64 is not doubled again (so a game is worth at most
3 x 64 points, the game's :attr:`~Backgammon.value_bounds`)."""
MAX_MATCH = 25
"""The longest match: the match equity table's size (:mod:`plies.games.backgammon.cube`)."""
TO_ROLL, ROLLING, DOUBLED, DROPPED = 0, 1, 2, 3
"""A state's cube stage: the mover is to roll (and may double first, if it may), is rolling (the
cube decided), has doubled (the opponent answers), or has been dropped (the game over)."""
ROLL, DOUBLE, TAKE, DROP, BEAVER = "roll", "double", "take", "drop", "beaver"
"""The cube's actions (strings: they are their own notation)."""
CUBE_ACTIONS = (ROLL, DOUBLE, TAKE, DROP, BEAVER)

Move = tuple[int, int]
"""One checker moved by one die: (from, to) in the mover's numbering, 25 the bar, 0 off."""
Turn = tuple[Move, ...]
"""A whole turn: its moves in playing order; ``()`` is the pass."""
View = list[int]
"""A board from one side: index p (1..24) holds its checkers on its point p (positive) or the
opponent's (negative); index 25 its checkers on the bar, index 0 those borne off."""
Key = tuple[int, ...]
"""A :data:`View` as a tuple with the opponent's bar count appended: a turn's resulting board."""


class Roll(NamedTuple):
    """Nature's move: the dice, larger first; ``opener`` is the side (0 White, 1 Black) that won
    the opening roll with them, or -1 for a later roll."""

    high: int
    low: int
    opener: int = OPENING


Action = Roll | Turn | str
"""A roll, a turn, or one of the :data:`CUBE_ACTIONS`."""

OPENING_ROLLS = tuple(
    Roll(high, low, opener)
    for opener in (WHITE, BLACK)
    for high in range(2, 7)
    for low in range(1, high)
)
"""The opening roll's outcomes: White's wins (White's die the higher), then Black's."""
ROLLS = tuple(Roll(high, low) for high in range(1, 7) for low in range(1, high + 1))
"""A later roll's outcomes: 1-1, 2-1, 2-2, 3-1, ... 6-6."""


class BackgammonState(NamedTuple):
    """A position. ``points[i]`` holds White's point i + 1 (White's checkers counted positive,
    Black's negative); ``bar`` and ``off`` count (White's, Black's) checkers; ``mover`` is the
    side (0 White, 1 Black) to move or to roll, -1 before the opening roll; ``dice`` are the
    mover's dice, larger first, or ``()`` while a roll is pending (a chance state, or a cube
    decision). The cube's fields keep their defaults in a game without the cube: ``cube`` its
    value, ``owner`` the side that owns it or :data:`CENTRED`, ``stage`` one of :data:`TO_ROLL`,
    :data:`ROLLING`, :data:`DOUBLED` (by the mover) and :data:`DROPPED`; in a match ``score``
    the (White's, Black's) points before this game and ``crawford`` whether it is the Crawford
    game (in the match's final state the score counts the last game too)."""

    points: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    mover: int
    dice: tuple[int, ...]
    cube: int = 1
    owner: int = CENTRED
    stage: int = TO_ROLL
    score: tuple[int, int] = (0, 0)
    crawford: bool = False


# Evaluation weights, in pips (a checker moved one point is worth one).
POINT_VALUE = (0, 1, 2, 3, 4, 5, 4, 4, 2, 1, 1, 0.5, 0, 0, 0, 0, 0, 0, 1, 1.5, 3, 2.5, 1.5, 1, 1)
"""The value of a made point (two or more checkers), by the owner's point number: the home
board's inner points and the bar point most, anchors on the opponent's 4 and 5 points next."""
PRIME_VALUE = (0, 0, 1, 3, 6, 10, 16, *(16,) * 18)
"""Bonus for the longest run of consecutive made points, by its length."""
SHOTS = (0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1)
"""Rolls out of 36 that hit a blot at each distance 0..24 from one shooter, nothing blocking."""
HIT_EXTRA = 4
"""Pips a hit costs beyond the distance the checker had come (the tempo spent entering)."""
ENTER_PENALTY = (0, 0.6, 2.4, 5.4, 9.6, 15, 21.6)
"""Penalty per checker on the bar, by the number of points made in the opponent's home board."""
TEMPO = 4
"""Pips the side on roll is worth ahead of the other."""
CONTACT_SCALE = 30
"""A contact score s becomes the lead s / (|s| + CONTACT_SCALE), strictly inside (-1, 1)."""
RACE_SCALE = 0.07
"""In a race the scale is 2 + RACE_SCALE times the mean pip count: a 10% lead is worth most."""

_PART = re.compile(r"(bar|[0-9]{1,2})((?:/(?:[0-9]{1,2}|off)\*?)+)(?:\(([0-9])\))?")
_ROLL = re.compile(r"(?:(white|black|w|b)\s*:?\s*)?([1-6])\s*-?\s*([1-6])")
_ITEM = re.compile(r"(bar|off|[0-9]{1,2}):([0-9]{1,2})")
_EXAMPLES = 3
"""Legal turns listed in an error message."""


class Backgammon(Game[BackgammonState, Action]):
    """Backgammon, money play without the cube unless an option says otherwise. Actions are
    :class:`Roll` outcomes in chance states, the :data:`CUBE_ACTIONS` in cube decisions and
    :data:`Turn` tuples of (from, to) moves, in the mover's numbering, otherwise.

    UTILITY: the winner (the first to bear off all 15) scores 1, 2 for a gammon (the loser has
    borne off none) and 3 for a backgammon (a gammon with a loser's checker still on the bar or
    in the winner's home board), times the cube's value (a dropped double scores the cube's
    value before it); the loser the negative. In a match (``match=N``) the whole match is the
    game: its winner, the first to N points, scores 1 and the loser -1.
    """

    name = "backgammon"
    summary = (
        "backgammon: dice as chance nodes, gammons 2, backgammons 3; money play, with the "
        "doubling cube or a match as options"
    )
    options: tuple[GameOption, ...] = (
        GameOption("cube", "flag", "money play with the doubling cube", False, optional=True),
        GameOption(
            "match",
            "int",
            "a match to N points, with the cube and the Crawford rule (0: money play)",
            0,
            NumberRange(0, MAX_MATCH, integer=True),
            optional=True,
        ),
        GameOption(
            "jacoby",
            "flag",
            "money play with the cube: gammons count single until the cube is turned",
            False,
            optional=True,
        ),
        GameOption(
            "beavers",
            "flag",
            "money play with the cube: a taker may beaver (double again at once, keeping the cube)",
            False,
            optional=True,
        ),
    )
    """Each written into a spec only when set (``backgammon`` is money play without the cube,
    as before the options came)."""
    searchable_to_end = False
    leaf_estimate = "eval"
    default_opponent = "engine:depth=1"
    ladder = Ladder(
        (
            Level(
                "Beginner",
                "engine:depth=1,evaluation=hand",
                "plays the move whose position a hand-written evaluation likes best",
            ),
            Level(
                "Standard",
                "engine:depth=1",
                "plays the move whose position its learned evaluation likes best",
            ),
            Level(
                "Strong",
                "engine:depth=3",
                "weighs each move by every reply to every roll and its own next roll",
            ),
        ),
        anchor=Anchor(
            "GNU Backgammon, expert (0 plies)",
            "gnubg:expert",
            0,
            "GNU Backgammon's expert = 0",
            meets=(1, 2, 3),
        ),
        default=2,
    )
    players = SIDES
    value_bounds = (-3.0, 3.0)

    def __init__(
        self,
        evaluation: str = "learned",
        cube: bool = False,
        match: int = 0,
        jacoby: bool = False,
        beavers: bool = False,
    ) -> None:
        if evaluation not in EVALUATIONS:
            raise SpecError(
                f"backgammon has no evaluation {evaluation!r} (it has {', '.join(EVALUATIONS)})"
            )
        if not 0 <= match <= MAX_MATCH:
            raise SpecError(
                f"backgammon: match={match} must be 0 (money play) or 1 to {MAX_MATCH} points"
            )
        for option, on in (("jacoby", jacoby), ("beavers", beavers)):
            if on and (match or not cube):
                raise SpecError(
                    f"backgammon: {option}=true is for money play with the cube (cube=true, "
                    "match=0)"
                )
        self.evaluation = evaluation
        """EVAL: ``learned`` (the shipped TD network, :mod:`plies.games.backgammon.network`)
        or ``hand`` (the hand-written terms)."""
        self.cube, self.match, self.jacoby, self.beavers = bool(cube), match, jacoby, beavers
        self.cubeful = self.cube or match > 0
        """Whether the game has the doubling cube (money play with it, or a match)."""
        if match:
            self.value_bounds = (-1.0, 1.0)
        elif self.cube:
            self.value_bounds = (-3.0 * MAX_CUBE, 3.0 * MAX_CUBE)

    def __repr__(self) -> str:
        options = [f"evaluation={self.evaluation!r}"] * (self.evaluation != "learned")
        options += [f"{key}=True" for key in ("cube", "jacoby", "beavers") if getattr(self, key)]
        options += [f"match={self.match}"] * (self.match > 0)
        return f"Backgammon({', '.join(options)})"

    def evaluations(self) -> tuple[str, ...]:
        """The learned network and the hand-written evaluation; the one in use first."""
        return (self.evaluation, *(name for name in EVALUATIONS if name != self.evaluation))

    def with_evaluation(self, name: str) -> Backgammon:
        return Backgammon(name, self.cube, self.match, self.jacoby, self.beavers)

    def chance_engine(self) -> str:
        """The engine's search of backgammon: expectimax over the dice with move filters,
        compiled (:mod:`plies.games.backgammon.engine_native`)."""
        return "plies.games.backgammon.engine_native:backgammon_engine"

    def fresh_td_network(self, hidden: int, seed: int) -> Network:
        """A new network for self-play training (:mod:`plies.learn.td`)."""
        from plies.games.backgammon.network import Network

        return Network.fresh(hidden, seed)

    def load_td_network(self, path: Path) -> Network:
        from plies.games.backgammon.network import load_network

        return load_network(path)

    def match_file(self, start: BackgammonState, moves: Iterable[Any], names: Sequence[str]) -> str:
        """The game (or match) played from ``start`` with ``moves`` by players ``names`` as a
        match file, ``.mat`` (:mod:`plies.games.backgammon.matfile`)."""
        from plies.games.backgammon.matfile import match_file

        return match_file(self, start, moves, names)

    def match_moves(self, text: str) -> tuple[str | None, list[str]]:
        """A match file read back: its start (None: the usual one) and its moves, replayed and
        checked (:func:`plies.games.backgammon.matfile.read_match_file`)."""
        from plies.games.backgammon.matfile import read_match_file

        return read_match_file(self, text)

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.backgammon.view`)."""
        from plies.games.backgammon.view import BackgammonView

        return BackgammonView(self, sides=SIDES, bar=BAR, off=OFF, opening=OPENING, roll=Roll)

    def initial_state(self) -> BackgammonState:
        return _initial_state()

    def to_move(self, state: BackgammonState) -> str:
        """The side to move; :data:`~plies.game.CHANCE` while a roll is pending, except in a
        finished game, where it is the side that would roll next. In a cube decision, the side
        that may double (before its roll), or the side that answers a double."""
        if state.dice or self.is_terminal(state):
            return SIDES[state.mover]
        if state.stage == DOUBLED:
            return SIDES[1 - state.mover]
        return SIDES[state.mover] if self.may_double(state) else CHANCE

    def actions(self, state: BackgammonState) -> Sequence[Action]:
        """Roll outcomes in a chance state (see :meth:`chance_outcomes`); ``roll`` and
        ``double`` before a roll where the mover may double; ``take``, ``drop`` (and ``beaver``
        where beavers are on) after a double; else one turn per distinct resulting position,
        bar entries first and higher points first."""
        if self.is_terminal(state):
            return []
        if state.dice:
            return list(_legal_turns(state).values())
        if state.stage == DOUBLED:
            return [TAKE, DROP, BEAVER] if self.may_beaver(state) else [TAKE, DROP]
        if self.may_double(state):
            return [ROLL, DOUBLE]
        return [roll for roll, _ in self.chance_outcomes(state)]

    def may_double(self, state: BackgammonState) -> bool:
        """Whether the mover of ``state``, before its roll, may double: in a game with the cube,
        not before the opening roll, the cube in the middle or the mover's; in money play below
        :data:`MAX_CUBE`; in a match not in the Crawford game, nor when the mover's score and
        the cube already make the match (the double would be pointless: the dead cube, as in
        GNU Backgammon)."""
        if not self.cubeful or state.dice or state.stage != TO_ROLL or state.mover == OPENING:
            return False
        if state.owner not in (CENTRED, state.mover) or self.is_terminal(state):
            return False
        if self.match:
            return not state.crawford and state.score[state.mover] + state.cube < self.match
        return state.cube * 2 <= MAX_CUBE

    def may_beaver(self, state: BackgammonState) -> bool:
        """Whether the answer to the double in ``state`` may be a beaver: beavers on, the cube
        of four times its value at most :data:`MAX_CUBE`."""
        return self.beavers and state.stage == DOUBLED and state.cube * 4 <= MAX_CUBE

    def chance_outcomes(self, state: BackgammonState) -> Sequence[tuple[Roll, float]]:
        """P(roll): the opening roll's 30 outcomes (two different dice, either side higher) at
        1/30 each, or a later roll's 21 outcomes, each double 1/36 and each other roll 2/36."""
        if state.dice or self.to_move(state) != CHANCE:
            return []
        if state.mover == OPENING:
            return [(roll, 1 / 30) for roll in OPENING_ROLLS]
        return [(roll, (1 if roll.high == roll.low else 2) / 36) for roll in ROLLS]

    def result(self, state: BackgammonState, action: Action) -> BackgammonState:
        """Apply a roll in a chance state, a cube action in a cube decision, or a turn: each
        move must be legal with one of the remaining dice when it is played, and a turn
        playing fewer moves than the dice allow must reach the position of a legal turn. A
        turn bearing off the last checker, or a drop, ends the game: in a match the next
        game's opening follows unless the match is won."""
        if self.is_terminal(state):
            raise IllegalMoveError("the game is over")
        if isinstance(action, str):
            return self._cube_action(state, action)
        if not state.dice:
            return self._rolled(state, action)
        if isinstance(action, Roll) or not _is_turn(action):
            raise IllegalMoveError(f"{action!r} is not a turn (a tuple of (from, to) moves)")
        view, opp_bar = _view(state, state.mover)
        dice = _dice(state.dice)
        played = _play(view, opp_bar, dice, action) if len(action) <= len(dice) else None
        if played is None or (
            len(action) < len(dice) and (*played[0], played[1]) not in _legal_turns(state)
        ):
            raise IllegalMoveError(f"turn {action} is not legal with {_roll_text(state.dice)}")
        after = _state(played[0], played[1], state, state.mover)
        if after.off[state.mover] == CHECKERS and self.match:
            return self._game_over(after, state.mover, self._game_points(after, state.mover))
        return after

    def _rolled(self, state: BackgammonState, action: Action) -> BackgammonState:
        rolls = OPENING_ROLLS if state.mover == OPENING else ROLLS
        if self.to_move(state) != CHANCE:
            raise IllegalMoveError(
                f"{action!r} is not a cube action: {self.to_move(state)} chooses "
                f"{', '.join(map(str, self.actions(state)))} now"
            )
        if not isinstance(action, Roll) or action not in rolls:
            raise IllegalMoveError(f"{action!r} is not a roll of this chance state")
        mover = action.opener if state.mover == OPENING else state.mover
        return state._replace(mover=mover, dice=(action.high, action.low), stage=TO_ROLL)

    def _cube_action(self, state: BackgammonState, action: str) -> BackgammonState:
        """``state`` after the cube action ``action`` (a legal one, else an
        :class:`IllegalMoveError` saying what may be done)."""
        if state.dice or action not in self.actions(state):
            raise IllegalMoveError(f"{action!r} is not legal: {self._cube_choices(state)}")
        if action == ROLL:
            return state._replace(stage=ROLLING)
        if action == DOUBLE:
            return state._replace(stage=DOUBLED)
        if action == DROP:
            return self._game_over(state._replace(stage=DROPPED), state.mover, state.cube)
        times = 4 if action == BEAVER else 2
        return state._replace(cube=state.cube * times, owner=1 - state.mover, stage=ROLLING)

    def _cube_choices(self, state: BackgammonState) -> str:
        """What may be done in ``state``, for an error about a cube action."""
        if not self.cubeful:
            return "this game has no doubling cube (backgammon:cube=true or match=N has)"
        who = self.to_move(state)
        if state.dice:
            return f"{who} moves the checkers with {_roll_text(state.dice)}"
        if who == CHANCE:
            rolling = "the opening roll" if state.mover == OPENING else "the roll"
            return f"{rolling} is next ({self._no_double(state)})"
        return f"{who} chooses {', '.join(map(str, self.actions(state)))}"

    def _no_double(self, state: BackgammonState) -> str:
        """Why the side to roll in ``state`` may not double."""
        if state.mover == OPENING:
            return "nobody doubles before the opening roll"
        if state.stage == ROLLING:
            return "the cube is decided"
        if state.owner not in (CENTRED, state.mover):
            return f"{SIDES[state.owner]} owns the cube"
        if self.match and state.crawford:
            return "nobody doubles in the Crawford game"
        if self.match:
            return (
                f"{SIDES[state.mover]}'s {state.score[state.mover]} points and the cube's "
                f"{state.cube} make the match: a double would be pointless"
            )
        return f"the cube is at its highest, {MAX_CUBE}"

    def _game_over(self, final: BackgammonState, winner: int, points: int) -> BackgammonState:
        """After a game of a match ends in ``final``, ``winner`` scoring ``points``: the match's
        final state (the scores counting this game), or the next game's opening, the Crawford
        game if ``winner`` has just reached one point short of the match; in money play
        ``final`` itself."""
        if not self.match:
            return final
        score = list(final.score)
        score[winner] += points
        if score[winner] >= self.match:
            return final._replace(score=(score[0], score[1]))
        crawford = score[winner] == self.match - 1 and max(final.score) < self.match - 1
        return _initial_state()._replace(score=(score[0], score[1]), crawford=crawford)

    def is_terminal(self, state: BackgammonState) -> bool:
        """Money play ends when a side has borne off all 15, or a double is dropped; a match
        when a side has its points."""
        if self.match:
            return max(state.score) >= self.match
        return CHECKERS in state.off or state.stage == DROPPED

    def winner(self, state: BackgammonState) -> str | None:
        """The side that has borne off all 15 checkers, or whose double was dropped (in a
        match: the side that won the match with this game), or None."""
        if state.stage == DROPPED:
            return SIDES[state.mover]
        for side in (WHITE, BLACK):
            if state.off[side] == CHECKERS:
                return SIDES[side]
        return None

    def points_won(self, state: BackgammonState) -> int:
        """What the winner of a finished game scores: 1, 2 (gammon) or 3 (backgammon) times the
        cube (single while the cube is at 1 under the Jacoby rule), the cube's value for a
        dropped double; 0 for a game not over."""
        winner = self.winner(state)
        return 0 if winner is None else self._game_points(state, SIDES.index(winner))

    def _game_points(self, state: BackgammonState, winner: int) -> int:
        if state.stage == DROPPED:
            return state.cube
        loser = 1 - winner
        if state.off[loser] or (self.jacoby and state.cube == 1):
            return state.cube
        view, _ = _view(state, loser)
        trapped = view[BAR] > 0 or any(view[p] > 0 for p in range(19, 25))
        return (3 if trapped else 2) * state.cube

    def utility(self, state: BackgammonState, player: str) -> float:
        """The points won or lost; in a match 1 for its winner, -1 for the loser."""
        winner = self.winner(state)
        if winner is None or not self.is_terminal(state):
            return 0
        sign = 1 if winner == player else -1
        return sign if self.match else self.points_won(state) * sign

    def evaluate(self, state: BackgammonState, player: str) -> float:
        """EVAL for ``player``: the learned network's cubeless equity (the one-sided bear-off
        database's winning chance where both sides are home), or the hand-written evaluation
        (:meth:`hand_evaluation`) when it is chosen or the network cannot be loaded. The
        network values a position before its roll: a state with dice is valued as before them;
        the opening is even. In a cube game the value of the cube's decisions instead
        (:meth:`cube_evaluation`)."""
        if self.is_terminal(state):
            return self.utility(state, player)
        if self.cubeful:
            return self.cube_evaluation(state, player)
        if self.evaluation == "learned":
            from plies.games.backgammon.network import learned_equity, shipped_or_none, side_board

            network = shipped_or_none()
            if network is not None:
                if state.mover == OPENING:
                    return 0.0
                board = side_board(state.points, state.bar, state.off, state.mover)
                equity = learned_equity(board, network)
                return equity if SIDES[state.mover] == player else -equity
        return self.hand_evaluation(state, player)

    def cube_evaluation(self, state: BackgammonState, player: str) -> float:
        """EVAL of a cube game for ``player`` (the game not over), from the mover's
        :meth:`cube_decision`: the answered double where one is pending, the better of no double
        and double where the mover may double, else no double; in money play times the cube
        (Janowski's cubeful equity in points), in a match ``2 MWC - 1`` (``MWC`` the chance of
        winning the match, by Janowski's interpolation too). Before an opening roll: even in
        money play, the match equity table's chances at the score in a match."""
        if state.mover == OPENING:
            white = 2 * self.match_score(state, WHITE).equity_now() - 1 if self.match else 0.0
            return white if player == SIDES[WHITE] else -white
        decision = self.cube_decision(state)
        if state.stage == DOUBLED:
            value = decision.after_double
        elif self.may_double(state):
            value = decision.value
        else:
            value = decision.no_double
        value = 2 * value - 1 if self.match else value * state.cube
        return value if SIDES[state.mover] == player else -value

    def cube_decision(self, state: BackgammonState) -> Decision:
        """The cube decision of the mover of ``state`` (the doubler where a double is pending),
        from its :meth:`outputs` by :mod:`plies.games.backgammon.cube`: Janowski's money
        equities at the position's :meth:`cube_efficiency`, or the chances of winning the
        match."""
        from plies.games.backgammon import cube

        outputs = self.outputs(state)
        side, x = state.mover, self.cube_efficiency(state)
        owner: Owner = (
            "centred" if state.owner == CENTRED else "mine" if state.owner == side else "theirs"
        )
        if self.match:
            return cube.match_decision(outputs, self.match_score(state, side), state.cube, x, owner)
        beaver = self.may_beaver(state._replace(stage=DOUBLED))
        return cube.money_decision(outputs, x, owner, self.jacoby, beaver)

    def match_score(self, state: BackgammonState, side: int) -> MatchScore:
        """The score of ``state``'s game of the match from ``side``'s seat."""
        from plies.games.backgammon.cube import MatchScore

        mine, theirs = state.score[side], state.score[1 - side]
        return MatchScore(self.match, mine, theirs, state.crawford)

    def cube_efficiency(self, state: BackgammonState) -> float:
        """Janowski's cube efficiency x of ``state`` (gnubg's values,
        :func:`plies.games.backgammon.cube.efficiency`)."""
        from plies.games.backgammon.cube import efficiency

        mine, _ = _view(state, state.mover)
        theirs, _ = _view(state, 1 - state.mover)
        far, other_far = _highest(mine), _highest(theirs)
        return efficiency(far + other_far > BAR, _pips(mine), max(far, other_far) <= 6)

    def outputs(self, state: BackgammonState) -> tuple[float, ...]:
        """The five cubeless chances of the mover of ``state``, valued before its roll: it
        wins, wins a gammon, a backgammon, loses a gammon, a backgammon (gammons counting
        backgammons): the learned network's, the bear-off database's chance of winning where
        both sides are home; with the hand-written evaluation (chosen, or the network missing)
        a chance of winning ``(1 + lead) / 2`` from its lead and no gammons."""
        if self.evaluation == "learned":
            from plies.games.backgammon.network import race_outputs, shipped_or_none, side_board

            network = shipped_or_none()
            if network is not None:
                board = side_board(state.points, state.bar, state.off, state.mover)
                values = network.outputs(board)
                race_outputs(board, values)
                return tuple(float(value) for value in values)
        lead = self.hand_evaluation(state, SIDES[state.mover])
        return ((1 + max(-1.0, min(1.0, lead))) / 2, 0.0, 0.0, 0.0, 0.0)

    def checker_weights(self, state: BackgammonState) -> tuple[tuple[float, ...], ...]:
        """White's and Black's weights of the five outputs whose linear value the engine's
        checker play maximises (:func:`plies.games.backgammon.cube.match_weights`): money
        play's cubeless equity, gammons single under the Jacoby rule while the cube is at 1; in
        a match ``2 MWC - 1``, the chance of winning the match at this score and cube."""
        from plies.games.backgammon import cube

        if self.match:
            return tuple(
                cube.match_weights(self.match_score(state, side), state.cube)
                for side in (WHITE, BLACK)
            )
        single = self.jacoby and state.cube == 1
        return (cube.SINGLE_WEIGHTS if single else cube.MONEY_WEIGHTS,) * 2

    def hand_evaluation(self, state: BackgammonState, player: str) -> float:
        """The hand-written EVAL for ``player``: in a race, the pip count lead (the side on roll
        counted :data:`TEMPO` pips ahead) relative to the race's length; in contact, the pip
        lead plus made points, the longest prime, anchors, minus blots weighted by the shots at
        them and the pips a hit would cost, and checkers on the bar against made home points.
        The lead in (-1, 1) grows towards a gammon when the losing side has borne off none: strictly
        inside :attr:`value_bounds` (a finished game evaluates to its utility)."""
        if self.is_terminal(state):
            return self.utility(state, player)
        side = SIDES.index(player)
        mine, their_bar = _view(state, side)
        theirs, my_bar = _view(state, 1 - side)
        on_roll = 0 if state.mover == OPENING else 1 if state.mover == side else -1
        my_pips, their_pips = _pips(mine), _pips(theirs)
        score: float = their_pips - my_pips + TEMPO * on_roll
        if _highest(mine) + _highest(theirs) <= BAR:  # no contact: a race
            scale: float = 2 + RACE_SCALE * (my_pips + their_pips) / 2
        else:
            score += _structure(mine, their_bar, 0.25 if on_roll > 0 else 1.0)
            score -= _structure(theirs, my_bar, 0.25 if on_roll < 0 else 1.0)
            scale = CONTACT_SCALE
        lead = score / (abs(score) + scale)
        loser_off = state.off[1 - side] if lead > 0 else state.off[side]
        gammons = 0 if loser_off else 1  # the winning side's extra point, weighted by lead^2
        return lead * (1 + gammons * lead * lead)

    # Notation --------------------------------------------------------------------------------

    def format_action(self, state: BackgammonState, action: Action) -> str:
        """``White 3-1`` (opening roll), ``3-1`` (later rolls), ``pass``, or a turn such as
        ``24/18* 13/11``, ``24/13`` or ``8/5(2) 6/3(2)``: each checker's path from the mover's
        side, intermediate points only where it hits, ``*`` on every hit, repeats as ``(n)``;
        a cube action is its name (``double``, ``take``...)."""
        if isinstance(action, str):
            return action
        if isinstance(action, Roll):
            dice = f"{action.high}-{action.low}"
            return dice if action.opener == OPENING else f"{SIDES[action.opener]} {dice}"
        if not action:
            return "pass"
        view, _ = _view(state, state.mover)
        return _describe(view, action)

    def parse_action(self, state: BackgammonState, text: str) -> Action:
        """A roll in a chance state (``3-1``, ``31``; ``White 3-1`` for the opening roll), a
        cube action (``roll``, ``double``, ``take``, ``drop``, ``beaver``, in any case) in a cube
        decision, else a turn: ``pass`` or moves like ``24/18 13/11``, ``bar/22``, ``6/off``,
        ``13/7*``, ``8/5(2)``, ``24/18/13``, in any order, ``*`` optional, matched against the
        legal turns. Raises :class:`IllegalMoveError` with the reason a move is malformed or
        not legal."""
        word = " ".join(text.split())
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {word!r}: the game is over")
        if word.lower() in CUBE_ACTIONS:
            if not state.dice and word.lower() in self.actions(state):
                return word.lower()
            raise IllegalMoveError(f"{word!r} is not legal: {self._cube_choices(state)}")
        if not state.dice and self.to_move(state) != CHANCE:
            raise IllegalMoveError(f"{word!r} is not legal: {self._cube_choices(state)}")
        if not state.dice:
            return self._parse_roll(state, word)
        turns = _legal_turns(state)
        roll = _roll_text(state.dice)
        if word.lower() == "pass":
            if () in turns.values():
                return ()
            raise IllegalMoveError(
                f"'pass' is not legal: {roll} can be played, e.g. {self._examples(state, turns)}"
            )
        legs = _read_legs(word)
        if not legs:
            raise IllegalMoveError(f"no move given: write moves like 24/18 13/11 for {roll}")
        dice = _dice(state.dice)
        if len(legs) > len(dice):
            raise IllegalMoveError(
                f"{word!r} is not legal: it has {len(legs)} moves and {roll} plays at most "
                f"{len(dice)}"
            )
        view, opp_bar = _view(state, state.mover)
        reached = _reachable(view, opp_bar, dice, [(source, target) for source, target, _ in legs])
        matches = [turns[key] for key in reached if key in turns]
        if len(matches) == 1:
            return matches[0]
        if matches:
            stars = {target for _, target, star in legs if star}
            exact = [turn for turn in matches if _hits(view, turn) == stars]
            if len(exact) == 1:
                return exact[0]
            shown = ", ".join(sorted(self.format_action(state, turn) for turn in matches))
            raise IllegalMoveError(f"{word!r} is ambiguous: it may be {shown}")
        if reached:
            raise IllegalMoveError(self._incomplete(state, word, turns, max(reached.values())))
        raise IllegalMoveError(self._leg_error(state, word, turns, legs))

    def _parse_roll(self, state: BackgammonState, word: str) -> Roll:
        match = _ROLL.fullmatch(word.lower())
        if match is None:
            raise IllegalMoveError(f"roll {word!r} is not written like 3-1 or 6-6 (dice 1 to 6)")
        side_word, first, second = match[1], int(match[2]), int(match[3])
        side = None if side_word is None else (WHITE if side_word[0] == "w" else BLACK)
        high, low = max(first, second), min(first, second)
        if state.mover == OPENING:
            if side is None:
                raise IllegalMoveError(
                    f"roll {word!r}: the opening roll names its winner, e.g. 'White {high}-{low}'"
                )
            if high == low:
                raise IllegalMoveError(
                    f"roll {word!r}: the opening roll has two different dice (ties are rerolled)"
                )
            return Roll(high, low, side)
        if side is not None and side != state.mover:
            raise IllegalMoveError(f"roll {word!r}: {SIDES[state.mover]} rolls now")
        return Roll(high, low)

    def _examples(self, state: BackgammonState, turns: dict[Key, Turn]) -> str:
        """A few legal turns for an error message."""
        shown = ", ".join(self.format_action(state, t) for t in list(turns.values())[:_EXAMPLES])
        more = len(turns) - _EXAMPLES
        return f"{shown} (and {more} more)" if more > 0 else shown

    def _incomplete(
        self, state: BackgammonState, word: str, turns: dict[Key, Turn], used: int
    ) -> str:
        """Why moves that can be played are not a legal turn: too few dice, or the smaller."""
        roll, examples = _roll_text(state.dice), self._examples(state, turns)
        most = max(len(turn) for turn in turns.values())
        if used < most:
            return (
                f"{word!r} is not legal: it plays {used} of the dice of {roll}, and {most} can "
                f"be played (all that can be, must be): e.g. {examples}"
            )
        return (
            f"{word!r} is not legal: only one die of {roll} can be played, and it must be the "
            f"larger ({state.dice[0]}) when it can: {examples}"
        )

    def _leg_error(
        self,
        state: BackgammonState,
        word: str,
        turns: dict[Key, Turn],
        legs: list[tuple[int, int, bool]],
    ) -> str:
        """The first move of ``word`` that cannot be played, played in its order with bar
        entries first, and why."""
        view, opp_bar = _view(state, state.mover)
        dice = _dice(state.dice)
        for source, target, _ in sorted(legs, key=lambda leg: leg[0] != BAR):
            paths = list(_leg_paths(view, opp_bar, dice, source, target))
            if not paths:
                part = f"{_point_text(source)}/{_point_text(target)}"
                reason = _leg_reason(view, state.dice, dice, source, target)
                if list(turns.values()) == [()]:
                    reason += "; no move is possible, the only legal move is 'pass'"
                return f"'{part}' is not legal: {reason}"
            view, opp_bar, dice = paths[0]
        raise AssertionError(f"{word!r}: every move can be played, so _reachable found a turn")

    def format_position(self, state: BackgammonState) -> str:
        """``W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 3-1``: each side's checkers by
        point in its own numbering, highest first, with ``bar:n`` before and ``off:n`` after
        them when not 0; then ``opening``, ``W to roll`` or the mover and its dice (in a cube
        game also ``W rolls``, ``W doubles`` or ``B drops``). A cube game adds the cube,
        ``cube 1`` in the middle or ``cube 4 B`` (its value and owner), a match the score
        before this game, ``match 7 W 3 B 1``, and ``Crawford`` in the Crawford game."""
        sides = []
        for side in (WHITE, BLACK):
            view, _ = _view(state, side)
            items = [f"bar:{view[BAR]}"] if view[BAR] else []
            items += [f"{p}:{view[p]}" for p in range(24, 0, -1) if view[p] > 0]
            items += [f"off:{view[OFF]}"] if view[OFF] else []
            sides.append(" ".join([LETTERS[side], *items]))
        letter = LETTERS[state.mover]
        if state.mover == OPENING:
            turn = "opening"
        elif state.dice:
            turn = f"{letter} {_roll_text(state.dice)}"
        else:
            words = {TO_ROLL: "to roll", ROLLING: "rolls", DOUBLED: "doubles"}
            turn = f"{LETTERS[1 - state.mover]} drops" if state.stage == DROPPED else ""
            turn = turn or f"{letter} {words[state.stage]}"
        parts = [*sides, turn]
        if self.cubeful:
            owner = "" if state.owner == CENTRED else f" {LETTERS[state.owner]}"
            parts.append(f"cube {state.cube}{owner}")
        if self.match:
            white, black = state.score
            crawford = " Crawford" if state.crawford else ""
            parts.append(f"match {self.match} W {white} B {black}{crawford}")
        return " / ".join(parts)

    def parse_position(self, text: str) -> BackgammonState:
        """Three parts separated by ``/`` (see :meth:`format_position`): White's and Black's
        checkers (either first; ``W``/``White`` and ``B``/``Black``, items ``point:count``,
        ``bar:n``, ``off:n``), then ``opening``, ``W to roll`` or ``W 3-1`` (in a cube game also
        ``W rolls``, ``W doubles``, ``B drops``); a cube game's ``cube ...`` and a match's
        ``match ...`` parts may follow (the cube in the middle and the score 0-0 when left
        out). Raises :class:`InvalidPositionError` naming the problem."""
        parts = [" ".join(part.split()) for part in text.lower().split("/")]
        if len(parts) < 3 or len(parts) > 5 or (len(parts) > 3 and not self.cubeful):
            if len(parts) > 3 and parts[3].split()[:1] in (["cube"], ["match"]):
                raise InvalidPositionError(
                    f"position {text!r}: {parts[3]!r}: this game has no doubling cube "
                    "(backgammon:cube=true or match=N has)"
                )
            raise InvalidPositionError(
                f"position {text!r} is not three parts like 'W 24:2 13:5 8:3 6:5 / "
                "B 24:2 13:5 8:3 6:5 / W 3-1' (White, Black, who moves)"
                + (", then the cube ('cube 2 W') and the match's score" * self.cubeful)
            )
        views: dict[int, View] = {}
        for part in parts[:2]:
            side, view = _read_side(text, part)
            if side in views:
                raise InvalidPositionError(f"position {text!r} gives {SIDES[side]} twice")
            views[side] = view
        white, black = views[WHITE], views[BLACK]
        for point in range(1, 25):
            if white[point] and black[BAR - point]:
                raise InvalidPositionError(
                    f"position {text!r}: White's point {point} (Black's {BAR - point}) has "
                    "checkers of both colours"
                )
        points = tuple(white[p] - black[BAR - p] for p in range(1, 25))
        state = BackgammonState(
            points, (white[BAR], black[BAR]), (white[OFF], black[OFF]), OPENING, ()
        )
        state = _read_cube_parts(text, parts[3:], state, self.match)
        state = _read_turn(text, parts[2], state, self.cubeful)
        self._check_position(text, state)
        return state

    def _check_position(self, text: str, state: BackgammonState) -> None:
        """An :class:`InvalidPositionError` unless ``state``'s cube, stage and score can be
        reached: a double where the mover may double (a match's double never makes the match,
        so a drop never ends one), a game of a match over on the board only as the match's
        end, the Crawford game at one side's match point with the cube at 1."""
        where = f"position {text!r}"
        if self.match and state.stage == DROPPED:
            raise InvalidPositionError(
                f"{where}: a dropped double in a match is followed by the next game's opening"
            )
        before = state._replace(stage=TO_ROLL)
        if state.stage in (DOUBLED, DROPPED) and not self.may_double(before):
            raise InvalidPositionError(
                f"{where}: {SIDES[state.mover]} may not double ({self._no_double(before)})"
            )
        if not self.match:
            return
        won = [side for side in (WHITE, BLACK) if state.score[side] >= self.match]
        ended = self.winner(state)
        if len(won) > 1 or (won and ended != SIDES[won[0]]):
            raise InvalidPositionError(
                f"{where}: a match over ends with its winner's last checker borne off"
            )
        if ended is not None and not won:
            raise InvalidPositionError(
                f"{where}: {ended} has won this game but not the match: the next game's "
                "opening comes instead"
            )
        if state.crawford and (state.cube != 1 or self.match - 1 not in state.score):
            raise InvalidPositionError(
                f"{where}: the Crawford game has a side at {self.match - 1} points and the cube "
                "at 1 in the middle"
            )

    def display(self, state: BackgammonState) -> str:
        """The board from the side to move (White before the opening roll), numbered as its
        moves are written: its home board bottom right, stacks of more than five showing their
        count; the bar in the middle (the opponent's checkers above, the mover's below); then
        each side's bar, borne-off and pip counts, and who moves with which dice."""
        side = WHITE if state.mover == OPENING else state.mover
        view, _ = _view(state, side)
        other, _ = _view(state, 1 - side)
        marks = {1: SYMBOLS[side], -1: SYMBOLS[1 - side]}

        def cell(count: int, row: int) -> str:
            size = abs(count)
            if size <= row:
                return "   "
            if row == 4 and size > 5:
                return f"{size:^3}"
            return f" {marks[1 if count > 0 else -1]} "

        def numbers(points: Sequence[int]) -> str:
            return "".join(f"{p:^3}" for p in points)

        top, bottom = range(13, 25), range(12, 0, -1)
        edge = "+" + "-" * 18 + "+---+" + "-" * 18 + "+"
        lines = [(" " + numbers(top[:6]) + "     " + numbers(top[6:])).rstrip(), edge]
        for row in range(5):
            left = "".join(cell(view[p], row) for p in top[:6])
            right = "".join(cell(view[p], row) for p in top[6:])
            lines.append(f"|{left}|{cell(-other[BAR], row)}|{right}|")
        lines.append("|" + " " * 18 + "|BAR|" + " " * 18 + "|")
        for row in reversed(range(5)):
            left = "".join(cell(view[p], row) for p in bottom[:6])
            right = "".join(cell(view[p], row) for p in bottom[6:])
            lines.append(f"|{left}|{cell(view[BAR], row)}|{right}|")
        lines += [edge, (" " + numbers(bottom[:6]) + "     " + numbers(bottom[6:])).rstrip()]
        for each in (WHITE, BLACK):
            seen, _ = _view(state, each)
            lines.append(
                f"{SYMBOLS[each]} {SIDES[each]}: {seen[BAR]} on the bar, {seen[OFF]} off, "
                f"{_pips(seen)} pips"
            )
        if self.cubeful:
            lines.append(self.cube_text(state))
        lines.append(self._status(state))
        return "\n".join(lines)

    def cube_text(self, state: BackgammonState) -> str:
        """The cube and, in a match, the score: ``cube 2, owned by Black; match to 7: White 3,
        Black 1 (Crawford game)``."""
        owner = "in the middle" if state.owner == CENTRED else f"owned by {SIDES[state.owner]}"
        text = f"cube {state.cube}, {owner}"
        if self.match:
            white, black = state.score
            crawford = " (Crawford game)" if state.crawford else ""
            text += f"; match to {self.match}: White {white}, Black {black}{crawford}"
        return text

    def _status(self, state: BackgammonState) -> str:
        winner = self.winner(state)
        if winner is not None:
            if state.stage == DROPPED:
                return f"game over: {SIDES[1 - state.mover]} drops, {winner} wins {state.cube}"
            points = self.points_won(state)
            kind = {1: "a single game", 2: "a gammon", 3: "a backgammon"}[points // state.cube]
            if self.jacoby and state.cube == 1 and state.off[1 - SIDES.index(winner)] == 0:
                kind = "a single game (Jacoby: the cube never turned)"
            won = f"{winner} wins {kind} ({points})"
            return f"match over: {won}, the match" if self.match else f"game over: {won}"
        if state.mover == OPENING:
            return "opening roll next (points numbered for White)"
        mover = f"{SIDES[state.mover]} ({SYMBOLS[state.mover]})"
        if state.stage == DOUBLED:
            answers = ", ".join(map(str, self.actions(state)))
            return f"{mover} doubles to {2 * state.cube}: {SIDES[1 - state.mover]} to {answers}"
        if not state.dice:
            choice = " or double" if self.to_move(state) != CHANCE else ""
            return f"{mover} to roll{choice}"
        return f"{mover} to move with {_roll_text(state.dice)}"


# Boards from one side ----------------------------------------------------------------------


def _view(state: BackgammonState, side: int) -> tuple[View, int]:
    """The board from ``side`` (see :data:`View`) and the opponent's checkers on the bar."""
    if side == WHITE:
        return [state.off[WHITE], *state.points, state.bar[WHITE]], state.bar[BLACK]
    black = [-count for count in reversed(state.points)]
    return [state.off[BLACK], *black, state.bar[BLACK]], state.bar[WHITE]


def _initial_state() -> BackgammonState:
    points = [0] * 24
    for point, count in START.items():
        points[point - 1] += count  # White's point
        points[24 - point] -= count  # Black's point p is White's 25 - p
    return BackgammonState(tuple(points), (0, 0), (0, 0), OPENING, ())


def _is_turn(action: object) -> bool:
    """Whether ``action`` has a turn's shape: a tuple of (int, int) pairs."""
    return isinstance(action, tuple) and all(
        isinstance(move, tuple) and len(move) == 2 and all(type(p) is int for p in move)
        for move in action
    )


def _state(
    view: Sequence[int], opp_bar: int, before: BackgammonState, side: int
) -> BackgammonState:
    """The state after ``side``'s turn left ``view`` and ``opp_bar``: the opponent to roll,
    the cube as it was."""
    if side == WHITE:
        bar, off = (view[BAR], opp_bar), (view[OFF], before.off[BLACK])
        return before._replace(
            points=tuple(view[1:BAR]), bar=bar, off=off, mover=BLACK, dice=(), stage=TO_ROLL
        )
    points = tuple(-view[BAR - p] for p in range(1, BAR))
    bar, off = (opp_bar, view[BAR]), (before.off[WHITE], view[OFF])
    return before._replace(points=points, bar=bar, off=off, mover=WHITE, dice=(), stage=TO_ROLL)


def _dice(dice: tuple[int, ...]) -> tuple[int, ...]:
    """The dice to play: a double four times."""
    return dice * 2 if dice[0] == dice[1] else dice


def _roll_text(dice: tuple[int, ...]) -> str:
    return f"{dice[0]}-{dice[1]}"


def _point_text(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _pips(view: View) -> int:
    """The pips ``view``'s side needs to bear off all its checkers."""
    return sum(p * view[p] for p in range(1, BAR) if view[p] > 0) + BAR * view[BAR]


def _highest(view: View) -> int:
    """``view``'s side's highest occupied point (25 for the bar), 0 if none."""
    point = BAR
    while point > 0 and view[point] <= 0:
        point -= 1
    return point


def _structure(view: View, opp_bar: int, exposure: float) -> float:
    """``view``'s side's position in pips beyond its pip count: made points, its longest prime,
    blots (each costing its shots out of 36, times ``exposure``, times the pips a hit loses) and
    checkers on the bar against the opponent's made home points."""
    score = 0.0
    run = longest = 0
    blots = []
    for point in range(1, BAR):
        count = view[point]
        if count >= 2:
            score += POINT_VALUE[point]
            run += 1
            longest = max(longest, run)
        else:
            run = 0
            if count == 1:
                blots.append(point)
    score += PRIME_VALUE[longest]
    for blot in blots:
        shots = SHOTS[blot] if opp_bar else 0  # an entering checker comes from point 0
        for shooter in range(1, blot):
            if view[shooter] < 0:
                shots += SHOTS[blot - shooter]
        score -= exposure * min(shots, 36) / 36 * (BAR - blot + HIT_EXTRA)
    closed = sum(view[p] <= -2 for p in range(19, BAR))
    return score - view[BAR] * ENTER_PENALTY[closed]


# Turns -------------------------------------------------------------------------------------


@lru_cache(maxsize=TURN_CACHE)
def _legal_turns(state: BackgammonState) -> dict[Key, Turn]:
    """The legal turns of a state with dice, one per resulting board (see :data:`Key`), in the
    order found: bar entries and higher points first, the larger die first."""
    view, opp_bar = _view(state, state.mover)
    high, low = state.dice
    return _generate(view, opp_bar, high, low)


def _generate(view: View, opp_bar: int, high: int, low: int) -> dict[Key, Turn]:
    """Every maximal play of the dice, depth first: both orders of two different dice; a double
    four times, each move from the same or a lower point than the one before (any order of a
    double's moves can be so sorted and stay legal, so no position is missed). Keeps the plays
    using the most dice, and of single-die plays those of the larger die if any."""
    doubles = high == low
    leaves: dict[Key, tuple[Turn, int]] = {}
    most = 0

    def extend(view: View, opp_bar: int, dice: tuple[int, ...], moves: Turn, limit: int) -> None:
        nonlocal most
        if dice:
            steps = _steps(view, dice[0], limit)
            for source, target in steps:
                child, child_bar = _moved(view, opp_bar, source, target)
                next_limit = source if doubles else BAR
                extend(child, child_bar, dice[1:], (*moves, (source, target)), next_limit)
            if steps:
                return
        if len(moves) < most:
            return
        if len(moves) > most:
            most = len(moves)
            leaves.clear()
        leaves.setdefault((*view, opp_bar), (moves, first_die))

    for order in ((high,) * 4,) if doubles else ((high, low), (low, high)):
        first_die = order[0]
        extend(view, opp_bar, order, (), BAR)
    if not doubles and most == 1 and any(die == high for _, die in leaves.values()):
        return {key: moves for key, (moves, die) in leaves.items() if die == high}
    return {key: moves for key, (moves, _) in leaves.items()}


def _steps(view: View, die: int, limit: int) -> list[Move]:
    """The single moves of ``die`` from points up to ``limit``, highest first."""
    if view[BAR] > 0:
        target = BAR - die
        return [(BAR, target)] if view[target] >= -1 else []
    highest = _highest(view)
    bearing_off = highest <= 6
    moves = []
    for source in range(min(highest, limit), 0, -1):
        if view[source] > 0:
            target = source - die
            if target > 0:
                if view[target] >= -1:
                    moves.append((source, target))
            elif bearing_off and (target == 0 or source == highest):
                moves.append((source, OFF))
    return moves


def _step(view: View, source: int, die: int) -> int | None:
    """Where ``die`` moves a checker from ``source`` (:data:`OFF` when borne off), or None if
    it cannot."""
    if not 1 <= source <= BAR or view[source] <= 0 or (source != BAR and view[BAR] > 0):
        return None
    target = source - die
    if target > 0:
        return target if view[target] >= -1 else None
    highest = _highest(view)
    return OFF if highest <= 6 and (target == 0 or source == highest) else None


def _moved(view: View, opp_bar: int, source: int, target: int) -> tuple[View, int]:
    """The board after a checker moves from ``source`` to ``target``, hitting a blot there."""
    child = view.copy()
    child[source] -= 1
    if child[target] == -1:
        child[target] = 1
        return child, opp_bar + 1
    child[target] += 1
    return child, opp_bar


def _play(view: View, opp_bar: int, dice: tuple[int, ...], moves: Turn) -> tuple[View, int] | None:
    """The board after ``moves``, each played with one of the dice left, or None."""
    if not moves:
        return view, opp_bar
    source, target = moves[0]
    for index, die in enumerate(dice):
        if die not in dice[:index] and _step(view, source, die) == target:
            child, child_bar = _moved(view, opp_bar, source, target)
            played = _play(child, child_bar, dice[:index] + dice[index + 1 :], moves[1:])
            if played is not None:
                return played
    return None


def _leg_paths(
    view: View, opp_bar: int, dice: tuple[int, ...], source: int, target: int
) -> Iterator[tuple[View, int, tuple[int, ...]]]:
    """Every way to move one checker from ``source`` to ``target`` with one or more of the dice,
    each step legal: (board, opponent's bar, dice left)."""
    for index, die in enumerate(dice):
        if die in dice[:index]:
            continue
        landing = _step(view, source, die)
        if landing is None or landing < target:
            continue
        child, child_bar = _moved(view, opp_bar, source, landing)
        left = dice[:index] + dice[index + 1 :]
        if landing == target:
            yield child, child_bar, left
        else:
            yield from _leg_paths(child, child_bar, left, landing, target)


def _reachable(view: View, opp_bar: int, dice: tuple[int, ...], legs: list[Move]) -> dict[Key, int]:
    """The boards reached by moving a checker along every (from, to) of ``legs``, one die at a
    time, steps of different legs interleaved in any order (a checker may wait half way while
    another clears the way), mapped to the number of dice played."""
    reached: dict[Key, int] = {}
    total = len(dice)

    def walk(view: View, opp_bar: int, dice: tuple[int, ...], legs: list[Move]) -> None:
        if not legs:
            reached[(*view, opp_bar)] = total - len(dice)
            return
        for index, (source, target) in enumerate(legs):
            if legs[index] in legs[:index]:
                continue
            for die_index, die in enumerate(dice):
                landing = _step(view, source, die)
                if die in dice[:die_index] or landing is None or landing < target:
                    continue  # OFF is 0: a checker borne off passes every target but OFF
                child, child_bar = _moved(view, opp_bar, source, landing)
                rest = legs[:index] + legs[index + 1 :]
                if landing != target:
                    rest.append((landing, target))
                walk(child, child_bar, dice[:die_index] + dice[die_index + 1 :], rest)

    walk(view, opp_bar, dice, legs)
    return reached


def _hits(view: View, turn: Turn) -> set[int]:
    """The points where ``turn`` hits a blot."""
    return {target for target in {t for _, t in turn} if target != OFF and view[target] == -1}


def _describe(view: View, turn: Turn) -> str:
    """A turn in standard notation (see :meth:`Backgammon.format_action`)."""
    paths: list[list[tuple[int, bool]]] = []
    board = view.copy()
    for source, target in sorted(turn, key=lambda move: (-move[0], -move[1])):
        hit = target != OFF and board[target] == -1
        board, _ = _moved(board, 0, source, target)
        for path in paths:
            if path[-1][0] == source:  # the checker that just arrived moves on
                path.append((target, hit))
                break
        else:
            paths.append([(source, False), (target, hit)])
    texts = []
    for path in paths:
        inner = [f"{point}*" for point, hit in path[1:-1] if hit]
        end, hit = path[-1]
        texts.append("/".join([_point_text(path[0][0]), *inner, _point_text(end) + "*" * hit]))
    counts: dict[str, int] = {}
    for text in texts:
        counts[text] = counts.get(text, 0) + 1
    return " ".join(text if n == 1 else f"{text}({n})" for text, n in counts.items())


def _read_legs(word: str) -> list[tuple[int, int, bool]]:
    """The (from, to, hit marked) single-checker legs of a move text, ``(n)`` expanded."""
    legs = []
    for part in word.lower().replace(",", " ").split():
        match = _PART.fullmatch(part)
        if match is None:
            raise IllegalMoveError(
                f"move {word!r}: {part!r} is not written like 24/18, bar/22, 6/off, 13/7*, "
                "24/18/13 or 8/5(2)"
            )
        points = [match[1], *re.findall(r"[0-9]+\*?|off\*?", match[2])]
        squares: list[tuple[int, bool]] = []
        for point in points:
            name = point.rstrip("*")
            number = BAR if name == "bar" else OFF if name == "off" else int(name)
            if name not in ("bar", "off") and not 1 <= number <= 24:
                raise IllegalMoveError(
                    f"move {word!r}: there is no point {name} (points 24 to 1, bar, off)"
                )
            if squares and squares[-1][0] == OFF:
                raise IllegalMoveError(f"move {word!r}: {part!r} goes on after 'off'")
            squares.append((number, point.endswith("*")))
        repeat = int(match[3] or 1)
        if not 1 <= repeat <= 4:
            raise IllegalMoveError(f"move {word!r}: {part!r} repeats a move {repeat} times")
        for _ in range(repeat):
            legs += [(a, b, star) for (a, _), (b, star) in pairwise(squares)]
    return legs


def _leg_reason(
    view: View, roll: tuple[int, ...], dice: tuple[int, ...], source: int, target: int
) -> str:
    """Why no die left moves a checker from ``source`` to ``target``."""
    if source == BAR and view[BAR] == 0:
        return "there is no checker of yours on the bar"
    if source != BAR and view[BAR] > 0:
        return "a checker on the bar must enter first"
    if view[source] <= 0:
        return f"there is no checker of yours on point {source}"
    if target != OFF and target >= source:
        return "checkers move down, from 24 towards 1"
    if not dice:
        return f"all the dice of {_roll_text(roll)} are used by the other moves"
    if target == OFF and _highest(view) > 6:
        return "bearing off with checkers outside home"
    distance = source - target
    left = "" if len(dice) == len(_dice(roll)) else f" ({' '.join(map(str, dice))} left)"
    if target == OFF and max(dice) > distance and distance not in dice:
        return f"a {max(dice)} bears off from {source} only when no checker is on a higher point"
    sums = {die * n for die in dice for n in range(1, dice.count(die) + 1)}
    if len(set(dice)) == 2:
        sums.add(sum(set(dice)))
    if distance not in sums:
        return f"wrong die: it needs {distance} and the roll is {_roll_text(roll)}{left}"
    if target != OFF and view[target] <= -2:
        return f"point {target} is blocked"
    return "the points on the way are blocked"


def _read_side(text: str, part: str) -> tuple[int, View]:
    """One side's part of a position: its colour and its checkers as a :data:`View`."""
    words = part.split()
    colour = words[0] if words else ""
    if colour not in ("w", "white", "b", "black"):
        raise InvalidPositionError(
            f"position {text!r}: {part!r} does not start with W or B (the side's colour)"
        )
    side = WHITE if colour[0] == "w" else BLACK
    view = [0] * 26
    seen = set()
    for item in words[1:]:
        match = _ITEM.fullmatch(item)
        if match is None:
            raise InvalidPositionError(
                f"position {text!r}: {item!r} is not point:count, bar:count or off:count"
            )
        name, count = match[1], int(match[2])
        point = BAR if name == "bar" else OFF if name == "off" else int(name)
        if name not in ("bar", "off") and not 1 <= point <= 24:
            raise InvalidPositionError(f"position {text!r}: there is no point {name} (1 to 24)")
        if point in seen:
            raise InvalidPositionError(f"position {text!r}: {SIDES[side]}'s {name} is given twice")
        seen.add(point)
        view[point] = count
    total = sum(view)
    if total != CHECKERS:
        raise InvalidPositionError(
            f"position {text!r}: {SIDES[side]} has {total} checkers; each side has {CHECKERS}"
        )
    return side, view


def _read_turn(text: str, part: str, state: BackgammonState, cubeful: bool) -> BackgammonState:
    """The position's third part: ``opening``, ``W to roll`` or ``W 3-1``; in a cube game
    (``cubeful``) also ``W rolls``, ``W doubles`` and ``B drops``."""
    if part == "opening":
        if state._replace(score=(0, 0), crawford=False) != _initial_state():
            raise InvalidPositionError(
                f"position {text!r}: the opening roll comes only in the starting position, the "
                "cube at 1 in the middle"
            )
        return state
    match = re.fullmatch(
        r"(w|white|b|black) (?:(to roll|rolls|doubles|drops)|([1-6])-([1-6]))", part
    )
    if match is None or (not cubeful and match[2] not in (None, "to roll")):
        cube_words = ", 'W rolls', 'W doubles', 'B drops'" * cubeful
        raise InvalidPositionError(
            f"position {text!r}: {part!r} is not 'opening', 'W to roll'{cube_words} or 'W 3-1' "
            "(dice 1 to 6)"
        )
    mover = WHITE if match[1][0] == "w" else BLACK
    dice = () if match[3] is None else tuple(sorted((int(match[3]), int(match[4])), reverse=True))
    stages = {"rolls": ROLLING, "doubles": DOUBLED, "drops": DROPPED}
    stage = stages.get(match[2] or "", TO_ROLL)
    if stage == DROPPED:
        mover = 1 - mover  # the side that doubled
    finished = [side for side in (WHITE, BLACK) if state.off[side] == CHECKERS]
    if len(finished) == 2:
        raise InvalidPositionError(f"position {text!r}: both sides have borne off all 15")
    if finished and (dice or mover == finished[0] or stage != TO_ROLL):
        raise InvalidPositionError(
            f"position {text!r}: {SIDES[finished[0]]} has borne off all 15, so the game is over "
            f"with {LETTERS[1 - finished[0]]} to roll"
        )
    return state._replace(mover=mover, dice=dice, stage=stage)


_CUBE = re.compile(r"cube ([0-9]{1,2})(?: (w|white|b|black))?")
_MATCH = re.compile(
    r"match ([0-9]{1,2}) (?:w|white) ([0-9]{1,3}) (?:b|black) ([0-9]{1,3})( crawford)?"
)


def _read_cube_parts(
    text: str, parts: list[str], state: BackgammonState, length: int
) -> BackgammonState:
    """The cube (``cube 1``, ``cube 4 B``) and, in a match to ``length``, the score
    (``match 7 W 3 B 1``, then ``crawford`` in the Crawford game) of a position, each given
    at most once, into ``state``."""
    seen = set()
    for part in parts:
        word = part.split()[0] if part else ""
        if word in seen or word not in ("cube", "match") or (word == "match" and not length):
            raise InvalidPositionError(
                f"position {text!r}: {part!r} is not the cube ('cube 1', 'cube 2 W')"
                + (" or the match's score ('match 7 W 3 B 1')" if length else "")
                + (" given once" if word in seen else "")
            )
        seen.add(word)
        if word == "cube":
            state = _read_cube(text, part, state)
            continue
        found = _MATCH.fullmatch(part)
        if found is None:
            raise InvalidPositionError(
                f"position {text!r}: {part!r} is not the score like 'match {length} W 3 B 1' "
                "(then 'crawford' in the Crawford game)"
            )
        if int(found[1]) != length:
            raise InvalidPositionError(
                f"position {text!r}: this game is a match to {length} points, not {found[1]}"
            )
        score = (int(found[2]), int(found[3]))
        state = state._replace(score=score, crawford=found[4] is not None)
    return state


def _read_cube(text: str, part: str, state: BackgammonState) -> BackgammonState:
    """The cube's part, ``cube 1`` (in the middle) or ``cube 2 W`` (its value and owner)."""
    found = _CUBE.fullmatch(part)
    value = int(found[1]) if found else 0
    owner = CENTRED if found is None or found[2] is None else "wb".index(found[2][0])
    if found is None or value not in [2**n for n in range(7)] or (value == 1) != (owner == CENTRED):
        raise InvalidPositionError(
            f"position {text!r}: {part!r} is not the cube like 'cube 1' (in the middle) or "
            f"'cube 4 B' (owned; a value 2 to {MAX_CUBE})"
        )
    return state._replace(cube=value, owner=owner)
