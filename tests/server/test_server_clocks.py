"""Table clocks: the server plays for a seat whose time is up; time is moved by hand, never slept."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from holotable.engine import load
from holotable.server.clocks import ManualClock
from holotable.server.storage import actions_t


def _stored(srv: Any, table_id: str) -> list[tuple[int, int, str, str]]:
    with srv.store.engine.connect() as conn:
        rows = conn.execute(select(actions_t).where(actions_t.c.table_id == table_id).order_by(actions_t.c.ply))
        return [(r.ply, r.seat, r.action, r.source) for r in rows]


def _humans(srv: Any, game: str, players: int, **body: Any) -> tuple[str, dict[int, str]]:
    created = srv.create(game, [{"kind": "human"}] * players, **body)
    tokens = {0: created["you"]["token"]}
    for _ in range(players - 1):
        token = srv.join(created)
        tokens[srv.state(created["table_id"], token)["seat"]] = token
    return created["table_id"], tokens


def test_per_move_timeout_plays_the_games_timeout_action(server: Any) -> None:
    table_id, tokens = _humans(server, "captain-black", 2, params={"start_seat": 0, "timeout_draw": 2},
                               clock={"mode": "per_move", "seconds": 30})
    clock = server.state(table_id, tokens[0])["clock"]
    assert clock["mode"] == "per_move" and clock["deadline_ts"] == server.clock.now() + 30
    server.clock.advance(29.5)
    assert server.check_clocks() == 0 and _stored(server, table_id) == []
    server.clock.advance(1)
    assert server.check_clocks() == 1
    assert _stored(server, table_id) == [(1, 0, "draw 2", "timeout")]
    mine = [e["text"] for e in server.state(table_id, tokens[0])["log"] if e["kind"] == "timeout"]
    theirs = [e["text"] for e in server.state(table_id, tokens[1])["log"] if e["kind"] == "timeout"]
    assert any("draw 2" in t for t in mine) and theirs and not any("draw 2" in t for t in theirs)
    # Seat 1's move started when seat 0's ended: it has its full 30 seconds.
    server.clock.advance(29)
    assert server.check_clocks() == 0
    assert server.act(table_id, tokens[1], "draw 1").status_code == 200
    assert [s for _, s, _, src in _stored(server, table_id)] == [0, 1]


def test_a_game_without_a_timeout_action_gets_a_legal_random_one(server: Any) -> None:
    table_id, tokens = _humans(server, "buccaneers", 3, seed=4, clock={"mode": "per_move", "seconds": 10})
    assert load("buccaneers").timeout_action(load("buccaneers").new_state(players=3, seed=4), 0) is None
    first = server.state(table_id, tokens[0])
    assert sorted(first["to_move"]) == [0, 1, 2] and first["sealed"]
    legal_before = {s: {a["text"] for a in server.state(table_id, tokens[s])["legal"]} for s in (1, 2)}
    server.clock.advance(5)
    assert server.act(table_id, tokens[0], first["legal"][0]["text"]).status_code == 200
    server.clock.advance(6)  # seats 1 and 2 are out of time; seat 0 is no longer asked
    assert server.check_clocks() == 1 and server.check_clocks() == 1
    stored = _stored(server, table_id)
    assert [(seat, source) for _, seat, _, source in stored] == [(0, "human"), (1, "timeout"), (2, "timeout")]
    assert all(text in legal_before[seat] for _, seat, text, _ in stored[1:])
    assert server.live(table_id).state.ply == 3


def test_per_game_time_is_spent_only_while_asked_and_survives_a_restart(open_server: Any, sqlite_url: str) -> None:
    clock = ManualClock()
    with open_server(sqlite_url, clock=clock) as srv:
        table_id, tokens = _humans(srv, "captain-black", 2, params={"start_seat": 0},
                                   clock={"mode": "per_game", "seconds": 60})
        clock.advance(20)
        assert srv.act(table_id, tokens[0], "draw 1").status_code == 200
        clock.advance(10)
        assert srv.act(table_id, tokens[1], "draw 1").status_code == 200
        clock.advance(5)
        assert srv.state(table_id)["clock"]["remaining"] == {"0": 35.0, "1": 50.0}
    clock.advance(1000)  # the server is down: nobody's time runs
    with open_server(sqlite_url, clock=clock) as srv:
        assert srv.state(table_id)["clock"]["remaining"] == {"0": 40.0, "1": 50.0}
        clock.advance(39)
        assert srv.check_clocks() == 0
        clock.advance(1)
        assert srv.check_clocks() == 1
        last = _stored(srv, table_id)[-1]
        assert (last[0], last[1], last[3]) == (3, 0, "timeout")
        assert srv.state(table_id)["clock"]["remaining"]["0"] == 0.0


def test_councils_negotiation_timer_is_run_by_the_table(server: Any) -> None:
    table_id, tokens = _humans(server, "council", 4, seed=2, params={"negotiation_seconds": 30})
    payload = server.state(table_id, tokens[0])
    assert payload["view"]["phase"] == "negotiate"
    assert payload["clock"]["period_deadline_ts"] == server.clock.now() + 30
    assert "deadline" not in {a["text"] for a in payload["legal"]}
    refused = server.act(table_id, tokens[0], "deadline")
    assert refused.status_code == 422 and "clock" in refused.json()["detail"]
    server.clock.advance(29)
    assert server.check_clocks() == 0
    server.clock.advance(1)
    assert server.check_clocks() == 1
    assert [(a, src) for _, _, a, src in _stored(server, table_id)] == [("deadline", "clock")]
    assert any(e["kind"] == "deadline" for e in server.state(table_id)["log"])


def test_seat_clocks_stand_still_while_councils_negotiation_timer_runs(server: Any) -> None:
    """Every seat is asked for the whole timed Negotiate phase: the timer is the clock, so a
    non-Leader's per-move time does not run out (it once played ``deadline`` and ended the talk)."""
    table_id, tokens = _humans(server, "council", 4, seed=2, params={"negotiation_seconds": 300},
                               clock={"mode": "per_move", "seconds": 20})
    start = server.clock.now()
    clock = server.state(table_id, tokens[0])["clock"]
    assert clock["period_deadline_ts"] == clock["deadline_ts"] == start + 300 and clock["period_seconds"] == 300
    assert clock["remaining"] == {str(s): 20.0 for s in range(4)}
    server.clock.advance(21)
    assert server.check_clocks() == 0
    leader = server.state(table_id)["view"]["leader"]
    talker = next(s for s in range(4) if s != leader)
    assert server.act(table_id, tokens[talker], "support").status_code == 200
    server.clock.advance(278)
    assert server.check_clocks() == 0 and [src for *_, src in _stored(server, table_id)] == ["human"]
    assert server.state(table_id)["clock"]["remaining"] == {str(s): 20.0 for s in range(4)}
    server.clock.advance(1)
    assert server.check_clocks() == 1
    assert [(a, src) for _, _, a, src in _stored(server, table_id)] == [("support", "human"), ("deadline", "clock")]
    # The Vote is not timed by the game: each voter's 20 seconds start when the timer ended.
    vote = server.state(table_id)
    assert vote["view"]["phase"] == "vote" and vote["clock"]["period_seconds"] is None
    assert vote["clock"]["deadline_ts"] == server.clock.now() + 20
    server.clock.advance(19.5)
    assert server.check_clocks() == 0
    server.clock.advance(0.5)
    assert server.check_clocks() == 1 and _stored(server, table_id)[-1][3] == "timeout"


def test_per_game_time_is_not_spent_during_councils_timer(server: Any) -> None:
    table_id, _tokens = _humans(server, "council", 4, seed=2, params={"negotiation_seconds": 120},
                               clock={"mode": "per_game", "seconds": 60})
    server.clock.advance(100)
    assert server.state(table_id)["clock"]["remaining"] == {str(s): 60.0 for s in range(4)}
    server.clock.advance(20)
    assert server.check_clocks() == 1  # the timer's deadline, not anyone's time
    server.clock.advance(10)
    remaining = server.state(table_id)["clock"]["remaining"]
    leader = server.state(table_id)["view"]["leader"]
    assert remaining == {str(s): 60.0 if s == leader else 50.0 for s in range(4)}  # the Leader does not vote


def test_the_clock_runs_by_itself(open_server: Any, sqlite_url: str) -> None:
    clock = ManualClock()
    with open_server(sqlite_url, clock=clock, tick=0.01) as srv:
        table_id, _tokens = _humans(srv, "captain-black", 2, clock={"mode": "per_move", "seconds": 5})
        clock.advance(6)
        srv.wait_for(lambda: srv.store.action_count(table_id) == 1, timeout=5, what="the clock's action")
        assert _stored(srv, table_id)[0][3] == "timeout"
