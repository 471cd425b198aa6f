"""The generic encoder: any JSON view -> a fixed-length vector, laid out by probing.

Games without an explicit encoder still need a fixed observation shape. The layout
is learnt once per configuration from the views of every seat along a few random
games (``PROBE_GAMES`` games, at most ``PROBE_VIEWS`` views, fixed seeds, so the
layout is the same in every process). It is a tree that mirrors those views:

* a number or bool: one slot, ``value / scale`` where ``scale`` is the largest
  magnitude seen there (at least 1), clipped to ``[-CLIP, CLIP]``;
* a position that was ``None`` while probing gets an extra "is null" flag;
* a string: a one-hot over the strings seen there, if there were at most
  ``MAX_WORDS`` (enums such as ``"filled"``/``"empty"``); free text is skipped;
* a list: a length slot (``len / longest seen``), then one subtree per index up to
  the longest list seen;
* a dict: one subtree per key seen.

Slots are numbered breadth first, so top-level facts come first, and the layout is
cut at ``MAX_SIZE`` slots (deep history is what gets dropped). A position never
seen while probing (a longer list, a new key) is ignored when encoding. The size
is therefore fixed per configuration, and every value lies in ``[-CLIP, CLIP]``.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from holotable.engine import Config, Game, Rng, State, derive_seed

from .encoding import Encoder

PROBE_GAMES = 8
PROBE_VIEWS = 4000
MAX_WORDS = 16
MAX_SIZE = 2048
CLIP = 8.0


class Node:
    """One position of the view tree: what was seen there, and its slots once laid out."""

    __slots__ = (
        "items",
        "keys",
        "len_slot",
        "list_cap",
        "null_slot",
        "nullable",
        "num_slot",
        "numeric",
        "scale",
        "word_slots",
        "words",
    )

    def __init__(self) -> None:
        self.numeric = False
        self.nullable = False
        self.scale = 1.0
        #: Strings seen here, in first-seen order; ``None`` once there were too many.
        self.words: dict[str, None] | None = {}
        self.keys: dict[Any, Node] = {}
        self.items: list[Node] = []
        self.list_cap = 0  # 0: never a list here
        self.num_slot = self.null_slot = self.len_slot = -1
        self.word_slots: dict[str, int] = {}

    def observe(self, value: Any) -> None:
        if value is None:
            self.nullable = True
        elif isinstance(value, bool | int | float):
            self.numeric = True
            magnitude = abs(float(value))
            if math.isfinite(magnitude) and magnitude > self.scale:
                self.scale = magnitude
        elif isinstance(value, str):
            if self.words is not None:
                self.words[value] = None
                if len(self.words) > MAX_WORDS:
                    self.words = None
        elif isinstance(value, Mapping):
            for key, item in value.items():
                child = self.keys.get(key)
                if child is None:
                    child = self.keys[key] = Node()
                child.observe(item)
        elif isinstance(value, list | tuple):
            self.list_cap = max(self.list_cap, len(value), 1)
            while len(self.items) < len(value):
                self.items.append(Node())
            for child, item in zip(self.items, value, strict=False):
                child.observe(item)

    def children(self) -> list[Node]:
        return [self.keys[k] for k in sorted(self.keys, key=str)] + self.items


def lay_out(root: Node, max_size: int = MAX_SIZE) -> int:
    """Number the slots breadth first, at most ``max_size``; returns the size used."""
    size = 0

    def take() -> int:
        nonlocal size
        if size >= max_size:
            return -1
        size += 1
        return size - 1

    queue = deque([root])
    while queue:
        node = queue.popleft()
        if node.numeric:
            node.num_slot = take()
        if node.nullable:
            node.null_slot = take()
        if node.list_cap:
            node.len_slot = take()
        if node.words:
            for word in sorted(node.words):
                slot = take()
                if slot >= 0:
                    node.word_slots[word] = slot
        queue.extend(node.children())
    return size


def fill(node: Node, value: Any, out: list[float]) -> None:
    """Write ``value`` into ``out`` at the slots of ``node`` (unseen positions are skipped)."""
    if value is None:
        if node.null_slot >= 0:
            out[node.null_slot] = 1.0
    elif isinstance(value, bool | int | float):
        if node.num_slot >= 0:
            x = float(value) / node.scale
            out[node.num_slot] = 0.0 if math.isnan(x) else max(-CLIP, min(CLIP, x))
    elif isinstance(value, str):
        slot = node.word_slots.get(value)
        if slot is not None:
            out[slot] = 1.0
    elif isinstance(value, Mapping):
        for key, child in node.keys.items():
            if key in value:
                fill(child, value[key], out)
    elif isinstance(value, list | tuple):
        if node.len_slot >= 0:
            out[node.len_slot] = min(CLIP, len(value) / node.list_cap)
        for child, item in zip(node.items, value, strict=False):
            fill(child, item, out)


def probe_views(game: Game[Any, Any], config: Config) -> Iterator[dict[str, Any]]:
    """Every seat's view along a few random games with fixed seeds."""
    rng = Rng(derive_seed("holotable.rl", "probe", game.spec.name))
    budget = PROBE_VIEWS
    for index in range(PROBE_GAMES):
        if budget <= 0:
            return
        st = State.new(game, config, derive_seed("holotable.rl", "probe", game.spec.name, index))
        while budget > 0:
            for seat in range(config.players):
                yield st.view(seat)
            budget -= config.players
            if st.is_terminal() or st.ply >= game.spec.max_game_length:
                break
            for seat in st.to_move():
                legal = st.legal_actions(seat)
                if not legal:  # a broken game; the probe just stops here
                    return
                st.apply(legal[rng.randrange(len(legal))], seat)


def build_layout(views: Iterable[Mapping[str, Any]], max_size: int = MAX_SIZE) -> tuple[Node, int]:
    """The layout tree of ``views`` and its size."""
    root = Node()
    for view in views:
        root.observe(view)
    size = lay_out(root, max_size)
    return root, size


def layout_encoder(name: str, root: Node, size: int) -> Encoder:
    """An :class:`Encoder` over a laid-out tree."""
    width = max(size, 1)  # a vector is never empty, even for a view with nothing in it

    def encode(view: Mapping[str, Any]) -> list[float]:
        out = [0.0] * width
        fill(root, view, out)
        return out

    return Encoder(name, width, -CLIP, CLIP, encode)


def generic_encoder(game: Game[Any, Any], config: Config) -> Encoder:
    """The generic encoder of ``config``, laid out from probe games."""
    root, size = build_layout(probe_views(game, config))
    return layout_encoder(f"{game.spec.name}/generic", root, size)
