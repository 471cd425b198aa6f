"""Property-based tests: the invariants CB-INV-01..CB-INV-15 after every action of random legal games.

Games use n in 2..4, random seeds and a random draw policy per seat. Every accepted action is
checked against the state before it (step invariants), every state on its own (static
invariants), and every finished game as a whole (length, winners, determinism).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

import pytest
from cb_helpers import BLACK, CHESTS_EMPTY, CHESTS_FILLED, GAME, GOLD, CBState, filled, replay
from hypothesis import given, settings
from hypothesis import strategies as hs

from holotable.engine import GameOverError, Rng
from holotable.games.captain_black import Draw

POLICIES = ("uniform", "cautious", "bold", "odds", "one")


def choose(policy: str, rng: Rng, st: CBState) -> Draw:
    """A draw for the mover under ``policy``; all of them only ever pick legal actions."""
    legal = st.legal_actions()
    if policy == "uniform":
        return rng.choice(legal)
    if policy == "cautious":
        return rng.choice(legal[:3])
    if policy == "bold":
        return rng.choice(legal[len(legal) // 2 :])
    if policy == "one":
        return legal[0]
    gold, black = st.data.bag_gold, st.data.bag_black  # "odds": best expected gain this move
    return max(legal, key=lambda a: a.k * comb(gold, a.k) / comb(gold + black, a.k))


# ---------------------------------------------------------------------------------- static invariants
def check_static(st: CBState) -> None:
    d = st.data
    cfg = st.config
    n = d.players
    assert d.bag_gold + sum(d.boxes) == GOLD  # CB-INV-01
    assert d.bag_black + d.island == BLACK  # CB-INV-02
    hands = [card for hand in d.chests for card in hand]
    assert len(d.chest_deck) + len(hands) == CHESTS_FILLED + CHESTS_EMPTY  # CB-INV-08
    assert filled(d.chest_deck) + filled(hands) == CHESTS_FILLED
    parrots = d.parrot_deck + d.parrot_aside + [v for hand in d.parrots for v in hand]
    assert sorted(parrots) == sorted(cfg["parrot_values"])  # CB-INV-09
    if st.is_terminal():
        assert st.to_move() == ()
        return
    bag = d.bag_gold + d.bag_black
    assert d.island < cfg["island_fields"] and d.bag_black >= 1 and bag >= 1  # CB-INV-03
    assert d.start == (d.first_start + d.round - 1) % n  # CB-INV-07: the ship of round r
    assert st.to_move() == (d.mover,)
    cap = cfg["max_handful"]
    top = bag if cap is None else min(bag, cap)
    assert [a.k for a in st.legal_actions()] == list(range(min(cfg["min_draw"], bag), top + 1))  # CB-INV-06


def check_views(st: CBState, rng: Rng) -> None:
    """CB-INV-15: no view shows others' chest contents before the end, deck orders, or the future."""
    d = st.data
    for seat in range(d.players):
        view = st.view(seat)
        if not d.over:
            assert all(view["chests"][s] is None for s in range(d.players) if s != seat)
        assert not any(key.startswith(("chest_deck_top", "parrot_deck_top")) for key in view)
        assert st.determinize(seat, rng).view(seat) == view


# ---------------------------------------------------------------------------------- step invariants
def check_step(prev: CBState, cur: CBState, seat: int, k: int) -> None:
    p, c = prev.data, cur.data
    cfg = cur.config
    n = p.players
    assert 1 <= k <= p.bag_gold + p.bag_black  # CB-INV-06
    assert seat == p.mover  # CB-INV-07: the next seat clockwise, or the start player first
    if p.moves_in_round == 0:
        assert seat == p.start == (p.first_start + p.round - 1) % n
    drawn = c.last_draw
    assert drawn is not None and (drawn.seat, drawn.k) == (seat, k)
    assert drawn.gold + drawn.black == k and drawn.gold <= p.bag_gold and drawn.black <= p.bag_black
    if len(c.rounds) == len(p.rounds):
        assert (c.round, c.start) == (p.round, p.start)  # CB-INV-07: the ship stays
        assert c.mover == (seat + 1) % n
        assert c.island == p.island + (1 if drawn.black else 0)  # CB-INV-04
        boxes = list(p.boxes)
        if drawn.black == 0:
            boxes[seat] += k
        assert c.boxes == boxes  # CB-INV-05
        assert c.chests == p.chests and c.parrot_deck == p.parrot_deck
        return
    # The round ended: exactly when the last island field filled (CB-INV-04).
    assert drawn.black >= 1 and p.island + 1 == cfg["island_fields"]
    record = c.rounds[-1]
    assert (record["round"], record["start"]) == (p.round, p.start)
    assert record["gold"] == p.boxes  # CB-INV-05: a black draw gains nothing
    check_parrots(prev, record)
    check_chests(prev, cur, record)
    if c.over:
        assert p.round == n
        return
    assert (c.round, c.start, c.mover) == (p.round + 1, (p.start + 1) % n, (p.start + 1) % n)
    assert (c.island, c.bag_gold, c.bag_black, c.boxes) == (0, GOLD, BLACK, [0] * n)  # CB-INV-04/05
    assert c.moves_in_round == 0 and all(not hand for hand in c.parrots)


