"""A move: draw, evaluate, pass the bag; the move that ends a round.

CB-MOVE, CB-DRAW, CB-EVAL, CB-PASS, CB-FLOW, CB-ROUND-END, CB-DIG-01 and the worked examples
CB-EX-02, CB-EX-03, CB-EX-04 and CB-EX-13.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from cb_helpers import BLACK, GOLD, CBState, arrange_round_end, new_state, seed_for_draw

from holotable.engine import (
    ActionError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    Rng,
)
from holotable.games.captain_black import Draw


def test_CB_EX_02_draw_with_two_black_coins() -> None:
    """Seat 0 draws 5 and gets 3 gold + 2 black. CB-EVAL-02: one black coin to the island;
    CB-EVAL-03: the other coins back in the bag; CB-EVAL-04: only one black per move;
    CB-EVAL-05: no gain; CB-PASS-01: the bag goes to seat 1."""
    st = new_state(4, seed=0, start_seat=0)
    st.rng = Rng(seed_for_draw(42, 8, 5, wanted_black=2))
    st.apply(Draw(5))
    d = st.data
    assert d.last_draw is not None and (d.last_draw.gold, d.last_draw.black) == (3, 2)
    assert d.island == 1
    assert (d.bag_gold, d.bag_black) == (42, 7)
    assert d.boxes[0] == 0
    assert st.to_move() == (1,)


def test_CB_EX_03_CB_EVAL_01_all_gold_draw_goes_into_the_box() -> None:
    """From CB-EX-02's end, seat 1 draws 4 and all are gold: box 4, bag 38 + 7, island 1, bag to seat 2.
    Boxing the gold is automatic, with no decision in between (CB-AMB-07)."""
    st = new_state(4, seed=0, start_seat=0)
    st.rng = Rng(seed_for_draw(42, 8, 5, wanted_black=2))
    st.apply(Draw(5))
    st.rng = Rng(seed_for_draw(42, 7, 4, wanted_black=0))
    st.apply(Draw(4))
    d = st.data
    assert d.last_draw is not None and (d.last_draw.seat, d.last_draw.gold, d.last_draw.black) == (1, 4, 0)
    assert d.boxes == [0, 4, 0, 0]
    assert (d.bag_gold, d.bag_black) == (38, 7)
    assert d.island == 1
    assert st.to_move() == (2,)


def test_CB_EVAL_05_a_black_draw_keeps_the_coins_already_boxed() -> None:
    st = new_state(2, seed=0, start_seat=0)
    st.data.boxes = [9, 0]
    st.data.bag_gold = GOLD - 9
    st.rng = Rng(seed_for_draw(33, 8, 6, wanted_black=3))
    st.apply(Draw(6))
    assert st.data.boxes == [9, 0]
    assert st.data.bag_gold == 33 and st.data.bag_black == 7


def test_CB_EVAL_04_many_black_coins_still_place_only_one() -> None:
    """Drawing the whole bag brings all 8 black coins, but only one lands on the island."""
    st = new_state(3, seed=5, start_seat=0)
    st.apply(Draw(50))
    assert st.data.last_draw is not None and st.data.last_draw.black == 8
    assert st.data.island == 1
    assert (st.data.bag_gold, st.data.bag_black) == (42, 7)


def test_CB_EX_04_the_move_that_ends_the_round() -> None:
    """Island 7, bag 12 gold + 1 black; seat 2 draws 6 = 5 gold + 1 black. CB-ROUND-END-01: the round
    ends at once and seat 3 does not move; CB-AMB-18: the 5 gold go back and do not count; scoring
    happens; CB-ROUND-END-02: the black coins go back into the bag."""
    st = new_state(4, seed=3, start_seat=0)
    d = st.data
    d.boxes = [10, 10, 5, 5]
    d.island, d.bag_black, d.bag_gold = 7, 1, 12
    d.mover = 2
    st.rng = Rng(seed_for_draw(12, 1, 6, wanted_black=1))
    st.apply(Draw(6))
    assert d.last_draw is not None and (d.last_draw.gold, d.last_draw.black) == (5, 1)
    record = d.rounds[0]
    assert record["gold"] == [10, 10, 5, 5]  # the 5 gold did not count for seat 2
    assert sorted(record["parrots"]) == ["2", "3"]  # scoring ran: parrots, then chests
    assert sum(record["chests"]) == sum(len(h) for h in d.chests)
    # Round 2 has begun with seat 1; seat 3 never got its move of round 1.
    assert d.round == 2 and st.to_move() == (1,)
    with pytest.raises(NotYourTurnError):
        st.apply(Draw(1), seat=3)
    # CB-ROUND-END-02: every black coin is back in the bag.
    assert (d.bag_gold, d.bag_black, d.island) == (42, 8, 0)


def test_CB_EX_04_a_draw_after_the_final_round_end_is_rejected_from_every_seat() -> None:
    st = new_state(2, seed=3, start_seat=0)
    st.data.round, st.data.start, st.data.mover = 2, 1, 1
    arrange_round_end(st, [4, 4])
    st.apply(Draw(st.data.bag_gold + st.data.bag_black))
    assert st.is_terminal()
    for seat in (0, 1):
        with pytest.raises(GameOverError):
            st.apply(Draw(1), seat=seat)
    assert st.legal_actions(0) == () and st.legal_actions(1) == ()


def test_CB_EX_04_edge_only_one_black_coin_left_k_must_be_1() -> None:
    """Bag 0 gold + 1 black, island 7: k = 1 is the only legal draw and it ends the round."""
    st = new_state(3, seed=1, start_seat=0)
    d = st.data
    d.boxes = [14, 14, 14]
    d.island, d.bag_black, d.bag_gold = 7, 1, 0
    assert list(st.legal_actions()) == [Draw(1)]
    with pytest.raises(IllegalActionError) as err:
        st.apply(Draw(2))
    assert err.value.rule == "CB-DRAW-02"
    st.apply(Draw(1))
    assert len(d.rounds) == 1 and d.round == 2


def test_CB_ROUND_END_05_CB_AMB_06_gold_can_run_out_before_the_round_ends() -> None:
    """No gold left, 3 black coins in the bag: the round goes on, every draw is black, it ends in 3 moves."""
    st = new_state(3, seed=2, start_seat=0)
    d = st.data
    d.boxes = [20, 12, 10]
    d.island, d.bag_black, d.bag_gold = 5, 3, 0
    for expected_island in (6, 7):
        st.apply(st.legal_actions()[-1])
        assert d.island == expected_island and d.round == 1
        assert d.bag_gold + d.bag_black >= 1  # CB-AMB-06: never empty at a move
    st.apply(Draw(1))
    assert d.rounds[0]["gold"] == [20, 12, 10]


def test_CB_ROUND_END_05_round_can_end_with_gold_in_the_bag() -> None:
    st = new_state(2, seed=2, start_seat=0)
    arrange_round_end(st, [3, 4])
    st.rng = Rng(seed_for_draw(35, 1, 1, wanted_black=1))
    st.apply(Draw(1))
    assert st.data.rounds[0]["gold"] == [3, 4]  # 35 gold were still in the bag


def test_CB_ROUND_END_01_CB_AMB_03_seven_black_coins_do_not_end_the_round() -> None:
    st = new_state(2, seed=0, start_seat=0)
    d = st.data
    d.island, d.bag_black = 6, 2
    st.apply(Draw(44))  # the whole bag: both black coins come out, one stays on the island
    assert d.island == 7 and d.round == 1 and not d.rounds
    st.apply(Draw(43))  # the bag now holds 42 gold + 1 black: drawing it all ends the round
    assert d.rounds and d.round == 2


def test_CB_MOVE_01_CB_DIG_01_a_move_is_one_draw_then_automatic_evaluation_and_pass() -> None:
    """One Draw(k) does both steps; nothing else is ever asked of anyone."""
    st = new_state(3, seed=11, start_seat=1)
    ply = st.ply
    st.apply(Draw(2))
    assert st.ply == ply + 1
    assert st.data.last_draw is not None and st.data.last_draw.seat == 1
    assert st.to_move() == (2,)
    rng = Rng(1)
    while not st.is_terminal():
        seats = st.to_move()
        assert len(seats) == 1
        legal = st.legal_actions()
        assert legal and all(isinstance(a, Draw) for a in legal)
        st.apply(rng.choice(legal))


def test_CB_DRAW_01_a_draw_takes_k_coins_from_the_bag_at_once() -> None:
    """Every coin drawn is accounted for, and the sample obeys the bag: drawing all 50 finds all
    8 black coins, drawing 43 of 42 gold + 8 black always finds at least one (fairness: CB-INV-16)."""
    whole = new_state(2, seed=4, start_seat=0)
    whole.apply(Draw(50))
    assert whole.data.last_draw is not None and whole.data.last_draw.black == 8
    for seed in range(30):
        st = new_state(2, seed=seed, start_seat=0)
        st.apply(Draw(43))
        drawn = st.data.last_draw
        assert drawn is not None and drawn.gold + drawn.black == 43
        assert 1 <= drawn.black <= 8 and drawn.gold <= 42


def test_CB_DRAW_02_CB_AMB_04_CB_AMB_05_legal_draws_are_1_to_bag_size() -> None:
    st = new_state(3, seed=6, start_seat=0)
    assert [a.k for a in st.legal_actions()] == list(range(1, 51))
    mask = st.action_mask(0)
    assert len(mask) == 50 and all(mask)
    assert not any(st.action_mask(1))
    st.data.bag_gold = 3
    st.data.bag_black = 2
    st.data.island = 6
    assert [a.k for a in st.legal_actions()] == [1, 2, 3, 4, 5]


def test_CB_DRAW_03_every_player_sees_the_draw() -> None:
    """CB-AMB-16: the draw's contents are public."""
    st = new_state(3, seed=2, start_seat=0, record=True)
    st.apply(Draw(4))
    drawn = st.data.last_draw
    assert drawn is not None
    for seat in (None, 0, 1, 2):
        assert st.view(seat)["last_draw"] == {"seat": 0, "k": 4, "gold": drawn.gold, "black": drawn.black}
        assert any(e.kind == "draw" and e.data["k"] == 4 for e in st.log_for(seat))


