"""``holotable simulate kyrum``: the game's measures, how games end, and every scheduled game of the campaign
played from the campaign that starts it (KYR-CAMPAIGN-01/02/04, KYR-SETUP-01, KYR-END-01, KYR-END-03).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import holotable
from holotable.agents import make_agent, observe
from holotable.cli import app
from holotable.engine import ConfigError, derive_seed
from holotable.games.kyrum import simulation
from holotable.games.kyrum.campaign import fold_game, game_seed, new_campaign, start_game
from holotable.games.kyrum.pack import load_pack
from holotable.sim.batch import simulate
from holotable.sim.hooks import measures_for, schedule_for
from holotable.sim.schedule import parse_numbers, simulate_schedule

GAME = holotable.load("kyrum")
PACK = load_pack("kyrum-demo")
CONFIG = GAME.spec.make_config(1)


def test_the_hooks_are_found_through_the_manifest() -> None:
    assert measures_for(GAME) is simulation.measures
    assert schedule_for(GAME) is simulation.schedule


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_KYR_END_01_measures_match_the_recorded_game(seed: int) -> None:
    """Explorations and areas agree with the match log; NP and journey with the result (KYR-END-04)."""
    state = GAME.new_state(1, seed=seed, record=True)
    agent = make_agent("heuristic", GAME, seed=seed)
    while not state.is_terminal():
        state.apply(agent.act(observe(state, 0)), 0)
    m = simulation.measures(state)
    kinds = [e.kind for e in state.events]
    # The first area is revealed by the set-up (KYR-SETUP-08), before the log starts.
    assert m["explorations"] == kinds.count("explore") and m["areas"] == kinds.count("area") + 1
    result = state.data.result
    assert m["journey_at_end"] == result["journey_at_end"] and m["np_total"] == state.outcome().scores[0]
    parts = sum(m[f"np_{k}"] for k in ("knowledge", "discovery", "journey", "script"))
    assert m["np_total"] == (parts if result["outcome"] == "victory" else parts // 2)  # KYR-AMB-13
    assert m["end_health"] == state.data.gauges["health"]


def test_KYR_END_03_batch_counts_endings_and_averages_measures() -> None:
    """Every game's outcome reason is counted; victories only come from validation."""
    report = simulate("kyrum", 1, 12, ["heuristic"], seed=4)
    assert sum(report.endings.values()) == 12
    assert list(report.endings.values()) == sorted(report.endings.values(), reverse=True)
    for rec in report.records:
        won = bool(rec.winners)
        assert rec.reason.startswith("Victory: validated" if won else "Defeat: ")
        assert report.endings[rec.reason] >= 1
    values = [dict(rec.measures)["explorations"] for rec in report.records]
    assert report.measures["explorations"].mean == pytest.approx(sum(values) / 12)
    assert report.measures["explorations"].n == 12
    data = report.to_dict(include_games=True)
    assert data["endings"] == report.endings and data["results"][0]["reason"] == report.records[0].reason
    assert set(data["measures"]["np_total"]) == {"mean", "lo", "hi", "n", "sd"}
    json.dumps(data)


def test_KYR_SETUP_01_fresh_carry_starts_each_scheduled_game_with_nothing_carried() -> None:
    camps = simulation.campaigns_before(CONFIG, [1, 7, 30], agent="heuristic", seed=3, carry="fresh")
    for number, camp in camps.items():
        assert camp.next_game == number and camp.np_bank == 0 and camp.items == {} and camp.narratives == []
        state = GAME.new_state(1, seed=1, campaign=camp.to_json())
        assert state.data.game == number
        assert state.data.objectives == PACK.game_entry(number)["objectives"]


