"""Black Hole Council's data values changed per configuration (issue 9): planet points and coins,
Agendas and Intrigue card counts reach scoring, views and determinisation through ``data=``."""

from __future__ import annotations

from typing import Any

import pytest

import holotable
from holotable.agents.base import observe
from holotable.engine import ConfigError, DataOverrideError, Rng, ScenarioError, State
from holotable.games.council.bots import CouncilHeuristic
from holotable.games.council.data import COLOURS, OUTCOMES, SETTLE, data_for, load_default

GAME = holotable.load("council")
RED = COLOURS.index("red")


def _table_for_seat0(st: State[Any, Any]) -> list[str]:
    """RED-F on the outcome seat 0's Agenda gives red, 0-point planets elsewhere."""
    goals = data_for(st.config).agendas[st.data.agendas[0]]
    table = ["GRN-A", "YEL-A", "BLU-A", "BLK-A"]
    table.insert(goals[RED], "RED-F")
    return table


@pytest.mark.parametrize(("data", "points"), [({}, 3), ({"planets.RED-F.points": 1}, 1)])
def test_a_planets_points_change_the_round_points_and_the_view(data: dict[str, Any], points: int) -> None:
    """BHC-SCORE-01: a matching planet scores its points — here the overridden ones."""
    st = State.new(GAME, GAME.spec.make_config(5, data=data), 8)
    st.data.table = _table_for_seat0(st)
    assert GAME.full(st)["points"][0] == points
    view = st.view(0)
    assert view["you"]["points"] == points
    red = OUTCOMES[data_for(st.config).agendas[st.data.agendas[0]][RED]]
    assert view["table"][red] == {"id": "RED-F", "colour": "red", "points": points, "coin": 0}


def test_a_planets_coin_changes_the_payout() -> None:
    """BHC-PAYOUT-02: the coins of matched planets in the history, with RED-A paying 5 instead of 2
    (the other planets of the set carry no coin)."""
    for coin in (2, 5):
        data = {} if coin == 2 else {"planets.RED-A.coin": 5}
        st = State.new(GAME, GAME.spec.make_config(5, data=data), 8)
        goals = data_for(st.config).agendas[st.data.agendas[0]]
        table = ["GRN-C", "YEL-C", "BLU-C", "BLK-C"]
        table.insert(goals[RED], "RED-A")
        st.data.history = [{"round": 1, "written_off": False, "planets": table, "proposal": 1}]
        GAME._payout(st.data, st)
        assert st.data.payout[0] == coin


def test_intrigue_counts_change_the_deal_and_determinisation() -> None:
    """BHC-SETUP-05: with no Settle Intrigue cards none is ever dealt, nor re-dealt for another seat."""
    config = GAME.spec.make_config(5, data={"intrigue.settle": 0, "intrigue.tax": 4})
    seen = set()
    for seed in range(12):
        st = State.new(GAME, config, seed)
        seen.update(st.data.intrigue)
        clone = st.clone()
        GAME.determinize(clone, 0, Rng(seed))
        seen.update(clone.data.intrigue)
    assert SETTLE not in seen
    shipped = set()
    for seed in range(12):
        shipped.update(State.new(GAME, GAME.spec.make_config(5), seed).data.intrigue)
    assert SETTLE in shipped


def test_agendas_change_when_their_goals_stay_a_bijection() -> None:
    """BHC-COMP-10: swapping two Goals of AG-01 is accepted; changing one alone is refused."""
    config = GAME.spec.make_config(5, data={"agendas.AG-01.goals.settle": "green", "agendas.AG-01.goals.tax": "red"})
    assert data_for(config).agendas[0] == (1, 0, 2, 3, 4)
    assert load_default().agendas[0] == (0, 1, 2, 3, 4)
    with pytest.raises(DataOverrideError, match="colour green has two goals"):
        GAME.spec.make_config(5, data={"agendas.AG-01.goals.settle": "green"})


@pytest.mark.parametrize(("data", "error", "message"), [
    ({"planets.RED-F.points": 4}, DataOverrideError, "points must be 0..3 for a coloured planet"),
    ({"planets.RBW-PLUS.points": 2}, DataOverrideError, "two rainbow planets worth -1 and +1"),
    ({"intrigue.tax": -1}, ConfigError, "takes a number from 0 to 5"),  # its declared range
    ({"planets.RED-F.points": "3.5"}, ConfigError, "expects int"),
    ({"planet.RED-F.points": 1}, ConfigError, "closest: planets.RED-F.points"),
    ({"assumed.bribe_increment": 2}, ConfigError, "no data value"),  # a parameter: set it by name
])
def test_bad_overrides_are_refused_with_the_reason(data: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error) as err:
        GAME.spec.make_config(5, data=data)
    assert message in str(err.value)


def test_default_configs_use_the_shipped_data() -> None:
    assert data_for(GAME.spec.make_config(5)) is load_default()


def test_the_heuristic_bot_values_tables_with_the_configurations_points() -> None:
    """The bot's worth of a table follows the overridden planet points (3 -> 0 for RED-F)."""
    worth = []
    for data in ({}, {"planets.RED-F.points": 0}):
        st = State.new(GAME, GAME.spec.make_config(5, data=data), 8)
        table = _table_for_seat0(st)
        bot = CouncilHeuristic(GAME, seed=1)
        view = st.view(0)
        bot.act(observe(st, st.to_move()[0]))  # a decision sets the data the bot plans with
        worth.append(bot._my_value(view, table))
    assert worth[0] > worth[1]


def test_scenario_intrigue_is_checked_against_the_configurations_counts() -> None:
    """A scenario may deal three Tax cards only when the configuration has three (BHC-SETUP-05)."""
    arrangement = {"intrigue": ["tax", "tax", "tax", "mine", "conquer"]}
    st = State.new(GAME, GAME.spec.make_config(5, data={"intrigue.tax": 3}), 2)
    st.arrange(arrangement)
    assert st.data.intrigue[:3] == [OUTCOMES.index("tax")] * 3
    shipped = State.new(GAME, GAME.spec.make_config(5), 2)
    with pytest.raises(ScenarioError, match="there are only 2 tax cards"):
        shipped.arrange(arrangement)