def test_CB_PASS_01_bag_goes_clockwise_after_each_move() -> None:
    st = new_state(3, seed=8, start_seat=2)
    seen = []
    for _ in range(5):
        seen.append(st.view(None)["bag_holder"])
        st.apply(Draw(1))
    assert seen == [2, 0, 1, 2, 0]


def test_CB_PASS_02_the_ship_stays_during_the_round() -> None:
    st = new_state(4, seed=8, start_seat=1)
    rng = Rng(3)
    while st.data.round == 1:
        assert st.view(None)["start_player"] == 1
        st.apply(rng.choice(st.legal_actions()[:6]))
    assert st.data.start == 2


def test_CB_FLOW_02_each_round_opens_with_its_start_player_then_goes_clockwise() -> None:
    """CB-FLOW-02 and CB-FLOW-03: the start player opens, then clockwise, several moves each."""
    st = new_state(3, seed=21, start_seat=1)
    rng = Rng(5)
    movers: dict[int, list[int]] = {}
    while not st.is_terminal():
        movers.setdefault(st.data.round, []).append(st.to_move()[0])
        st.apply(rng.choice(st.legal_actions()[:8]))
    assert sorted(movers) == [1, 2, 3]
    for r, seq in movers.items():
        assert seq[0] == (1 + r - 1) % 3
        assert all(b == (a + 1) % 3 for a, b in pairwise(seq))
        assert len(seq) >= 8  # several moves each: at least one per black coin


