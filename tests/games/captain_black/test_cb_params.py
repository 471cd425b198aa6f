"""Every ASSUMED value is a config parameter that changes the game as documented (CB-AMB records)."""

from __future__ import annotations

from typing import Any

import pytest
from cb_helpers import DEFAULT_PARROTS, GAME, arrange_round_end, end_round, enter_round, new_state, parrot_deck

from holotable.engine import ConfigError, IllegalActionError, Rng
from holotable.games.captain_black import Draw


def test_every_assumed_param_names_its_ambiguity_record() -> None:
    records = {p.name: p.assumed for p in GAME.spec.params}
    assert records == {
        "start_seat": "CB-AMB-14",
        "max_handful": "CB-AMB-05",
        "min_draw": "CB-AMB-04",
        "parrot_values": "CB-AMB-02",
        "island_fields": "CB-AMB-03",
        "max_chests_per_round": "CB-AMB-11",
        "final_tie": "CB-AMB-13",
        "parrot_exhaustion": "CB-AMB-10",
        "public_tally": "CB-AMB-16",
        "timeout_draw": "CB-AMB-21",
    }


def test_unknown_or_bad_params_are_rejected() -> None:
    with pytest.raises(ConfigError, match="no parameter"):
        GAME.new_state(players=3, seed=0, parrots=3)
    with pytest.raises(ConfigError, match="final_tie"):
        GAME.new_state(players=3, seed=0, final_tie="youngest")
    with pytest.raises(ConfigError, match="parrot_exhaustion"):
        GAME.new_state(players=3, seed=0, parrot_exhaustion="never")
    with pytest.raises(ConfigError):
        GAME.new_state(players=3, seed=0, min_draw=0)


def test_CB_AMB_02_parrot_values_param() -> None:
    st = new_state(4, seed=1, start_seat=0, parrot_values=[5] * 13)
    assert st.data.parrot_deck == [5] * 13
    arrange_round_end(st, [10, 13, 8, 8])
    end_round(st)
    assert st.data.rounds[0]["totals"] == [10, 13, 18, 18]
    assert st.data.rounds[0]["chests"] == [1, 2, 3, 3]


@pytest.mark.parametrize("values", [[1] * 12, [1] * 14, [-1] + [1] * 12, [1.5] + [1] * 12])
def test_CB_AMB_02_bad_parrot_values_rejected(values: list[float]) -> None:
    with pytest.raises(ConfigError, match="parrot_values"):
        new_state(3, seed=0, parrot_values=values)


def test_CB_AMB_03_island_fields_variant_ends_the_round_at_seven() -> None:
    st = new_state(2, seed=2, start_seat=0, island_fields=7)
    d = st.data
    d.island, d.bag_black = 6, 2
    st.apply(Draw(44))  # the whole bag (42 gold + 2 black): a black coin for sure
    assert len(d.rounds) == 1 and d.round == 2
    with pytest.raises(ConfigError, match="island_fields"):
        new_state(2, seed=2, island_fields=9)


def test_CB_AMB_04_min_draw_param() -> None:
    st = new_state(2, seed=2, start_seat=0, min_draw=3)
    assert st.legal_actions()[0] == Draw(3)
    with pytest.raises(IllegalActionError) as err:
        st.apply(Draw(2))
    assert err.value.rule == "CB-DRAW-02"


def test_CB_AMB_04_CB_AMB_06_min_draw_above_the_bag_still_lets_the_mover_draw() -> None:
    """A house minimum of 3 with only 1 coin left must not freeze the game: the mover draws the bag."""
    st = new_state(2, seed=2, start_seat=0, min_draw=3)
    d = st.data
    d.boxes = [30, 12]
    d.bag_gold, d.bag_black, d.island = 0, 1, 7
    assert list(st.legal_actions()) == [Draw(1)]
    assert GAME.timeout_action(st, 0) == Draw(1)
    st.apply(Draw(1))
    assert d.round == 2


def test_CB_AMB_05_max_handful_param() -> None:
    st = new_state(3, seed=2, start_seat=0, max_handful=5)
    assert [a.k for a in st.legal_actions()] == [1, 2, 3, 4, 5]
    with pytest.raises(IllegalActionError) as err:
        st.apply(Draw(6))
    assert err.value.rule == "CB-DRAW-02"
    assert sum(st.action_mask(0)) == 5
    with pytest.raises(ConfigError, match="max_handful"):
        new_state(3, seed=2, max_handful=2, min_draw=3)


