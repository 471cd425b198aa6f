"""``holotable data GAME`` lists what ``--set`` can change; ``simulate``/``play --set`` use it (issue 9)."""

from __future__ import annotations

import json

import holotable
from conftest import Invoke
from holotable.cli.seal import local_seal
from holotable.engine import Match


def test_data_lists_parameters_and_data_values_with_assumed_records(cli: Invoke) -> None:
    result = cli("data", "buccaneers", "--json")
    assert result.exit_code == 0, result.output
    rows = {row["key"]: row for row in json.loads(result.output)}
    assert rows["setup"]["source"] == "param" and rows["setup"]["assumed"] == ["AMB-03"]
    ship = rows["junk.SHIP-14.stats.0.value"]
    assert (ship["source"], ship["kind"], ship["value"], ship["assumed"]) == ("data", "int", 14, ["AMB-10"])
    data_rows = [r for r in rows.values() if r["source"] == "data"]
    assert len(data_rows) == len(holotable.load("buccaneers").spec.data_keys())


def test_data_filters_by_text_and_assumed(cli: Invoke) -> None:
    result = cli("data", "council", "--match", "RED-F", "--json")
    assert [row["key"] for row in json.loads(result.output)] == [
        "planets.RED-F.colour", "planets.RED-F.points", "planets.RED-F.coin"]
    result = cli("data", "buccaneers", "--assumed", "--json")
    assert all(row["assumed"] for row in json.loads(result.output))
    table = cli("data", "council", "--match", "intrigue")
    assert table.exit_code == 0 and "intrigue.black_hole" in table.output


def test_simulate_set_takes_parameters_and_data_paths(cli: Invoke) -> None:
    result = cli("simulate", "council", "-g", "2", "--set", "planets.RED-F.points=2", "--set", "first_leader=1",
                 "--json")
    assert result.exit_code == 0, result.output
    params = json.loads(result.output)["params"]
    assert params["data"] == {"planets.RED-F.points": 2} and params["first_leader"] == 1


def test_simulate_set_refuses_unknown_keys_and_rule_breaking_values(cli: Invoke) -> None:
    result = cli("simulate", "council", "-g", "2", "--set", "planets.RED-F.pionts=2")
    assert result.exit_code == 2
    assert "no parameter or data value 'planets.RED-F.pionts'; closest: planets.RED-F.points" in result.output
    result = cli("simulate", "council", "-g", "2", "--set", "planets.RED-F.points=9")
    assert result.exit_code == 2 and "must be 0..3 for a coloured planet" in result.output
    result = cli("simulate", "council", "-g", "2", "--param", "first_leader=1", "--set", "first_leader=2")
    assert result.exit_code == 2 and "both with --param and --set: first_leader" in result.output


def test_play_set_saves_the_overrides_with_the_match(cli: Invoke, tmp_path: object) -> None:
    path = f"{tmp_path}/cb.json"
    result = cli("play", "captain-black", "--seats", "random,random", "--seed", "3", "--set",
                 "components.gold_coins=30", "--save", path)
    assert result.exit_code == 0, result.output
    match = Match.load(path, local_seal())
    assert match.config.data == (("components.gold_coins", 30),)
    assert match.state.is_terminal()
