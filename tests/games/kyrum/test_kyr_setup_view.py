"""Set-up, the player's view, determinisation and the action forms.

KYR-SETUP-01..08, KYR-GAUGE-01..04, KYR-AREA-01/04, KYR-JOURNEY-03 (display), assumed:KYR-AMB-34/38.
"""

from __future__ import annotations

import json

import pytest
from kyr_helpers import GAME, MINI, QUIET_TOP, arranged, fresh, play, slots, texts

from holotable.engine import IllegalActionError, MalformedActionError, Rng, ScenarioError
from holotable.games.kyrum import actions as act


def test_KYR_GAUGE_01_to_04_start_values() -> None:
    """KYR-GAUGE-01, KYR-GAUGE-02, KYR-GAUGE-03, KYR-GAUGE-04: fuel 10, knowledge 0, health/suit/ship 6, firepower
    0, no elements."""
    st = fresh()
    assert st.data.gauges == {"fuel": 10, "knowledge": 0, "health": 6, "suit": 6, "ship": 6, "firepower": 0}
    assert st.data.elements == {"common": 0, "uncommon": 0, "rare": 0}


def test_KYR_SETUP_01_02_game_one_objectives_T_KYR_31() -> None:
    """T-KYR-31, KYR-SETUP-01, KYR-SETUP-02: a fresh campaign starts game 1 with objectives exactly B, F, N."""
    st = fresh()
    assert st.data.game == 1 and st.data.objectives == ["B", "F", "N"]
    assert [o["letter"] for o in st.view(0)["objectives"]] == ["B", "F", "N"]


def test_KYR_SETUP_03_05_07_08_decks_and_first_area() -> None:
    """KYR-SETUP-03: decks shuffled by the game RNG (seeds differ); KYR-SETUP-05: journey 1; KYR-SETUP-07: no
    discovery cards; KYR-SETUP-08 / KYR-AREA-01: the first area is revealed with sorted dice (KYR-DIST-01)."""
    a, b = fresh(0), fresh(5)
    assert sorted(a.data.planet_deck + a.data.slot_planets) == list(range(10, 30))
    assert (a.data.planet_deck, a.data.discovery_deck) != (b.data.planet_deck, b.data.discovery_deck)
    assert a.data.journey == 1 and a.data.area == 1 and a.data.inventory == []
    assert len(a.data.slot_planets) == 4 and a.data.slot_dice == sorted(a.data.slot_dice)
    assert GAME.new_state(1, seed=0, pack=MINI).full() == GAME.new_state(1, seed=0, pack=MINI).full()


def test_KYR_AREA_04_view_public_and_hidden() -> None:
    """KYR-AREA-04 (assumed:KYR-AMB-34/38): the top back, sizes and journey NP (KYR-JOURNEY-03) are shown; the
    deck orders are not; determinize re-deals them and keeps the top back."""
    st = fresh(2)
    v = st.view(0)
    text = json.dumps(v)
    assert v["top_planet_back_alert"] == GAME_PACK_ALERT(st.data.planet_deck[0])
    assert v["planet_deck_size"] == len(st.data.planet_deck) and v["journey_np"] == 4
    assert "planet_deck\"" not in text and "discovery_deck\"" not in text and "encounter_deck\"" not in text
    assert "dice_queue" not in text
    changed = False
    for k in range(5):
        det = st.determinize(0, Rng(k))
        assert det.view(0) == v
        changed |= det.data.planet_deck != st.data.planet_deck
        assert GAME_PACK_ALERT(det.data.planet_deck[0]) == v["top_planet_back_alert"]
    assert changed


def GAME_PACK_ALERT(planet: int) -> bool:
    from holotable.games.kyrum.pack import load_pack

    return load_pack(MINI).planets[planet].back_alert


def test_unread_scripts_not_in_view() -> None:
    """Views show only the script being read; an offered script is named by code only (KYR-EXPLORE-05)."""
    st = arranged(slots=slots(10, 11, 12, 13), gauges={"fuel": 10}, dice=[4, 4], planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0")
    v = json.dumps(st.view(0))
    assert "A.10.08" in v and "recorder" not in v.lower()
    play(st, "read")
    assert st.view(0)["reading"]["code"] == "A.10.08"


def test_action_text_and_index_round_trip() -> None:
    """Every action has a text form and an index that round-trip; garbage is MalformedActionError."""
    for a in act.UNIVERSE[::37]:
        assert act.parse(str(a)) == a and act.index_action(act.action_index(a)) == a
    assert GAME.num_actions(GAME.spec.make_config(1)) == len(act.UNIVERSE)
    for bad in ("", "explore 9", "study d16 common 1", "fly", "option 0", "send\x00"):
        with pytest.raises(MalformedActionError):
            act.parse(bad)
    msg = act.parse("send The ship is the Quiet Heron")
    assert str(msg) == "send The ship is the Quiet Heron" and act.action_index(msg) == act.action_index(act.SEND)


def test_refused_action_changes_nothing() -> None:
    """P-K-06: an illegal action raises with a rule ID and leaves the state byte-identical."""
    st = fresh()
    before = st.fingerprint()
    with pytest.raises(IllegalActionError) as err:
        st.apply("validate")
    assert err.value.rule == "KYR-OBJ-15" and st.fingerprint() == before
    with pytest.raises(IllegalActionError):
        st.apply("read")
    assert st.fingerprint() == before and "leave" in texts(st)


def test_scripted_chance_checks_its_outcomes() -> None:
    """Die faces, planets of a reshuffle and discarded discoveries are checked when scripted."""
    st = fresh()
    for chance, message in (({"die": [7]}, "chance.die\\[0\\]: expected an integer 1 .. 6"),
                            ({"shuffle": [[10, 99]]}, "chance.shuffle\\[0\\]\\[1\\]: unknown planet 99"),
                            ({"discard": ["nope"]}, "chance.discard\\[0\\]: unknown discovery 'nope'")):
        with pytest.raises(ScenarioError, match=message):
            st.script_chance(chance)
    with pytest.raises(ScenarioError, match="'dice' must be a list"):
        st.arrange({"dice": 4})
    assert dict(st.script) == {}
