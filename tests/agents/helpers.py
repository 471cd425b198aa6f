"""Shared helpers for the agent tests: cheap agent options and reaching mid-game states."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st_

from holotable.agents import Agent, make_agent, observe
from holotable.engine import Game, HolotableError, Rng, State

#: Options that keep each searching agent cheap enough to play whole games in tests.
CHEAP_OPTIONS: dict[str, dict[str, Any]] = {
    "ismcts": {"iterations": 12},
    # Space Pirates' search bot: no clock (deterministic), the smallest two-turn search
    "search": {"time_limit": 0, "candidates": 2, "next_beam": 1, "next_depth": 1, "flick_top": 2, "flick_samples": 1},
}


#: Captain Black house rules (with a player count) worth drawing in property tests.
house_rules = st_.fixed_dictionaries(
    {
        "players": st_.integers(2, 4),
        "public_tally": st_.booleans(),
        "min_draw": st_.integers(1, 3),
        "max_handful": st_.one_of(st_.none(), st_.integers(3, 12)),
        "island_fields": st_.integers(1, 8),
        "parrot_exhaustion": st_.sampled_from(["reshuffle", "partial", "skip"]),
        "max_chests_per_round": st_.integers(1, 4),
    }
)


def cheap_agent(name: str, game: Game[Any, Any], seed: int, **options: Any) -> Agent:
    """The agent ``name`` with the cheap options (``options`` win over them)."""
    return make_agent(name, game, seed=seed, **{**CHEAP_OPTIONS.get(name, {}), **options})


def play_randomly(st: State[Any, Any], plies: int, seed: int) -> State[Any, Any]:
    """Apply up to ``plies`` uniformly random legal actions (stops at the end of the game)."""
    rng = Rng(seed)
    for _ in range(plies):
        if st.is_terminal():
            break
        seat = st.to_move()[0]
        legal = st.legal_actions(seat)
        st.apply(legal[rng.randrange(len(legal))], seat)
    return st


def checked_act(agent: Agent, st: State[Any, Any], seat: int) -> Any:
    """The agent's action for ``seat``, asserting it is legal.

    For a continuous choice (a Space Pirates flick's angle) ``legal_actions`` is only a
    representative finite set, so an action outside it must still pass the rules' own check.
    """
    obs = observe(st, seat)
    action = agent.act(obs)
    if action not in obs.legal:
        try:
            st.child(action, seat)
        except HolotableError as exc:
            raise AssertionError(f"{agent.name} chose {action!r}, which the rules refuse: {exc}") from exc
        assert st.game.is_action(action), f"{agent.name} chose {action!r}, not an action of {st.game.spec.name}"
    return action


def mid_game(seed: int, players: int, **params: Any) -> State[Any, Any]:
    """A Captain Black position, after random play, in which every seat holds secret chest cards."""
    from holotable.engine import load

    st = load("captain-black").new_state(players=players, seed=seed, **params)
    rng = Rng(seed)
    while True:
        d = st.data
        if d.round >= 2 and (rng.random() < 0.3 or (d.round == d.rounds_total and d.island >= 6)):
            break  # stopping two black coins short of the last one keeps the game going
        seat = st.to_move()[0]
        legal = st.legal_actions(seat)
        st.apply(legal[rng.randrange(len(legal))], seat)
    return st
