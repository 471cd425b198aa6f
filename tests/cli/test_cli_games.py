import json

import holotable
from holotable.agents import agent_names


def test_games_table_lists_every_registered_game(cli):
    result = cli("games")
    assert result.exit_code == 0, result.output
    for spec in holotable.engine.specs():
        assert spec.name in result.stdout
        assert spec.title in result.stdout
        players = (str(spec.min_players) if spec.min_players == spec.max_players
                   else f"{spec.min_players}-{spec.max_players}")
        assert players in result.stdout
        assert spec.information.value in result.stdout


def test_games_json_matches_the_registry(cli):
    result = cli("games", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    by_name = {entry["name"]: entry for entry in payload}
    assert sorted(by_name) == holotable.engine.names()
    cb = by_name["captain-black"]
    assert (cb["min_players"], cb["max_players"]) == (2, 4)
    assert (cb["dynamics"], cb["chance"], cb["information"]) == ("sequential", "sampled", "imperfect")
    assert cb["agents"] == agent_names("captain-black")
    assert "random" in cb["agents"]