def test_KYR_CAMPAIGN_04_played_carry_is_the_campaign_folded_game_after_game() -> None:
    """The starting point of game 3 is games 1 and 2 played by the agent and folded into the campaign, with
    the game seeds of the campaign seed (spec §4.4); the same history serves every later game asked for."""
    camps = simulation.campaigns_before(CONFIG, [1, 3], agent="heuristic", seed=5, carry=None)
    assert camps[1] == new_campaign(PACK, seed=5)
    camp = new_campaign(PACK, seed=5)
    for number in (1, 2):
        state = start_game(camp)
        assert state.seed == game_seed(5, number)
        agent = make_agent("heuristic", GAME, seed=derive_seed(5, "campaign", number))
        while not state.is_terminal():
            state.apply(agent.act(observe(state, 0)), 0)
        camp = fold_game(camp, state)
    assert camps[3] == camp and camp.next_game == 3
    assert [row["result"] for row in camp.scoreboard[:3]][2] is None
    assert all(row["result"] in ("victory", "defeat") for row in camp.scoreboard[:2])
    assert simulation.campaign_before(CONFIG, 3, agent="heuristic", seed=5, carry="played") == camp


def test_KYR_CAMPAIGN_02_only_scheduled_game_numbers_and_known_carries() -> None:
    with pytest.raises(ConfigError, match="games 1-30, not 31"):
        simulation.schedule(CONFIG, [2, 31], agent="heuristic", seed=0, carry="fresh")
    with pytest.raises(ConfigError, match="unknown carry 'bogus'"):
        simulation.schedule(CONFIG, [1], agent="heuristic", seed=0, carry="bogus")
    entries = simulation.schedule(CONFIG, None, agent="heuristic", seed=0, carry="fresh")
    assert [e.number for e in entries] == list(range(1, 31))
    assert entries[2].label == " ".join(PACK.game_entry(3)["objectives"]) == "B R"


def test_parse_numbers() -> None:
    assert parse_numbers("all") is None and parse_numbers(" 3 ") == [3]
    assert parse_numbers("5-7,1,6") == [1, 5, 6, 7]
    for bad in ("0-3", "4-2", "x", "1,,2"):
        with pytest.raises(ConfigError):
            parse_numbers(bad)


def test_KYR_CAMPAIGN_01_simulate_schedule_plays_each_scheduled_game_from_its_campaign() -> None:
    """Scheduled game k is ``simulate`` with k's campaign and the seed derived for k, whatever else is asked."""
    report = simulate_schedule("kyrum", 1, 4, ["heuristic"], seed=9, numbers=[2, 4], carry="fresh")
    assert [s.number for s, _ in report.entries] == [2, 4]
    for sched, rep in report.entries:
        camp = simulation.campaign_before(CONFIG, sched.number, agent="heuristic", seed=9, carry="fresh")
        direct = simulate("kyrum", 1, 4, ["heuristic"], derive_seed(9, "schedule", sched.number),
                          params={"campaign": camp.to_json()})
        assert rep.records == direct.records
        assert {rec.reason for rec in rep.records} <= set(rep.endings)
    alone = simulate_schedule("kyrum", 1, 4, ["heuristic"], seed=9, numbers=[4], carry="fresh")
    assert alone.entries[0][1].records == report.entries[1][1].records
    data = report.to_dict()
    assert [row["number"] for row in data["schedule"]] == [2, 4] and "campaign" not in data["params"]
    assert data["schedule"][0]["games"] == 4 and data["carry"] == "fresh"
    assert json.loads(json.dumps(data)) == data


def test_KYR_CAMPAIGN_04_one_history_is_the_single_history_run() -> None:
    """``histories=1`` plays exactly what a run without the option plays (same records, same report)."""
    plain = simulate_schedule("kyrum", 1, 3, ["heuristic"], seed=6, numbers=[3])
    one = simulate_schedule("kyrum", 1, 3, ["heuristic"], seed=6, numbers=[3], histories=1)
    assert one.entries[0][1].records == plain.entries[0][1].records
    assert one.to_dict()["schedule"] == plain.to_dict()["schedule"] and one.histories == 1


