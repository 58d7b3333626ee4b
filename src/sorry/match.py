"""Matches (docs/variants.md, Matches): a series of games with running scores.

The winner of a game starts the next. A match is played to a number of games, to a target
score, or both (it ends at whichever comes first). Each game's seed is derived from the match
seed with :func:`sorry.rng.derive_seed`, so a match seed reproduces every game.

What a game is worth:

* **points** variant: the game's score (docs/variants.md, Play for points) is added to each
  player's total;
* **standard** and **teams**: each winning colour scores 1 (in teams both partners score, so
  a team's score is either partner's).

A game declared unfinished (option ``turn_limit``) adds nothing, and the player after that
game's first player starts the next one.

With a ``target`` the match ends once a score reaches it and a single player (in teams, a
single team) leads; if the leaders are tied it goes on. After ``games`` games it ends in any
case; :attr:`Match.winner` is then ``None`` if the leaders are tied (:attr:`Match.leaders`
names them).

>>> from sorry import Rules
>>> m = Match(Rules(variant="points"), players=2, games=2, seed=5)
>>> while not m.is_over():
...     g = m.new_game()
...     while not g.is_over():
...         if g.is_chance():
...             _ = g.draw()
...         else:
...             g.push(g.legal_moves[0])
...     _ = m.record_result(g)
>>> len(m.results), sum(m.scores.values()) == sum(sum(r.scores.values()) for r in m.results)
(2, True)
>>> m.results[1].first == m.results[0].winners[0]
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .board import COLOUR_LETTERS
from .errors import GameStateError, RulesError
from .game import Game
from .moves import Move
from .rng import derive_seed
from .rulebook import colours_for
from .rules import Rules


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of a match."""

    index: int  # 0 for the first game
    seed: int
    first: int  # the colour that started it
    winners: tuple[int, ...]  # empty if the game was unfinished
    scores: dict[int, int]  # what the game added to each colour's total
    turns: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "first": COLOUR_LETTERS[self.first],
            "winners": [COLOUR_LETTERS[c] for c in self.winners],
            "scores": {COLOUR_LETTERS[c]: s for c, s in self.scores.items()},
            "turns": self.turns,
        }


