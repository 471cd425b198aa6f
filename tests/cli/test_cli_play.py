"""``holotable play``: scripted humans, bots, undo, save and load."""

from __future__ import annotations

import json

import pytest

import holotable
from holotable.agents import agent_names
from holotable.cli.seal import local_seal
from holotable.engine import ActionError, Match, State
from holotable.sim.runner import make_agents, play_game

GAME = "captain-black"
# start_seat=0 puts the human (seat 0) first whatever the seed.
BASE = ("play", GAME, "--players", "2", "--humans", "1", "--bots", "random", "--seed", "1", "--param", "start_seat=0")


def engine_error(text: str) -> str:
    """The reason the engine gives for ``text`` as the first action of the BASE game, as the
    terminal shows it: the plain reason, then the rule ID (if any) as a detail."""
    state = holotable.load(GAME).new_state(players=2, seed=1, start_seat=0)
    with pytest.raises(ActionError) as info:
        state.apply(text, 0)
    error = info.value
    return f"✗ {error.reason} (rule {error.rule} · " if error.rule else f"✗ {error.reason} ("


def test_bad_input_is_refused_with_the_engines_reason_then_a_good_one_plays(cli, tmp_path):
    save = tmp_path / "m.json"
    result = cli(*BASE, "--save", str(save), input="draw 99\nfoo\ndraw 2\nquit\n")
    assert result.exit_code == 0, result.output
    assert engine_error("draw 99") in result.stdout
    assert engine_error("foo") in result.stdout
    match = Match.load(save, local_seal())
    assert match.actions[0] == (0, "draw 2")  # the refused inputs left no trace
    assert all(seat == 1 for seat, _ in match.actions[1:])  # then the bot, until seat 0 is asked again
    assert match.state.to_move() == (0,)
    assert match.meta["seats"] == ["human", "random"]


def test_help_lists_the_legal_actions_and_commands(cli):
    result = cli(*BASE, input="?\nquit\n")
    assert result.exit_code == 0, result.output
    legal = holotable.load(GAME).new_state(players=2, seed=1, start_seat=0).legal_actions(0)
    assert f"Legal actions ({len(legal)}): draw 1..{legal[-1].k}" in result.stdout
    for command in ("undo", "save FILE", "quit"):
        assert command in result.stdout


def test_a_bare_number_is_an_action(cli, tmp_path):
    save = tmp_path / "m.json"
    result = cli(*BASE, "--save", str(save), input="3\nquit\n")
    assert result.exit_code == 0, result.output
    assert Match.load(save, local_seal()).actions[0] == (0, "draw 3")


