"""Chronicle, Pay-Out, the final Advance and the winner: BHC-CHRON, BHC-PAYOUT, BHC-FINAL, BHC-WIN
(BHC-EX-09, EX-10; exact numbers also in the scenario files)."""

from __future__ import annotations

from bhc_helpers import DATA, GAME, PLANET_IDS, agendas, all_pass, arranged, coins_in_play, get_paid_all
from hypothesis import given, settings
from hypothesis import strategies as st_

from holotable.games.council.scoring import payout_coins

N1 = ["RED-A", "YEL-B", "RBW-MINUS", "BLU-D", "GRN-A"]
N2 = ["RED-B", "GRN-B", "YEL-A", "BLU-B", "BLK-A"]
REST = ["GRN-D", "RED-D", "BLU-A", "YEL-D", "RED-C", "BLK-B", "BLK-D", "RED-E", "GRN-C", "GRN-E",
        "RED-F", "GRN-F", "YEL-C", "YEL-E", "YEL-F", "BLU-C", "BLU-E", "BLU-F", "BLK-C", "BLK-E"]


def ex09(n2_written_off: bool = True) -> list[dict[str, object]]:
    return [{"planets": N1}, {"planets": N2, "written_off": n2_written_off}] + [
        {"planets": REST[i:i + 5]} for i in range(0, 20, 5)]


def test_BHC_EX_09_PAYOUT_02_03_04_05_coins_for_matching_coin_planets() -> None:
    """BHC-EX-09: AG-01 collects 2 (RED-A at Settle) + 1 (RBW-MINUS at Mine: BHC-PAYOUT-03) + 1 (BLU-D at
    Conquer); BHC-PAYOUT-05: YEL-B and GRN-A do not match and no-coin planets pay nothing; BHC-PAYOUT-04:
    the written-off N2 pays nothing though it would match (7 coins if it had been face-up)."""
    sets = [s["planets"] if not s.get("written_off") else None for s in ex09()]
    assert payout_coins(DATA, DATA.agendas[0], sets) == 4
    face_up = [s["planets"] for s in ex09(False)]
    assert payout_coins(DATA, DATA.agendas[0], face_up) == 4 + 7


def test_BHC_EX_09_PAYOUT_01_FINAL_01_to_04_final_advance() -> None:
    """BHC-EX-09: 8 + 4 = 12 coins from space 7: 7->8 (4), 8->9 (5), stop with 3 (BHC-FINAL-02/03); the advance
    is compulsory and greedy (BHC-FINAL-04, assumed:AMB-29), coins only (BHC-FINAL-01); BHC-PAYOUT-01: every
    Agenda is revealed."""
    st = arranged(4, round=10, agendas=agendas(1, 2, 3, 4), positions=[7, 1, 1, 1], banks=[8, 0, 0, 0],
                  history=ex09())
    d = st.data
    assert st.is_terminal()
    assert (d.payout[0], d.positions[0], d.banks[0], d.final_moves[0]) == (4, 9, 3, 2)
    for seat in range(4):  # BHC-INV-18: on the last space or short of the next cost
        assert d.positions[seat] == d.track_end or d.banks[seat] < d.cost(seat)
    view = st.view(2)
    assert [a["id"] for a in view["agendas"]] == ["AG-01", "AG-02", "AG-03", "AG-04"]
    assert coins_in_play(d) == 0


def test_BHC_FINAL_03_the_last_space_stops_the_climb() -> None:
    """BHC-FINAL-03: a player reaching space 15 stops there and keeps the rest."""
    st = arranged(4, round=10, positions=[14, 1, 1, 1], banks=[30, 0, 0, 0],
                  history=[{"planets": PLANET_IDS[i:i + 5], "written_off": True} for i in range(0, 30, 5)])
    assert (st.data.positions[0], st.data.banks[0]) == (15, 22)


def test_BHC_WIN_01_02_03_EX_10_winners() -> None:
    """BHC-EX-10 / BHC-WIN-01: furthest wins; BHC-WIN-02: coins break a tie on the furthest space; BHC-WIN-03:
    still tied, all win (assumed:AMB-30). The 25-coin step keeps C on space 8 (a table parameter)."""
    costs = [1, 2, 2, 3, 3, 4, 4, 25, 25, 6, 6, 7, 7, 8]
    st = arranged(4, round=10, positions=[9, 9, 8, 9], banks=[3, 3, 20, 1], params={"track_costs": costs},
                  history=[{"planets": PLANET_IDS[i:i + 5], "written_off": True} for i in range(0, 30, 5)])
    outcome = st.outcome()
    assert outcome.winners == (0, 1) and outcome.ranks == (1, 1, 4, 3)
    assert outcome.details["banks"] == [3, 3, 20, 1]
    st = arranged(4, round=10, positions=[9, 9, 8, 9], banks=[4, 3, 20, 1], params={"track_costs": costs},
                  history=[{"planets": PLANET_IDS[i:i + 5], "written_off": True} for i in range(0, 30, 5)])
    assert st.outcome().winners == (0,)


def test_BHC_CHRON_01_03_04_history_sets() -> None:
    """BHC-CHRON-01: each round's five planets go to the history with their outcomes; BHC-CHRON-03: six sets
    at the end; BHC-CHRON-04: face-up sets are public (colour, points, coin, outcome)."""
    st = arranged(4, leader=0)
    table = list(st.data.table)
    all_pass(st)
    get_paid_all(st)
    public = st.view(3)["history"][0]
    assert [public["planets"][o]["id"] for o in ("settle", "tax", "mine", "conquer", "black_hole")] == table
    assert set(public["planets"]["settle"]) == {"id", "colour", "points", "coin"}
    while not st.is_terminal():
        if st.data.phase == "negotiate":
            all_pass(st)
            get_paid_all(st)
        else:
            for seat in range(4):
                st.apply("guess red right" if st.data.deduction_round == 2 else "guess red left", seat)
    assert len(st.data.history) == 6 and len(st.view(None)["history"]) == 6


@settings(max_examples=30)
@given(st_.permutations(PLANET_IDS), st_.lists(st_.booleans(), min_size=6, max_size=6), st_.integers(0, 19))
def test_BHC_PAYOUT_02_matches_the_scoring_rule(order: list[str], off: list[bool], agenda: int) -> None:
    """assumed:AMB-28: a history planet pays its coins when it matches as in scoring (Rainbow or the Agenda's
    colour at its column); written-off sets pay nothing."""
    sets = [None if off[i] else order[5 * i:5 * i + 5] for i in range(6)]
    goals = DATA.agendas[agenda]
    expected = 0
    for planets in sets:
        for outcome, pid in enumerate(planets or []):
            p = DATA.planet(pid)
            if p.rainbow or goals[p.colour] == outcome:
                expected += p.coin
    assert payout_coins(DATA, goals, sets) == expected
    assert GAME.spec.name == "council"
