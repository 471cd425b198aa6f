"""Server-side bots: they think off the event loop, see only their seat's observation, and play on."""

from __future__ import annotations

import os
import statistics
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ClassVar

import pytest

from holotable.agents import base
from holotable.agents.base import Agent, Observation
from holotable.engine import Game, Match
from holotable.server import bots
from holotable.server.bots import level_info


class SlowAgent(Agent):
    """Thinks for a while (like a hard bot with a long budget), then plays its first legal action."""

    name = "test-slow"
    release = threading.Event()

    def act(self, obs: Observation) -> Any:
        self.release.wait(timeout=10)
        return obs.legal[0]


class SpyAgent(Agent):
    """Records what it was given; plays the first legal action."""

    name = "test-spy"
    seen: ClassVar[list[tuple[int, dict[str, Any], list[Any], type]]] = []

    def act(self, obs: Observation) -> Any:
        self.seen.append((obs.seat, obs.view, list(obs.legal), type(obs)))
        return obs.legal[0]


@pytest.fixture
def test_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    base._load_builtin_agents()
    for agent in (SlowAgent, SpyAgent):
        monkeypatch.setitem(base._GENERIC, agent.name, agent)
    SlowAgent.release = threading.Event()
    SpyAgent.seen = []


def test_a_thinking_bot_does_not_hold_up_other_tables(server: Any, test_agents: None) -> None:
    slow = server.create("captain-black", [{"kind": "human"}, {"kind": "bot", "agent": "test-slow"}],
                         params={"start_seat": 0})
    slow_id = slow["table_id"]
    fast = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
    fast_id, tokens = fast["table_id"], {0: fast["you"]["token"]}
    tokens[1] = server.join(fast)
    assert server.act(slow_id, slow["you"]["token"], "draw 1").status_code == 200
    server.wait_for(lambda: 1 in server.live(slow_id).bot_tasks, what="the slow bot to start")
    started = time.monotonic()
    for ply in range(6):
        seat = server.state(fast_id)["to_move"][0]
        response = server.act(fast_id, tokens[seat], "draw 1", ply)
        assert response.status_code == 200, response.text
    assert time.monotonic() - started < 5  # the slow bot would hold everything for 10 s
    assert server.live(slow_id).state.ply == 1 and 1 in server.live(slow_id).bot_tasks  # still thinking
    SlowAgent.release.set()
    server.wait_for(lambda: server.live(slow_id).state.ply >= 2, what="the slow bot's move")
    assert server.store.action_count(slow_id) >= 2


def test_bots_see_only_their_seats_observation_and_play_to_the_end(server: Any, test_agents: None) -> None:
    spy = {"kind": "bot", "agent": "test-spy"}
    seats = [spy, {"kind": "bot", "level": "easy"}, spy]
    created = server.create("buccaneers", seats, seed=9)
    table_id = created["table_id"]
    assert created["you"] is None  # nobody to seat: a table of bots, for spectators
    server.wait_for(lambda: server.state(table_id)["status"] == "finished", timeout=40, what="the bots' game")
    stored = server.store.table(table_id)
    assert stored is not None
    record, _seats, actions = stored
    match = Match(server.live(table_id).game, server.live(table_id).config, record.seed,
                  [(a.seat, a.action) for a in actions])
    assert match.state.is_terminal() and record.status == "finished"
    assert SpyAgent.seen and {seat for seat, *_ in SpyAgent.seen} == {0, 2}
    for seat, view, legal, kind in SpyAgent.seen:
        assert kind is Observation
        truth = match.state_at(view["ply"])  # the position the bot was asked in
        assert view == truth.view(seat)
        assert legal == list(truth.legal_actions(seat))


def test_levels_are_random_heuristic_and_time_limited_search(server: Any) -> None:
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "bot"}])
    game: Game[Any, Any] = server.live(created["table_id"]).game
    assert level_info(game.spec.name, "easy").agent == "random"
    assert level_info(game.spec.name, "normal").agent == "heuristic"
    hard = level_info(game.spec.name, "hard")
    assert "time_limit=" in hard.agent and hard.think_seconds > 0
    agent = base.make_agent(hard.agent, game)
    assert getattr(agent, "time_limit", None) == hard.think_seconds