def test_KYR_CAMPAIGN_04_histories_split_the_games_over_distinct_played_histories() -> None:
    """Two histories: game 3's 5 games are 3 played from the master seed's history and 2 from a second,
    different history (seed derived from the master seed), pooled into one report with one interval."""
    report = simulate_schedule("kyrum", 1, 5, ["heuristic"], seed=6, numbers=[3], histories=2)
    rep = report.entries[0][1]
    first = simulation.campaign_before(CONFIG, 3, agent="heuristic", seed=6, carry="played")
    second = simulation.campaign_before(CONFIG, 3, agent="heuristic", seed=derive_seed(6, "history", 1),
                                        carry="played")
    assert first.campaign_seed != second.campaign_seed and first.scoreboard != second.scoreboard
    seed = derive_seed(6, "schedule", 3)
    direct_first = simulate("kyrum", 1, 3, ["heuristic"], seed, params={"campaign": first.to_json()})
    assert rep.records[:3] == direct_first.records
    later = [rec.index for rec in rep.records[3:]]
    assert later == [3, 4]  # history 2 continues the game indices, so no game seed is used twice
    assert rep.games == 5 and rep.seats[0].games == 5
    assert rep.seats[0].wins == sum(1 for rec in rep.records if rec.winners)
    lo, hi = rep.seats[0].win_rate_ci
    assert lo <= rep.seats[0].win_rate <= hi
    assert report.to_dict()["histories"] == 2
    with pytest.raises(ConfigError, match="cannot be split over 6 histories"):
        simulate_schedule("kyrum", 1, 5, ["heuristic"], seed=6, numbers=[3], histories=6)
    with pytest.raises(ConfigError, match="at least 1"):
        simulate_schedule("kyrum", 1, 5, ["heuristic"], seed=6, numbers=[3], histories=0)


def test_a_game_without_a_schedule_is_refused() -> None:
    with pytest.raises(ConfigError, match="no schedule"):
        simulate_schedule("captain-black", 2, 1, ["random"], seed=0)


# ---------------------------------------------------------------------------------------------- CLI
def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def test_cli_simulate_kyrum_reports_endings_and_measures() -> None:
    result = _cli("simulate", "kyrum", "--agents", "heuristic", "--games", "4", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "How the games ended" in result.stdout and "explorations" in result.stdout
    data = json.loads(_cli("simulate", "kyrum", "--agents", "heuristic", "--games", "4", "--seed", "2",
                           "--json").stdout)
    assert sum(data["endings"].values()) == 4 and data["measures"]["journey_at_end"]["n"] == 4
    lo, hi = data["seats"][0]["win_rate_ci"]
    assert lo <= data["seats"][0]["win_rate"] <= hi


def test_cli_simulate_schedule_table_and_json() -> None:
    args = ("simulate", "kyrum", "--agents", "heuristic", "--games", "3", "--schedule", "1-2", "--carry", "fresh")
    result = _cli(*args)
    assert result.exit_code == 0, result.output
    assert "Per scheduled game" in result.stdout and "B F N" in result.stdout and "Not won: defeat" in result.stdout
    data = json.loads(_cli(*args, "--json").stdout)
    rows = data["schedule"]
    assert [r["number"] for r in rows] == [1, 2] and [r["games"] for r in rows] == [3, 3]
    for row in rows:
        seat = row["seats"][0]
        assert seat["wins"] == sum(n for reason, n in row["endings"].items() if reason.startswith("Victory"))
        assert not math.isnan(row["mean_length"])


def test_cli_simulate_histories_pools_every_history() -> None:
    data = json.loads(_cli("simulate", "kyrum", "--agents", "heuristic", "--games", "4", "--schedule", "2",
                           "--histories", "2", "--json").stdout)
    assert data["histories"] == 2 and data["schedule"][0]["games"] == 4
    table = _cli("simulate", "kyrum", "--agents", "heuristic", "--games", "2", "--schedule", "2", "--histories", "2")
    assert table.exit_code == 0 and "2 histories pooled" in table.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("simulate", "captain-black", "--schedule", "1-2"), "no schedule"),
    (("simulate", "kyrum", "--agents", "heuristic", "--carry", "bogus", "--games", "1"), "unknown carry"),
    (("simulate", "kyrum", "--schedule", "2-1"), "game numbers"),
])
def test_cli_schedule_errors_exit_2(args: tuple[str, ...], message: str) -> None:
    result = _cli(*args)
    assert result.exit_code == 2 and message in result.output


