"""Backgammon's cube decisions from a cubeless evaluation: money play by Janowski's cubeful
equities, match play by a published match equity table.

The evaluation gives five chances of the side on roll (:data:`Outputs`, the learned network's:
:meth:`plies.games.backgammon.network.Network.outputs`): it wins, wins a gammon, wins a
backgammon, loses a gammon, loses a backgammon (a gammon's chance counting the backgammons).

**Money play.** R. Janowski, "Take-points in money games" (1993): a side's cubeful equity is
interpolated between the dead cube's (the cubeless equity: nobody ever doubles) and the fully
live cube's (every double comes exactly at the opponent's take point), weighted by the cube
efficiency ``x``: ``E = (1 - x) E_dead + x E_live``. With ``W`` and ``L`` the side's average
win and loss (``W = 1 + (P(wg) + P(wbg)) / P(w)``, ``L`` the same of its losses), the live
cube's equity is piecewise linear in the winning chance p between the points ``(0, -L)``, the
take point ``TP = (L - 1/2) / (W + L + 1/2)`` at -1, the cash point
``CP = (L + 1) / (W + L + 1/2)`` at +1 and ``(1, W)``, as far as the cube lets each side double
(its owner its cash point, the other side its take point: GNU Backgammon's ``MoneyLive`` and
``Cl2CfMoney``, eval.c). From the doubler's side, normalised to the cube before the double: no
double ``ND`` (the cube as it is), double/take ``DT`` (twice the equity with the cube the
opponent's), double/drop ``DP = +1``; a double when ``min(DT, DP) > ND``, a take when the
taker's ``-DT`` is at least its ``-DP``. The resulting take point of a taker whose average win
and loss are ``W`` and ``L`` is Janowski's ``(L - 1/2) / (W + L + x/2)``: 25% with a dead cube
and no gammons, 20% with a live one, 21.4% at ``x = 0.68``. The efficiency is gnubg's
(``EvalEfficiency``): 0.68 in contact, in a race ``0.55 + 0.00125`` times the pips of the side
on roll within 0.6 to 0.7, 0.6 with every checker home.

**Match play.** Chances of winning the match come from the Kazaross XG2 table (Neil Kazaross,
2011, rolled out by eXtreme Gammon and GNU Backgammon; gnubg's ``met/Kazaross-XG2.xml``, packed
into ``met.json`` by ``benchmarks/pack_met.py``), pre-Crawford (its first row and column the
Crawford game) and post-Crawford. The dead cube's chance of winning the match is the cubeless
chance of each result (a single game, a gammon, a backgammon, won or lost) times the table's
chance after it; the cube decisions interpolate between it and a live cube's as Janowski's do,
in chances of winning the match (:func:`match_equity`), the take and cash points taken from the
dead cube one level up (gnubg computes them live, level by level: ours is the simpler
approximation, and it counts no redoubles beyond the next level). ``ND`` is that chance at the
cube's value, ``DT`` at twice it with the cube the opponent's, ``DP`` the chance after winning
the cube's points now. The dead cube's chance is linear in the outputs
(:func:`match_weights`): checker play maximises it (cubeless).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Literal

MET_FILE = Path(__file__).with_name("met.json")
Outputs = Sequence[float]
"""P(win), P(win gammon), P(win backgammon), P(lose gammon), P(lose backgammon) of the side on
roll, gammons counting backgammons."""
Owner = Literal["centred", "mine", "theirs"]
"""Who owns the cube, seen from the side on roll."""
CONTACT_X = 0.68
RACE_X = (0.55, 0.00125, 0.6, 0.7)
"""A race's efficiency: base + slope x pips of the side on roll, within (lowest, highest)."""
BEAROFF_X = 0.6
"""gnubg's cube efficiencies (its ``rContactX``, race factors and ``rOSCubeX``)."""
EPSILON = 1e-7
"""Chances of winning this close to 0 or 1 leave only the dead cube (no average to take)."""


def clean(outputs: Outputs) -> tuple[float, float, float, float, float]:
    """``outputs`` made consistent: each within 0 and 1, a backgammon's chance at most its
    gammon's, a gammon's at most its win's (a network's outputs need not be)."""
    win = min(max(float(outputs[0]), 0.0), 1.0)
    win_gammon = min(max(float(outputs[1]), 0.0), win)
    win_backgammon = min(max(float(outputs[2]), 0.0), win_gammon)
    lose_gammon = min(max(float(outputs[3]), 0.0), 1.0 - win)
    lose_backgammon = min(max(float(outputs[4]), 0.0), lose_gammon)
    return win, win_gammon, win_backgammon, lose_gammon, lose_backgammon


