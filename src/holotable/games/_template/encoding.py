"""Last Pebble's RL observation (the ``encoder`` role): the pile and whose turn, in [0, 1].

>>> ENCODER.size, ENCODER.factory(None)({"pile": 6, "turn": 1})  # type: ignore[arg-type]
(3, [0.1, 1.0, 0.0])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from holotable.engine import Config
from holotable.rl.encoding import EncoderSpec

SIZE = 3


def make_encoder(config: Config) -> Callable[[Mapping[str, Any]], list[float]]:
    """The view function: pile / 60 (the largest pile), then one number per seat, 1 for the one to move."""

    def encode(view: Mapping[str, Any]) -> list[float]:
        return [view["pile"] / 60, float(view["turn"] == 1), float(view["turn"] == 0)]

    return encode


ENCODER = EncoderSpec(make_encoder, SIZE)
