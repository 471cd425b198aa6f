"""The campaign state, its JSON round trip, start/fold of games, scoreboard and questionnaire (KYR-CAMPAIGN)."""

from __future__ import annotations

import pytest
from kyr_helpers import MINI, QUIET_TOP, campaign, campaign_state, play, slots, texts

from holotable.engine import DataError, IllegalActionError
from holotable.games.kyrum.campaign import (
    CampaignState,
    buy_item,
    campaign_status,
    finish_questionnaire,
    fold_game,
    game_seed,
    new_campaign,
    set_comment,
    shared_score,
    start_game,
    tracking_list,
)
from holotable.games.kyrum.pack import load_pack

PACK = load_pack(MINI)


def finish(st: object) -> None:
    while not st.is_terminal():  # type: ignore[attr-defined]
        legal = texts(st)  # type: ignore[arg-type]
        play(st, "close" if "close" in legal else legal[0])  # type: ignore[arg-type]


def test_KYR_CAMPAIGN_01_03_schedule_and_scoreboard() -> None:
    """KYR-CAMPAIGN-01 (assumed:KYR-AMB-27): a 30-game schedule; KYR-CAMPAIGN-03 (assumed:KYR-AMB-45): six columns."""
    camp = campaign()
    assert len(camp.scoreboard) == 30 == PACK.schedule["length"]
    assert camp.scoreboard[0] == {"game": 1, "objectives": ["B", "F", "N"], "result": None, "np": None,
                                  "comment": "", "end_script": "A.70.01"}
    assert camp.scoreboard[1]["end_script"] is None


def test_KYR_CAMPAIGN_02_strict_order_T_KYR_33() -> None:
    """T-KYR-33, KYR-SETUP-01: finish game 1; asking for game 1 again is refused; the next game is 2."""
    camp = campaign()
    st = start_game(camp, MINI)
    assert st.data.game == 1 and st.seed == game_seed(0, 1)
    play(st, "concede")
    finish(st)
    camp = fold_game(camp, st)
    with pytest.raises(IllegalActionError) as err:
        start_game(camp, MINI, game=1)
    assert err.value.rule == "KYR-CAMPAIGN-02"
    with pytest.raises(IllegalActionError):
        start_game(camp, MINI, game=3)
    assert start_game(camp, MINI).data.game == 2 and camp.next_game == 2
    assert camp.scoreboard[0]["result"] == "defeat"


def test_KYR_CAMPAIGN_04_persistent_data_and_json_round_trip() -> None:
    """KYR-CAMPAIGN-04, KYR-DISC-10, KYR-SETUP-07: bank, items, narratives with progress, flags, scripts seen,
    glossary, journal carry over; the campaign round-trips through JSON; game. flags reset."""
    camp = campaign()
    st = campaign_state(camp)
    st.arrange({"slots": slots(10, 11, 12, 13), "gauges": {"fuel": 10}, "dice": [4, 4], "elements": {"common": 2},
                "planet_deck_top_first": QUIET_TOP, "flags": {"game.x": 3, "keep": 1}})
    play(st, "explore 0", "read", "option 1", "study n1 common 2", "concede")
    finish(st)
    after = fold_game(camp, st)
    again = CampaignState.from_json(after.to_json())
    assert again == after and again.to_json() == after.to_json()
    (nd,) = again.narratives
    assert nd["state"] == "active" and nd["paid"]["common"] == 2
    assert again.main_seen == ["A.10.08"] and "A.70.01" in again.scripts_seen and "kyrum" in again.glossary
    nxt = campaign_state(again)
    assert nxt.data.inventory == [] and nxt.data.camp["narratives"][0]["paid"]["common"] == 2
    assert "game.x" not in nxt.data.camp["flags"] and nxt.data.camp["flags"]["keep"] == 1


def test_KYR_DISC_10_narrative_across_games_T_KYR_26() -> None:
    """T-KYR-26, KYR-DISC-08: a 4-rare narrative: pay 1 R in game 3, the game ends, pay 3 R in game 4 -> the
    completion script is read in game 4 at the last payment."""
    nd = {"nd_id": "ND-FIX", "name": "Fixture", "cost": {"common": 0, "uncommon": 0, "rare": 4, "any": 0},
          "paid": {"common": 0, "uncommon": 0, "rare": 0, "any": 0},
          "waived": {"common": 0, "uncommon": 0, "rare": 0, "any": 0}, "on_complete": "A.11.81",
          "keep_after_study": False, "state": "active", "text": ""}
    camp = CampaignState.from_dict({**campaign().to_dict(), "next_game": 3, "narratives": [nd]})
    st = campaign_state(camp)
    st.arrange({"elements": {"rare": 1}, "planet_deck_top_first": QUIET_TOP})
    play(st, "study n1 rare 1", "concede")
    finish(st)
    camp = fold_game(camp, st)
    assert camp.narratives[0]["paid"]["rare"] == 1 and camp.next_game == 4
    st = campaign_state(camp)
    st.arrange({"elements": {"rare": 3}, "planet_deck_top_first": QUIET_TOP})
    play(st, "study n1 rare 3")
    assert st.data.camp["narratives"][0]["state"] == "done" and "A.11.81" in st.data.camp["scripts_seen"]