def cubeless_equity(outputs: Outputs, gammons: bool = True) -> float:
    """The cubeless money equity: ``2 P(w) - 1 + P(wg) - P(lg) + P(wbg) - P(lbg)``, or
    ``2 P(w) - 1`` when gammons count single (the Jacoby rule with the cube in the middle)."""
    win, wg, wbg, lg, lbg = clean(outputs)
    return 2 * win - 1 + (wg - lg + wbg - lbg if gammons else 0.0)


def efficiency(contact: bool, pips: int, all_home: bool) -> float:
    """The cube efficiency x of a position: in contact, or in a race with the side on roll's
    ``pips``, or with every checker of both sides home (gnubg's values)."""
    if contact:
        return CONTACT_X
    if all_home:
        return BEAROFF_X
    base, slope, lowest, highest = RACE_X
    return min(max(base + slope * pips, lowest), highest)


def janowski_take_point(win: float, loss: float, x: float) -> float:
    """Janowski's take point: the least chance of winning with which a taker whose average win
    is ``win`` and average loss ``loss`` takes a double at cube efficiency ``x``."""
    return (loss - 0.5) / (win + loss + x / 2)


def _averages(outputs: Outputs) -> tuple[float, float]:
    """The side on roll's average win W and average loss L (1 for a side that cannot)."""
    win, wg, wbg, lg, lbg = clean(outputs)
    average_win = 1 + (wg + wbg) / win if win > EPSILON else 1.0
    average_loss = 1 + (lg + lbg) / (1 - win) if win < 1 - EPSILON else 1.0
    return average_win, average_loss


def live_equity(outputs: Outputs, owner: Owner, jacoby: bool = False) -> float:
    """The fully live cube's equity of the side on roll (Janowski's), the cube at 1 and
    ``owner``'s; under the Jacoby rule with the cube in the middle, a side too good to double
    or to take plays for the single game (gnubg's ``MoneyLive``)."""
    average_win, average_loss = _averages(outputs)
    p = clean(outputs)[0]
    spread = average_win + average_loss + 0.5
    take, cash = (average_loss - 0.5) / spread, (average_loss + 1.0) / spread
    if owner != "mine" and p < take:  # the opponent cashes at our take point
        return (
            -1.0 if jacoby and owner == "centred" else -average_loss + (average_loss - 1) * p / take
        )
    if owner != "theirs" and p >= cash:  # we cash at our cash point
        top = 1.0 if jacoby and owner == "centred" else average_win
        return 1.0 + (top - 1.0) * (p - cash) / (1.0 - cash)
    low, low_value = (0.0, -average_loss) if owner == "mine" else (take, -1.0)
    high, high_value = (1.0, average_win) if owner == "theirs" else (cash, 1.0)
    return low_value + (high_value - low_value) * (p - low) / (high - low)


def money_equity(outputs: Outputs, x: float, owner: Owner, jacoby: bool = False) -> float:
    """Janowski's cubeful money equity of the side on roll, normalised to the cube:
    ``(1 - x)`` times the dead cube's plus ``x`` times the live cube's (gnubg's
    ``Cl2CfMoney``); with a chance of winning of 0 or 1 the cubeless equity."""
    gammons = not (jacoby and owner == "centred")
    dead = cubeless_equity(outputs, gammons)
    win = clean(outputs)[0]
    if win <= EPSILON or win >= 1 - EPSILON:
        return dead
    return (1 - x) * dead + x * live_equity(outputs, owner, jacoby)


