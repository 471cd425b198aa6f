"""Kyrum's data values changed per configuration (issue 9): the numbers of the shipped content pack
(rules.json mechanics, planets, discoveries, encounters, Thoth's items) through ``data=``; other
packs are changed by editing their files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import holotable
from holotable.engine import ConfigError, DataOverrideError, Match, State
from holotable.games.kyrum.pack import CATALOG, DEFAULT_PACK, PACKS_DIR, load_pack
from holotable.games.kyrum.rules import pack_of

GAME = holotable.load("kyrum")


def test_a_gauge_start_changes_the_set_up() -> None:
    """KYR-SETUP: gauges start at the pack's values — fuel 14 instead of 10 here."""
    st = State.new(GAME, GAME.spec.make_config(data={"rules.gauges.fuel.start": 14}), 1)
    assert st.data.gauges["fuel"] == 14
    assert st.view(0)["gauges"]["fuel"] == 14
    assert State.new(GAME, GAME.spec.make_config(), 1).data.gauges["fuel"] == 10


def test_an_items_cost_and_a_discoverys_numbers_reach_the_pack() -> None:
    config = GAME.spec.make_config(data={"thoth.T01.cost": 9, "discoveries.D01.knowledge": 4})
    pack = pack_of(config)
    assert pack.items["T01"].cost == 9 and pack.discoveries["D01"].knowledge == 4
    assert load_pack(DEFAULT_PACK).items["T01"].cost == CATALOG.keys()["thoth.T01.cost"].value != 9
    assert pack_of(GAME.spec.make_config()) is load_pack(DEFAULT_PACK)


def test_the_overrides_replay_from_a_save() -> None:
    match = Match(GAME, GAME.spec.make_config(data={"rules.gauges.fuel.start": 12}), 4)
    for _ in range(6):
        st = match.state
        if st.is_terminal():
            break
        match.play(st.legal_actions(0)[0], 0)
    again = Match.from_json(match.to_json())
    assert again.config.data == (("rules.gauges.fuel.start", 12),)
    assert again.state.fingerprint() == match.state.fingerprint()


def test_bad_overrides_are_refused_like_a_bad_pack_file() -> None:
    with pytest.raises(DataOverrideError) as err:
        GAME.spec.make_config(data={"rules.gauges.fuel.start": 40})
    assert "rules.json: gauges.fuel: start: must be an integer 0..16, got 40" in str(err.value)
    with pytest.raises(ConfigError) as bad_type:
        GAME.spec.make_config(data={"thoth.T01.cost": "cheap"})
    assert "data 'thoth.T01.cost' expects int" in str(bad_type.value)
    with pytest.raises(ConfigError) as text:
        GAME.spec.make_config(data={"thoth.T01.name": "Tank"})
    assert "no data value 'thoth.T01.name'" in str(text.value)


def test_overrides_apply_to_the_shipped_pack_only(tmp_path: Path) -> None:
    copy = tmp_path / "my-pack"
    shutil.copytree(PACKS_DIR / DEFAULT_PACK, copy)
    config = GAME.spec.make_config(pack=str(copy), data={"rules.gauges.fuel.start": 12})
    with pytest.raises(ConfigError, match="apply to the shipped pack"):
        State.new(GAME, config, 1)
    assert State.new(GAME, GAME.spec.make_config(pack=str(copy)), 1).data.gauges["fuel"] == 10


def test_a_scheduled_games_objectives_and_end_script_are_settings() -> None:
    """KYR-AMB-27: the schedule is pack data, so a designer tries another one with ``--set``."""
    keys = CATALOG.keys()
    assert keys["schedule.12.objectives"].value == " ".join(load_pack(DEFAULT_PACK).game_entry(12)["objectives"])
    config = GAME.spec.make_config(data={"schedule.12.objectives": "C, L", "schedule.12.end_script": "A.70.05"})
    entry = pack_of(config).game_entry(12)
    assert entry["objectives"] == ["C", "L"] and entry["end_script"] == "A.70.05"
    assert pack_of(config).game_entry(11) == load_pack(DEFAULT_PACK).game_entry(11)
    cleared = pack_of(GAME.spec.make_config(data={"schedule.1.end_script": ""})).game_entry(1)
    assert cleared["end_script"] is None


@pytest.mark.parametrize(("key", "value", "message"), [
    ("schedule.12.objectives", "C Z", "must list valid objective letters, got ['C', 'Z']"),
    ("schedule.12.objectives", "C C", "lists an objective twice"),
    ("schedule.12.objectives", " ", "must list valid objective letters, got []"),
    ("schedule.12.end_script", "A.99.01", "references script 'A.99.01', which does not exist"),
])
def test_a_bad_schedule_setting_is_refused_like_a_bad_file(key: str, value: str, message: str) -> None:
    with pytest.raises(DataOverrideError) as err:
        GAME.spec.make_config(data={key: value})
    assert "schedule.json: game 12: " in str(err.value) and message in str(err.value)
