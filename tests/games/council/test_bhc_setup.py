"""Set-up and the shape of a game: BHC-SETUP, BHC-PLAYERS-02, BHC-FLOW, BHC-DIG-04."""

from __future__ import annotations

import pytest
from bhc_helpers import DATA, GAME, PLANET_IDS, all_fail, all_pass, get_paid_all, new_state

from holotable.engine import ConfigError
from holotable.games.council.rules import clockwise_from, left, right


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_BHC_SETUP_01_02_03_07_09_10_the_table_at_the_start(n: int) -> None:
    """BHC-SETUP-01: tokens on space 1; BHC-SETUP-02: Round Marker on space 1; BHC-SETUP-03: one shuffled
    planet deck (27 left after N1's Prepare); BHC-SETUP-07: each Bank holds 1 coin; BHC-SETUP-09: the Leader
    Token on Proposal 1; BHC-SETUP-10: the Bribe Space is first filled by N1's Prepare (1 coin)."""
    st = new_state(n, seed=n)
    d = st.data
    assert d.positions == [1] * n
    assert d.round == 0 and st.view(None)["round"] == 1
    assert d.banks == [1] * n
    assert d.proposal == 1
    assert d.bribe_space == 1
    assert len(d.deck) == 27 and len(d.table) == 5
    assert sorted(d.deck + d.table) == sorted(PLANET_IDS)


def test_BHC_SETUP_03_the_deck_is_shuffled_by_the_seed() -> None:
    """BHC-SETUP-03 / BHC-DIG-04: the shuffle comes from the seeded RNG: the same seed deals the same deck,
    different seeds different ones."""
    decks = {tuple(new_state(5, seed=s).data.deck) for s in range(6)}
    assert len(decks) == 6
    assert new_state(5, seed=3).data.deck == new_state(5, seed=3).data.deck


@pytest.mark.parametrize("n", [4, 8])
def test_BHC_SETUP_04_05_cards_dealt_and_the_rest_unseen(n: int) -> None:
    """BHC-SETUP-04: each player gets one of the 20 Agendas, all different, and the undealt ones are not kept
    anywhere (the full state lists only the n dealt); BHC-SETUP-05: the same for the 10 Intrigue cards."""
    for seed in range(5):
        st = new_state(n, seed=seed)
        full = st.full()["data"]
        assert len(full["agendas"]) == n and len(set(full["agendas"])) == n
        assert len(full["intrigue"]) == n
        assert all(0 <= a < 20 for a in full["agendas"])
        dealt = {k: full["intrigue"].count(k) for k in range(5)}
        assert all(dealt[k] <= DATA.intrigue_counts[k] for k in range(5))


def test_BHC_SETUP_06_each_player_sees_their_own_cards() -> None:
    """BHC-SETUP-06: a seat's view holds its own Agenda and Intrigue card and no one else's."""
    st = new_state(5, seed=2)
    for seat in range(5):
        mine = st.view(seat)["you"]
        assert mine["agenda"]["id"] == DATA.agenda_ids[st.data.agendas[seat]]
        assert mine["intrigue"] == ("settle", "tax", "mine", "conquer", "black_hole")[st.data.intrigue[seat]]
    assert "you" not in st.view(None)


def test_BHC_SETUP_08_first_leader() -> None:
    """BHC-SETUP-08 (assumed:AMB-10): the host may pick the first Leader; by default a seeded random seat."""
    assert new_state(6, first_leader=4).data.leader == 4
    leaders = {new_state(6, seed=s, first_leader=None).data.leader for s in range(30)}
    assert len(leaders) > 3
    assert new_state(6, seed=9, first_leader=None).data.leader == new_state(6, seed=9, first_leader=None).data.leader
    with pytest.raises(ConfigError):
        new_state(4, first_leader=4)


def test_BHC_PLAYERS_02_left_and_right() -> None:
    """BHC-PLAYERS-02 (assumed:AMB-09): seats clockwise; left is the next seat, right the previous one."""
    assert left(3, 5) == 4 and left(4, 5) == 0
    assert right(0, 5) == 4 and right(3, 5) == 2
    assert clockwise_from(3, 5) == [3, 4, 0, 1, 2]


def test_BHC_FLOW_01_02_03_ten_rounds_in_the_assumed_order() -> None:
    """BHC-FLOW-01: 6 Negotiation + 3 Deduction + Pay-Out; BHC-FLOW-02 (assumed:AMB-08): N N D N N D N N D P;
    BHC-FLOW-03: the Round Marker moves one space after each round."""
    st = new_state(4, seed=1)
    seen: list[tuple[int, str]] = []
    while not st.is_terminal():
        d = st.data
        seen.append((d.round + 1, d.round_kind))
        if d.phase == "negotiate":
            all_pass(st)
            get_paid_all(st)
        else:
            for seat in range(4):
                st.apply("guess red right" if d.deduction_round == 2 else "guess red left", seat)
    assert seen == [(1, "N"), (2, "N"), (3, "D"), (4, "N"), (5, "N"), (6, "D"), (7, "N"), (8, "N"), (9, "D")]
    assert st.data.negotiation_round == 6 and st.data.deduction_round == 3
    assert len(st.data.history) == 6


@pytest.mark.parametrize("order", ["NNNNNNDDDP", "NDNDNDNNNP"])
def test_BHC_FLOW_02_alternative_orders(order: str) -> None:
    """assumed:AMB-08: the alternatives of the ambiguity record are a parameter away."""
    st = new_state(4, seed=1, round_order=order)
    kinds = []
    while not st.is_terminal():
        kinds.append(st.data.round_kind)
        if st.data.phase == "negotiate":
            all_fail(st)
            all_fail(st)
            all_fail(st)
        else:
            for seat in range(4):
                st.apply("guess red right" if st.data.deduction_round == 2 else "guess red left", seat)
    assert "".join(kinds) + "P" == order
    with pytest.raises(ConfigError):
        GAME.spec.make_config(4, round_order="NNNNNNNDDP")
