"""Black Hole Buccaneers' data values changed per configuration (issue 9): junk card values
(assumed:AMB-10), black holes (assumed:AMB-01) and scoring cards (assumed:AMB-05) reach the
game through ``--set``/``data=`` without editing the files."""

from __future__ import annotations

from typing import Any

import pytest

import holotable
from holotable.engine import ConfigError, DataOverrideError, Match, Rng, State
from holotable.games.buccaneers import cards as tb
from holotable.games.buccaneers.bots import read_board
from holotable.games.buccaneers.data import data_for
from holotable.games.buccaneers.state import Laid

GAME = holotable.load("buccaneers")


def _random_game(config: Any, seed: int) -> list[tuple[int, str]]:
    st = State.new(GAME, config, seed)
    rng = Rng(seed)
    log: list[tuple[int, str]] = []
    while not st.is_terminal():
        seat = st.to_move()[0]
        action = rng.choice(list(st.legal_actions(seat)))
        log.append((seat, GAME.action_to_str(action)))
        st.apply(action, seat)
    return log


def test_scoring_card_points_change_the_scored_totals() -> None:
    """assumed:AMB-05 — the 1st place of the 4-player scoring card scores 20 instead of 15."""
    default = GAME.spec.make_config(4)
    log = _random_game(default, 11)
    changed = GAME.spec.make_config(4, data={"components.scoring_cards.4.0": 20})
    before = Match(GAME, default, 11, list(log)).state.outcome()
    after = Match(GAME, changed, 11, list(log)).state.outcome()
    pads = zip(before.details["pad"], after.details["pad"], strict=True)
    firsts = [0] * 4
    for old, new in pads:
        assert new["points"] == [20 if p == 15 else p for p in old["points"]]
        firsts = [f + (p == 15) for f, p in zip(firsts, old["points"], strict=True)]
    assert any(firsts)
    assert list(after.scores) == [b + 5 * f for b, f in zip(before.scores, firsts, strict=True)]


def test_a_junk_cards_value_counts_in_the_tableau_and_the_view() -> None:
    """assumed:AMB-10 — SHIP-14's printed value 14 set to 13 (spaceship values stay distinct)."""
    for value, data in ((14, {}), (13, {"junk.SHIP-14.stats.0.value": 13})):
        st = State.new(GAME, GAME.spec.make_config(4, data=data), 2)
        st.data.tableaux[0].append(Laid("SHIP-14"))
        assert tb.value(st.data, 0) == value
        assert tb.ships(st.data, 0) == [value]
        assert st.view(0)["tableaux"][0][-1]["value"] == value


def test_a_rotating_artifacts_weight_changes_the_weight_total() -> None:
    """assumed:AMB-09 — the Lootbox's orientation-2 weight."""
    shipped = GAME.spec.data_keys()["junk.ART-LOOT.stats.2.weight"].value
    st = State.new(GAME, GAME.spec.make_config(4, data={"junk.ART-LOOT.stats.2.weight": shipped - 2}), 4)
    base = tb.weight(st.data, 0)
    st.data.tableaux[0].append(Laid("ART-LOOT", turns=2))
    assert tb.weight(st.data, 0) == base + shipped - 2


def test_black_hole_cards_and_threshold_change_the_deal_and_the_round() -> None:
    """assumed:AMB-01 — BH-M1 deals 7 cards and has threshold 21 instead of 5 and 14."""
    config = GAME.spec.make_config(4, black_holes="BH-M1,BH-R1,BH-D1",
                                   data={"black_holes.BH-M1.cards": 7, "black_holes.BH-M1.threshold": 21})
    st = State.new(GAME, config, 3, record=True)
    assert [len(h) for h in st.data.hands] == [7, 7, 7, 7]
    assert st.view(None)["black_hole"] == {"id": "BH-M1", "category": "menacing", "cards": 7, "threshold": 21}
    plain = State.new(GAME, GAME.spec.make_config(4, black_holes="BH-M1,BH-R1,BH-D1"), 3)
    assert [len(h) for h in plain.data.hands] == [5, 5, 5, 5]
    assert plain.view(None)["black_hole"]["threshold"] == 14


def test_default_configs_share_the_shipped_data() -> None:
    config = GAME.spec.make_config(4)
    assert data_for(config) is tb.DATA
    assert State.new(GAME, config, 1).data.game_data is None


@pytest.mark.parametrize(("data", "message"), [
    ({"junk.ROBOT-7-3.stats.0.value": 9}, "a robot needs exactly [o0, o1] with o1 = o0 swapped"),
    ({"junk.SHIP-07.stats.0.value": 8}, "spaceship values must be distinct"),
    ({"black_holes.BH-M1.threshold": 4}, "must be above 'cards'"),
    ({"components.scoring_cards.4.1": 16}, "strictly falling points"),
    ({"black_holes.first_game_stack.0": "BH-D1"}, "the top must be a menacing black hole"),
])
def test_overrides_that_break_the_data_rules_are_refused_like_a_bad_file(data: dict[str, Any], message: str) -> None:
    with pytest.raises(DataOverrideError) as err:
        GAME.spec.make_config(4, data=data)
    assert message in str(err.value) and "buccaneers/data" in str(err.value)


def test_robots_change_when_both_orientations_are_set() -> None:
    """A robot's second orientation is its first swapped (BHB-CARD-ROBOT-03): set both."""
    config = GAME.spec.make_config(4, data={"junk.ROBOT-7-3.stats.0.value": 8, "junk.ROBOT-7-3.stats.1.weight": 8})
    assert data_for(config).cards_by_id["ROBOT-7-3"].stats[1].weight == 8


def test_printed_rules_facts_are_not_offered() -> None:
    keys = GAME.spec.data_keys()
    assert not [k for k in keys if k.startswith(("junk.TM-", "components.weight_cards", "components.threshold"))]
    with pytest.raises(ConfigError) as err:
        GAME.spec.make_config(4, data={"junk.TM-CC-1.stats.0.value": 3})
    assert "no data value 'junk.TM-CC-1.stats.0.value'" in str(err.value)


def test_the_heuristic_bot_plans_with_the_configurations_numbers() -> None:
    """The bot reads scoring points and card values from the game's data, overrides included."""
    config = GAME.spec.make_config(4, data={"components.scoring_cards.4.0": 20, "junk.SHIP-14.stats.0.value": 13})
    st = State.new(GAME, config, 6)
    board = read_board(st.view(0), config)
    assert board.points == (20, 10, 6, 3)
    assert board.data.cards_by_id["SHIP-14"].printed.value == 13
    assert read_board(st.view(0), GAME.spec.make_config(4)).points == (15, 10, 6, 3)