def test_KYR_CAMPAIGN_05_to_08_questionnaire_T_KYR_32() -> None:
    """T-KYR-32, KYR-CAMPAIGN-06, KYR-CAMPAIGN-07, KYR-CAMPAIGN-08 (assumed:KYR-AMB-28/29/46): scores and statuses;
    only after the last game."""
    rows = [(31, None, 62, "Traveller"), (30, 29, 59, "Lost"), (35, 35, 70, "Great Traveller"),
            (40, 40, 80, "Explorer"), (45, 45, 90, "Great Explorer"), (30, 30, 60, "Traveller"),
            (34, 35, 69, "Traveller")]
    for own, partner, shared, status in rows:
        assert shared_score(own, partner) == shared
        assert campaign_status(shared, PACK.rules["status_thresholds"]) == status
    camp = campaign()
    answers = {f"Q{i}": (0 if i <= 7 else 1) for i in range(1, 11)}
    with pytest.raises(IllegalActionError) as err:
        finish_questionnaire(camp, PACK, answers)
    assert err.value.rule == "KYR-CAMPAIGN-05"
    done = CampaignState.from_dict({**camp.to_dict(), "next_game": 31})
    result = finish_questionnaire(done, PACK, answers).questionnaire
    assert result is not None and result["own_score"] == 35 and result["shared_score"] == 70
    assert result["status"] == "Great Traveller"
    partnered = new_campaign(PACK, partner=True)
    partnered = CampaignState.from_dict({**partnered.to_dict(), "next_game": 31})
    with pytest.raises(IllegalActionError):
        finish_questionnaire(partnered, PACK, answers)
    assert finish_questionnaire(partnered, PACK, answers, 29).questionnaire["shared_score"] == 64  # type: ignore
    with pytest.raises(ValueError):
        shared_score(51, None)


def test_KYR_CAMPAIGN_09_partner_fixed_at_creation() -> None:
    """KYR-CAMPAIGN-09 (assumed:KYR-AMB-19): the game follows the campaign's partner flag, not the parameter."""
    camp = campaign(partner=False)
    st = campaign_state(camp, partner=True)
    assert "ENC-10" not in st.data.encounter_deck + st.data.encounter_removed
    st = campaign_state(campaign(partner=True))
    assert "ENC-10" in st.data.encounter_deck + st.data.encounter_removed


def test_KYR_CAMPAIGN_10_tracking_list() -> None:
    """KYR-CAMPAIGN-10 (assumed:KYR-AMB-52): 19 x 6 + RAHEL x 1 = 115 entries."""
    tl = tracking_list(campaign(), PACK)
    assert sum(len(v) for v in tl.values()) == 115 and list(tl[29]) == ["A.29.01"]


def test_comment_and_market_between_games() -> None:
    """KYR-CAMPAIGN-03 comment column; KYR-THOTH-03/04: a purchase between games keeps the unspent NP."""
    camp = CampaignState.from_dict({**campaign().to_dict(), "next_game": 2, "np_bank": 6})
    camp = set_comment(camp, 1, "Close call on Hesk.")
    assert camp.scoreboard[0]["comment"] == "Close call on Hesk."
    with pytest.raises(IllegalActionError):
        set_comment(camp, 2, "too early")
    camp = buy_item(camp, PACK, "T01")
    assert camp.np_bank == 2 and camp.items["T01"] == {"owned": 1, "consumed": 0}
    with pytest.raises(IllegalActionError) as err:
        buy_item(camp, PACK, "T02")
    assert err.value.rule == "KYR-THOTH-04"


def test_campaign_json_errors() -> None:
    """A bad campaign text is a DataError naming the field."""
    with pytest.raises(DataError, match="unknown field"):
        CampaignState.from_json('{"pack_id": "mini", "bogus": 1}')
    with pytest.raises(DataError, match="next_game"):
        CampaignState.from_json('{"pack_id": "mini", "next_game": -1}')