def check_parrots(prev: CBState, record: dict[str, Any]) -> None:
    """CB-INV-10: exactly the fewest before parrots, clockwise from the start, 2 cards each, face values."""
    p = prev.data
    n = p.players
    gold = record["gold"]
    order = [(p.start + i) % n for i in range(n)]
    eligible = [s for s in order if gold[s] == min(gold)]
    hands = {int(s): cards for s, cards in record["parrots"].items()}
    assert list(hands) == eligible
    rule = prev.config["parrot_exhaustion"]
    for cards in hands.values():
        if rule == "reshuffle":
            assert len(cards) == 2
        elif rule == "skip":
            assert len(cards) in (0, 2)
        else:
            assert len(cards) <= 2
    for seat in range(n):
        assert record["totals"][seat] == gold[seat] + sum(hands.get(seat, []))
    dealt = [v for s in eligible for v in hands[s]]
    top = list(reversed(p.parrot_deck))
    shared = min(len(dealt), len(top))
    assert dealt[:shared] == top[:shared]  # CB-DIG-02: off the top, in hand-out order


def check_chests(prev: CBState, cur: CBState, record: dict[str, Any]) -> None:
    """CB-INV-11 and CB-INV-08: dense ranks capped, every card off the top, the deck never dry."""
    p, c = prev.data, cur.data
    n = p.players
    cap = min(prev.config["max_chests_per_round"], n)
    totals, counts = record["totals"], record["chests"]
    assert all(1 <= x <= cap for x in counts)
    lowest = min(totals)
    assert all(counts[s] == 1 for s in range(n) if totals[s] == lowest)
    for s in range(n):
        for t in range(n):
            if totals[s] == totals[t]:
                assert counts[s] == counts[t]
            elif totals[s] < totals[t]:
                assert counts[s] < counts[t] or counts[t] == cap
    assert sum(counts) <= n * (n + 1) // 2
    assert len(p.chest_deck) - len(c.chest_deck) == sum(counts)  # nobody was short-changed
    new_cards: dict[int, list[bool]] = {}
    for s in range(n):
        old = p.chests[s]
        assert c.chests[s][: len(old)] == old  # CB-CHEST-07: cards stay
        new_cards[s] = c.chests[s][len(old) :]
        assert len(new_cards[s]) == counts[s]
    order = [(p.start + i) % n for i in range(n)]
    hand_out = [s for value in sorted(set(totals)) for s in order if totals[s] == value]
    dealt = [card for s in hand_out for card in new_cards[s]]
    assert dealt == list(reversed(p.chest_deck))[: len(dealt)]


# ---------------------------------------------------------------------------------- whole games
def check_finished(st: CBState) -> None:
    d = st.data
    n = d.players
    starts = [r["start"] for r in d.rounds]
    assert len(d.rounds) == n and starts == [(d.first_start + r) % n for r in range(n)]  # CB-INV-12
    assert sorted(starts) == list(range(n))
    for seat in range(n):
        assert st.legal_actions(seat) == ()
        with pytest.raises(GameOverError):
            st.apply(Draw(1), seat)
    out = st.outcome()  # CB-INV-13
    full = [filled(h) for h in d.chests]
    cards = [len(h) for h in d.chests]
    assert out.winners
    best = max(full)
    most = max(cards[s] for s in range(n) if full[s] == best)
    leaders = [s for s in range(n) if (full[s], cards[s]) == (best, most)]
    if st.config["final_tie"] == "shared" or len(leaders) == 1 or d.start not in leaders:
        assert list(out.winners) == leaders
    else:
        assert out.winners == (d.start,)
    assert replay(st).fingerprint() == st.fingerprint()  # CB-INV-14


