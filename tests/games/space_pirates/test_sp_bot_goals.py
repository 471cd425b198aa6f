"""The search bot's race to a base and the victory sum (``bot_goals``), on real tables.

Rules exercised: SP-WIN-01 (a base and 20 MC win: docking where the sale reaches it is valued as the
win), SP-BASE-02 (one base bought per game, at 15 MC), SP-ENERGY-04/06 (energy bought elsewhere, free
at one's own base). The heuristic's own valuation is left as it was (it is the baseline).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import holotable
from holotable.agents import observe
from holotable.engine import State
from holotable.games.space_pirates import bot_goals as goals
from holotable.games.space_pirates import bots
from holotable.games.space_pirates.actions import SPAction
from holotable.games.space_pirates.data import content_for

GAME = holotable.load("space-pirates")


def _table(seed: int = 1000) -> tuple[State[Any, Any], bots.Knowledge]:
    st = GAME.new_state(players=2, seed=seed)
    return st, bots.read_view(observe(st, 0).view, 0, content_for(st.config))


def _inhabited(st: State[Any, Any]) -> list[int]:
    return [b.index for b in st.data.layout.bases if b.inhabited]


def test_SP_WIN_01_docking_where_the_sale_wins_is_worth_the_game() -> None:
    st, k = _table()
    d = st.data
    base = _inhabited(st)[0]
    poor = dataclasses.replace(k, mc=5, owned=None, bought=False, hold=[])
    winning = dataclasses.replace(k, mc=20, owned=_inhabited(st)[1], bought=True, hold=[])
    assert goals.goal_dock_value(winning, d, base, 20) >= goals.WIN_WORTH - 1.0
    assert goals.goal_dock_value(poor, d, base, 20) < 1.0
    # one MC short of the sum: no win is valued
    assert goals.goal_dock_value(dataclasses.replace(winning, mc=19), d, base, 20) < goals.WIN_WORTH - 1.0


def test_SP_BASE_02_a_free_base_draws_a_ship_that_can_buy_it_from_across_the_galaxy() -> None:
    st, k = _table()
    d = st.data
    base = _inhabited(st)[0]
    gate = d.layout.bases[base].gate_mid
    rich = dataclasses.replace(k, mc=15, owned=None, bought=False, hold=[])
    near = (gate[0] + 10.0, gate[1] + 10.0) if gate[0] < 30 else (gate[0] - 10.0, gate[1] + 10.0)
    far = (60.0 - gate[0], 60.0 - gate[1])
    assert goals.goal_dock_value(rich, d, base, 20) >= goals.BUY_WORTH - 1.0  # dock_value: -0.5 for the gate
    assert goals.goal_potential(rich, d, near, frozenset(), 0.0, 20) > goals.goal_potential(
        rich, d, far, frozenset(), 0.0, 20)
    # the heuristic's valuation of the same table is untouched: 15 MC is not enough for it to dock
    assert bots.HEURISTIC_VALUES.dock(rich, d, base) < goals.goal_dock_value(rich, d, base, 20)
    # a seat that already bought its base is not drawn to another
    bought = dataclasses.replace(rich, bought=True, owned=_inhabited(st)[1])
    assert all(pull != goals.BUY_PULL for _, pull in goals.goal_targets(bought, d, 20))


def test_SP_BASE_02_the_race_economy_buys_at_once_and_sells_a_hold_that_buys_a_base() -> None:
    st, k = _table()
    eco = goals.RaceEconomy(GAME, seed=1)
    obs = observe(st, 0)
    assert eco._base_buy(obs, k, st, {"base": 0}) == SPAction("buy")
    heur = bots.SpacePiratesHeuristic(GAME, seed=1)
    just = dataclasses.replace(k, mc=15, hold=[])
    assert heur._base_buy(obs, just, st, {"base": 0}) == SPAction("skip")  # the heuristic waits for more
    base = _inhabited(st)[0]
    # 12 MC and a hold that sells for at least 3 here: everything is sold, the base bought next turn
    hold = [(7, "RELICS"), (8, "ORE")]
    short = dataclasses.replace(k, mc=12, hold=hold, bought=False, owned=None, prices={})
    action = eco._base_sell(obs, short, st, {"base": base})
    assert action.verb == "sell"
    assert bots.hold_sale(short, base) >= 3
