"""Kuhn poker (Kuhn 1950), as in the literature and OpenSpiel's ``kuhn_poker``.

Three cards, J < Q < K. Each player antes 1 and chance deals each one card (P1's first); the
third stays hidden. P1 passes or bets 1; after a pass P2 passes (showdown for 2) or bets; a
player facing a bet passes (folds: the bettor takes the pot) or bets (calls: showdown for 4).
The higher card wins a showdown. A player sees their own card and every bet, never the other
card before a showdown: the game has 12 information sets, and its value for P1 is -1/18.

Actions: chance deals ``J``, ``Q`` or ``K``; players ``pass`` or ``bet``. An information key
is the player's card and the bets so far, ``p`` for a pass and ``b`` for a bet:

>>> game = KuhnPoker()
>>> state = game.initial_state()
>>> for move in ("K", "J", "pass", "bet"):
...     state = game.result(state, game.parse_action(state, move))
>>> game.information_key(state, "P1"), game.information_key(state, "P2")
('K:pb', 'J:pb')
>>> game.seen_action(game.initial_state(), "K", "P2")
'deals P1 a card'
>>> state = game.result(state, "bet")
>>> game.is_terminal(state), game.utility(state, "P1")
(True, 2)
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

CARDS = ("J", "Q", "K")
"""The deck, lowest first."""
PASS, BET = "pass", "bet"
ENDINGS = {"pp": 1, "bp": 1, "pbp": 1, "bb": 2, "pbb": 2}
"""The betting sequences that end a hand, with what the winner takes from the loser (the
ante, or the ante and the bet)."""
SHOWDOWNS = frozenset({"pp", "bb", "pbb"})
"""The endings in which the cards are shown (the others end by a fold)."""


class KuhnState(NamedTuple):
    """A hand: the cards dealt so far (P1's first; None where a player does not see it, in a
    seen state) and the bets, ``p`` or ``b`` each."""

    cards: tuple[str | None, ...]
    bets: str


class KuhnPoker(Game[KuhnState, str]):
    """Kuhn poker for two players, P1 and P2 (see the module's docstring)."""

    name = "kuhn"
    summary = "Kuhn poker: three cards, one bet; imperfect information, solved by CFR"
    options: tuple[GameOption, ...] = ()
    players = ("P1", "P2")
    default_opponent = "cfr"
    opening_plies = 0

    def __repr__(self) -> str:
        return "KuhnPoker()"

    def board_view(self) -> BoardView:
        """The card table for the web pages (:mod:`plies.games.kuhn.view`)."""
        from plies.games.kuhn.view import KuhnView

        return KuhnView(self, {"p": PASS, "b": BET}, SHOWDOWNS)

    def shipped_strategy(self) -> Path:
        """CFR+'s average strategy after 100,000 iterations, exploitability 2e-6
        (``plies solve kuhn --iterations 100000 --save``)."""
        return Path(__file__).with_name("strategy.json")

    # The formal definition ------------------------------------------------------------------

    def initial_state(self) -> KuhnState:
        return KuhnState((), "")

    def to_move(self, state: KuhnState) -> str:
        if len(state.cards) < 2:
            return CHANCE
        return self.players[len(state.bets) % 2]

    def actions(self, state: KuhnState) -> Sequence[str]:
        if self.is_terminal(state):
            return []
        if len(state.cards) < 2:
            return [card for card in CARDS if card not in state.cards]
        return [PASS, BET]

    def chance_outcomes(self, state: KuhnState) -> Sequence[tuple[str, float]]:
        """Each card not dealt yet, equally likely."""
        left = self.actions(state)
        return [(card, 1 / len(left)) for card in left]

    def result(self, state: KuhnState, action: str) -> KuhnState:
        if action not in self.actions(state):
            raise IllegalMoveError(f"move {action!r} is not legal here")
        if len(state.cards) < 2:
            return KuhnState((*state.cards, action), state.bets)
        return KuhnState(state.cards, state.bets + action[0])

    def is_terminal(self, state: KuhnState) -> bool:
        return state.bets in ENDINGS

    def utility(self, state: KuhnState, player: str) -> float:
        winner = self.winner(state)
        if winner is None:
            return 0
        stake = ENDINGS[state.bets]
        return stake if winner == player else -stake

    def winner(self, state: KuhnState) -> str | None:
        """Who takes the pot of a finished hand: the better card at a showdown, else the one
        who did not fold (None while the hand goes on)."""
        if not self.is_terminal(state):
            return None
        if state.bets in SHOWDOWNS:
            first, second = (CARDS.index(card or "") for card in state.cards)
            return self.players[0] if first > second else self.players[1]
        folded = (len(state.bets) - 1) % 2  # the last to act passed facing a bet
        return self.players[1 - folded]

    # Imperfect information ----------------------------------------------------------------

    def information_key(self, state: KuhnState, player: str) -> str:
        seat = self.players.index(player)
        card = state.cards[seat] if seat < len(state.cards) else None
        return f"{card or '?'}:{state.bets}"

    def seen_state(self, state: KuhnState, player: str) -> KuhnState:
        """The other card is hidden until a showdown."""
        if state.bets in SHOWDOWNS:
            return state
        seat = self.players.index(player)
        cards = tuple(card if i == seat else None for i, card in enumerate(state.cards))
        return KuhnState(cards, state.bets)

    def seen_action(self, state: KuhnState, action: str, player: str) -> str:
        if len(state.cards) >= 2:
            return action
        dealt_to = self.players[len(state.cards)]
        return f"deals you {action}" if dealt_to == player else f"deals {dealt_to} a card"

    def sample_state(self, state: KuhnState, player: str, rng: random.Random) -> KuhnState:
        """The other card dealt again from the two ``player`` does not hold."""
        seat = self.players.index(player)
        if seat >= len(state.cards):
            return state
        unseen = [card for card in CARDS if card != state.cards[seat]]
        rng.shuffle(unseen)
        cards = tuple(card if i == seat else unseen.pop() for i, card in enumerate(state.cards))
        return KuhnState(cards, state.bets)

    # Notation -------------------------------------------------------------------------------

    def parse_action(self, state: KuhnState, text: str) -> str:
        """``pass`` (also ``check``, ``fold``) or ``bet`` (also ``call``); a card for chance."""
        wanted = {"check": PASS, "fold": PASS, "call": BET}.get(text.strip().lower())
        if wanted is not None and wanted in self.actions(state):
            return wanted
        return super().parse_action(state, text)

    def display(self, state: KuhnState) -> str:
        cards = [card or "?" for card in state.cards] + ["-"] * (2 - len(state.cards))
        bets = " ".join({"p": PASS, "b": BET}[bet] for bet in state.bets) or "none yet"
        pot = 2 + state.bets.count("b")
        rows = [f"P1 holds {cards[0]}, P2 holds {cards[1]}", f"bets: {bets}; pot {pot}"]
        if self.is_terminal(state):
            rows.append(f"{self.winner(state)} wins {ENDINGS[state.bets]}")
        else:
            mover = self.to_move(state)
            rows.append("chance deals" if mover == CHANCE else f"{mover} to act")
        return "\n".join(rows)
