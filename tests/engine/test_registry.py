"""The registry (``holotable.load``) and ``holotable.games`` as a collection of specs."""

from __future__ import annotations

import pytest

import holotable
from holotable.engine import GameSpec, UnknownGameError, load, names, specs
from holotable.testing.conformance import temporarily_registered
from holotable.testing.toys import Nim


@pytest.mark.parametrize("name", ["captain-black", "captain_black", "cb", "captainblack"])
def test_load_by_name_or_alias(name: str) -> None:
    game = load(name)
    assert game.spec.name == "captain-black"
    assert game is holotable.load("captain-black")


def test_unknown_name_lists_the_registered_games() -> None:
    with pytest.raises(UnknownGameError) as err:
        load("captain-white")
    message = str(err.value)
    assert message.startswith("no game called 'captain-white'; registered games: ")
    assert "captain-black" in message
    assert isinstance(err.value, KeyError)  # a mapping-style miss...
    assert str(err.value) == message  # ...without KeyError's extra quotes
    assert str(UnknownGameError()) == "unknown game"


def test_names_and_specs_agree() -> None:
    assert names() == sorted(names())
    assert [s.name for s in specs()] == names()
    assert "captain-black" in names()


def test_games_collection() -> None:
    games = holotable.games
    listed = list(games)
    assert all(isinstance(spec, GameSpec) for spec in listed)
    assert [spec.name for spec in listed] == names()
    assert len(games) == len(listed)
    assert games() == listed
    assert games.available() == listed
    assert "captain-black" in games
    assert "chess" not in games
    assert 3 not in games
    assert games["captain-black"].title == "Captain Black"
    assert games["cb"] is games["captain-black"]
    with pytest.raises(UnknownGameError):
        games["chess"]
    with pytest.raises(KeyError):  # so ``dict``-like code can catch the usual error
        games["chess"]


def test_register_adds_a_game_with_aliases_until_restored() -> None:
    nim = Nim()
    before = names()
    with temporarily_registered(nim) as game:
        assert game is nim
        holotable.engine.register(nim, "nim-test-alias")
        assert load("test-nim") is nim
        assert load("test_nim") is nim  # dashes become underscores automatically
        assert load("nim-test-alias") is nim
        assert "test-nim" in holotable.games
        assert names() == sorted([*before, "test-nim"])
    assert names() == before
    for name in ("test-nim", "test_nim", "nim-test-alias"):
        with pytest.raises(UnknownGameError):
            load(name)