def test_save_then_load_resumes_the_same_match(cli, tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    result = cli(*BASE, input=f"draw 2\nsave {first}\nquit\n")
    assert result.exit_code == 0, result.output
    saved = Match.load(first, local_seal())
    result = cli("play", "--load", str(first), "--save", str(second), input="draw 1\nquit\n")
    assert result.exit_code == 0, result.output
    resumed = Match.load(second, local_seal())
    assert resumed.actions[: len(saved.actions)] == saved.actions
    assert resumed.actions[len(saved.actions)] == (0, "draw 1")
    assert resumed.meta["seats"] == ["human", "random"]  # the seating came back from the save


def test_load_refuses_a_different_game_or_player_count(cli, tmp_path):
    path = tmp_path / "m.json"
    Match.new(holotable.load(GAME), players=2, seed=1).save(path)
    result = cli("play", "--load", str(path), "--players", "3")
    assert result.exit_code == 2
    assert "2 players" in result.stderr


def test_undo_never_takes_back_a_bot_reply_or_a_draw(cli, tmp_path):
    # Board Game Arena's policy: nothing before the first move; after the bot has replied, the
    # human's draw is someone else's past; and a draw is chance, so it could never be retaken.
    save = tmp_path / "m.json"
    result = cli(*BASE, "--save", str(save), input="undo\ndraw 2\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "you cannot take that back: nothing has been played yet" in result.stdout
    assert "another player has acted since your last action" in result.stdout
    assert "took back" not in result.stdout
    match = Match.load(save, local_seal())
    assert match.actions[0] == (0, "draw 2")
    assert [seat for seat, _ in match.actions][:2] == [0, 1]


def test_end_of_input_stops_cleanly(cli):
    result = cli(*BASE, input="draw 1\n")
    assert result.exit_code == 0, result.output
    assert "end of input" in result.stdout


def test_all_bot_game_prints_the_whole_log_and_the_runners_result(cli, tmp_path):
    save = tmp_path / "m.json"
    result = cli("play", GAME, "--players", "3", "--humans", "0", "--bots", "random", "--seed", "5",
                 "--save", str(save))
    assert result.exit_code == 0, result.output
    match = Match.load(save, local_seal())
    assert match.state.is_terminal()
    at = 0
    for event in match.state.log_for(None):  # every public event, in order
        at = result.stdout.find(event.text, at)
        assert at >= 0, event.text
        at += len(event.text)
    # The same seats and seeds through the shared simulation loop give the same game.
    game = holotable.load(GAME)
    _, expected = play_game(game, match.config, 5, make_agents(game, ["random"] * 3, 5))
    assert match.state.outcome() == expected.outcome
    assert f"Result: {expected.outcome.reason}" in result.stdout


def test_a_human_is_only_shown_its_own_view(cli, monkeypatch):
    seen: list[tuple[int | None, bool]] = []
    original = State.view

    def spy(self: State, seat: int | None = None) -> dict:  # type: ignore[type-arg]
        seen.append((seat, self.is_terminal()))
        return original(self, seat)

    monkeypatch.setattr(State, "view", spy)
    monkeypatch.setattr(State, "full", lambda self: pytest.fail("play must never read the full state"))
    result = cli(*BASE, input="draw 1\n" * 200)
    assert result.exit_code == 0, result.output
    assert "Final result" in result.stdout
    assert seen and {seat for seat, terminal in seen if not terminal} == {0}
    assert {seat for seat, terminal in seen if terminal} <= {0, None}  # the spectator view only once it is over


def test_hot_seat_hands_over_between_humans(cli, tmp_path):
    save = tmp_path / "m.json"
    result = cli("play", GAME, "--players", "2", "--humans", "2", "--seed", "2", "--param", "start_seat=0",
                 "--save", str(save), input="draw 1\ndraw 1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "pass to Seat 2" in result.stdout
    assert "pass to Seat 1" in result.stdout
    assert [seat for seat, _ in Match.load(save, local_seal()).actions] == [0, 1]


def test_seats_option_places_humans_and_bots(cli, tmp_path):
    save = tmp_path / "m.json"
    result = cli("play", GAME, "--seats", "random,human", "--seed", "3", "--param", "start_seat=0",
                 "--save", str(save), input="quit\n")
    assert result.exit_code == 0, result.output
    match = Match.load(save, local_seal())
    assert match.config.players == 2
    assert match.meta["seats"] == ["random", "human"]
    assert [seat for seat, _ in match.actions] == [0]  # the bot moved first, then seat 1 quit


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("play", "no-such-game"), "no game called 'no-such-game'"),
        (("play", GAME, "--players", "9"), "2-4 players"),
        (("play", GAME, "--bots", "nobody"), "no agent 'nobody'"),
        (("play", GAME, "--param", "nonsense=1"), "no parameter(s) nonsense"),
        (("play", GAME, "--param", "min_draw=many"), "expects int"),
        (("play", GAME, "--players", "2", "--humans", "3"), "--humans must be 0..2"),
        (("play", GAME, "--seats", "human,random", "--humans", "1"), "not both"),
        (("play", GAME, "--players", "3", "--seats", "human,random"), "names 2 seats"),
        (("play",), "name a GAME"),
    ],
)
def test_user_errors_exit_2_without_traceback(cli, args, message):
    result = cli(*args, input="quit\n")
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_corrupt_save_cannot_be_loaded(cli, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "something else"}))
    result = cli("play", "--load", str(path))
    assert result.exit_code == 2
    assert "not a holotable match file" in result.stderr


def test_heuristic_bots_play_to_the_end(cli, require_agent):
    require_agent("heuristic")
    result = cli("play", GAME, "--players", "2", "--humans", "0", "--bots", "heuristic", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "Final result" in result.stdout
    assert "Seat 1: heuristic, Seat 2: heuristic" in result.stdout


def test_default_bot_is_the_heuristic_when_there_is_one(cli, require_agent):
    require_agent("heuristic")
    result = cli("play", GAME, "--players", "2", "--seed", "4", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Seat 1: human, Seat 2: heuristic" in result.stdout


def test_a_loaded_match_can_be_finished_by_bots(cli, tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert cli(*BASE, "--save", str(first), input="draw 4\nquit\n").exit_code == 0
    result = cli("play", "--load", str(first), "--humans", "0", "--save", str(second))
    assert result.exit_code == 0, result.output
    assert "Final result" in result.stdout
    saved, finished = Match.load(first, local_seal()), Match.load(second, local_seal())
    assert finished.state.is_terminal()
    assert finished.actions[: len(saved.actions)] == saved.actions
    default_bot = "heuristic" if "heuristic" in agent_names(GAME) else "random"
    assert finished.meta["seats"] == [default_bot, default_bot]  # --humans re-seats everyone
