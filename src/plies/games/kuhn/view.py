"""Kuhn poker's table for the web pages: a ``cards`` board (described in
:mod:`plies.web.boards`) of a state as a player sees it, the other card face down until a
showdown; its actions are buttons, pass and bet, labelled check or fold, bet or call, as the
bets stand (the table writes the bets so too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.games.grid import Json

if TYPE_CHECKING:
    from plies.games.kuhn.rules import KuhnPoker, KuhnState


ANTE = 1
"""What each player puts in the pot before the cards are dealt."""


class KuhnView:
    """A ``cards`` view of Kuhn poker: one card a seat, no public card."""

    def __init__(self, game: KuhnPoker, names: dict[str, str], showdowns: frozenset[str]) -> None:
        self.game = game
        self.names = names
        """The word of each bet letter (``p``: pass, ``b``: bet)."""
        self.showdowns = showdowns
        """The bets that end a hand with the cards shown (the others end by a fold)."""

    def drawing(self, state: KuhnState, last: object, flipped: bool) -> Json:
        game = self.game
        over = game.is_terminal(state)
        winner = game.winner(state) if over else None
        mover = None if over else game.to_move(state)
        seats = []
        for seat, player in enumerate(game.players):
            bets = state.bets[seat::2]
            seats.append(
                {
                    "player": player,
                    "cards": list(state.cards[seat : seat + 1]),
                    "stake": ANTE + bets.count("b"),
                    "folded": over and winner != player and state.bets not in self.showdowns,
                    "to_move": player == mover,
                    "won": player == winner,
                }
            )
        acted = [
            {"player": game.players[turn % 2], "action": self._word(state.bets[:turn], bet)}
            for turn, bet in enumerate(state.bets)
        ]
        return {
            "kind": "cards",
            "seats": seats if flipped else seats[::-1],
            "public": [],
            "public_slots": 0,
            "pot": sum(seat["stake"] for seat in seats),
            "betting": [{"label": "bets", "actions": acted}],
            "buttons": [] if over else self._buttons(state),
        }

    def _word(self, before: str, bet: str) -> str:
        """The bet letter ``bet`` in words after the bets ``before``: facing a bet, a pass
        folds and a bet calls; else a pass checks."""
        facing = bool(before) and self.names[before[-1]] == "bet"
        if self.names[bet] == "pass":
            return "fold" if facing else "check"
        return "call" if facing else "bet"

    def _buttons(self, state: KuhnState) -> list[Json]:
        """Pass and bet, labelled as :meth:`_word` writes them."""
        return [
            {"id": word, "label": self._word(state.bets, letter)}
            for letter, word in self.names.items()
        ]

    def path(self, state: KuhnState, action: str, notation: str) -> list[str]:
        return [action]

    def status(self, state: KuhnState) -> None:
        return None
