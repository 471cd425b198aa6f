"""Components, player counts and set-up (CB-COMP, CB-PLAYERS, CB-SETUP)."""

from __future__ import annotations

import pytest
from cb_helpers import BLACK, CHESTS_EMPTY, CHESTS_FILLED, DEFAULT_PARROTS, GAME, GOLD, new_state

import holotable
from holotable.engine import ConfigError
from holotable.games.captain_black import Draw


def test_game_is_registered_with_its_spec() -> None:
    assert "captain-black" in holotable.games
    assert GAME.spec.rule_prefix == "CB"
    assert holotable.load("cb") is GAME


def test_CB_COMP_01_bag_starts_with_42_gold_and_8_black() -> None:
    """CB-COMP-01: 42 gold coins; CB-COMP-02: 8 black coins."""
    for n in (2, 3, 4):
        d = new_state(n, seed=n).data
        assert (d.bag_gold, d.bag_black) == (GOLD, BLACK) == (42, 8)


def test_CB_COMP_03_chest_deck_is_35_filled_and_5_empty() -> None:
    d = new_state(4, seed=2).data
    assert len(d.chest_deck) == 40
    assert sum(d.chest_deck) == CHESTS_FILLED == 35
    assert d.chest_deck.count(False) == CHESTS_EMPTY == 5


def test_CB_COMP_04_CB_AMB_02_thirteen_parrots_with_assumed_values() -> None:
    """CB-AMB-02: six 1s, four 2s, three 3s (sum 23) by default."""
    d = new_state(3, seed=4).data
    assert len(d.parrot_deck) == 13
    assert sorted(d.parrot_deck) == list(DEFAULT_PARROTS)
    assert sum(d.parrot_deck) == 23
    assert GAME.spec.param("parrot_values").assumed == "CB-AMB-02"


def test_CB_COMP_05_the_bag_is_opaque_the_mover_only_chooses_how_many() -> None:
    """The only choice is k; the same k from the same position gives different coins on different seeds."""
    st = new_state(2, seed=0)
    assert all(isinstance(a, Draw) for a in st.legal_actions())
    results = set()
    for seed in range(40):
        s = new_state(2, seed=seed)
        s.apply(Draw(10))
        assert s.data.last_draw is not None
        results.add(s.data.last_draw.black)
    assert len(results) > 1
    view = st.view(0)
    assert "bag_order" not in view and "rng" not in view


def test_CB_COMP_06_CB_SETUP_06_ship_marks_the_start_player_who_holds_the_bag() -> None:
    for start in range(4):
        st = new_state(4, seed=9, start_seat=start)
        view = st.view(None)
        assert view["start_player"] == start
        assert view["bag_holder"] == start
        assert st.to_move() == (start,)


def test_CB_COMP_07_CB_SETUP_01_island_has_a_box_per_player_and_8_discard_fields() -> None:
    """CB-AMB-03: one discard field per black coin."""
    for n in (2, 3, 4):
        st = new_state(n, seed=1)
        assert st.data.boxes == [0] * n
        assert st.view(0)["boxes"] == [0] * n
        assert st.view(0)["island_fields"] == 8
        assert st.data.island == 0
    assert GAME.spec.param("island_fields").assumed == "CB-AMB-03"


def test_CB_COMP_08_no_assembly_step_the_first_decision_is_a_draw() -> None:
    st = new_state(3, seed=5)
    assert st.ply == 0
    assert st.legal_actions()[0] == Draw(1)
    with pytest.raises(holotable.engine.MalformedActionError):
        st.apply("assemble island")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_CB_PLAYERS_01_CB_AMB_01_two_to_four_players_accepted(players: int) -> None:
    st = new_state(players, seed=0)
    assert st.players == players
    assert len(st.data.chests) == players


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_CB_PLAYERS_01_CB_AMB_01_other_counts_rejected(players: int) -> None:
    with pytest.raises(ConfigError, match="2-4 players"):
        GAME.new_state(players=players, seed=0)


def test_CB_PLAYERS_02_next_player_is_clockwise() -> None:
    st = new_state(4, seed=3, start_seat=2)
    movers = []
    for _ in range(6):
        movers.append(st.to_move()[0])
        st.apply(Draw(1))  # six one-coin draws cannot place 8 black coins, so the round goes on
    assert movers == [2, 3, 0, 1, 2, 3]


def test_CB_SETUP_02_chest_deck_is_shuffled_and_hidden() -> None:
    orders = {tuple(new_state(4, seed=s).data.chest_deck) for s in range(20)}
    assert len(orders) > 1
    view = new_state(4, seed=1).view(0)
    assert view["chest_deck_size"] == 40
    assert not any("chest_deck" in key and key != "chest_deck_size" for key in view)


def test_CB_SETUP_03_parrot_deck_is_shuffled_values_hidden() -> None:
    orders = {tuple(new_state(4, seed=s).data.parrot_deck) for s in range(20)}
    assert len(orders) > 1
    view = new_state(4, seed=1).view(2)
    assert view["parrot_deck_size"] == 13
    assert view["parrot_aside"] == []
    assert "parrot_deck" not in view


def test_CB_SETUP_04_all_50_coins_in_the_bag() -> None:
    st = new_state(3, seed=8)
    assert st.view(1)["bag"] == {"gold": 42, "black": 8}
    assert sum(st.data.boxes) == 0 and st.data.island == 0


def test_CB_SETUP_05_CB_AMB_14_host_picks_the_start_seat() -> None:
    for start in range(3):
        assert new_state(3, seed=1, start_seat=start).data.start == start
    with pytest.raises(ConfigError):
        new_state(3, seed=1, start_seat=3)
    assert GAME.spec.param("start_seat").assumed == "CB-AMB-14"


def test_CB_SETUP_05_CB_AMB_14_otherwise_a_seeded_random_seat() -> None:
    starts = [new_state(4, seed=s, start_seat=None).data.start for s in range(60)]
    assert set(starts) == {0, 1, 2, 3}
    assert starts == [new_state(4, seed=s, start_seat=None).data.start for s in range(60)]


def test_same_seed_same_setup() -> None:
    a = new_state(4, seed=77, start_seat=None)
    b = new_state(4, seed=77, start_seat=None)
    assert a.fingerprint() == b.fingerprint()
