"""Space Pirates' search bot (``search``): a two-turn course search over the heuristic's candidates.

Rules exercised through its decisions: SP-MOVE-02/03 (every ruler it lays passes the engine's check),
SP-TURN-03 (it plays exactly one card), SP-INFO-06 (it plans on a determinisation of its own view).
How strong it is, against the heuristic, is measured by benchmarks/sp_search.py (docs/games/space-pirates.md).
"""

from __future__ import annotations

from typing import Any

import pytest

import holotable
from holotable.agents import agent_names, make_agent, observe
from holotable.engine import Rng, State
from holotable.games.space_pirates import bots
from holotable.games.space_pirates.actions import SPAction
from holotable.games.space_pirates.bot_search import SpacePiratesSearch, what_if
from holotable.games.space_pirates.decisions import Ruler

GAME = holotable.load("space-pirates")
#: No clock (deterministic for a seed) and a small search: the decisions stay the same kind.
SMALL: dict[str, Any] = {"time_limit": 0, "candidates": 4, "flick_top": 2, "flick_samples": 1}


def _reach(seed: int, kind: str, seat: int = 0) -> State:
    """A 2-player game played by heuristics until ``seat`` has a real choice of ``kind``."""
    st = GAME.new_state(players=2, seed=seed)
    players = [make_agent("heuristic", GAME, seed=seed * 3 + s, beam=3, flick_top=2, flick_samples=1)
               for s in range(2)]
    for _ in range(2000):
        mover = st.to_move()[0]
        obs = observe(st, mover)
        if mover == seat and obs.view["decision"]["kind"] == kind and len(obs.legal) > 1:
            return st
        st.apply(players[mover].act(obs), mover)
    raise AssertionError(f"no {kind} decision for seat {seat}")


def test_search_is_registered_and_checks_its_options() -> None:
    assert "search" in agent_names("space-pirates")
    bot = make_agent("search:time_limit=0.5", GAME, seed=1)
    assert isinstance(bot, SpacePiratesSearch) and bot.time_limit == 0.5
    assert make_agent("search", GAME, seed=1).time_limit == 1.0  # about a second per decision by default
    with pytest.raises(ValueError, match="unknown search option"):
        make_agent("search", GAME, seed=1, iterations=3)
    with pytest.raises(ValueError, match="time_limit"):
        make_agent("search", GAME, seed=1, time_limit=-1)
    with pytest.raises(ValueError, match="rivals"):
        make_agent("search:rivals=3", GAME, seed=1)
    with pytest.raises(ValueError, match="discount"):
        make_agent("search", GAME, seed=1, discount=1.5)


@pytest.mark.parametrize("seed", [1, 4])
def test_a_ruler_from_the_search_passes_the_rules_and_the_plan_is_followed(seed: int) -> None:
    """SP-MOVE-02/03: the chosen ruler is legal; the rulers after it follow the chosen course."""
    st = _reach(seed, "ruler")
    bot = SpacePiratesSearch(GAME, seed=2, **SMALL)
    action = bot.act(observe(st, 0))
    GAME.check(st, 0, action)
    assert bot.last_valued >= 1
    if action.verb == "stop" or bot.plan is None:
        return
    planned = bot.plan.angles
    st.apply(action, 0)
    obs = observe(st, 0)
    if obs.view["decision"]["kind"] == "ruler" and planned:
        assert st.data.stack.top.anchor == pytest.approx(bot.plan.anchor)
        follow = bot.act(obs)
        assert follow == SPAction("ruler", float(planned[0])) and bot.last_valued == 0  # no new search
        GAME.check(st, 0, follow)


def test_a_card_is_chosen_from_the_hand_and_the_same_seed_chooses_the_same() -> None:
    """SP-TURN-03: exactly one card of the hand; with no clock the choice is a function of the seed."""
    st = _reach(2, "choose_card")
    obs = observe(st, 0)
    first = SpacePiratesSearch(GAME, seed=5, **SMALL).act(obs)
    assert first in obs.legal and first.verb in ("card", "done")
    assert SpacePiratesSearch(GAME, seed=5, **SMALL).act(observe(st, 0)) == first