@dataclass(frozen=True)
class Decision:
    """A cube decision seen from the side that would double: its no double, double/take and
    double/drop values (money equities normalised to the cube before the double, or chances of
    winning the match), and whether the answer may be a beaver."""

    no_double: float
    double_take: float
    double_drop: float
    in_match: bool = False
    beaver_allowed: bool = False

    @property
    def beaver(self) -> bool:
        """Whether the taker beavers: it may, and it is the favourite after taking."""
        return self.beaver_allowed and self.take and self.double_take < 0

    @property
    def take(self) -> bool:
        """Whether the opponent takes: taking is worth at least dropping to it."""
        return self.double_take <= self.double_drop

    @property
    def after_double(self) -> float:
        """The doubler's value once the opponent answers as it should."""
        if self.beaver:
            return 2 * self.double_take
        return min(self.double_take, self.double_drop)

    @property
    def double(self) -> bool:
        """Whether to double: the answered double is worth more than no double."""
        return self.after_double > self.no_double

    @property
    def value(self) -> float:
        """The doubler's value before its choice: the better of no double and the double."""
        return max(self.no_double, self.after_double)

    def note(self) -> str:
        """``no double +0.412, double/take +0.530, double/drop +1.000`` (money), or the match
        winning chances in percent."""
        values = (self.no_double, self.double_take, self.double_drop)
        texts = [f"{100 * v:.1f}%" if self.in_match else f"{v:+.3f}" for v in values]
        return ", ".join(
            f"{name} {text}"
            for name, text in zip(("no double", "double/take", "double/drop"), texts, strict=True)
        )


def money_decision(
    outputs: Outputs, x: float, owner: Owner, jacoby: bool = False, beavers: bool = False
) -> Decision:
    """The money cube decision of the side on roll (see the module's text): the cube
    ``owner``'s, gammons single before it turns under ``jacoby``, a beaver allowed with
    ``beavers``."""
    no_double = money_equity(outputs, x, owner, jacoby)
    double_take = 2 * money_equity(outputs, x, "theirs")
    return Decision(no_double, double_take, 1.0, beaver_allowed=beavers)


# Match play --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchTable:
    """A match equity table: ``pre[i][j]`` the chance of winning of a side i + 1 points away
    against one j + 1 away before (or, row or column 0, in) the Crawford game; ``post[j]`` that
    of a side j + 1 away against one 1 away after the Crawford game."""

    name: str
    source: str
    pre: tuple[tuple[float, ...], ...]
    post: tuple[float, ...]

    @property
    def length(self) -> int:
        return len(self.pre)

    def equity(self, away: int, other_away: int, post_crawford: bool) -> float:
        """The chance of winning of a side ``away`` points from winning against one
        ``other_away`` points away (0 or less: the match won), after the Crawford game when
        ``post_crawford`` (one side 1 away)."""
        if away <= 0 or other_away <= 0:
            return 1.0 if away <= 0 else 0.0
        if post_crawford and other_away == 1:
            return self.post[away - 1]
        if post_crawford and away == 1:
            return 1.0 - self.post[other_away - 1]
        return self.pre[away - 1][other_away - 1]


@cache
def match_table() -> MatchTable:
    """The shipped table (:data:`MET_FILE`), read once."""
    data = json.loads(MET_FILE.read_text(encoding="utf-8"))
    pre = tuple(tuple(float(v) for v in row) for row in data["pre_crawford"])
    post = tuple(float(v) for v in data["post_crawford"])
    return MatchTable(str(data["name"]), str(data["source"]), pre, post)


@dataclass(frozen=True)
class MatchScore:
    """A game of a match to ``length``: the scores before it (the side on roll's first) and
    whether it is the Crawford game."""

    length: int
    mine: int
    theirs: int
    crawford: bool = False

    def equity_after(self, points: int) -> float:
        """The side on roll's chance of winning the match after this game gives it ``points``
        (negative: the opponent ``-points``); the next game is the Crawford game when a side
        reaches one point short for the first time."""
        mine = self.mine + max(points, 0)
        theirs = self.theirs + max(-points, 0)
        short = self.length - 1
        first = max(self.mine, self.theirs) < short and short in (mine, theirs)
        post = not first and short in (mine, theirs)
        return match_table().equity(self.length - mine, self.length - theirs, post)

    def equity_now(self) -> float:
        """The side on roll's chance of winning the match before this game."""
        post = not self.crawford and self.length - 1 in (self.mine, self.theirs)
        return match_table().equity(self.length - self.mine, self.length - self.theirs, post)


def match_weights(score: MatchScore, cube: int) -> tuple[float, ...]:
    """``(c0, c1, ..., c5)`` with ``c0 + c1 P(w) + c2 P(wg) + c3 P(wbg) + c4 P(lg) + c5 P(lbg)``
    the side on roll's ``2 MWC - 1`` (``MWC`` its chance of winning the match, the cube dead at
    ``cube``): the value of each result (a single game, a gammon, a backgammon, won or lost)
    weighted by its chance."""
    wins = [2 * score.equity_after(k * cube) - 1 for k in (1, 2, 3)]
    losses = [2 * score.equity_after(-k * cube) - 1 for k in (1, 2, 3)]
    return money_form(wins, losses)


