"""Who sees what: views, the game log and determinisation (CB-INFO, CB-CHEST-06, CB-AMB-16)."""

from __future__ import annotations

import json

import pytest
from cb_helpers import BLACK, GOLD, CBState, arrange_round_end, end_round, enter_round, new_state
from hypothesis import given, settings
from hypothesis import strategies as hs

from holotable.engine import IllegalActionError, Rng
from holotable.games.captain_black import Draw
from holotable.games.captain_black.state import LastDraw


def _mid_game(players: int = 3, seed: int = 1, **params: object) -> CBState:
    """Round 2 of a recorded game: everyone holds chest cards, the round is under way."""
    st = new_state(players, seed=seed, start_seat=0, record=True, **params)
    arrange_round_end(st, [1, 5, 9, 13][:players])
    end_round(st)
    st.apply(Draw(3))
    st.apply(Draw(2))
    return st


def test_CB_INFO_01_public_facts_are_in_every_view() -> None:
    st = _mid_game()
    d = st.data
    for seat in (None, 0, 1, 2):
        view = st.view(seat)
        json.dumps(view)  # JSON-ready
        assert view["start_player"] == d.start == 1
        assert view["bag_holder"] == d.mover
        assert view["island"] == d.island
        assert view["boxes"] == d.boxes  # running totals (CB-AMB-16)
        assert view["bag"] == {"gold": d.bag_gold, "black": d.bag_black}
        assert view["chest_counts"] == [len(h) for h in d.chests]
        assert view["rounds"][0]["parrots"] == d.rounds[0]["parrots"]
        assert view["last_draw"]["k"] == 2


def test_CB_INFO_02_CB_CHEST_06_own_chests_visible_others_hidden_until_the_end() -> None:
    st = _mid_game()
    d = st.data
    for seat in range(3):
        chests = st.view(seat)["chests"]
        for owner in range(3):
            if owner == seat:
                assert chests[owner] == ["filled" if c else "empty" for c in d.chests[owner]]
            else:
                assert chests[owner] is None
    assert st.view(None)["chests"] == [None, None, None]
    own_events = [e for e in st.log_for(0) if e.kind == "chests_private"]
    assert own_events and all(e.data["seat"] == 0 for e in own_events)


def test_CB_INFO_02_chests_revealed_after_the_game_ends() -> None:
    st = new_state(2, seed=3, start_seat=0)
    for _ in range(2):
        arrange_round_end(st, [3, 8])
        end_round(st)
    assert st.is_terminal()
    everyone = [["filled" if c else "empty" for c in h] for h in st.data.chests]
    for seat in (None, 0, 1):
        view = st.view(seat)
        assert view["chests"] == everyone
        assert view["outcome"]["winners"] == list(st.outcome().winners)


def test_CB_INFO_03_CB_INV_15_views_hide_deck_orders_and_future_draws() -> None:
    """A seat's view is a function of its information only: re-dealing what it cannot see
    (other hands, both deck orders, the RNG behind the next draw) leaves the view unchanged."""
    st = _mid_game(4, seed=2)
    rng = Rng(7)
    changed = False
    for seat in range(4):
        view = st.view(seat)
        for _ in range(5):
            other = st.determinize(seat, rng)
            assert other.view(seat) == view
            changed |= other.data.chest_deck != st.data.chest_deck
        text = json.dumps(view)
        assert "chest_deck_top" not in text and "parrot_deck_top" not in text
    assert changed
    # The next draw comes out differently in re-deals: the future is not fixed by the view.
    futures = set()
    for _ in range(10):
        other = st.determinize(0, rng)
        other.apply(Draw(20))
        assert other.data.last_draw is not None
        futures.add(other.data.last_draw.black)
    assert len(futures) > 1


def test_determinize_keeps_own_cards_and_all_counts() -> None:
    st = _mid_game(4, seed=5)
    d = st.data
    other = st.determinize(2, Rng(3))
    o = other.data
    assert o.chests[2] == d.chests[2]
    assert [len(h) for h in o.chests] == [len(h) for h in d.chests]
    pool = sorted([c for h in o.chests for c in h] + o.chest_deck)
    assert pool == sorted([c for h in d.chests for c in h] + d.chest_deck)
    assert sorted(o.parrot_deck) == sorted(d.parrot_deck)
    assert (o.bag_gold, o.bag_black, o.island, o.boxes) == (d.bag_gold, d.bag_black, d.island, d.boxes)
    # The re-deal is random, not a fixed permutation of the truth.
    deals = {tuple(st.determinize(2, Rng(seed)).data.chest_deck) for seed in range(8)}
    assert len(deals) > 1


def test_CB_INV_15_determinize_depends_only_on_what_the_seat_knows() -> None:
    """Two states the seat cannot tell apart give the same determinisation for the same RNG, so a
    searching bot learns nothing about the hidden cards from it."""
    st = _mid_game(4, seed=6)
    for seat in range(4):
        twin = st.determinize(seat, Rng(99))
        assert twin.view(seat) == st.view(seat)
        assert st.determinize(seat, Rng(5)).fingerprint() == twin.determinize(seat, Rng(5)).fingerprint()


