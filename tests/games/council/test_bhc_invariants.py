"""Property tests over random legal play (spec §5): BHC-INV-01..20 and BHC-INV-23, replay exactness.

Random seeds and 4..8 players; every invariant is checked after every accepted action.
"""

from __future__ import annotations

from collections import Counter

import pytest
from bhc_helpers import GAME, PLANET_IDS, BState, coins_in_play, new_state
from hypothesis import given, settings
from hypothesis import strategies as st_

from holotable.engine import ActionError, Match, Rng, derive_seed
from holotable.games.council.state import ADVANCE, NEGOTIATE, VOTE
from holotable.testing.conformance import random_step


def invariants(st: BState, before: BState | None, seat: int | None, action: object) -> None:
    d = st.data
    n = d.players
    assert coins_in_play(d) == 0  # BHC-INV-01
    placed = d.table + d.deck + [p for s in d.history for p in s["planets"]]
    assert Counter(placed) == Counter(PLANET_IDS)  # BHC-INV-02
    live = d.phase in (NEGOTIATE, VOTE, ADVANCE)
    if d.phase == NEGOTIATE:
        assert len(d.deck) == 32 - 5 * d.negotiation_round  # BHC-INV-03
    assert (len(d.table) == 5 and len(set(d.table)) == 5) if live else d.table == []  # BHC-INV-04
    assert len(d.history) == d.negotiation_round - (1 if live else 0)  # BHC-INV-05
    assert len(set(d.agendas)) == n  # BHC-INV-06
    assert all(1 <= p <= d.track_end for p in d.positions)  # BHC-INV-08
    assert d.bribe_space >= 0 and all(p >= 0 for p in d.pending)  # BHC-INV-09
    assert all(b >= 0 for b in d.banks)  # BHC-INV-12
    # BHC-INV-10: the k-th Proposal is led by s0 + k - 1; between rounds the token has already passed on.
    k = d.proposals_made if live else d.proposals_made + 1
    assert d.leader == (d.first_leader + k - 1) % n and 1 <= d.proposal <= 3
    assert d.accepted_from not in d.bribed  # BHC-INV-11
    assert d.accepted_from < 0 or d.accepted_from != d.leader
    for record in d.votes:  # BHC-INV-13
        ballots = [v for v in record["votes"] if v is not None]
        assert len(ballots) == n - 1 and record["votes"][record["leader"]] is None
        assert record["approved"] == (2 * ballots.count("pass") > n - 1)
    if before is None:
        return
    b = before.data
    assert d.agendas == b.agendas  # BHC-INV-06: never change
    assert all(x >= y for x, y in zip(d.positions, b.positions, strict=True))  # BHC-INV-08
    changed = [s for s in range(n) if d.intrigue_played[s] != b.intrigue_played[s]]
    assert all(b.intrigue_played[s] < 0 and b.phase == ADVANCE for s in changed)  # BHC-INV-07
    if b.phase == ADVANCE and len(d.advances) > len(b.advances):  # BHC-INV-14
        rec = d.advances[-1]
        assert d.banks[rec["seat"]] - b.banks[rec["seat"]] == rec["collected"] - rec["coins"]
        assert d.positions[rec["seat"]] - b.positions[rec["seat"]] == (0 if rec["choice"] == "get paid" else 1)
    if b.phase == VOTE and d.phase == NEGOTIATE and d.proposal > 1:  # a failed Proposal 1/2: BHC-INV-09
        assert d.bribe_space == d.proposal
    if len(d.history) > len(b.history) and d.history[-1]["written_off"]:  # BHC-INV-15
        ballots = d.votes[-1]["votes"]
        gained = [d.banks[s] - b.banks[s] for s in range(n)]
        assert gained == [1 if v == "pass" else 0 for v in ballots] or b.accepted_from >= 0
        assert d.positions == b.positions


def end_checks(st: BState) -> None:
    d = st.data
    for s in range(d.players):  # BHC-INV-18
        assert d.positions[s] == d.track_end or d.banks[s] < d.cost(s)
    outcome = st.outcome()  # BHC-INV-19
    best = max((d.positions[s], d.banks[s]) for s in range(d.players))
    assert set(outcome.winners) == {s for s in range(d.players) if (d.positions[s], d.banks[s]) == best}
    assert len(d.history) == 6 and sum(1 for s in d.deductions for _ in s) == 3 * d.players  # BHC-CHRON-03


@settings(max_examples=8, deadline=None)
@given(st_.integers(4, 8), st_.integers(0, 2**32))
def test_invariants_hold_after_every_action(n: int, seed: int) -> None:
    """BHC-INV-01..15, 18, 19 after every accepted action of a random game; the game ends within the spec's
    max_game_length (negotiation is bounded: BHC-DIG-02)."""
    st = new_state(n, seed, first_leader=None, negotiation_seconds=0)
    rng = Rng(derive_seed(seed, "inv"))
    invariants(st, None, None, None)
    while not st.is_terminal():
        before = st.clone()
        seat, action = random_step(st, rng)
        invariants(st, before, seat, action)
        assert st.ply <= GAME.spec.max_game_length
    end_checks(st)


@settings(max_examples=6, deadline=None)
@given(st_.integers(4, 8), st_.integers(0, 2**32))
def test_BHC_INV_20_replay_is_exact(n: int, seed: int) -> None:
    """BHC-INV-20: (seed, action log) gives the identical state; a saved match reloads to the same state."""
    st = new_state(n, seed, first_leader=None)
    rng = Rng(derive_seed(seed, "replay"))
    while not st.is_terminal():
        random_step(st, rng)
    log = [(seat, GAME.action_to_str(a)) for seat, a in st.history]
    again = new_state(n, seed, first_leader=None)
    for seat, text in log:
        again.apply(text, seat)
    assert again.fingerprint() == st.fingerprint()
    match = Match(GAME, again.config, seed, log)
    assert Match.from_json(match.to_json()).state.fingerprint() == st.fingerprint()


@settings(max_examples=6, deadline=None)
@given(st_.integers(4, 8), st_.integers(0, 2**32), st_.integers(0, 60))
def test_BHC_INV_23_out_of_phase_actions_change_nothing(n: int, seed: int, plies: int) -> None:
    """BHC-INV-23: an action outside its phase or role is rejected and leaves the state unchanged."""
    st = new_state(n, seed)
    rng = Rng(derive_seed(seed, "phase"))
    for _ in range(plies):
        if st.is_terminal():
            return
        random_step(st, rng)
    probes = ["swap settle tax", "bribe 1 1", "offer", "vote pass", "natural", "get paid +intrigue",
              "guess red right", "guess red left", "call vote", "accept 2"]
    for seat in range(n):
        legal = {GAME.action_to_str(a) for a in st.legal_actions(seat)}
        for text in probes:
            if text in legal:
                continue
            before = st.fingerprint()
            with pytest.raises(ActionError):
                st.apply(text, seat)
            assert st.fingerprint() == before
