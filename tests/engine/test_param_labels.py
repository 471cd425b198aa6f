"""Every built-in game's options have plain words for players; the code names stay for the API and CLI."""

from __future__ import annotations

import re

import pytest

from holotable.engine import Param, registry
from holotable.engine.errors import ConfigError

#: What a code looks like in a label: an underscore, a rule record (``AMB-03``, ``SP-AMB-01``), a
#: board id (``crossroads-60x60``), camelCase, or capitals (``CW``, ``NNDNNDNNDP``) other than the
#: games' own printed words (the Analog GPS Tracker card, MC the money of Space Pirates).
CODE = re.compile(r"_|\b[A-Z]+-[A-Z]*-?\d+\b|\b[a-z]+-\d+(x\d+)?\b|\b[a-z]+[A-Z]\w*|\b(?!GPS\b|MC\b)[A-Z]{2,}\b")
GAMES = ["buccaneers", "captain-black", "council", "kyrum", "space-pirates"]


def _params() -> list[tuple[str, Param]]:
    return [(spec.name, p) for spec in registry.specs() if spec.name in GAMES for p in spec.params]


def test_every_built_in_game_is_checked() -> None:
    assert sorted({game for game, _ in _params()}) == GAMES


@pytest.mark.parametrize(("game", "param"), _params(), ids=lambda v: v if isinstance(v, str) else v.name)
def test_every_option_has_plain_words(game: str, param: Param) -> None:
    label = param.label
    assert label, f"{game}: {param.name} has no label"
    assert label[0].isupper() and len(label.split()) <= 7, label
    assert not CODE.search(label), f"{game}: {param.name} label looks like code: {label!r}"
    if param.choices is None:
        assert param.choice_labels == ()
        return
    assert len(param.choice_labels) == len(param.choices), f"{game}: {param.name} needs words for each choice"
    for value, words in zip(param.choices, param.choice_labels, strict=True):
        assert words and not CODE.search(words), f"{game}: {param.name}={value!r} shown as {words!r}"
    assert len(set(param.choice_labels)) == len(param.choices)  # two choices never read the same
    data = param.to_dict()
    assert (data["label"], data["choice_labels"]) == (label, list(param.choice_labels))


def test_words_fall_back_to_the_code_names() -> None:
    data = Param("egg_pool_ignore", "all", "str", choices=("all", "on_reveal", None), optional=True).to_dict()
    assert data["label"] == "Egg pool ignore"
    assert data["choice_labels"] == ["all", "on reveal", "empty"]
    assert Param("pile", 15).to_dict()["choice_labels"] is None


def test_choice_labels_must_match_the_choices() -> None:
    with pytest.raises(ConfigError, match="2 choice labels for 3 choices"):
        Param("speed", "fast", "str", choices=("fast", "slow", "warp"), choice_labels=("Fast", "Slow"))