def test_a_bot_that_thinks_too_long_plays_its_quick_choice_and_the_table_says_so(
        server: Any, test_agents: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: under load hard bots silently played random moves. Now the seat plays the normal
    level's agent (the heuristic), the stored action says so (source ``fallback``) and every seat's log
    reads that the bot ran out of thinking time."""
    monkeypatch.setattr(bots, "GRACE_SECONDS", 0.3)
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "bot", "agent": "test-slow"}],
                            params={"start_seat": 1})
    table_id = created["table_id"]
    # the action is stored (in a worker thread) before the live table takes it: wait for both
    server.wait_for(lambda: server.store.action_count(table_id) == 1 and server.live(table_id).state.history,
                    timeout=8, what="the table to play for the bot")
    SlowAgent.release.set()
    live = server.live(table_id)
    assert live.state.history[0][0] == 1
    assert [a.source for a in live.actions] == ["fallback"]
    heuristic = base.make_agent("heuristic", live.game, seed=0)  # Captain Black's heuristic draws no lots
    assert live.actions[0].action == live.game.action_to_str(heuristic.act(_observation_before(live)))
    state = server.state(table_id, created["you"]["token"])
    assert state["to_move"] == [0] and state["ply"] == 1
    assert any(e["kind"] == "bot_fallback" and "Seat 2's bot ran out of thinking time" in e["text"]
               for e in state["log"])


def _observation_before(live: Any) -> Any:
    from holotable.agents.base import observe
    from holotable.engine import State

    st = State.new(live.game, live.config, live.record.seed)
    return observe(st, 1)


def test_search_bots_always_have_a_time_limit(server: Any) -> None:
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "bot", "agent": "ismcts:iterations=99999"}])
    assert server.live(created["table_id"]).seats[1].agent == "ismcts:iterations=99999:time_limit=10"


@pytest.mark.slow
def test_a_searching_bot_leaves_time_for_other_tables(server: Any) -> None:
    """A real CPU-bound search (ISMCTS, 1 s) at one table; all the while another table's moves answer promptly."""
    search = server.create("buccaneers", [{"kind": "human"}, {"kind": "bot", "agent": "ismcts:time_limit=1"},
                                          {"kind": "bot", "level": "easy"}], seed=2)
    busy_id, busy_token = search["table_id"], search["you"]["token"]
    legal = server.state(busy_id, busy_token)["legal"]
    assert server.act(busy_id, busy_token, legal[0]["text"]).status_code == 200
    server.wait_for(lambda: 1 in server.live(busy_id).bot_tasks, what="the search to start")
    latencies: list[float] = []
    fast: dict[str, Any] = {}
    while not any(seat == 1 for seat, _ in server.live(busy_id).state.history):  # as long as the bot thinks
        if not fast or server.live(fast["table_id"]).state.is_terminal():
            fast = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}])
            fast["tokens"] = {0: fast["you"]["token"], 1: server.join(fast)}
        public = server.state(fast["table_id"])
        started = time.monotonic()
        response = server.act(fast["table_id"], fast["tokens"][public["to_move"][0]], "draw 1", public["ply"])
        latencies.append(time.monotonic() - started)
        assert response.status_code == 200, response.text
        assert len(latencies) < 5000, "the search never ended"
    # Generous bounds (a loaded CI machine): a search competing for the interpreter lock would push
    # every move of the other table to seconds.
    assert len(latencies) >= 10 and statistics.median(latencies) < 0.5 and max(latencies) < 3.0, (
        len(latencies), statistics.median(latencies), max(latencies))


@pytest.mark.slow
def test_a_dead_worker_process_costs_no_move(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url, bot_workers=1) as server:
        _dead_worker(server)


def _dead_worker(server: Any) -> None:
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "bot", "agent": "ismcts:iterations=30"}],
                            params={"start_seat": 0})
    table_id, token = created["table_id"], created["you"]["token"]
    pool = server.manager.pool
    crashed = pool.processes.submit(os._exit, 3)  # a worker dies (as if killed by the system)
    with pytest.raises(BrokenProcessPool):
        crashed.result(timeout=30)
    assert server.act(table_id, token, "draw 1").status_code == 200
    server.wait_for(lambda: server.live(table_id).state.ply >= 2, what="the bot's move after the crash")
    assert server.live(table_id).state.history[1][0] == 1
    assert pool.processes.submit(int, "7").result(timeout=30) == 7  # a working pool for the next search


@pytest.mark.slow
def test_a_bot_waiting_for_a_free_worker_shows_it_is_queued_and_then_plays_its_own_move(
        open_server: Any, sqlite_url: str) -> None:
    """Issue 21: when the bots fall behind, the seat shows that it is queued. One worker; one table's
    search holds it for its whole budget, so the other table's search waits in line: that seat's state
    says ``bots_queued`` while it waits, and once the worker is free it thinks and plays its own move
    (not the fallback)."""
    with open_server(sqlite_url, bot_workers=1) as server:
        seats = [{"kind": "human"}, {"kind": "bot", "agent": "ismcts:iterations=1000000:time_limit=2"}]
        busy = server.create("captain-black", seats, params={"start_seat": 1})
        server.wait_for(lambda: 1 in server.live(busy["table_id"]).bot_tasks, what="the first search")
        waiting = server.create("captain-black", seats, params={"start_seat": 1})
        table_id, token = waiting["table_id"], waiting["you"]["token"]
        server.wait_for(lambda: server.state(table_id, token)["bots_queued"] == [1], timeout=10,
                        what="the second bot to be queued")
        assert server.state(busy["table_id"], busy["you"]["token"])["bots_queued"] == []
        server.wait_for(lambda: server.live(table_id).state.ply >= 1, timeout=40, what="the queued bot's move")
        assert server.state(table_id, token)["bots_queued"] == []
        assert [a.source for a in server.live(table_id).actions] == ["bot"]
        assert [a.source for a in server.live(busy["table_id"]).actions] == ["bot"]
