"""Spec §8's RandomBot (Kyrum's ``random``: never concedes, reads offered scripts with probability 0.5) and
ScriptHunterBot (``hunter``: reads more unread main scripts than the heuristic), on the demo pack."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from kyr_helpers import GAME, slots

from holotable.agents import agent_names, make_agent
from holotable.agents.base import observe
from holotable.engine import derive_seed
from holotable.games.kyrum.bot_random import KyrumRandom
from holotable.games.kyrum.campaign import fold_game, game_seed, new_campaign
from holotable.games.kyrum.pack import load_pack
from holotable.sim.runner import play_game

PACK = load_pack("kyrum-demo")
QUIET: dict[str, Any] = {"planet_deck_top_first": [10, 11, 17, 23], "window_open": False}


def demo_state(camp: Any = None, **arrangement: Any) -> Any:
    camp = camp or new_campaign(PACK, seed=0, partner=False)
    for s in range(200):
        state = GAME.new_state(1, seed=s, campaign=camp.to_json())
        if state.data.decision is None:
            state.arrange(arrangement)
            return state
    raise AssertionError("no quiet seed")


def test_kyrum_random_is_its_own_agent() -> None:
    """Kyrum's name wins over the generic random agent (make_agent looks the game's bots up first)."""
    assert {"random", "hunter", "planner", "heuristic"} <= set(agent_names("kyrum"))
    assert isinstance(make_agent("random", GAME, seed=1), KyrumRandom)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_never_concedes_and_ends_every_game(seed: int) -> None:
    """§8 RandomBot: uniform among the legal actions but never ``concede``; its games still end (out of fuel,
    a defeat, the last journey or a validation), and the same seed replays the same game."""
    def play() -> tuple[str, str, list[str]]:
        state = GAME.new_state(1, seed=seed)
        bot = make_agent("random", GAME, seed=seed)
        verbs = []
        while not state.is_terminal():
            assert state.ply < 3000
            action = bot.act(observe(state, 0))
            verbs.append(action.verb)
            state.apply(action, 0)
        return state.outcome().reason, state.fingerprint(), verbs

    reason, fingerprint, verbs = play()
    assert "concede" not in verbs
    assert reason != "Defeat: conceded" and reason.startswith(("Victory", "Defeat"))
    assert play()[:2] == (reason, fingerprint)


def test_random_reads_an_offered_script_about_half_the_time() -> None:
    """§8: "accepts scripts with probability 0.5": over 400 agent seeds, one double offered, 40-60% read."""
    state = demo_state(gauges={"fuel": 10}, slots=slots(10, 11, 17, 23), dice=[3, 3], **QUIET)
    state.apply("explore 0")
    obs = observe(state, 0)
    assert {str(a) for a in obs.legal} == {"read", "refuse"}
    reads = sum(str(make_agent("random", GAME, seed=s).act(obs)) == "read" for s in range(400))
    assert 160 <= reads <= 240


def main_scripts_over_campaigns(agent: str, campaigns: int = 2, games: int = 10) -> int:
    """Distinct main scripts read over ``campaigns`` fresh campaigns of their first ``games`` games."""
    total = 0
    for c in range(campaigns):
        camp = new_campaign(PACK, seed=derive_seed("hunt", c), partner=False)
        for number in range(1, games + 1):
            config = GAME.spec.make_config(1, campaign=camp.to_json())
            bot = make_agent(agent, GAME, seed=derive_seed("hunt", c, number))
            state, _ = play_game(GAME, config, game_seed(camp.campaign_seed, number), [bot])
            camp = fold_game(camp, state)
        total += len(camp.main_seen)
    return total


def test_hunter_reads_more_unread_main_scripts_than_the_heuristic() -> None:
    """§8 ScriptHunterBot, for content QA: over the same campaigns it reaches more of the booklet."""
    hunter, heuristic = main_scripts_over_campaigns("hunter"), main_scripts_over_campaigns("heuristic")
    assert hunter > heuristic * 1.15, (hunter, heuristic)


def test_hunter_steers_the_dice_to_unread_scripts() -> None:
    """T05 after a non-double makes the double of an unread script; a read script offered while the planet
    has unread ones is refused for the free re-roll (KYR-EXPLORE-07)."""
    tuner = f"t{PACK.item_order.index('T05') + 1}"
    state = demo_state(gauges={"fuel": 10}, items={"T05": 1}, dice=[2, 5], slots=slots(10, 11, 17, 23), **QUIET)
    state.apply("explore 0")
    assert str(make_agent("hunter", GAME).act(observe(state, 0))) == f"use {tuner}"
    camp = new_campaign(PACK, seed=0, partner=False)
    camp.main_seen.append("A.10.06")
    state = demo_state(camp, gauges={"fuel": 10}, dice=[3, 3], slots=slots(10, 11, 17, 23), **QUIET)
    state.apply("explore 0")
    assert str(make_agent("hunter", GAME).act(observe(state, 0))) == "refuse"
    assert str(make_agent("heuristic", GAME).act(observe(state, 0))) == "read"
