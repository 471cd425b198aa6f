"""Match: config + seed + action log. Exact replay, positions, undo, and saves that fail loudly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import holotable
from holotable.engine import ConfigError, IllegalActionError, Match, NotYourTurnError, Rng, SaveError
from holotable.testing.conformance import temporarily_registered
from holotable.testing.toys import Bid, SealedBid

CB = holotable.load("captain-black")


def played(plies: int = 12, seed: int = 7, players: int = 3) -> Match:
    """A Captain Black match with ``plies`` random (seeded) actions."""
    match = Match.new(CB, players=players, seed=seed)
    rng = Rng(seed)
    for _ in range(plies):
        match.play(rng.choice(match.state.legal_actions()))
    return match


def test_play_logs_text_and_refusals_log_nothing() -> None:
    match = Match.new(CB, players=2, seed=1, max_handful=4)
    seat = match.state.to_move()[0]
    match.play("draw 3")
    match.play(1)  # an index: draw 2
    assert match.actions == [(seat, "draw 3"), (1 - seat, "draw 2")]
    with pytest.raises(IllegalActionError):
        match.play("draw 5")
    with pytest.raises(NotYourTurnError):
        match.play("draw 1", seat=1 - match.state.to_move()[0])
    assert len(match.actions) == 2 and match.state.ply == 2


def test_replaying_the_log_rebuilds_the_same_state() -> None:
    match = played(20)
    again = Match(CB, match.config, match.seed, list(match.actions))
    assert again.state.fingerprint() == match.state.fingerprint()
    assert again.state.history == match.state.history
    assert [e.to_dict() for e in again.state.events or []] == [e.to_dict() for e in match.state.events or []]


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    match = played(15)
    match.meta["players"] = ["ann", "bot"]
    path = tmp_path / "game.json"
    match.save(path)
    loaded = Match.load(path)
    assert loaded.state.fingerprint() == match.state.fingerprint()
    assert loaded.actions == match.actions
    assert loaded.config == match.config and loaded.seed == match.seed
    assert loaded.meta == {"players": ["ann", "bot"]}
    assert loaded.to_json() == match.to_json()
    data = json.loads(path.read_text())
    assert (data["format"], data["version"], data["game"]) == ("holotable-match", 1, "captain-black")


def test_a_finished_game_saves_and_loads() -> None:
    match = Match.new(CB, players=2, seed=3)
    while not match.state.is_terminal():
        match.play(match.state.legal_actions()[-1])
    loaded = Match.from_json(match.to_json())
    assert loaded.state.is_terminal()
    assert loaded.state.outcome() == match.state.outcome()


def test_sealed_choices_replay_from_a_save() -> None:
    game = SealedBid()
    with temporarily_registered(game):
        match = Match.new(game, players=3, seed=5)
        for seat in (2, 0):
            match.play(Bid(match.state.data.hands[seat][0]), seat)
        loaded = Match.from_json(match.to_json())
        assert loaded.state.pending == match.state.pending
        assert loaded.state.fingerprint() == match.state.fingerprint()
    assert "test-sealed-bid" not in holotable.games


def test_state_at_and_states_give_every_position() -> None:
    match = played(10)
    prints = [s.fingerprint() for s in match.states()]
    assert len(prints) == 11
    assert prints[-1] == match.state.fingerprint()
    for ply in (0, 4, 10):
        position = match.state_at(ply)
        assert position.ply == ply
        assert position.fingerprint() == prints[ply]
    for bad in (-1, 11):
        with pytest.raises(IndexError):
            match.state_at(bad)
    # Positions are independent of the live state.
    live = match.state.fingerprint()
    position = match.state_at(3)
    position.apply(position.legal_actions()[0])
    assert match.state.fingerprint() == live
    assert match.state_at(3).fingerprint() == prints[3]


def test_undo_steps_back_and_play_goes_on() -> None:
    match = played(8)
    prints = [s.fingerprint() for s in match.states()]
    log = list(match.actions)
    match.undo()
    assert match.state.fingerprint() == prints[7] and match.actions == log[:7]
    match.undo(3)
    assert match.state.fingerprint() == prints[4] and match.actions == log[:4]
    match.play(log[4][1])
    assert match.state.fingerprint() == prints[5]
    match.undo(100)
    assert match.actions == [] and match.state.fingerprint() == prints[0]


# ---------------------------------------------------------------------------- corrupt saves


def good_save() -> dict[str, Any]:
    return played(6, seed=2, players=2).to_dict()


def edited(**changes: Any) -> str:
    data = good_save()
    for key, value in changes.items():
        if value is _DROP:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


_DROP = object()


def entry_edit(i: int, **changes: Any) -> str:
    data = good_save()
    data["actions"][i].update(changes)
    return json.dumps(data)


def config_edit(**params: Any) -> str:
    data = good_save()
    data["config"]["params"].update(params)
    return json.dumps(data)


CORRUPT: list[tuple[str, str, str]] = [
    ("empty", "", "not valid JSON"),
    ("not json", "holotable!", "not valid JSON"),
    ("truncated", json.dumps(played(6, seed=2, players=2).to_dict())[:-40], "not valid JSON"),
    ("a list", "[1, 2]", "must be a JSON object"),
    ("wrong format", edited(format="chess-pgn"), "not a holotable match file (format='chess-pgn')"),
    ("no format", edited(format=_DROP), "not a holotable match file (format=None)"),
    ("wrong version", edited(version=2), "unsupported save version 2"),
    ("unknown game", edited(game="chess"), "no game called 'chess'"),
    ("no game", edited(game=_DROP), "no game called 'None'"),
    ("config not a mapping", edited(config=[2]), "a config must be a mapping"),
    ("config for another game", edited(config={"game": "chess", "players": 2}), "config is for 'chess'"),
    ("bad player count", edited(config={"players": 9}), "takes 2-4 players, not 9"),
    ("unknown param", config_edit(speed=3), "no parameter(s) speed"),
    ("bad param value", config_edit(min_draw="lots"), "parameter 'min_draw' expects int"),
    ("config refused by set-up", config_edit(start_seat=3), "start_seat 3 is not a seat"),
    ("seed not an int", edited(seed="7"), "seed must be an integer"),
    ("seed a bool", edited(seed=True), "seed must be an integer"),
    ("actions not a list", edited(actions={"0": "draw 1"}), "actions must be a list"),
    ("entry not an object", edited(actions=["draw 1"]), "action 1 must be an object"),
    ("non-int seat", entry_edit(2, seat="1"), "action 3 must be an object with an integer seat"),
    ("bool seat", entry_edit(0, seat=False), "action 1 must be an object with an integer seat"),
    ("action not text", entry_edit(1, action=3), "action 2 must be an object"),
    ("garbage action", entry_edit(3, action="steal"), "action 4 ('steal' by seat"),
    ("illegal action", entry_edit(0, action="draw 60"), "action 1 ('draw 60' by seat"),
    ("wrong seat", entry_edit(4, seat=9), "action 5 ('draw"),
    ("meta not an object", edited(meta=[1]), "meta must be an object"),
]


@pytest.mark.parametrize(("text", "message"), [c[1:] for c in CORRUPT], ids=[c[0] for c in CORRUPT])
def test_a_corrupt_save_is_a_save_error_saying_what_is_wrong(text: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(SaveError) as err:
        Match.from_json(text)
    assert message in str(err.value)
    # The same through a file, which is how users meet it.
    path = tmp_path / "save.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SaveError) as from_file:
        Match.load(path)
    assert message in str(from_file.value)


def test_a_move_that_does_not_replay_is_reported_with_its_reason() -> None:
    data = good_save()
    seat = data["actions"][2]["seat"]
    data["actions"][2]["seat"] = 1 - seat
    with pytest.raises(SaveError, match=r"action 3 .* does not replay: seat \d is not asked to move"):
        Match.from_dict(data)


def test_an_unreadable_file_is_a_save_error(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="cannot read"):
        Match.load(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SaveError, match="cannot read"):
        Match.load(binary)


def test_new_with_a_bad_config_is_a_config_error_not_a_save_error() -> None:
    with pytest.raises(ConfigError) as err:
        Match.new(CB, players=2, start_seat=3)
    assert not isinstance(err.value, SaveError)
