"""Bots on the clock of a live table (Council's timed open negotiation), and fresh actions by decision key.

Every seat is asked for the whole timed Negotiate phase at a table with people, so the table paces
its bots (holotable.agents.live.Pacer) on its own clock. Time is the server's ManualClock, moved by
hand; the tests only wait (in real time) for bots thinking in worker threads to finish.
"""

from __future__ import annotations

import itertools
import threading
from typing import Any

import pytest

from holotable.agents import base
from holotable.agents.base import Agent, Observation
from holotable.agents.live import MIN_GAP, PLAIN_GAP, Wait
from holotable.engine import load

#: A Council seed whose first Leader is seat 0 (a human below), so no random bot can call the Vote.
SEED = 0


def _bot_acts(srv: Any, table_id: str) -> list[tuple[int, float]]:
    """(seat, table time) of every bot action stored, in order."""
    stored = srv.store.table(table_id)
    assert stored is not None
    return [(a.seat, a.at) for a in stored[2] if a.source == "bot"]


def _settle(srv: Any, table_id: str) -> None:
    """Let the bots that were asked finish thinking and acting (they run in worker threads)."""
    srv.wait_for(lambda: not srv.live(table_id).bot_tasks, what="the bots to finish")


def _leader(srv: Any, table_id: str) -> int:
    leader: int = srv.state(table_id)["view"]["leader"]
    return leader


