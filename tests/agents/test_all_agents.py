"""Every registered agent plays only legal actions, in full games of every registered game,
and plays the same game again from the same seeds."""

from __future__ import annotations

from typing import Any

import pytest

import holotable
from holotable.agents import agent_names
from holotable.engine import State, derive_seed, names

from .helpers import cheap_agent, checked_act

PAIRS = [(game, agent) for game in names() for agent in agent_names(game)]


#: Settings that keep whole games cheap. Random and shallow-search Space Pirates players rarely win, so
#: their games run to the turn cap: 20 turns play every kind of decision (set-up, flicks, cards,
#: rulers, bases, damage) at a fifteenth of the 300-turn default's cost (the default itself is tested
#: in tests/games/space_pirates).
PARAMS: dict[str, dict[str, Any]] = {"space-pirates": {"turn_cap": 20}}
#: Cheaper still for one game: a Space Pirates rollout lists every legal ruler (72 angles since a
#: first ruler may point anywhere), so ISMCTS searches 4 iterations whose rollouts stop after 4 moves
#: (then the evaluator): this test checks legality, not strength.
GAME_OPTIONS: dict[tuple[str, str], dict[str, Any]] = {("space-pirates", "ismcts"): {"iterations": 4,
                                                                                       "rollout_depth": 4}}


def _play(game_name: str, agent_name: str, players: int, seed: int) -> State[Any, Any]:
    game = holotable.load(game_name)
    st = game.new_state(players=players, seed=seed, **PARAMS.get(game_name, {}))
    extra = GAME_OPTIONS.get((game_name, agent_name), {})
    agents = [cheap_agent(agent_name, game, derive_seed(seed, "seat", s), **extra) for s in range(players)]
    limit = game.spec.max_game_length
    while not st.is_terminal():
        for seat in st.to_move():
            st.apply(checked_act(agents[seat], st, seat), seat)
        assert st.ply <= limit, "the game ran past its declared maximum length"
    return st


def test_every_game_has_the_generic_agents() -> None:
    for game in names():
        assert {"random", "ismcts"} <= set(agent_names(game))


@pytest.mark.parametrize(("game_name", "agent_name"), PAIRS)
def test_agent_plays_only_legal_actions_to_the_end(game_name: str, agent_name: str) -> None:
    spec = holotable.load(game_name).spec
    for players in range(spec.min_players, spec.max_players + 1):
        for seed in (1, 2):
            st = _play(game_name, agent_name, players, seed)
            assert st.is_terminal()
            assert len(st.outcome().ranks) == players


@pytest.mark.parametrize(("game_name", "agent_name"), PAIRS)
def test_same_seeds_replay_the_same_game(game_name: str, agent_name: str) -> None:
    players = holotable.load(game_name).spec.max_players
    first = _play(game_name, agent_name, players, seed=11)
    again = _play(game_name, agent_name, players, seed=11)
    assert again.history == first.history
    assert again.fingerprint() == first.fingerprint()
