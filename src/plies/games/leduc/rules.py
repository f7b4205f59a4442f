"""Leduc poker (Southey et al. 2005), as in OpenSpiel's ``leduc_poker``.

Six cards, two each of J < Q < K. Each player antes 1 and is dealt one private card (P1's
first). Two betting rounds follow, P1 acting first in each; the public card is dealt between
them. A player may check or call, raise (2 in the first round, 4 in the second; at most two
raises a round) and, facing a raise only, fold. A round ends when a raise is called or both
check. At the showdown a private card that pairs the public card wins, else the higher card;
equal cards split the pot. The game has 936 information sets; its value for P1 is about
-0.0856.

Actions: chance deals a rank, ``J``, ``Q`` or ``K`` (with its share of the cards left);
players ``fold``, ``check`` or ``call`` (one action: written ``call`` when facing a raise) and
``raise`` (``bet`` reads as ``raise``). An information key is the player's card, the public
card once dealt, and each round's actions, ``f``, ``c`` and ``r``:

>>> game = LeducPoker()
>>> state = game.initial_state()
>>> for move in ("K", "Q", "raise", "call", "J", "check"):
...     state = game.result(state, game.parse_action(state, move))
>>> game.information_key(state, "P1"), game.information_key(state, "P2")
('KJ:rc/c', 'QJ:rc/c')
>>> [game.format_action(state, action) for action in game.actions(state)]
['check', 'raise']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from plies.capabilities import BoardView
from plies.errors import IllegalMoveError
from plies.game import CHANCE, Game
from plies.registry import GameOption

RANKS = ("J", "Q", "K")
"""The ranks, lowest first; the deck holds :data:`SUITS` cards of each."""
SUITS = 2
FOLD, CALL, RAISE = "f", "c", "r"
RAISE_SIZES = (2, 4)
"""What a raise adds, in the first and the second round."""
MOST_RAISES = 2
"""The raises a round allows."""
ANTE = 1


class LeducState(NamedTuple):
    """A hand: the ranks dealt so far (P1's private card, P2's, then the public card; None
    where a player does not see it, in a seen state) and each round's actions."""

    cards: tuple[str | None, ...]
    rounds: tuple[str, ...]


def round_over(actions: str) -> bool:
    """Whether a round's actions end it: both checked, or a raise was called."""
    return actions == CALL * 2 or (len(actions) >= 2 and actions[-1] == CALL and RAISE in actions)


def contributions(rounds: Sequence[str]) -> list[int]:
    """What each player has put in the pot (P1's first), antes included."""
    put = [ANTE, ANTE]
    for number, actions in enumerate(rounds):
        for turn, action in enumerate(actions):
            if action == CALL:
                put[turn % 2] = max(put)
            elif action == RAISE:
                put[turn % 2] = max(put) + RAISE_SIZES[number]
    return put


def action_words(actions: str) -> list[str]:
    """A round's actions in words: a call with nothing to call is a check."""
    names = {FOLD: "fold", RAISE: "raise"}
    return [
        names.get(action) or ("call" if turn and actions[turn - 1] == RAISE else "check")
        for turn, action in enumerate(actions)
    ]


