"""Sorry! as an OpenSpiel game written in Python: ``pyspiel.load_game("python_sorry", params)``.

Importing this module registers the game. Parameters (every one optional):

* ``players`` (2-4; teams needs 4) and ``variant`` (``standard``, ``teams``, ``points``);
* every rule option (docs/variants.md) by name with its value as text (``deck``: 45 or 44,
  ``sorry_forward_4``, ``slide_on``, ...), except ``team_seven_split=any`` (refused: its moves
  have no action, see docs/actions.md);
* ``turn_limit``: turns before the game ends unfinished (returns all 0); default 1000, because
  OpenSpiel needs a bounded game;
* ``first_player``: the player who starts (default 0).

Players ``0..n-1`` are the colours in play in seat order (2 players: Red, Yellow). Chance
nodes draw a card: the outcome is the card's index in :data:`sorry.cards.CARDS`, weighted by
the cards left. Decisions use the actions of
:mod:`sorry.actions`. Returns are zero-sum: ``n-1`` for the winner and ``-1`` for the others
(teams: ``+1``/``-1``). Observation and information-state tensors are those of
:mod:`sorry.rl.observation`; both hide the other players' hands.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from ..actions import NUM_ACTIONS, action_name, decode, legal_actions
from ..board import COLOUR_LETTERS
from ..cards import CARD_INDEX, CARDS, Card, card_name
from ..errors import RulesError
from ..game import Game
from ..rng import Rng
from ..rules import OPTION_VALUES, Rules
from ..view import PlayerView
from .observation import (
    INFO_SIZE,
    OBS_SIZE,
    information_state,
    information_state_string,
    make_rules,
    observation,
    observation_string,
)

SHORT_NAME = "python_sorry"
DEFAULT_TURN_LIMIT = 1000

_PARAMS: dict[str, Any] = {"players": 4, "variant": "standard"}
for _name, _values in OPTION_VALUES.items():
    _PARAMS[_name] = _values[0]
_PARAMS["deck"] = 45
_PARAMS["starting_pawns_out"] = 0
_PARAMS["turn_limit"] = DEFAULT_TURN_LIMIT
_PARAMS["first_player"] = 0

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Sorry! (python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


def rules_from_params(params: dict[str, Any]) -> tuple[Rules, int]:
    """The rules and the number of players named by OpenSpiel parameters."""
    p = dict(params)
    players = int(p.pop("players", 4))
    variant = str(p.pop("variant", "standard"))
    limit = int(p.pop("turn_limit", DEFAULT_TURN_LIMIT))
    p.pop("first_player", None)
    defaults = Rules(variant=variant if variant in ("standard", "teams", "points") else "standard")
    default_opts = defaults.options()
    options = {k: str(v) for k, v in p.items() if str(v) != default_opts.get(k, str(v))}
    if variant == "points":
        options.pop("starting_pawns_out", None)
    rules = make_rules(variant, options)
    if rules.turn_limit is None and limit > 0:
        rules = rules.replace(turn_limit=limit)
    return rules, players


class SorryGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game object: rules and sizes."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = dict(_PARAMS)
        full.update(params or {})
        self.rules, players = rules_from_params(full)
        # Validates the number of players against the variant.
        self.colours = Game(self.rules, players=players, seed=0).colours
        first = int(full["first_player"])
        if not 0 <= first < len(self.colours):
            raise RulesError(f"first_player must be 0-{len(self.colours) - 1}, not {first}")
        self._template = Game(self.rules, players=self.colours, seed=0, first=self.colours[first])
        n = len(self.colours)
        limit = self.rules.turn_limit or DEFAULT_TURN_LIMIT
        top = 1.0 if self.rules.teams else float(n - 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(CARDS),
            num_players=n,
            min_utility=-1.0,
            max_utility=top,
            utility_sum=0.0,
            max_game_length=2 * limit + 5 * n + 2,
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> SorryState:
        return SorryState(self)

    def new_game(self) -> Game:
        """A fresh engine game for these rules (``first_player`` starts)."""
        return self._template.copy(stack=False)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SorryObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return SorryObserver(self, obs_type)


# The event log behind the perfect-recall information state: one int per step. A decision is
# ``(player * 16 + card slot) << 10 | action`` (card slot: the card's index in CARDS, or 15 for
# none: only the points variant names the card of a decision); a chance draw is
# ``CHANCE_EVENT | receiver player << 4 | card index``.
CHANCE_EVENT = 1 << 20
_NO_CARD = 15


class _Box:
    """Holds the engine game and the event log; copies cheaply (no undo history) and pickles
    compactly."""

    __slots__ = ("game", "log")

    def __init__(self, game: Game, log: list[int] | None = None) -> None:
        self.game = game
        self.log: list[int] = log if log is not None else []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.game.copy(stack=False), self.log[:])

    def __getstate__(self) -> tuple[str, str]:
        return game_to_text(self.game), ",".join(map(str, self.log))

    def __setstate__(self, state: tuple[str, str]) -> None:
        text, log = state
        self.game = game_from_text(text)
        self.log = [int(x) for x in log.split(",")] if log else []


def history_string(
    log: list[int], colours: tuple[int, ...], player: int, private: bool, points: bool
) -> str:
    """What ``player`` saw happen, in order: every draw of the standard game (public), every
    card dealt in the points variant (its card if it went to ``player`` and ``private``, else
    ``?``), every decision (the mover's letter and the action)."""
    letters = [COLOUR_LETTERS[c] for c in colours]
    out = []
    for code in log:
        if code & CHANCE_EVENT:
            who, card = (code >> 4) & 15, code & 15
            if not points or (who == player and private):
                out.append(letters[who] + "+" + card_name(CARDS[card]))
            else:
                out.append(letters[who] + "+?")
        else:
            out.append(letters[code >> 14] + str(code & 1023))
    return " ".join(out)


def game_to_text(game: Game) -> str:
    """A compact JSON text of the whole game state (no history)."""
    snap = game.snapshot()
    snap["rules"] = game.rules.to_dict()
    snap["winners"] = list(game.winners)
    snap["scores"] = sorted(game.scores.items()) if game.scores is not None else None
    return json.dumps(snap, separators=(",", ":"))


def game_from_text(text: str) -> Game:
    snap = json.loads(text)
    rules = Rules.from_dict(snap.pop("rules"))
    snap.pop("winners")  # written for readers; the snapshot itself decides them
    snap.pop("scores")
    return Game.from_snapshot(snap, rules)


class SorryState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an engine :class:`~sorry.game.Game`."""

    def __init__(
        self, game: SorryGame, engine: Game | None = None, log: list[int] | None = None
    ) -> None:
        super().__init__(game)
        self._box = _Box(engine if engine is not None else game.new_game(), log)
        self._colours = game.colours

    @property
    def engine(self) -> Game:
        """The engine game (do not change it behind OpenSpiel's back)."""
        return self._box.game

    def current_player(self) -> int:
        g = self._box.game
        if g.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if g.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        return self._colours.index(g.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        return legal_actions(self._box.game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(CARD_INDEX[c], p) for c, p in self._box.game.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        box = self._box
        g = box.game
        if g.is_chance():
            receiver = g.deal_to
            assert receiver is not None
            g.draw(CARDS[action])
            box.log.append(CHANCE_EVENT | self._colours.index(receiver) << 4 | action)
        else:
            player = self._colours.index(g.to_move)
            move = decode(g, action)
            g.push(move)
            slot = CARD_INDEX.get(move.card, _NO_CARD) if move.card is not None else _NO_CARD
            box.log.append((player * 16 + slot) << 10 | action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "draw:" + card_name(CARDS[action]) if 0 <= action < len(CARDS) else "draw:?"
        try:
            return action_name(self._box.game, action)
        except ValueError:
            return f"action:{action}"

    def is_terminal(self) -> bool:
        return self._box.game.is_over()

    def returns(self) -> list[float]:
        r = self._box.game.returns()
        return [r[c] for c in self._colours]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SorryState:
        """A state consistent with ``player_id``'s information: the unseen cards (the others'
        hands and the draw pile) dealt at random (points variant; the other variants have no
        hidden cards but the draw pile's order, which chance nodes do not use)."""
        seed = int(probability_sampler() * 2**53)
        view = self._box.game.view(self._colours[player_id])
        engine = Game.from_view(view, seed)
        log = self._box.log
        if engine.rules.points:
            hands = [engine.hands[c] for c in self._colours]
            log = _redeal_log(log, player_id, hands, Rng(seed ^ 0x5EED))
        return SorryState(self.get_game(), engine, log)

    # Python callers get the tensors directly: OpenSpiel's own path through the observer
    # copies the state and fills the tensor twice per query (C++ callers still use it).
    def observation_tensor(self, player: int | None = None) -> list[float]:
        return observation(self._view(player)).tolist()  # type: ignore[no-any-return]

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return information_state(self._view(player)).tolist()  # type: ignore[no-any-return]

    def _view(self, player: int | None) -> PlayerView:
        if player is None:
            player = self.current_player()
        if not 0 <= player < len(self._colours):
            # OpenSpiel's own error (a RuntimeError naming the bound), as its C++ games raise
            pyspiel.State.observation_tensor(self, player)
        return self._box.game.view(self._colours[player])

    def __str__(self) -> str:
        g = self._box.game
        text = g.position_string()
        if g.card is not None:
            text += " card " + card_name(g.card)
        if g.rules.points:
            hands = " ".join(
                "".join(card_name(x) + "," for x in sorted(g.hands[c])) for c in g.colours
            )
            text += " hands " + hands
        return text


class SorryObserver:
    """OpenSpiel's PyObserver: the tensors and strings of :mod:`sorry.rl.observation`."""

    def __init__(self, game: SorryGame, iig_obs_type: Any) -> None:
        self._colours = game.colours
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        size = INFO_SIZE if self._perfect_recall else OBS_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if self._perfect_recall else "observation": self.tensor}

    def set_from(self, state: SorryState, player: int) -> None:
        view = state._box.game.view(self._colours[player])
        if not self._private:
            view = _public(view)
        if self._perfect_recall:
            information_state(view, self.tensor)
        else:
            observation(view, self.tensor)

    def string_from(self, state: SorryState, player: int) -> str:
        view = state._box.game.view(self._colours[player])
        if not self._private:
            view = _public(view)
        if self._perfect_recall:
            box = state._box
            points = box.game.rules.points
            history = history_string(box.log, self._colours, player, self._private, points)
            return information_state_string(view) + " | history " + history
        return observation_string(view)


def _redeal_log(log: list[int], viewer: int, hands: list[list[Card]], rng: Rng) -> list[int]:
    """The log with the cards dealt to the other players (which ``viewer`` did not see) made
    consistent with their new ``hands``: walking back from the end, a card a player played
    was in their hand before, and a card dealt to them is one of the cards in hand then,
    drawn at random (the viewer's own deals stay as they were)."""
    held = [[CARD_INDEX[c] for c in h] for h in hands]
    out = log[:]
    for pos in range(len(out) - 1, -1, -1):
        code = out[pos]
        if code & CHANCE_EVENT:
            who = (code >> 4) & 15
            if who != viewer:
                hand = held[who]
                card = hand.pop(rng.below(len(hand)))
                out[pos] = CHANCE_EVENT | who << 4 | card
        else:
            who, slot = code >> 14, (code >> 10) & 15
            if who != viewer and slot != _NO_CARD:
                held[who].append(slot)
    return out


def _public(view: Any) -> Any:
    """The view without the viewer's own hand (OpenSpiel's public observation)."""
    import dataclasses

    return dataclasses.replace(view, hand=(), legal_moves=())


pyspiel.register_game(_GAME_TYPE, SorryGame)


def load(**params: Any) -> Any:
    """``pyspiel.load_game("python_sorry", params)``."""
    return pyspiel.load_game(SHORT_NAME, params)


__all__ = ["SHORT_NAME", "SorryGame", "SorryObserver", "SorryState", "load"]
