"""What the PettingZoo and Gymnasium adapters share: names, spaces, observations, rewards, text."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import logger, spaces

from holotable.engine import Config, Game, Outcome, State, load

from .encoding import Encoder, EncodingError, action_mask_for, encoder_for

#: Reward of a seat whose illegal action ended the episode (the classic-env convention).
ILLEGAL_REWARD = -1.0

EncoderChoice = Encoder | str | None


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def seat_rewards(outcome: Outcome) -> list[float]:
    """Final rewards in [-1, 1]: the outcome's utilities rescaled (first +1, last -1, ties share)."""
    return [2.0 * u - 1.0 for u in outcome.utilities()]


def resolve_game(game: str | Game[Any, Any]) -> Game[Any, Any]:
    """A registered game by name, or a game definition passed as is (unregistered games work too)."""
    return load(game) if isinstance(game, str) else game


def action_space_size(game: Game[Any, Any], config: Config) -> int:
    try:
        return game.num_actions(config)
    except NotImplementedError as exc:
        raise EncodingError(f"{game.spec.name} has no integer action space, so it has no RL adapter") from exc


#: Largest action space whose index -> action table is built up front.
MAX_ACTION_TABLE = 4096


def action_table(game: Game[Any, Any], num_actions: int) -> tuple[Any, ...]:
    """``game.index_action(i)`` for every index, or ``()`` for a space too large to tabulate.

    Looking an action up costs a fraction of the game's checked conversion, and
    steps do it every time."""
    if num_actions > MAX_ACTION_TABLE:
        return ()
    return tuple(map(game.index_action, range(num_actions)))


def resolve_encoder(choice: EncoderChoice, game: Game[Any, Any], config: Config) -> Encoder:
    """``None``/``"auto"``: the game's explicit encoder, else the generic one;
    ``"explicit"``, ``"generic"``, or a ready :class:`Encoder`."""
    if isinstance(choice, Encoder):
        return choice
    return encoder_for(game, config, choice or "auto")


def observation_space(encoder: Encoder, num_actions: int) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(encoder.low, encoder.high, (encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        }
    )


class MaskMaker:
    """Action masks of one game configuration from the legal actions, memoised by the
    legal-action tuple.

    Turning every legal action into its index costs a Python call per action;
    legal sets repeat a lot (Captain Black has at most 50 distinct ones), so the
    mask of each is built once. Returned masks are fresh copies.
    """

    __slots__ = ("_cache", "_empty", "_index", "num_actions")

    #: Entries kept before the memo is emptied (bounds memory in games with huge legal sets).
    MAX_ENTRIES = 4096

    def __init__(self, game: Game[Any, Any], num_actions: int) -> None:
        self.num_actions = num_actions
        self._index = game.action_index
        self._empty = np.zeros(num_actions, dtype=np.int8)
        self._cache: dict[tuple[Any, ...], Any] = {}

    def make(self, state: State[Any, Any], seat: int) -> Any:
        """A new int8 mask over the action indices; all zero unless ``seat`` is asked now."""
        legal: Sequence[Any] = state.legal_actions(seat)
        if not legal:
            return self._empty.copy()
        key = legal if type(legal) is tuple else tuple(legal)
        mask = self._cache.get(key)
        if mask is None:
            mask = np.zeros(self.num_actions, dtype=np.int8)
            mask[list(map(self._index, key))] = 1
            if len(self._cache) >= self.MAX_ENTRIES:
                self._cache.clear()
            self._cache[key] = mask
        return mask.copy()


class Observer:
    """Builds a seat's observation: what the seat's view encodes to, and its action mask.

    Uses the encoder's fast path when it has one (it reads the state, but only what
    the seat may see; see :mod:`holotable.rl.encoding`), else encodes ``state.view(seat)``;
    masks come from the game's registered mask fast path, else from its legal actions.
    ``encode`` and ``mask`` are plain callables, so a hot loop can call them directly.
    """

    __slots__ = ("encode", "encoder", "mask")

    def __init__(self, game: Game[Any, Any], config: Config, encoder: Encoder, num_actions: int) -> None:
        self.encoder = encoder
        #: ``encode(state, seat)``: the float32 observation vector.
        self.encode: Callable[[State[Any, Any], int], Any] = (
            encoder.encode_state if encoder.state_fn is None else encoder.state_fn
        )
        #: ``mask(state, seat)``: the int8 action mask.
        self.mask: Callable[[State[Any, Any], int], Any] = (
            action_mask_for(game, config) or MaskMaker(game, num_actions).make
        )

    def observe(self, state: State[Any, Any], seat: int) -> dict[str, Any]:
        """``{"observation": float32 vector, "action_mask": int8 vector}`` for ``seat``."""
        return {"observation": self.encode(state, seat), "action_mask": self.mask(state, seat)}


def render_text(state: State[Any, Any]) -> str:
    """The spectator's view as text: a header, then one ``key: value`` line per entry."""
    view = state.view(None)
    moving = ", ".join(agent_name(s) for s in view["to_move"]) or "nobody"
    lines = [f"{state.game.spec.title}, {view['players']} players, ply {view['ply']}, to move: {moving}"]
    skip = {"game", "players", "seat", "ply", "to_move"}
    lines += [f"  {key}: {json.dumps(value)}" for key, value in view.items() if key not in skip]
    return "\n".join(lines)


class GameEnvCore:
    """What both adapters set up and do alike: the game, its config, the action space size,
    the encoder and observer, the episode's state and text rendering.

    A mixin: list it before the framework's base class so its ``render`` is the one used.
    """

    game: Game[Any, Any]
    config: Config
    num_actions: int
    encoder: Encoder
    render_mode: str | None
    #: The engine state of the episode (``None`` before the first reset).
    game_state: State[Any, Any] | None

    def _set_up_game(
        self,
        game_name: str | Game[Any, Any],
        players: int | None,
        params: Mapping[str, Any] | None,
        render_mode: str | None,
        render_modes: Sequence[str],
        observation_encoder: EncoderChoice,
    ) -> Observer:
        """Check the render mode, resolve the game, config and encoder; the observer of this configuration."""
        if render_mode is not None and render_mode not in render_modes:
            raise ValueError(f"render_mode must be one of {list(render_modes)}, not {render_mode!r}")
        self.render_mode = render_mode
        self.game = resolve_game(game_name)
        self.config = self.game.spec.make_config(players, **dict(params or {}))
        self.num_actions = action_space_size(self.game, self.config)
        self.encoder = resolve_encoder(observation_encoder, self.game, self.config)
        self.game_state = None
        return Observer(self.game, self.config, self.encoder, self.num_actions)

    def _require_state(self) -> State[Any, Any]:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    def render(self) -> str | None:
        """``"ansi"``: the spectator's view as text; ``"human"``: print it."""
        if self.render_mode is None:
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = render_text(self._require_state())
        if self.render_mode == "ansi":
            return text
        print(text)
        return None