def test_CB_AMB_11_max_chests_per_round_param() -> None:
    st = new_state(4, seed=2, start_seat=0, max_chests_per_round=2)
    st.data.parrot_deck = parrot_deck([1, 1])
    arrange_round_end(st, [0, 4, 6, 8])
    end_round(st)
    assert st.data.rounds[0]["chests"] == [1, 2, 2, 2]


def leave_in_parrot_deck(d: Any, cards: list[int]) -> None:
    """Only ``cards`` (top at the end) left in the parrot deck; every other parrot is aside."""
    aside = list(DEFAULT_PARROTS)
    for card in cards:
        aside.remove(card)
    d.parrot_deck, d.parrot_aside = list(cards), aside


def test_CB_AMB_10_parrot_exhaustion_partial_gives_what_is_left() -> None:
    """Two players tie for fewest, 3 cards left: the first (clockwise) gets 2, the second 1."""
    st = new_state(3, seed=1, start_seat=0, parrot_exhaustion="partial")
    enter_round(st, 3)
    d = st.data
    leave_in_parrot_deck(d, [2, 3, 1])
    arrange_round_end(st, [4, 4, 9])
    end_round(st)
    assert d.rounds[-1]["parrots"] == {"0": [1, 3], "1": [2]}
    assert d.rounds[-1]["totals"] == [8, 6, 9]
    assert d.parrot_deck == [] and len(d.parrot_aside) == 10  # no reshuffle


def test_CB_AMB_10_parrot_exhaustion_skip_gives_whole_pairs_only() -> None:
    st = new_state(3, seed=1, start_seat=0, parrot_exhaustion="skip")
    enter_round(st, 3)
    d = st.data
    d.parrot_deck = [2, 3, 1]
    d.parrot_aside = [1] * 10
    arrange_round_end(st, [4, 4, 9])
    end_round(st)
    assert d.rounds[-1]["parrots"] == {"0": [1, 3], "1": []}
    assert d.rounds[-1]["totals"] == [8, 4, 9]
    assert d.parrot_deck == [2]


def test_CB_AMB_10_default_reshuffle_serves_every_tied_player_in_full() -> None:
    st = new_state(3, seed=1, start_seat=0)
    enter_round(st, 3)
    d = st.data
    leave_in_parrot_deck(d, [2, 3, 1])
    arrange_round_end(st, [4, 4, 9])
    end_round(st)
    hands = d.rounds[-1]["parrots"]
    assert hands["0"] == [1, 3] and len(hands["1"]) == 2 and hands["1"][0] == 2
    assert sorted(d.parrot_deck + d.parrot_aside + d.parrots[0] + d.parrots[1]) == list(DEFAULT_PARROTS)


def test_CB_DIG_03_CB_AMB_21_timeout_draws_timeout_draw_coins() -> None:
    st = new_state(3, seed=2, start_seat=1)
    assert GAME.timeout_action(st, 1) == Draw(1)  # default: the smallest legal draw
    st = new_state(3, seed=2, start_seat=1, timeout_draw=4)
    action = GAME.timeout_action(st, 1)
    assert action == Draw(4) and action in st.legal_actions()
    st.apply(action)
    assert st.data.last_draw is not None and st.data.last_draw.k == 4


def test_CB_DIG_03_timeout_is_clipped_to_the_bag_and_the_handful() -> None:
    st = new_state(2, seed=2, start_seat=0, timeout_draw=10, max_handful=6)
    assert GAME.timeout_action(st, 0) == Draw(6)
    st = new_state(2, seed=2, start_seat=0, timeout_draw=10)
    st.data.bag_gold, st.data.bag_black, st.data.island = 2, 1, 7
    st.data.boxes = [20, 20]
    assert GAME.timeout_action(st, 0) == Draw(3)


def test_params_round_trip_through_config_dict() -> None:
    cfg = GAME.spec.make_config(3, max_handful=7, parrot_values="3,3,3,3,3,3,3,3,3,3,3,3,3", public_tally="false")
    again = GAME.spec.config_from_dict(cfg.to_dict())
    assert again == cfg
    assert cfg["public_tally"] is False and cfg["parrot_values"] == (3,) * 13


def test_variant_games_play_to_the_end() -> None:
    for params in ({"island_fields": 3, "max_handful": 4, "min_draw": 2}, {"parrot_exhaustion": "skip"},
                   {"parrot_exhaustion": "partial", "max_chests_per_round": 1}):
        st = new_state(4, seed=5, start_seat=None, **params)
        rng = Rng(9)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        assert len(st.data.rounds) == 4