class LeducPoker(Game[LeducState, str]):
    """Leduc poker for two players, P1 and P2 (see the module's docstring)."""

    name = "leduc"
    summary = "Leduc poker: six cards, two betting rounds; imperfect information, solved by CFR"
    options: tuple[GameOption, ...] = ()
    players = ("P1", "P2")
    default_opponent = "cfr"
    opening_plies = 0

    def __repr__(self) -> str:
        return "LeducPoker()"

    def board_view(self) -> BoardView:
        """The card table for the web pages (:mod:`plies.games.leduc.view`)."""
        from plies.games.leduc.view import LeducView

        words = {FOLD: "fold", CALL: "call", RAISE: "raise"}
        return LeducView(self, contributions, words, action_words)

    def shipped_strategy(self) -> Path:
        """CFR+'s average strategy after 100,000 iterations, exploitability 3e-7
        (``plies solve leduc --iterations 100000 --save``)."""
        return Path(__file__).with_name("strategy.json")

    # The formal definition ------------------------------------------------------------------

    def initial_state(self) -> LeducState:
        return LeducState((), ("",))

    def to_move(self, state: LeducState) -> str:
        if self._dealing(state):
            return CHANCE
        return self.players[len(state.rounds[-1]) % 2]

    def _dealing(self, state: LeducState) -> bool:
        """Whether chance deals next: a private card, or the public card after round one."""
        return len(state.cards) < 2 or (len(state.rounds) == 2 and len(state.cards) == 2)

    def actions(self, state: LeducState) -> Sequence[str]:
        if self.is_terminal(state):
            return []
        if self._dealing(state):
            return [rank for rank in RANKS if state.cards.count(rank) < SUITS]
        actions = state.rounds[-1]
        facing = actions.endswith(RAISE)
        moves = [FOLD, CALL] if facing else [CALL]
        if actions.count(RAISE) < MOST_RAISES:
            moves.append(RAISE)
        return moves

    def chance_outcomes(self, state: LeducState) -> Sequence[tuple[str, float]]:
        """Each rank with its share of the cards not dealt yet."""
        left = len(RANKS) * SUITS - len(state.cards)
        return [(rank, (SUITS - state.cards.count(rank)) / left) for rank in self.actions(state)]

    def result(self, state: LeducState, action: str) -> LeducState:
        if action not in self.actions(state):
            raise IllegalMoveError(f"move {action!r} is not legal here")
        if self._dealing(state):
            return LeducState((*state.cards, action), state.rounds)
        actions = state.rounds[-1] + action
        rounds = (*state.rounds[:-1], actions)
        if len(rounds) == 1 and round_over(actions):
            rounds = (actions, "")
        return LeducState(state.cards, rounds)

    def is_terminal(self, state: LeducState) -> bool:
        last = state.rounds[-1]
        return last.endswith(FOLD) or (len(state.rounds) == 2 and round_over(last))

    def utility(self, state: LeducState, player: str) -> float:
        winner = self.winner(state)
        if winner is None:
            return 0
        put = contributions(state.rounds)
        seat = self.players.index(player)
        return put[1 - seat] if winner == player else -put[seat]

    def winner(self, state: LeducState) -> str | None:
        """Who takes the pot of a finished hand; None for a split pot or a hand going on."""
        if not self.is_terminal(state):
            return None
        last = state.rounds[-1]
        if last.endswith(FOLD):
            return self.players[1 - (len(last) - 1) % 2]
        first, second = (self._strength(card, state.cards[2]) for card in state.cards[:2])
        if first == second:
            return None
        return self.players[0] if first > second else self.players[1]

    @staticmethod
    def _strength(card: str | None, public: str | None) -> int:
        """A private card's strength at the showdown: a pair beats every other card."""
        rank = RANKS.index(card or "")
        return rank + len(RANKS) if card == public else rank

    def showdown(self, state: LeducState) -> bool:
        """Whether the hand ended with the cards shown (not by a fold)."""
        return self.is_terminal(state) and not state.rounds[-1].endswith(FOLD)

    # Imperfect information ----------------------------------------------------------------

    def information_key(self, state: LeducState, player: str) -> str:
        seat = self.players.index(player)
        card = state.cards[seat] if seat < len(state.cards) else None
        public = state.cards[2] if len(state.cards) > 2 else ""
        return f"{card or '?'}{public}:{'/'.join(state.rounds)}"

    def seen_state(self, state: LeducState, player: str) -> LeducState:
        """The other private card is hidden until a showdown."""
        if self.showdown(state):
            return state
        seat = self.players.index(player)
        cards = tuple(c if i == seat or i == 2 else None for i, c in enumerate(state.cards))
        return LeducState(cards, state.rounds)

    def seen_action(self, state: LeducState, action: str, player: str) -> str:
        if not self._dealing(state):
            return self.format_action(state, action)
        if len(state.cards) == 2:
            return f"deals the public card {action}"
        dealt_to = self.players[len(state.cards)]
        return f"deals you {action}" if dealt_to == player else f"deals {dealt_to} a card"

    def sample_state(self, state: LeducState, player: str, rng: random.Random) -> LeducState:
        """The other private card dealt again from the cards ``player`` has not seen."""
        seat = self.players.index(player)
        other = 1 - seat
        if seat >= len(state.cards) or other >= len(state.cards):
            return state
        seen = [state.cards[seat], *state.cards[2:]]
        unseen = [rank for rank in RANKS for _ in range(SUITS - seen.count(rank))]
        cards = list(state.cards)
        cards[other] = rng.choice(unseen)
        return LeducState(tuple(cards), state.rounds)

    # Notation -------------------------------------------------------------------------------

    def format_action(self, state: LeducState, action: str) -> str:
        if self._dealing(state):
            return action
        if action == CALL:
            return "call" if state.rounds[-1].endswith(RAISE) else "check"
        return {FOLD: "fold", RAISE: "raise"}[action]

    def parse_action(self, state: LeducState, text: str) -> str:
        """``fold``, ``check`` or ``call`` (either reads as the other), ``raise`` or ``bet``;
        a rank for chance."""
        alias = {"check": CALL, "call": CALL, "bet": RAISE}.get(text.strip().lower())
        if alias is not None and not self._dealing(state) and alias in self.actions(state):
            return alias
        return super().parse_action(state, text)

    def display(self, state: LeducState) -> str:
        cards = [card or "?" for card in state.cards] + ["-"] * (3 - len(state.cards))
        put = contributions(state.rounds)
        rows = [
            f"P1 holds {cards[0]}, P2 holds {cards[1]}, public card {cards[2]}",
            *(
                f"round {n}: {' '.join(action_words(actions)) or 'no actions yet'}"
                for n, actions in enumerate(state.rounds, start=1)
            ),
            f"pot {sum(put)} (P1 {put[0]}, P2 {put[1]})",
        ]
        if self.is_terminal(state):
            winner = self.winner(state)
            rows.append("split pot" if winner is None else f"{winner} wins")
        else:
            mover = self.to_move(state)
            rows.append("chance deals" if mover == CHANCE else f"{mover} to act")
        return "\n".join(rows)
