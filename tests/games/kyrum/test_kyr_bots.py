"""The heuristic agent (spec §8) and the random agent finish games; bots are deterministic per seed."""

from __future__ import annotations

from kyr_helpers import GAME, MINI

from holotable.agents import agent_names, make_agent
from holotable.agents.base import observe


def play_out(agent_name: str, seed: int, pack: str = MINI) -> tuple[str, int, str]:
    st = GAME.new_state(1, seed=seed, pack=pack)
    bot = make_agent(agent_name, GAME, seed=seed)
    while not st.is_terminal():
        assert st.ply < 3000
        st.apply(bot.act(observe(st, 0)))
    return st.outcome().reason, st.ply, st.fingerprint()


def test_heuristic_is_registered_and_finishes_deterministically() -> None:
    """§8: `heuristic` is registered for kyrum; the same seed gives the same game; games end (KYR-END-03 wins
    happen only through validation)."""
    assert "heuristic" in agent_names("kyrum")
    results = [play_out("heuristic", s) for s in range(6)]
    assert results == [play_out("heuristic", s) for s in range(6)]
    assert all(r[0].startswith(("Victory: validated", "Defeat: ")) for r in results)


def test_random_agent_finishes_games() -> None:
    """Kyrum's random agent (it never concedes: test_kyr_bots_random_hunter.py) ends every game of the test pack
    (fuel, defeats or journeys)."""
    for seed in range(5):
        reason, plies, _ = play_out("random", seed)
        assert reason.startswith(("Victory", "Defeat")) and plies > 0