def play_checked(st: CBState, policies: Sequence[str], policy_seed: int) -> CBState:
    rng = Rng(policy_seed)
    view_rng = Rng(policy_seed + 1)
    check_static(st)
    check_views(st, view_rng)
    while not st.is_terminal():
        seat = st.to_move()[0]
        action = choose(policies[seat], rng, st)
        prev = st.clone()
        st.apply(action)
        check_step(prev, st, seat, action.k)
        check_static(st)
        check_views(st, view_rng)
        assert st.ply <= GAME.spec.max_game_length
    check_finished(st)
    return st


@settings(max_examples=60, deadline=None)
@given(
    players=hs.integers(2, 4),
    seed=hs.integers(0, 2**63 - 1),
    policies=hs.lists(hs.sampled_from(POLICIES), min_size=4, max_size=4),
    policy_seed=hs.integers(0, 2**32),
)
def test_CB_INV_01_to_CB_INV_15_hold_after_every_action(players: int, seed: int, policies: list[str],
                                                      policy_seed: int) -> None:
    """After every action: CB-INV-01 gold and CB-INV-02 black conservation, CB-INV-03 a non-empty bag,
    CB-INV-04 island count, CB-INV-05 box totals, CB-INV-06 draw bounds, CB-INV-07 turn order and ship,
    CB-INV-08 chest and CB-INV-09 parrot conservation, CB-INV-10 parrot eligibility, CB-INV-11 chest
    award, CB-INV-15 redaction; per game: CB-INV-12 length, CB-INV-13 winners, CB-INV-14 determinism.
    Covers CB-AMB-06 (the bag is never empty) and CB-AMB-09 (the chest deck never runs dry) at random."""
    st = GAME.new_state(players=players, seed=seed)
    play_checked(st, policies, policy_seed)


@settings(max_examples=40, deadline=None)
@given(
    players=hs.integers(2, 4),
    seed=hs.integers(0, 2**63 - 1),
    policy_seed=hs.integers(0, 2**32),
    island_fields=hs.integers(1, 8),
    min_draw=hs.integers(1, 3),
    extra_handful=hs.one_of(hs.none(), hs.integers(0, 8)),
    exhaustion=hs.sampled_from(("reshuffle", "partial", "skip")),
    chest_cap=hs.integers(1, 4),
    final_tie=hs.sampled_from(("shared", "last_start_player")),
    public_tally=hs.booleans(),
)
def test_CB_INV_invariants_hold_under_every_assumed_variant(
    players: int, seed: int, policy_seed: int, island_fields: int, min_draw: int, extra_handful: int | None,
    exhaustion: str, chest_cap: int, final_tie: str, public_tally: bool,
) -> None:
    """The CB-AMB parameters change values, never the invariants (with the config's constants)."""
    st = GAME.new_state(
        players=players, seed=seed, island_fields=island_fields, min_draw=min_draw,
        max_handful=None if extra_handful is None else min_draw + extra_handful,
        parrot_exhaustion=exhaustion, max_chests_per_round=chest_cap, final_tie=final_tie,
        public_tally=public_tally,
    )
    play_checked(st, ("uniform", "cautious", "one", "bold"), policy_seed)


def test_CB_INV_14_determinism_same_seed_same_actions_same_hash() -> None:
    a = GAME.new_state(players=3, seed=99)
    b = GAME.new_state(players=3, seed=99)
    rng = Rng(4)
    while not a.is_terminal():
        action = rng.choice(a.legal_actions()[:10])
        a.apply(action)
        b.apply(str(action))
        assert a.fingerprint() == b.fingerprint()
    c = GAME.new_state(players=3, seed=100)
    assert c.fingerprint() != GAME.new_state(players=3, seed=99).fingerprint()


def test_CB_INV_14_a_clone_replays_the_same_future() -> None:
    st = GAME.new_state(players=4, seed=5)
    for _ in range(7):
        st.apply(Draw(2))
    twin = st.clone()
    for _ in range(12):
        st.apply(Draw(3))
        twin.apply(Draw(3))
    assert st.fingerprint() == twin.fingerprint()


def test_CB_INV_12_CB_INV_13_a_known_game_reaches_its_end() -> None:
    """A plain regression anchor for the property tests: one fixed game checked the same way."""
    st = play_checked(GAME.new_state(players=4, seed=2024), ("odds", "uniform", "cautious", "one"), 7)
    assert st.is_terminal() and len(st.data.rounds) == 4
