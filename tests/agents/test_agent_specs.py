"""Agent specs with options ("ismcts:iterations=200") work everywhere an agent name does."""

import pytest

import holotable
from holotable.agents import make_agent, observe, parse_agent_spec
from holotable.agents.base import UnknownAgentError
from holotable.engine import ConfigError
from holotable.sim.batch import simulate

GAME = holotable.load("captain-black")


def test_parse_agent_spec_reads_typed_options() -> None:
    assert parse_agent_spec("ismcts:iterations=50:exploration=0.3:rollout=random") == (
        "ismcts",
        {"iterations": 50, "exploration": 0.3, "rollout": "random"},
    )
    assert parse_agent_spec(" heuristic ") == ("heuristic", {})
    assert parse_agent_spec("x:flag=true")[1] == {"flag": True}


def test_parse_agent_spec_rejects_options_without_a_value() -> None:
    with pytest.raises(UnknownAgentError, match="key=value"):
        parse_agent_spec("ismcts:iterations")


def test_make_agent_applies_spec_options_and_keywords_win() -> None:
    agent = make_agent("ismcts:iterations=7", GAME, seed=1)
    assert agent.options["iterations"] == 7  # type: ignore[attr-defined]
    override = make_agent("ismcts:iterations=7", GAME, seed=1, iterations=9)
    assert override.options["iterations"] == 9  # type: ignore[attr-defined]
    state = GAME.new_state(players=2, seed=3)
    assert agent.act(observe(state, state.to_move()[0])) in state.legal_actions()


def test_simulate_accepts_agent_options_and_refuses_bad_ones_before_playing() -> None:
    report = simulate("captain-black", 2, 4, ["ismcts:iterations=20", "random"], seed=5)
    assert [row["agent"] for row in report.to_dict()["agents_summary"]] == ["ismcts:iterations=20", "random"]
    with pytest.raises(ConfigError, match="unknown ismcts option"):
        simulate("captain-black", 2, 4, ["ismcts:bogus=1", "random"], seed=5)
