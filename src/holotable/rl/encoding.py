"""Observation encoders: a seat's JSON view -> a fixed-length float32 vector.

RL libraries need a fixed observation shape, while a view is arbitrary JSON. A
game can name an explicit encoder (a function of the view and the config,
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
have a fast path too (:attr:`EncoderSpec.mask_factory`), held to the masks built from
``state.legal_actions(seat)``.

A game names its explicit encoder, an :class:`EncoderSpec`, as the ``encoder`` role of its
manifest (:mod:`holotable.engine.manifest`); the built-in games keep theirs in their
``encoding`` module, imported the first time an encoder for that game is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from holotable.engine import Config, Game, HolotableError, State, registry
from holotable.engine.manifest import Manifest

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
class EncoderSpec:
    """A game's explicit encoder, named as the ``encoder`` role of its manifest: ``factory(config)(view)``
    gives ``size`` numbers in ``[low, high]``; ``state_factory(config)`` is its fast path (see
    :data:`StateFn`) and ``mask_factory(game, config)`` the fast path of its action masks (see
    :data:`MaskFn`), both optional."""

    factory: EncoderFactory
    size: int
    low: float = 0.0
    high: float = 1.0
    state_factory: StateEncoderFactory | None = None
    mask_factory: MaskFactory | None = None

    def __post_init__(self) -> None:
        if self.size < 1:
            raise EncodingError("an encoder must produce at least one number")
        if not self.low < self.high:
            raise EncodingError("an encoder's low bound must be below its high bound")


def _encoder_spec(game: Game[Any, Any], manifest: Manifest | None) -> EncoderSpec | None:
    spec = None if manifest is None else manifest.resolve("encoder")
    if spec is not None and not isinstance(spec, EncoderSpec):
        raise EncodingError(f"{game.spec.name}'s manifest names {spec!r} as its encoder, not an EncoderSpec")
    return spec


def action_mask_for(game: Game[Any, Any], config: Config) -> MaskFn | None:
    """The mask fast path of ``config`` its encoder gives, or ``None`` (then masks come from
    the legal actions)."""
    return _action_mask_for(game, config, registry.find(game.spec.name))


# The manifest is part of the key: a game registered again (a test's toy with an encoder) is asked afresh.
@lru_cache(maxsize=64)
def _action_mask_for(game: Game[Any, Any], config: Config, manifest: Manifest | None) -> MaskFn | None:
    spec = _encoder_spec(game, manifest)
    return None if spec is None or spec.mask_factory is None else spec.mask_factory(game, config)


def registered_encoder_names() -> list[str]:
    """Games whose manifest names an explicit encoder (nothing is imported)."""
    return [name for name in registry.names() if registry.manifest(name).encoder is not None]


def encoder_for(game: Game[Any, Any], config: Config, kind: str = "auto") -> Encoder:
    """The encoder for ``config``: ``kind`` is ``"auto"`` (explicit if the game's manifest names
    one, else generic), ``"explicit"`` or ``"generic"``. Cached, so probing happens once per config."""
    return _encoder_for(game, config, kind, registry.find(game.spec.name))


@lru_cache(maxsize=64)
def _encoder_for(game: Game[Any, Any], config: Config, kind: str, manifest: Manifest | None) -> Encoder:
    if kind not in ("auto", "explicit", "generic"):
        raise EncodingError(f"unknown encoder kind {kind!r}; use 'auto', 'explicit' or 'generic'")
    name = game.spec.name
    if kind != "generic":
        entry = _encoder_spec(game, manifest)
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
