"""Leduc poker's table for the web pages: a ``cards`` board (described in
:mod:`plies.web.boards`) of a state as a player sees it, the other private card face down
until a showdown, the public card once dealt; its actions are buttons (fold, check or call,
raise)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from plies.games.grid import Json

if TYPE_CHECKING:
    from plies.games.leduc.rules import LeducPoker, LeducState


class LeducView:
    """A ``cards`` view of Leduc poker: one private card a seat, one public card."""

    def __init__(
        self,
        game: LeducPoker,
        contributions: Callable[[Sequence[str]], list[int]],
        words: dict[str, str],
        action_words: Callable[[str], list[str]],
    ) -> None:
        self.game = game
        self.contributions = contributions
        """What each player has put in the pot, from the rounds' actions."""
        self.action_words = action_words
        """A round's actions in words (a call with nothing to call is a check)."""
        self.words = words
        """The word of each action letter, ``fold``, ``call`` and ``raise``: its button's id
        (the call button reads check where no raise is faced)."""

    def drawing(self, state: LeducState, last: object, flipped: bool) -> Json:
        game = self.game
        over = game.is_terminal(state)
        winner = game.winner(state) if over else None
        mover = None if over else game.to_move(state)
        put = self.contributions(state.rounds)
        last = state.rounds[-1]
        folded = over and self.words[last[-1]] == "fold"
        seats = [
            {
                "player": player,
                "cards": list(state.cards[seat : seat + 1]),
                "stake": put[seat],
                "folded": folded and (len(last) - 1) % 2 == seat,
                "to_move": player == mover,
                "won": player == winner,
            }
            for seat, player in enumerate(game.players)
        ]
        return {
            "kind": "cards",
            "seats": seats if flipped else seats[::-1],
            "public": list(state.cards[2:]),
            "public_slots": 1,
            "pot": sum(put),
            "betting": [
                {"label": f"round {number}", "actions": self._actions(actions)}
                for number, actions in enumerate(state.rounds, start=1)
            ],
            "buttons": [] if over else self._buttons(state),
        }

    def _actions(self, actions: str) -> list[Json]:
        """A round's actions in words, P1 acting first."""
        return [
            {"player": self.game.players[turn % 2], "action": word}
            for turn, word in enumerate(self.action_words(actions))
        ]

    def _buttons(self, state: LeducState) -> list[Json]:
        """Fold, check or call, and raise."""
        before = state.rounds[-1]
        return [
            {"id": word, "label": self.action_words(before + a)[-1]}
            for a, word in self.words.items()
        ]

    def path(self, state: LeducState, action: str, notation: str) -> list[str]:
        return [self.words[action]]

    def status(self, state: LeducState) -> None:
        return None
