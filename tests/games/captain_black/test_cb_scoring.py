"""Round-end scoring, the next round, the end of the game and the winner.

CB-ROUND-END-03/04, CB-PARROT, CB-CHEST, CB-NEXT, CB-END, CB-WIN and the worked examples
CB-EX-01, CB-EX-05..CB-EX-12. Every round end is driven by a real draw (see cb_helpers).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from cb_helpers import (
    DEFAULT_PARROTS,
    GOLD,
    CBState,
    arrange_round_end,
    chest_deck,
    deck,
    end_round,
    enter_round,
    filled,
    new_state,
    parrot_deck,
)

from holotable.engine import Rng
from holotable.games.captain_black import chest_counts
from holotable.games.captain_black.state import EMPTY, FILLED


def _score_round(players: int, boxes: Sequence[int], parrots_top: Sequence[int], *, start: int = 0,
                 record: bool = False) -> CBState:
    """Round 1 of a ``players`` game ends with ``boxes``; the parrot deck starts with ``parrots_top``."""
    st = new_state(players, seed=5, start_seat=start, record=record)
    st.data.parrot_deck = parrot_deck(parrots_top)
    arrange_round_end(st, boxes)
    end_round(st)
    return st


# ---------------------------------------------------------------------------------- the rulebook example
def test_CB_EX_01_rulebook_example_pia_elisa_jakob_theo() -> None:
    """Pia 10, Elisa 13, Jakob 8, Theo 8. Jakob and Theo take parrots 1+1 and 1+2 (CB-PARROT-01/02/04);
    Pia, now level with Jakob, gets none (CB-PARROT-03, CB-AMB-17); chests by dense rank 1, 3, 1, 2
    (CB-CHEST-02/03, CB-AMB-12)."""
    pia, elisa, jakob, theo = range(4)
    st = new_state(4, seed=1, start_seat=pia)
    d = st.data
    d.parrot_deck = parrot_deck([1, 1, 1, 2])
    arrange_round_end(st, [10, 13, 8, 8], mover=elisa)
    end_round(st)
    result = d.rounds[0]
    assert result["gold"] == [10, 13, 8, 8]
    assert result["parrots"] == {str(jakob): [1, 1], str(theo): [1, 2]}
    assert list(result["parrots"]) == [str(jakob), str(theo)]  # CB-DIG-02: clockwise from the start player
    assert result["totals"] == [10, 13, 10, 11]
    assert result["chests"] == [1, 3, 1, 2]
    assert len(d.parrot_deck) == 9
    assert len(d.chest_deck) == 33
    assert [len(h) for h in d.chests] == [1, 3, 1, 2]


def test_CB_EX_01_fixed_deck_variant_CB_CHEST_05_CB_AMB_15_hand_out_order() -> None:
    """Chest deck top: EMPTY then 6 FILLED. Rank 1 (Pia, then Jakob), rank 2 (Theo), rank 3 (Elisa):
    Pia gets the EMPTY card off the top (CB-DIG-02)."""
    pia, elisa, jakob, theo = range(4)
    st = new_state(4, seed=2, start_seat=pia)
    d = st.data
    d.parrot_deck = parrot_deck([1, 1, 1, 2])
    d.chest_deck = chest_deck([EMPTY] + [FILLED] * 6)
    assert sum(d.chest_deck[:33]) == 29  # the other 33 cards: 29 filled, 4 empty
    arrange_round_end(st, [10, 13, 8, 8], mover=theo)
    end_round(st)
    assert d.chests[pia] == [EMPTY]
    assert d.chests[jakob] == [FILLED]
    assert d.chests[theo] == [FILLED, FILLED]
    assert d.chests[elisa] == [FILLED, FILLED, FILLED]


def test_CB_EX_01_chest_counts_function_matches_the_example() -> None:
    assert chest_counts([10, 13, 10, 11]) == [1, 3, 1, 2]


# ---------------------------------------------------------------------------------- parrots
def test_CB_EX_05_CB_PARROT_02_everyone_tied_for_fewest_all_take_parrots() -> None:
    st = _score_round(3, [5, 5, 5], [1, 1, 1, 2, 2, 3])
    result = st.data.rounds[0]
    assert result["parrots"] == {"0": [1, 1], "1": [1, 2], "2": [2, 3]}
    assert result["totals"] == [7, 8, 10]
    assert result["chests"] == [1, 2, 3]
    assert len(st.data.parrot_deck) == 13 - 6


def test_CB_EX_05_second_case_parrots_leave_a_tie() -> None:
    st = _score_round(3, [5, 5, 5], [1, 1, 1, 1, 1, 2])
    result = st.data.rounds[0]
    assert result["totals"] == [7, 7, 8]
    assert result["chests"] == [1, 1, 2]


def test_CB_DIG_02_parrots_go_clockwise_from_the_start_player() -> None:
    st = _score_round(3, [5, 5, 5], [1, 1, 1, 2, 2, 3], start=1)
    assert st.data.rounds[0]["parrots"] == {"1": [1, 1], "2": [1, 2], "0": [2, 3]}
    assert list(st.data.rounds[0]["parrots"]) == ["1", "2", "0"]


def test_CB_PARROT_01_the_single_fewest_takes_two_parrots() -> None:
    st = _score_round(3, [7, 2, 9], [3, 2, 1])
    assert st.data.rounds[0]["parrots"] == {"1": [3, 2]}
    assert st.data.rounds[0]["totals"] == [7, 7, 9]


def test_CB_EX_12_CB_PARROT_01_CB_CHEST_01_a_player_with_zero_coins() -> None:
    st = _score_round(3, [0, 4, 4], [1, 1])
    result = st.data.rounds[0]
    assert result["parrots"] == {"0": [1, 1]}
    assert result["totals"] == [2, 4, 4]
    assert result["chests"] == [1, 2, 2]


def test_CB_PARROT_03_CB_AMB_17_fewest_fixed_before_parrots() -> None:
    """Seat 1 (3 coins) takes 1+1 and passes seat 0 (4 coins). Seat 0 is now the lowest, but it was not
    among the fewest before parrots, so it gets none: there is only one round of parrots."""
    st = _score_round(3, [4, 3, 8], [1, 1, 1, 1])
    result = st.data.rounds[0]
    assert result["parrots"] == {"1": [1, 1]}
    assert result["totals"] == [4, 5, 8]
    assert result["chests"] == [1, 2, 3]


def test_CB_PARROT_04_CB_AMB_20_parrot_coins_are_added_to_the_gold_total() -> None:
    st = _score_round(2, [6, 9], [3, 2])
    result = st.data.rounds[0]
    assert result["gold"] == [6, 9]  # collected gold: the box only
    assert result["totals"] == [11, 9]  # gold plus parrot coins
    assert result["chests"] == [2, 1]


def test_CB_PARROT_05_parrot_coins_never_leave_the_bag() -> None:
    """In the last round the coins stay where they are: parrots added nothing to the boxes or the bag."""
    st = new_state(2, seed=3, start_seat=0)
    enter_round(st, 2)
    st.data.parrot_deck = parrot_deck([3, 3])
    arrange_round_end(st, [4, 20])
    end_round(st)
    d = st.data
    assert st.is_terminal()
    assert d.rounds[-1]["totals"] == [10, 20]
    assert d.boxes == [4, 20]
    assert d.bag_gold + sum(d.boxes) == GOLD


def test_CB_PARROT_06_CB_AMB_08_CB_ROUND_END_04_parrots_automatic_and_before_chests() -> None:
    st = _score_round(4, [3, 6, 9, 9], [1, 1], record=True)
    kinds = [e.kind for e in st.events or [] if e.kind in ("parrots", "chests")]
    assert kinds and kinds[0] == "parrots" and set(kinds[1:]) == {"chests"}
    assert st.to_move() == (1,)  # nobody was asked anything: round 2 has begun


def test_CB_PARROT_07_CB_NEXT_01_used_parrots_are_set_aside_not_reused() -> None:
    st = new_state(3, seed=4, start_seat=0)
    d = st.data
    d.parrot_deck = parrot_deck([3, 3, 1, 1])
    arrange_round_end(st, [1, 5, 9])
    end_round(st)
    assert sorted(d.parrot_aside) == [3, 3]
    assert d.parrots == [[], [], []]
    assert len(d.parrot_deck) == 11
    arrange_round_end(st, [9, 1, 5])
    end_round(st)
    assert d.rounds[1]["parrots"] == {"1": [1, 1]}  # from the deck, not the set-aside 3s
    assert sorted(d.parrot_aside) == [1, 1, 3, 3]


def test_CB_PARROT_08_parrot_values_are_public() -> None:
    st = _score_round(3, [2, 5, 9], [2, 3])
    for seat in (None, 0, 1, 2):
        view = st.view(seat)
        assert view["rounds"][0]["parrots"] == {"0": [2, 3]}
        assert view["parrot_aside"] == [2, 3]


def test_CB_EX_11_CB_AMB_10_parrot_deck_runs_out_and_is_reshuffled() -> None:
    """Deck 1 card, 12 set aside, one eligible player: the last card, then a reshuffle, then one more."""
    st = new_state(2, seed=8, start_seat=0, record=True)
    enter_round(st, 2)
    d = st.data
    d.parrot_deck = [3]
    d.parrot_aside = list(DEFAULT_PARROTS)
    d.parrot_aside.remove(3)
    arrange_round_end(st, [2, 9])
    end_round(st)
    hand = d.rounds[-1]["parrots"]["0"]
    assert len(hand) == 2 and hand[0] == 3
    assert d.parrots[0] == hand
    assert len(d.parrot_deck) == 11 and d.parrot_aside == []
    assert sorted(d.parrot_deck + d.parrot_aside + d.parrots[0] + d.parrots[1]) == list(DEFAULT_PARROTS)
    assert any(e.kind == "parrots_reshuffled" for e in st.events or [])


# ---------------------------------------------------------------------------------- chest cards
def test_CB_EX_06_CB_CHEST_03_tie_for_most_dense_ranks() -> None:
    st = _score_round(4, [3, 6, 9, 9], [1, 1])
    result = st.data.rounds[0]
    assert result["totals"] == [5, 6, 9, 9]
    assert result["chests"] == [1, 2, 3, 3]
    assert sum(result["chests"]) == 9 == 40 - len(st.data.chest_deck)


def test_CB_EX_07_parrots_lift_the_last_player_past_others() -> None:
    st = _score_round(4, [3, 6, 9, 9], [3, 3])
    result = st.data.rounds[0]
    assert result["totals"] == [9, 6, 9, 9]
    assert result["chests"] == [2, 1, 2, 2]
    assert sum(result["chests"]) == 7


def test_CB_EX_08_all_different() -> None:
    """CB-CHEST-02 and CB-CHEST-04: four distinct totals give 1, 2, 3, 4 cards, never more."""
    st = _score_round(4, [0, 4, 6, 8], [1, 1])
    result = st.data.rounds[0]
    assert result["totals"] == [2, 4, 6, 8]
    assert result["chests"] == [1, 2, 3, 4]
    assert max(len(h) for h in st.data.chests) == 4


def test_CB_CHEST_04_CB_AMB_11_cap_applies_beyond_four_ranks() -> None:
    assert chest_counts([1, 2, 3, 4, 5, 6]) == [1, 2, 3, 4, 4, 4]
    assert chest_counts([6, 5, 4, 3, 2, 1], cap=2) == [2, 2, 2, 2, 2, 1]


def test_CB_CHEST_02_dense_not_competition_ranking() -> None:
    """CB-CHEST-02, CB-CHEST-03, CB-AMB-12: 10, 10, 11, 13 -> 1, 1, 2, 3; competition ranking
    would give Theo 3 and Elisa 4."""
    assert chest_counts([10, 10, 11, 13]) == [1, 1, 2, 3]
    assert chest_counts([4, 4, 4, 4]) == [1, 1, 1, 1]


def test_CB_CHEST_01_CB_AMB_09_CB_CHEST_07_worst_case_deals_exactly_40_cards() -> None:
    """Four rounds of four distinct totals: 10 cards a round, the deck empties exactly and never
    runs dry mid-deal. Cards stay with their owner: each hand only grows."""
    st = new_state(4, seed=6, start_seat=0)
    d = st.data
    before = [list(h) for h in d.chests]
    for _ in range(4):
        arrange_round_end(st, [0, 7, 14, 21])  # parrots add at most 6 to seat 0
        end_round(st)
        assert min(d.rounds[-1]["chests"]) >= 1
        for old, new in zip(before, d.chests, strict=True):
            assert new[: len(old)] == old
        before = [list(h) for h in d.chests]
    assert st.is_terminal()
    assert d.chest_deck == []
    assert [len(h) for h in d.chests] == [4, 8, 12, 16]
    assert sum(filled(h) for h in d.chests) == 35


# ---------------------------------------------------------------------------------- next round
def test_CB_NEXT_02_everything_resets_and_the_ship_moves_on() -> None:
    """CB-NEXT-02: every coin back, totals from zero (no carry-over, CB-AMB-19);
    CB-NEXT-03: the ship moves one seat clockwise and its holder starts with the bag."""
    st = new_state(3, seed=9, start_seat=2)
    arrange_round_end(st, [7, 11, 3], mover=0)
    end_round(st)
    d = st.data
    assert (d.bag_gold, d.bag_black, d.island) == (42, 8, 0)
    assert d.boxes == [0, 0, 0]
    assert d.round == 2 and d.start == 0 and st.to_move() == (0,)
    assert st.view(None)["start_player"] == 0


def test_CB_ROUND_END_03_round_total_is_the_gold_in_the_box() -> None:
    st = new_state(2, seed=12, start_seat=0)
    rng = Rng(12)
    while st.data.round == 1:
        boxes = list(st.data.boxes)
        st.apply(rng.choice(st.legal_actions()[:4]))
    assert st.data.rounds[0]["gold"] == boxes


@pytest.mark.parametrize(("players", "start", "expected"), [(3, 1, [1, 2, 0]), (2, 1, [1, 0]), (4, 2, [2, 3, 0, 1])])
def test_CB_EX_09_CB_FLOW_01_CB_END_01_rotation_and_game_length(players: int, start: int,
                                                                 expected: list[int]) -> None:
    st = new_state(players, seed=3, start_seat=start)
    rng = Rng(players)
    starts = []
    while not st.is_terminal():
        if st.data.moves_in_round == 0:
            starts.append(st.data.start)
        st.apply(rng.choice(st.legal_actions()[:6]))
    assert starts == expected
    assert [r["start"] for r in st.data.rounds] == expected
    assert len(st.data.rounds) == players and st.data.round == players


# ---------------------------------------------------------------------------------- winner
def _finish_with(targets: Sequence[tuple[int, int]], *, first_start: int = 1, **params: object) -> CBState:
    """A 3-player game whose final round leaves seat i with ``targets[i]`` = (filled, cards).

    Final round: gold 0, 10, 20; seat 0 takes parrots 1+1, so totals 2, 10, 20 and the award is
    1, 2, 3 cards in seat order. Hands before the award and the deck are built to hit the targets.
    """
    st = new_state(3, seed=4, start_seat=first_start, **params)
    enter_round(st, 3)
    d = st.data
    d.parrot_deck = parrot_deck([1, 1])
    award = [1, 2, 3]
    top: list[bool] = []
    for seat, ((want_filled, want_cards), count) in enumerate(zip(targets, award, strict=True)):
        got_filled = min(count, want_filled)
        dealt = [FILLED] * got_filled + [EMPTY] * (count - got_filled)
        top.extend(dealt)
        empty_before = want_cards - want_filled - dealt.count(EMPTY)
        d.chests[seat] = [FILLED] * (want_filled - got_filled) + [EMPTY] * empty_before
    in_hands = [c for h in d.chests for c in h]
    d.chest_deck = chest_deck(top, filled=35 - filled(in_hands), empty=5 - in_hands.count(EMPTY))
    arrange_round_end(st, [0, 10, 20])
    end_round(st)
    assert st.is_terminal()
    assert [(filled(h), len(h)) for h in d.chests] == list(targets)
    return st


def test_CB_EX_10a_CB_WIN_02_most_cards_breaks_a_tie_on_filled() -> None:
    st = _finish_with([(5, 6), (5, 7), (4, 5)])
    out = st.outcome()
    assert out.winners == (1,)
    assert out.ranks == (2, 1, 3)


def test_CB_EX_10b_CB_WIN_03_CB_AMB_13_still_tied_players_share_the_win() -> None:
    st = _finish_with([(5, 7), (5, 7), (2, 3)])
    out = st.outcome()
    assert out.winners == (0, 1)
    assert out.is_tie
    assert out.utility(0) == out.utility(1) == 1.0


def test_CB_EX_10c_CB_WIN_01_filled_chests_come_before_total_cards() -> None:
    st = _finish_with([(6, 6), (5, 9), (3, 3)])
    assert st.outcome().winners == (0,)


def test_CB_END_02_empty_chests_score_nothing() -> None:
    st = _finish_with([(6, 6), (5, 9), (3, 3)])
    assert st.outcome().scores == (6.0, 5.0, 3.0)
    assert st.outcome().details["cards"] == [6, 9, 3]


def test_CB_AMB_13_final_tie_last_start_player_option() -> None:
    """With first start seat 1, the start players are 1, 2, 0: seat 0 started the last round."""
    st = _finish_with([(5, 7), (5, 7), (2, 3)], final_tie="last_start_player")
    assert st.data.start == 0
    assert st.outcome().winners == (0,)
    # If the last start player is not among the tied, they still share.
    st = _finish_with([(5, 7), (5, 7), (2, 3)], first_start=0, final_tie="last_start_player")
    assert st.data.start == 2
    assert st.outcome().winners == (0, 1)


def test_deck_helper_puts_the_top_card_last() -> None:
    assert deck([1, 2, 3]) == [3, 2, 1]