def test_random_bots_at_a_live_council_table_are_paced_by_the_table_clock(server: Any) -> None:
    created = server.create("council", [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3, seed=SEED)
    table_id, token = created["table_id"], created["you"]["token"]
    assert _leader(server, table_id) == 0 and server.state(table_id)["view"]["phase"] == "negotiate"
    _settle(server, table_id)
    # Each bot was due at once and acted once; with the clock held still, they stop.
    assert sorted(seat for seat, _ in _bot_acts(server, table_id)) == [1, 2, 3]
    assert server.check_clocks() == 0 and not server.live(table_id).bot_tasks
    # A change at the table does not bring a bot back before its gap is over.
    assert server.act(table_id, token, "swap settle tax").status_code == 200
    assert not server.live(table_id).bot_tasks
    server.clock.advance(PLAIN_GAP - 0.5)  # (halves: exact in binary, so the times compare exactly)
    server.check_clocks()
    assert not server.live(table_id).bot_tasks and len(_bot_acts(server, table_id)) == 3
    server.clock.advance(0.5)
    server.check_clocks()
    _settle(server, table_id)
    assert sorted(seat for seat, _ in _bot_acts(server, table_id)[3:]) == [1, 2, 3]
    # Forty seconds of the two-minute timer, the human swapping now and then: never a flood.
    for step in range(80):
        server.clock.advance(0.5)
        if step % 7 == 0:
            assert server.act(table_id, token, "swap tax mine").status_code == 200
        server.check_clocks()
        _settle(server, table_id)
    acts = _bot_acts(server, table_id)
    for seat in (1, 2, 3):
        times = [t for s, t in acts if s == seat]
        assert all(b - a >= PLAIN_GAP for a, b in itertools.pairwise(times)), (seat, times)
        assert len(times) == 2 + 40 // int(PLAIN_GAP)  # due, acted, due again exactly on time
    assert server.state(table_id)["view"]["phase"] == "negotiate"


class Patient(Agent):
    """A live agent: it answers from a script (a number: wait that long; None: its first legal talk),
    and writes down when it was asked, by the table's clock (``obs.period.elapsed``)."""

    name = "test-patient"
    live = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.script: list[float | None] = []
        self.asked: list[float] = []

    def act(self, obs: Observation) -> Any:
        assert obs.period is not None and obs.period.seconds == 120
        self.asked.append(obs.period.elapsed)
        answer = self.script.pop(0) if self.script else 1000.0
        if answer is not None:
            return Wait(answer)
        return next(a for a in obs.legal if obs.game.action_to_str(a) == "support")


def test_a_live_agent_is_asked_at_its_wake_time_after_a_change_and_not_within_its_gap(server: Any) -> None:
    created = server.create("council", [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                        {"kind": "human"}, {"kind": "human"}], seed=SEED)
    table_id, tokens = created["table_id"], {0: created["you"]["token"]}
    live = server.live(table_id)
    patient = Patient(live.game)
    patient.script = [5.0, 10.0, None, 1000.0, 1000.0]
    live.agents[1] = patient  # the seat's bot, before the table starts (it waits for its players)
    tokens[2], tokens[3] = server.join(created), server.join(created)
    _settle(server, table_id)
    assert patient.asked == [0.0]  # due at once; it waits 5 s
    server.clock.advance(4.5)
    server.check_clocks()
    _settle(server, table_id)
    assert patient.asked == [0.0]
    server.clock.advance(0.5)
    server.check_clocks()
    _settle(server, table_id)
    assert patient.asked == [0.0, 5.0]  # its wake time; it waits 10 s more
    server.clock.advance(1)
    assert server.act(table_id, tokens[2], "oppose").status_code == 200  # something was said: it looks again
    _settle(server, table_id)
    assert patient.asked == [0.0, 5.0, 6.0]
    assert _bot_acts(server, table_id) == [(1, server.clock.now())]  # and supported
    # Right after its action, a change does not bring it back within MIN_GAP...
    assert server.act(table_id, tokens[3], "oppose").status_code == 200
    server.clock.advance(MIN_GAP / 2)
    server.check_clocks()
    _settle(server, table_id)
    assert patient.asked == [0.0, 5.0, 6.0]
    # ... but it is due again once the gap is over (the change woke it), and waits.
    server.clock.advance(MIN_GAP / 2)
    server.check_clocks()
    _settle(server, table_id)
    assert patient.asked == [0.0, 5.0, 6.0, 6.0 + MIN_GAP]
    assert server.check_clocks() == 0 and not live.bot_tasks


class Slow(Patient):
    """A Patient whose first answer waits for the test to let it go."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = threading.Event()

    def act(self, obs: Observation) -> Any:
        if not self.asked:
            self.gate.wait(timeout=10)
        return super().act(obs)


def test_a_live_agent_that_waits_on_a_table_changed_while_it_thought_looks_again(server: Any) -> None:
    created = server.create("council", [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                        {"kind": "human"}, {"kind": "human"}], seed=SEED)
    table_id, tokens = created["table_id"], {0: created["you"]["token"]}
    live = server.live(table_id)
    slow = Slow(live.game)
    slow.script = [100.0, 100.0]
    live.agents[1] = slow
    tokens[2], tokens[3] = server.join(created), server.join(created)
    assert 1 in live.bot_tasks  # thinking (held at the gate)
    assert server.act(table_id, tokens[2], "oppose").status_code == 200  # said while it thinks
    slow.gate.set()
    _settle(server, table_id)
    assert slow.asked == [0.0, 0.0]  # its "wait 100 s" was about a table that had changed: asked again now
    assert server.check_clocks() == 0 and not live.bot_tasks


def test_a_non_live_agent_that_says_wait_plays_a_legal_action(server: Any) -> None:
    class Impatient(Patient):
        live = False

    created = server.create("council", [{"kind": "human"}, {"kind": "bot", "level": "easy"}] * 2, seed=SEED)
    table_id = created["table_id"]
    live = server.live(table_id)
    live.agents[1] = Impatient(live.game)  # answers Wait, which only a live agent may
    server.join(created)
    _settle(server, table_id)
    acts = _bot_acts(server, table_id)
    assert sorted(seat for seat, _ in acts) == [1, 3]


class Talker(Agent):
    """A live agent that makes one suggestion per Proposal, then waits; outside a period it plays its
    first legal action (a vote, an advance)."""

    name = "test-talker"
    live = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.talked: set[int] = set()

    def act(self, obs: Observation) -> Any:
        if obs.period is None:
            return obs.legal[0]
        proposal = obs.view["proposals_made"]
        if proposal in self.talked:
            return Wait(1000.0)
        self.talked.add(proposal)
        return next(a for a in obs.legal if obs.game.action_to_str(a) == "suggest swap settle tax")


def test_a_new_period_starts_the_bots_pacing_afresh(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    base._load_builtin_agents()
    monkeypatch.setitem(base._GENERIC, Talker.name, Talker)
    created = server.create("council", [{"kind": "human"}] + [{"kind": "bot", "agent": Talker.name}] * 3, seed=SEED)
    table_id, token = created["table_id"], {0: created["you"]["token"]}
    _settle(server, table_id)
    talk = server.state(table_id)["view"]["talk"]
    assert sorted(t["seat"] for t in talk) == [1, 2, 3]
    assert server.act(table_id, token[0], "call vote").status_code == 200
    # The clock never moves: the bots acted less than MIN_GAP ago, yet each talks in the next Proposal.
    server.play_until(table_id, token, lambda p: p["view"]["phase"] == "negotiate"
                      and p["view"]["proposals_made"] == 2)
    _settle(server, table_id)
    view = server.state(table_id)["view"]
    assert view["phase"] == "negotiate" and view["proposals_made"] == 2
    assert sorted(t["seat"] for t in view["talk"] if t["seat"] != 0) == [1, 2, 3]


def test_an_older_suggestion_counts_after_talk_but_not_after_a_leader_swap(server: Any) -> None:
    created = server.create("council", [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 2,
                            seed=SEED)
    table_id, leader = created["table_id"], created["you"]["token"]
    suggester = server.join(created)
    assert _leader(server, table_id) == 0
    _settle(server, table_id)
    seen = server.state(table_id, suggester)["ply"]
    server.clock.advance(PLAIN_GAP)
    server.check_clocks()
    _settle(server, table_id)  # the bots talk again
    assert server.state(table_id)["ply"] == seen + 2
    response = server.act(table_id, suggester, "suggest swap settle tax", seen)
    assert response.status_code == 200, response.text
    seen = server.state(table_id, suggester)["ply"]
    assert server.act(table_id, leader, "swap mine conquer").status_code == 200
    before = server.live(table_id).state.fingerprint()
    stale = server.act(table_id, suggester, "suggest swap settle mine", seen)
    assert stale.status_code == 409 and "stale" in stale.json()["detail"]
    assert server.live(table_id).state.fingerprint() == before
    assert server.act(table_id, suggester, "suggest swap settle mine", seen + 1).status_code == 200
    before = server.live(table_id).state.fingerprint()
    future = server.act(table_id, suggester, "support", seen + 99)
    assert future.status_code == 409 and server.live(table_id).state.fingerprint() == before


def test_fresh_plies_are_rebuilt_on_a_restart(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url) as srv:
        created = srv.create("council", [{"kind": "human"}] * 4, seed=SEED)
        table_id, tokens = created["table_id"], {0: created["you"]["token"]}
        for seat in (1, 2, 3):
            tokens[seat] = srv.join(created)
        assert srv.act(table_id, tokens[0], "swap settle tax").status_code == 200
        assert srv.act(table_id, tokens[2], "support").status_code == 200
    with open_server(sqlite_url) as srv:
        # Seat 1 chose at ply 1 (after the swap): the talk since does not make it stale, the swap would.
        assert srv.act(table_id, tokens[1], "suggest swap mine conquer", 0).status_code == 409
        assert srv.act(table_id, tokens[1], "suggest swap mine conquer", 1).status_code == 200
        assert srv.live(table_id).decisions.since == {0: 1, 1: 1, 2: 1, 3: 1}


def test_a_turn_taken_since_makes_a_choice_stale(server: Any) -> None:
    game = load("captain-black")
    assert game.decision_key(game.new_state(players=2, seed=1), 0) == 0
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
    table_id, token0 = created["table_id"], created["you"]["token"]
    token1 = server.join(created)
    assert server.act(table_id, token0, "draw 1", 0).status_code == 200
    assert server.act(table_id, token1, "draw 1", 0).status_code == 409
    assert server.act(table_id, token1, "draw 1", 1).status_code == 200


def test_simultaneous_picks_chosen_at_the_same_ply_all_count(server: Any) -> None:
    """Three Buccaneers players pick at once: each chose at the ply the pick opened at, and the others'
    sealed picks in between leave that choice fresh. Once the picks resolve, a choice from before is stale."""
    created = server.create("buccaneers", [{"kind": "human"}] * 3, seed=5)
    table_id = created["table_id"]
    tokens = [created["you"]["token"], server.join(created), server.join(created)]
    opened = server.state(table_id)["ply"]
    assert server.state(table_id)["to_move"] == [0, 1, 2]
    picks = [server.state(table_id, token)["legal"][0]["text"] for token in tokens]
    for seat in (0, 1):
        assert server.act(table_id, tokens[seat], picks[seat], opened).status_code == 200
        assert server.live(table_id).decisions.since[2] == opened
    assert server.state(table_id, tokens[2])["ply"] == opened + 2
    response = server.act(table_id, tokens[2], picks[2], opened)
    assert response.status_code == 200, response.text
    resolved = server.live(table_id).state
    assert resolved.ply == opened + 3 and not resolved.pending
    assert resolved.to_move() == (0, 1, 2)  # the next pick, a new decision: a choice from the old one is stale
    again = server.act(table_id, tokens[0], picks[0], opened)
    assert again.status_code == 409 and "stale" in again.json()["detail"]


def test_the_tick_loop_asks_the_bots_whose_time_has_come(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url, tick=0.01) as srv:
        created = srv.create("council", [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3, seed=SEED)
        table_id = created["table_id"]
        srv.wait_for(lambda: len(_bot_acts(srv, table_id)) == 3, what="the bots' first words")
        srv.clock.advance(PLAIN_GAP)
        srv.wait_for(lambda: len(_bot_acts(srv, table_id)) == 6, what="the bots' next words")
        assert sorted(seat for seat, _ in _bot_acts(srv, table_id)[3:]) == [1, 2, 3]