# ---------------------------------------------------------------------------------- illegal actions
def _rejected(st: CBState, error: type[ActionError], action: object, seat: int | None = None) -> ActionError:
    """Offer ``action`` and check it is refused with ``error`` and changes nothing."""
    before = st.fingerprint()
    with pytest.raises(error) as caught:
        st.apply(action, seat)
    assert st.fingerprint() == before
    return caught.value


def test_CB_EX_13_CB_DRAW_02_illegal_draws_leave_the_state_unchanged() -> None:
    st = new_state(3, seed=13, start_seat=0)
    st.apply(Draw(2))
    bag = st.data.bag_gold + st.data.bag_black
    other = (st.to_move()[0] + 1) % 3
    assert _rejected(st, IllegalActionError, Draw(0)).rule == "CB-DRAW-02"
    assert _rejected(st, IllegalActionError, Draw(bag + 1)).rule == "CB-DRAW-02"
    assert _rejected(st, IllegalActionError, "draw 0").rule == "CB-DRAW-02"
    assert _rejected(st, IllegalActionError, Draw(-3)).rule == "CB-DRAW-02"
    _rejected(st, NotYourTurnError, Draw(1), seat=other)  # CB-PASS-01: only the bag holder draws
    _rejected(st, NotYourTurnError, Draw(1), seat=7)
    assert st.legal_actions(other) == ()


@pytest.mark.parametrize(
    "bad", ["draw", "take 3", "draw -1", "draw 3.5", "draw 1000", 50, -1, 2.5, None, Draw(2.5), Draw("3")]  # type: ignore[arg-type]
)
def test_CB_EX_13_malformed_actions_leave_the_state_unchanged(bad: object) -> None:
    st = new_state(2, seed=1, start_seat=0)
    _rejected(st, MalformedActionError, bad)


def test_actions_as_text_and_index_are_equivalent() -> None:
    a, b, c = (new_state(2, seed=3, start_seat=0) for _ in range(3))
    a.apply(Draw(7))
    b.apply("draw 7")
    c.apply(6)  # index k - 1
    assert a.fingerprint() == b.fingerprint() == c.fingerprint()
    assert str(Draw(7)) == "draw 7"


def test_bag_and_island_totals_constant_after_many_moves() -> None:
    st = new_state(4, seed=31, start_seat=0)
    rng = Rng(2)
    for _ in range(30):
        st.apply(rng.choice(st.legal_actions()[:5]))
        d = st.data
        assert d.bag_gold + sum(d.boxes) == GOLD and d.bag_black + d.island == BLACK