def test_the_search_plans_on_its_own_view_only() -> None:
    """SP-INFO-06: two tables that differ only in what seat 0 cannot see get the same decision."""
    st = _reach(3, "ruler")
    rng_a, rng_b = Rng(10), Rng(20)
    a, b = st.determinize(0, rng_a), st.determinize(0, rng_b)
    assert a.view(0) == b.view(0)
    choices = [SpacePiratesSearch(GAME, seed=7, **SMALL).act(observe(x, 0)) for x in (a, b)]
    assert choices[0] == choices[1]


def test_what_if_moves_only_a_copy_of_the_ship_and_takes_the_captured_tokens() -> None:
    st = _reach(1, "ruler")
    d = st.data
    task = d.stack.top
    assert isinstance(task, Ruler)
    k = bots.read_view(st.view(0), 0)
    levels = bots.course_levels(k, d, task, beam=4)
    course = max((co for level in levels for co in level if co.angles and not co.docked), key=lambda co: co.score)
    taken = next(iter(course.taken), None)
    before = (d.ships[0].copy(), list(d.pos))
    d2 = what_if(d, 0, course)
    assert d2.ships[0].center == course.end and d2.ships[0].heading == course.angles[-1]
    assert (d.ships[0], d.pos) == before  # the real table is untouched
    if taken is not None:
        assert d2.pos[taken] is None and d.pos[taken] is not None


def test_course_levels_keep_the_planners_best_course_first() -> None:
    """The heuristic's planner is the first course of each level of the search's candidates."""
    st = _reach(1, "ruler")
    d = st.data
    task = d.stack.top
    k = bots.read_view(st.view(0), 0)
    levels = bots.course_levels(k, d, task, beam=4)
    best = bots.plan_courses(k, d, task, beam=4)
    assert [lv[0].angles for lv in levels] == [co.angles for co in best]
    for level in levels[1:]:
        assert [co.score for co in level] == sorted((co.score for co in level), reverse=True)


def _token_before(st: State, seat: int, skip: int | None = None) -> int:
    """Put one face-down token of the map half a ruler ahead of ``seat``'s nose; return its id."""
    from holotable.games.space_pirates import flow
    from holotable.games.space_pirates import geometry as geo

    d = st.data
    (nx, ny), heading = flow.nose(d, seat)
    ux, uy = geo.unit(heading)
    half = d.layout.c.ruler_length * 0.5
    tid = next(t for t, w in enumerate(d.where) if w == "map" and not d.open[t] and t != skip)
    d.pos[tid] = (nx + ux * half, ny + uy * half)
    return tid


def test_the_search_expects_a_rival_to_take_the_token_at_its_nose() -> None:
    """A token right ahead of the rival's ship is one the rival's next move takes (SP-CAP-01): the search
    counts it gone from the table it searches next turn on, and taking it first as worth more."""
    st = _reach(1, "ruler")
    tid = _token_before(st, 1)
    bot = SpacePiratesSearch(GAME, seed=2, **SMALL)
    obs = observe(st, 0)
    k = bots.read_view(obs.view, 0)
    assert k.values[tid] > 0  # a face-down token is worth its expected cargo
    contested = bot._rival_takes(obs, k, st)
    assert tid in contested and contested[tid] == pytest.approx(k.values[tid])
    d = st.data
    task = d.stack.top
    course = bots.course_levels(k, d, task, beam=4)[1][0]
    gone = what_if(d, 0, course, gone=frozenset(contested))
    assert gone.pos[tid] is None and d.pos[tid] is not None  # gone by the seat's next turn, the table untouched
    blind = SpacePiratesSearch(GAME, seed=2, rivals=False, **SMALL)
    blind.act(observe(st, 0))
    assert blind.contested == {}


def test_taking_a_contested_token_first_is_worth_more_by_the_denial() -> None:
    """A course that takes a token a rival was about to take gains DENIAL times its value, nothing else."""
    from holotable.games.space_pirates.bot_search import DENIAL

    st = _reach(1, "ruler")
    _token_before(st, 0)
    d = st.data
    k = bots.read_view(st.view(0), 0)
    levels = bots.course_levels(k, d, d.stack.top, beam=4)
    course = next(co for level in levels for co in level if co.taken and not co.docked)
    tid = next(iter(course.taken))
    bot = SpacePiratesSearch(GAME, seed=2, **SMALL)
    bot.contested = {}
    plain = bot._value(k, d, course, 2)
    bot.contested = {tid: k.values[tid]}
    assert bot._value(k, d, course, 2) == pytest.approx(plain + DENIAL * k.values[tid])