class Match:
    """A series of games. Call :meth:`new_game`, play it to the end, :meth:`record_result`,
    until :meth:`is_over`; or :meth:`play` with a function choosing moves."""

    def __init__(
        self,
        rules: Rules | None = None,
        players: int | Sequence[int] | None = None,
        games: int | None = None,
        target: int | None = None,
        seed: int | None = None,
        first: int | None = None,
    ) -> None:
        self.rules = rules or Rules()
        self.colours: tuple[int, ...] = colours_for(players, self.rules)
        if games is None and target is None:
            raise RulesError("a match needs a number of games or a target score (or both)")
        if games is not None and (isinstance(games, bool) or not isinstance(games, int)):
            raise RulesError(f"the number of games must be a positive integer, not {games!r}")
        if games is not None and games < 1:
            raise RulesError(f"the number of games must be a positive integer, not {games}")
        if target is not None and (
            isinstance(target, bool) or not isinstance(target, int) or target < 1
        ):
            raise RulesError(f"the target score must be a positive integer, not {target!r}")
        if games is None and self.rules.turn_limit is not None:
            raise RulesError(
                "with turn_limit games may end unfinished: give the match a number of games"
            )
        if first is not None and first not in self.colours:
            raise RulesError(f"colour {first} is not playing and cannot start")
        self.games = games
        self.target = target
        self.seed = int.from_bytes(os.urandom(8), "big") if seed is None else seed
        self.scores: dict[int, int] = {c: 0 for c in self.colours}
        self.results: list[GameResult] = []
        self.next_first: int | None = first  # None: the first game's seed chooses
        self._current: Game | None = None

    # -- playing ------------------------------------------------------------------------------
    def new_game(self) -> Game:
        """The next game of the match, its seed derived from the match seed, started by the
        previous game's winner."""
        if self.is_over():
            raise GameStateError("the match is over")
        if self._current is not None:
            raise GameStateError("record the result of the game in progress first")
        index = len(self.results)
        game = Game(
            self.rules, self.colours, seed=derive_seed(self.seed, index), first=self.next_first
        )
        self._current = game
        return game

    @property
    def current(self) -> Game | None:
        """The game in progress (given by :meth:`new_game` and not yet recorded)."""
        return self._current

    def record_result(self, game: Game) -> GameResult:
        """Add a finished game (the one :meth:`new_game` gave) to the match."""
        if self._current is None or game is not self._current:
            raise GameStateError("record the game that new_game() gave, once")
        if not game.is_over():
            raise GameStateError("the game is not over yet")
        gained = {c: 0 for c in self.colours}
        if game.winners:
            if self.rules.points:
                assert game.scores is not None
                gained.update(game.scores)
            else:
                for c in game.winners:
                    gained[c] = 1
        for c, s in gained.items():
            self.scores[c] += s
        result = GameResult(
            index=len(self.results),
            seed=game.seed,
            first=game.first,
            winners=game.winners,
            scores=gained,
            turns=game.turn,
        )
        self.results.append(result)
        self.next_first = game.winner if game.winner is not None else game.next_colour(game.first)
        self._current = None
        return result

    def play(self, choose: Callable[[Game], Move]) -> int | None:
        """Play the rest of the match, drawing cards from each game's seeded deck and asking
        ``choose(game)`` for every decision. Returns :attr:`winner`."""
        while not self.is_over():
            game = self._current if self._current is not None else self.new_game()
            while not game.is_over():
                if game.is_chance():
                    game.draw()
                else:
                    game.push(choose(game))
            self.record_result(game)
        return self.winner

    # -- results ------------------------------------------------------------------------------
    @property
    def games_played(self) -> int:
        return len(self.results)

    def _sides(self) -> list[tuple[int, ...]]:
        """Who wins together: each team in the teams variant, each colour otherwise."""
        return list(self.rules.book.sides(self.colours))

    @property
    def leaders(self) -> tuple[int, ...]:
        """The colours with the highest score (both partners of a leading team)."""
        best = max(self.scores.values())
        return tuple(c for c in self.colours if self.scores[c] == best)

    def _single_leader(self) -> bool:
        return tuple(sorted(self.leaders)) in self._sides()

    def is_over(self) -> bool:
        if (
            self.target is not None
            and self.results
            and max(self.scores.values()) >= self.target
            and self._single_leader()
        ):
            return True
        return self.games is not None and len(self.results) >= self.games

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning colours once the match is over (a team: both partners), else ()."""
        if not self.is_over() or not self._single_leader():
            return ()
        return self.leaders

    @property
    def winner(self) -> int | None:
        """The winning colour (in teams, the first of the team's two colours), or None while
        the match goes on or when it ended with the leaders tied."""
        won = self.winners
        return won[0] if won else None

    def standings(self) -> list[tuple[int, int]]:
        """(colour, score), best first; equal scores in seat order."""
        return sorted(self.scores.items(), key=lambda cs: (-cs[1], self.colours.index(cs[0])))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "sorry-match",
            "version": 1,
            "rules": self.rules.to_dict(),
            "colours": [COLOUR_LETTERS[c] for c in self.colours],
            "games": self.games,
            "target": self.target,
            "seed": self.seed,
            "results": [r.to_dict() for r in self.results],
            "scores": {COLOUR_LETTERS[c]: s for c, s in self.scores.items()},
            "over": self.is_over(),
            "winners": [COLOUR_LETTERS[c] for c in self.winners],
        }

    def __repr__(self) -> str:
        scores = " ".join(f"{COLOUR_LETTERS[c]}={s}" for c, s in self.scores.items())
        return f"<Match {self.rules.variant} game {len(self.results)} {scores}>"


def numbered_path(path: str, index: int) -> str:
    """Where game ``index`` (from 1) of a match is saved when the match is saved to ``path``:
    ``match.json`` -> ``match-1.json``, ``match-2.json``... (each game is a record of its own,
    which ``sorry verify`` checks and ``sorry replay`` steps through)."""
    root, ext = os.path.splitext(path)
    return f"{root}-{index}{ext}"


__all__ = [
    "GameResult",
    "Match",
    "numbered_path",
]
