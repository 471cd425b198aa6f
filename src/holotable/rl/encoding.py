"""Observation encoders: a seat's JSON view -> a fixed-length float32 vector.

RL libraries need a fixed observation shape, while a view is arbitrary JSON. A
game can register an explicit encoder (a function of the view and the config,
with a fixed size and value bounds); every other game gets the generic encoder of
:mod:`holotable.rl.generic_encoder`, whose layout is learnt by probing random
games. The reference path only ever sees ``state.view(seat)``, so an observation
cannot carry anything the seat is not allowed to know.

Building a JSON view costs more than a whole engine step, so an explicit encoder
may also give a fast path (OpenSpiel's observer design): a function that reads the
engine state directly and writes the same numbers into an array. It must read
only what the seat may see (public facts and its own secrets, never deck orders
or others' hidden cards); the tests hold it to the view-based encoding bit for bit
and check that it cannot tell a state from its determinisations. Action masks may
have a fast path too (:func:`register_action_mask`), held to the masks built from
``state.legal_actions(seat)``.

Built-in explicit encoders live in each game's ``encoding`` module; a game package
may also ship an ``encoding`` module that calls :func:`register_encoder`, which is
imported the first time an encoder for that game is asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from holotable.engine import Config, Game, HolotableError, State, registry

ViewFn = Callable[[Mapping[str, Any]], Sequence[float]]
"""``fn(view)`` -> ``size`` numbers within the encoder's bounds."""
EncoderFactory = Callable[[Config], ViewFn]
"""``factory(config)`` -> the view function of that configuration (constants computed once)."""
StateFn = Callable[[State[Any, Any], int], Any]
"""``fn(state, seat)`` -> a new float32 array of shape ``(size,)`` equal to what the view
function gives for ``state.view(seat)``, built reading only what ``seat`` may see."""
StateEncoderFactory = Callable[[Config], StateFn]
"""``factory(config)`` -> the fast path of that configuration."""
MaskFn = Callable[[State[Any, Any], int], Any]
"""``fn(state, seat)`` -> a new int8 array over the action indices, 1 exactly at the
indices of ``state.legal_actions(seat)`` (all zero when ``seat`` is not asked)."""
MaskFactory = Callable[[Game[Any, Any], Config], MaskFn]
"""``factory(game, config)`` -> the mask fast path of that configuration."""


class EncodingError(HolotableError, ValueError):
    """An encoder produced a vector of the wrong length, or none is available."""


@dataclass(frozen=True)
class Encoder:
    """A view encoder bound to one configuration."""

    name: str
    size: int
    low: float
    high: float
    fn: ViewFn
    #: The optional fast path, equal to ``fn`` on the seat's view (see :data:`StateFn`).
    state_fn: StateFn | None = None

    def encode(self, view: Mapping[str, Any]) -> Any:
        """The view as a new float32 array of shape ``(size,)`` (the reference path)."""
        values = self.fn(view)
        if len(values) != self.size:
            raise EncodingError(f"encoder {self.name!r} returned {len(values)} numbers, expected {self.size}")
        return np.fromiter(values, np.float32, self.size)

    def encode_state(self, state: State[Any, Any], seat: int) -> Any:
        """``encode(state.view(seat))``, by the fast path when there is one."""
        if self.state_fn is None:
            return self.encode(state.view(seat))
        return self.state_fn(state, seat)


@dataclass(frozen=True)
class _Registered:
    factory: EncoderFactory
    size: int
    low: float
    high: float
    state_factory: StateEncoderFactory | None


_REGISTRY: dict[str, _Registered] = {}
_MASKS: dict[str, MaskFactory] = {}
_BUILTIN_MODULES = ("holotable.games.captain_black.encoding",)
_builtin_loaded = False


def register_encoder(
    game_name: str,
    factory: EncoderFactory,
    size: int,
    *,
    low: float = 0.0,
    high: float = 1.0,
    state_factory: StateEncoderFactory | None = None,
) -> None:
    """Use ``factory(config)(view)`` (``size`` numbers in ``[low, high]``) for ``game_name``,
    with ``state_factory(config)`` as its fast path when given (see :data:`StateFn`)."""
    if size < 1:
        raise EncodingError("an encoder must produce at least one number")
    if not low < high:
        raise EncodingError("an encoder's low bound must be below its high bound")
    _REGISTRY[game_name] = _Registered(factory, size, low, high, state_factory)
    encoder_for.cache_clear()


def register_action_mask(game_name: str, factory: MaskFactory) -> None:
    """Use ``factory(game, config)`` for ``game_name``'s action masks (see :data:`MaskFn`)
    instead of turning ``state.legal_actions(seat)`` into a mask every step."""
    _MASKS[game_name] = factory
    action_mask_for.cache_clear()


@lru_cache(maxsize=64)
def action_mask_for(game: Game[Any, Any], config: Config) -> MaskFn | None:
    """The registered mask fast path of ``config``, or ``None`` (then masks come from
    the legal actions)."""
    _load_builtins()
    if game.spec.name not in _MASKS:
        _load_game_hook(game)
    factory = _MASKS.get(game.spec.name)
    return None if factory is None else factory(game, config)


def registered_encoder_names() -> list[str]:
    """Games with an explicit encoder (built-ins and game packages loaded so far)."""
    _load_builtins()
    return sorted(_REGISTRY)


def _load_builtins() -> None:
    global _builtin_loaded
    if _builtin_loaded:
        return
    _builtin_loaded = True
    for module in _BUILTIN_MODULES:
        importlib.import_module(module)


def _load_game_hook(game: Game[Any, Any]) -> None:
    """Import the game package's optional ``encoding`` module (it registers itself)."""
    registry.import_companion(game, "encoding")


@lru_cache(maxsize=64)
def encoder_for(game: Game[Any, Any], config: Config, kind: str = "auto") -> Encoder:
    """The encoder for ``config``: ``kind`` is ``"auto"`` (explicit if registered, else
    generic), ``"explicit"`` or ``"generic"``. Cached, so probing happens once per config."""
    if kind not in ("auto", "explicit", "generic"):
        raise EncodingError(f"unknown encoder kind {kind!r}; use 'auto', 'explicit' or 'generic'")
    name = game.spec.name
    if kind != "generic":
        _load_builtins()
        if name not in _REGISTRY:
            _load_game_hook(game)
        entry = _REGISTRY.get(name)
        if entry is not None:
            state_fn = None if entry.state_factory is None else entry.state_factory(config)
            enc = Encoder(f"{name}/explicit", entry.size, entry.low, entry.high, entry.factory(config), state_fn)
            if state_fn is not None:
                _check_fast_path(enc, State.new(game, config, seed=0))
            return enc
        if kind == "explicit":
            raise EncodingError(f"{name} has no explicit encoder; use the generic one")
    from .generic_encoder import generic_encoder

    return generic_encoder(game, config)


def _check_fast_path(enc: Encoder, state: State[Any, Any]) -> None:
    """Refuse a fast path that disagrees with the view encoding on an opening position
    (a cheap guard against a wrong size, type or layout; the tests check many more)."""
    assert enc.state_fn is not None
    for seat in range(state.players):
        fast, reference = enc.state_fn(state, seat), enc.encode(state.view(seat))
        if not (isinstance(fast, np.ndarray) and fast.dtype == np.float32 and fast.shape == reference.shape):
            raise EncodingError(f"encoder {enc.name!r}: its fast path must return a float32 array of {enc.size}")
        if fast.tobytes() != reference.tobytes():
            raise EncodingError(f"encoder {enc.name!r}: its fast path disagrees with the view encoding")