# ---------------------------------------------------------------------------------------------- benchmark
def test_the_benchmark_measures_play_thinking_and_search() -> None:
    root = Path(__file__).resolve().parents[3]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from benchmarks import kyrum_bench

    figures = kyrum_bench.run(seconds=0.02, repeats=1, iterations=10, think_games=1, echo=lambda _: None)
    uniform, careful = figures["random_play"], figures["random_play_no_concede"]
    assert uniform["games_per_s"] > 0 and careful["steps_per_game"] > uniform["steps_per_game"] >= 1
    assert careful["games_per_s_vs_baseline"] > 0 and figures["heuristic"]["act_s_best"] > 0
    assert figures["ismcts"]["iterations"] == 10 and figures["ismcts"]["iterations_per_s_vs_baseline"] > 0
    assert "Kyrum random play, no concede" in kyrum_bench.report(figures)


# ---------------------------------------------------------------------------------------------- planner agent
def _scheduled_state(number: int, objectives: str, seed: int = 0, **arrangement: Any) -> Any:
    """Demo game ``number`` of a fresh campaign asking for ``objectives`` (the schedule setting, so the test
    does not depend on the demo schedule's letters), at a TLDP with nothing pending, then arranged."""
    camp = simulation.campaign_before(CONFIG, number, agent="planner", seed=0, carry="fresh").to_json()
    data = {f"schedule.{number}.objectives": objectives}
    for s in range(seed, seed + 200):
        state = GAME.new_state(1, seed=s, campaign=camp, data=data)
        if state.data.decision is None:
            state.arrange(arrangement)
            return state
    raise AssertionError("no seed gives a set-up without a decision")


def _acts(name: str, state: Any) -> str:
    return str(make_agent(name, GAME, seed=0).act(observe(state, 0)))


def test_planner_is_registered_and_finishes_deterministically() -> None:
    """§8: like the heuristic it ends every game, deterministically per seed (wins only by validation)."""
    def play(seed: int) -> tuple[str, str]:
        state = GAME.new_state(1, seed=seed)
        agent = make_agent("planner", GAME, seed=seed)
        while not state.is_terminal():
            state.apply(agent.act(observe(state, 0)), 0)
        return state.outcome().reason, state.fingerprint()

    results = [play(s) for s in range(3)]
    assert results == [play(s) for s in range(3)]
    assert all(reason.startswith(("Victory: validated", "Defeat: ")) for reason, _ in results)


def test_KYR_OBJ_15_planner_keeps_the_elements_an_objective_asks_for() -> None:
    """A game asking for C (firepower 6) and I (6 uncommon), as game 12 did: with C held and five uncommons,
    the heuristic pays a study instalment with one (KYR-DISC-03), the planner keeps them (a study no objective
    needs is optional spending); while C is unmet it does craft firepower from them (both must hold at validation)."""
    assert PACK.discoveries["D02"].cost == {"common": 1, "uncommon": 1, "rare": 0}
    state = _scheduled_state(12, "C I", gauges={"fuel": 10, "firepower": 6},
                             elements={"common": 0, "uncommon": 5, "rare": 0},
                             inventory=[{"id": "D02"}])
    assert "study d2 uncommon 1" in {str(a) for a in state.legal_actions(0)}
    assert _acts("heuristic", state) == "study d2 uncommon 1"
    assert not _acts("planner", state).startswith(("study", "craft uncommon"))
    state = _scheduled_state(12, "C I", gauges={"fuel": 10, "firepower": 2},
                             elements={"common": 1, "uncommon": 6, "rare": 0},
                             inventory=[{"id": "D02"}])
    assert _acts("planner", state) == "craft uncommon firepower"


def test_KYR_OBJ_15_planner_tops_fuel_up_for_objective_m() -> None:
    """A game asking for H, M (fuel 12) and N, as game 9 did: with H and N held, the planner crafts fuel from a
    rare element, where the heuristic (fuel 8 is enough for it) does something else."""
    inventory = [{"id": d} for d in PACK.discovery_order[:5]]
    state = _scheduled_state(9, "H M N", gauges={"fuel": 8, "firepower": 3},
                             elements={"common": 0, "uncommon": 0, "rare": 1},
                             inventory=inventory)
    status = {o["letter"]: o["satisfied"] for o in state.view(0)["objectives"]}
    assert status == {"H": True, "M": False, "N": True}
    assert _acts("planner", state) == "craft rare fuel"
    assert _acts("heuristic", state) != "craft rare fuel"