def money_form(wins: Sequence[float], losses: Sequence[float]) -> tuple[float, ...]:
    """The weights of :func:`match_weights` for results worth ``wins`` (a single game, a
    gammon, a backgammon) and ``losses``: money play's are ``(1, 2, 3)`` and ``(-1, -2, -3)``,
    giving ``(-1, 2, 1, 1, -1, -1)``."""
    return (
        losses[0],
        wins[0] - losses[0],
        wins[1] - wins[0],
        wins[2] - wins[1],
        losses[1] - losses[0],
        losses[2] - losses[1],
    )


MONEY_WEIGHTS = money_form((1, 2, 3), (-1, -2, -3))
SINGLE_WEIGHTS = money_form((1, 1, 1), (-1, -1, -1))
"""Money play's weights, and the Jacoby rule's with the cube in the middle."""


def weighted(weights: Sequence[float], outputs: Outputs) -> float:
    """``weights``' linear value of ``outputs`` (see :func:`match_weights`)."""
    total = weights[0]
    for weight, chance in zip(weights[1:], clean(outputs), strict=True):
        total += weight * chance
    return total


def match_decision(
    outputs: Outputs, score: MatchScore, cube: int, x: float, owner: Owner = "centred"
) -> Decision:
    """The match cube decision of the side on roll with the cube at ``cube`` and ``owner``'s,
    by its chances of winning the match (see the module's text): no double at ``cube``,
    double/take at twice it (the cube the opponent's), double/drop the chance after winning
    ``cube`` points now."""
    no_double = match_equity(outputs, score, cube, x, owner)
    double_take = match_equity(outputs, score, 2 * cube, x, "theirs")
    return Decision(no_double, double_take, score.equity_after(cube), in_match=True)


def match_equity(outputs: Outputs, score: MatchScore, cube: int, x: float, owner: Owner) -> float:
    """The side on roll's chance of winning the match, the cube at ``cube`` and ``owner``'s:
    ``(1 - x)`` times the dead cube's plus ``x`` times the live cube's, Janowski's
    interpolation in match winning chances (as GNU Backgammon's ``Cl2CfMatch``). Holding the
    outputs' gammon ratios, both are lines in the chance of winning p; the live one bends to
    the cash of the side that may double (a side may not in the Crawford game nor when its score
    and the cube make the match): the opponent's below our take point, ours above our cash
    point, both points where the dead cube one level up makes the taker indifferent."""
    win, wg, wbg, lg, lbg = clean(outputs)
    ratios = ((wg - wbg) / win, wbg / win) if win > EPSILON else (0.0, 0.0)
    loss_ratios = ((lg - lbg) / (1 - win), lbg / (1 - win)) if win < 1 - EPSILON else (0.0, 0.0)

    def result(points: int, gammon: float, backgammon: float) -> float:
        single = 1 - gammon - backgammon
        return sum(
            share * score.equity_after(points * k)
            for share, k in ((single, 1), (gammon, 2), (backgammon, 3))
        )

    won, lost = result(cube, *ratios), result(-cube, *loss_ratios)
    dead = win * won + (1 - win) * lost
    if win <= EPSILON or win >= 1 - EPSILON or score.crawford:
        return dead
    won_up, lost_up = result(2 * cube, *ratios), result(-2 * cube, *loss_ratios)

    def point(chance: float) -> float:  # where the dead cube one level up is worth ``chance``
        return (chance - lost_up) / (won_up - lost_up) if won_up > lost_up else 0.5

    corners = [(0.0, lost)]
    if owner != "mine" and score.theirs + cube < score.length:
        corners.append((point(score.equity_after(-cube)), score.equity_after(-cube)))
    if owner != "theirs" and score.mine + cube < score.length:
        corners.append((point(score.equity_after(cube)), score.equity_after(cube)))
    corners.append((1.0, won))
    corners = [(p, value) for p, value in corners if 0.0 <= p <= 1.0]
    live = _through(corners, win)
    return (1 - x) * dead + x * live


def _through(corners: Sequence[tuple[float, float]], p: float) -> float:
    """The piecewise linear function through ``corners`` (increasing in their first
    coordinate, from 0 to 1) at ``p``."""
    for (low, low_value), (high, high_value) in pairwise(corners):
        if p <= high and high > low:
            return low_value + (high_value - low_value) * (p - low) / (high - low)
    return corners[-1][1]