def test_CB_AMB_16_public_tally_false_hides_others_totals_and_draws() -> None:
    st = _mid_game(3, seed=4, public_tally=False)
    d = st.data
    for seat in range(3):
        view = st.view(seat)
        assert view["boxes"] == [b if s == seat else None for s, b in enumerate(d.boxes)]
        assert view["last_draw"] is None
        assert view["bag"] == {"coins": d.bag_gold + d.bag_black}
        assert view["island"] == d.island  # the island stays public
    # The log must not give away what the view hides: other seats' draws are told without numbers.
    mover_of_last = d.last_draw.seat if d.last_draw else -1
    for seat in range(3):
        for event in st.log_for(seat):
            if event.kind == "draw":
                assert event.data["seat"] == seat
            if event.kind == "draw_public":
                assert "k" not in event.data
    assert any(e.kind == "draw" for e in st.log_for(mover_of_last))


def test_CB_AMB_16_public_tally_false_reveals_everything_at_the_end() -> None:
    st = new_state(2, seed=3, start_seat=0, public_tally=False)
    enter_round(st, 2)
    arrange_round_end(st, [3, 8])
    end_round(st)
    view = st.view(0)
    assert view["boxes"] == [3, 8]
    assert view["bag"] == {"gold": st.data.bag_gold, "black": st.data.bag_black}


def test_spectator_and_bad_seat_views() -> None:
    st = new_state(2, seed=1)
    assert st.view(None)["seat"] is None
    with pytest.raises(IllegalActionError, match="no seat"):
        st.view(2)


# ---------------------------------------------------------------------------- hidden tally: boxes re-dealt
def _hidden_tally_position(boxes: list[int], island: int, last: LastDraw | None, seed: int = 8) -> CBState:
    """Round 2 of a hidden-tally game with the given boxes and island; seat 0 holds the bag."""
    st = _mid_game(4, seed=seed, public_tally=False)
    d = st.data
    d.boxes = list(boxes)
    d.island = island
    d.bag_black = BLACK - island
    d.bag_gold = GOLD - sum(boxes)
    d.mover = 0
    d.last_draw = last
    return st


def _other_split(boxes: list[int], seat: int, rng: Rng) -> list[int]:
    """The same boxes with the other seats' gold split differently (the seat's own box kept)."""
    others = [s for s in range(len(boxes)) if s != seat]
    out = list(boxes)
    for s in others:
        out[s] = 0
    for _ in range(sum(boxes[s] for s in others)):
        out[others[rng.randrange(len(others))]] += 1
    return out


@settings(max_examples=30, deadline=None)
@given(
    own=hs.integers(0, 12),
    others=hs.lists(hs.integers(0, 10), min_size=3, max_size=3),
    island=hs.integers(0, 7),
    split_seed=hs.integers(0, 10_000),
    last_k=hs.integers(1, 9),
    det_seed=hs.integers(0, 10_000),
)
def test_CB_AMB_16_hidden_boxes_do_not_leak_into_determinisations(
    own: int, others: list[int], island: int, split_seed: int, last_k: int, det_seed: int
) -> None:
    """Two states seat 0 cannot tell apart (the others' gold split differently, another seat's
    last draw of a different size) give the same determinisation for the same RNG."""
    boxes = [own, *others]
    truth = _hidden_tally_position(boxes, island, LastDraw(3, 4, 4, 0))
    twin = _hidden_tally_position(_other_split(boxes, 0, Rng(split_seed)), island, LastDraw(3, last_k, last_k, 0))
    assert twin.view(0) == truth.view(0)
    a = truth.determinize(0, Rng(det_seed))
    b = twin.determinize(0, Rng(det_seed))
    assert a.full() == b.full()
    assert a.view(0) == truth.view(0)
    d = a.data
    assert d.boxes[0] == own and sum(d.boxes) == sum(boxes) and min(d.boxes) >= 0
    assert d.last_draw is None  # another seat's draw: its size and colours are hidden


def test_CB_AMB_16_hidden_boxes_are_redealt_at_random_own_draw_kept() -> None:
    own_draw = LastDraw(0, 5, 5, 0)
    st = _hidden_tally_position([5, 9, 2, 13], 3, own_draw)
    splits = {tuple(st.determinize(0, Rng(seed)).data.boxes) for seed in range(30)}
    assert len(splits) > 10  # not a fixed function of the truth
    assert all(split[0] == 5 and sum(split) == 29 for split in splits)
    assert any(split[1:] != (9, 2, 13) for split in splits)
    assert st.determinize(0, Rng(1)).data.last_draw == own_draw  # the seat saw its own draw
    # With a public tally the boxes are facts: they are kept.
    public = _hidden_tally_position([5, 9, 2, 13], 3, own_draw)
    public.config = public.game.spec.make_config(players=4, start_seat=0)
    assert public.determinize(0, Rng(1)).data.boxes == [5, 9, 2, 13]


def test_CB_AMB_16_other_boxes_follow_from_public_counts() -> None:
    """What the re-deal keeps (the others' total) is known from the view: all gold minus the
    seat's box minus the bag's gold, and the bag's gold is its coins minus the black coins
    not yet on the island."""
    st = _hidden_tally_position([4, 7, 0, 11], 5, None)
    view = st.view(0)
    bag_gold = view["bag"]["coins"] - (BLACK - view["island"])
    assert GOLD - view["boxes"][0] - bag_gold == 7 + 0 + 11
