"""Lazy tables (issue 21): a restarted server serves at once and loads a table on its first request;
tables nobody uses leave memory and come back exactly as they were; the ones whose time runs stay."""

from __future__ import annotations

from typing import Any

from holotable.server.clocks import ManualClock
from holotable.server.tables import IDLE_SECONDS, TableManager


def _two_humans(server: Any, game: str = "captain-black", **body: Any) -> tuple[str, dict[int, str]]:
    created = server.create(game, [{"kind": "human"}, {"kind": "human"}], **body)
    return created["table_id"], {0: created["you"]["token"], 1: server.join(created)}


def _play(server: Any, table_id: str, tokens: dict[int, str], moves: int) -> None:
    for _ in range(moves):
        public = server.state(table_id)
        seat = public["to_move"][0]
        legal = server.state(table_id, tokens[seat])["legal"]
        assert server.act(table_id, tokens[seat], legal[0]["text"], public["ply"]).status_code == 200


def test_a_restart_serves_at_once_and_loads_each_table_on_its_first_request(open_server: Any, sqlite_url: str) -> None:
    clock = ManualClock()
    with open_server(sqlite_url, clock=clock) as server:
        tables = [_two_humans(server) for _ in range(4)]
        for table_id, tokens in tables:
            _play(server, table_id, tokens, 5)
        before = {table_id: server.state(table_id, tokens[0]) for table_id, tokens in tables}
    rebuilt: list[str] = []
    with open_server(sqlite_url, clock=clock) as server:
        manager: TableManager = server.manager
        real = manager.rebuild
        manager.rebuild = lambda record, *rest, **kw: (rebuilt.append(record.id), real(record, *rest, **kw))[1]  # type: ignore[method-assign]
        assert manager.tables == {}, "nothing is replayed before the server serves"
        assert server.client.get("/api/tables").status_code == 200  # the lobby reads the store
        assert manager.tables == {}
        first_id, first_tokens = tables[0]
        assert server.state(first_id, first_tokens[0]) == before[first_id]
        assert list(manager.tables) == [first_id] and rebuilt == [first_id]
        _play(server, first_id, first_tokens, 1)  # and it plays on
        assert server.state(first_id)["ply"] == before[first_id]["ply"] + 1


def test_a_table_asked_for_by_many_at_once_is_rebuilt_once(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url) as server:
        table_id, tokens = _two_humans(server)
        _play(server, table_id, tokens, 3)
    with open_server(sqlite_url) as server:
        manager: TableManager = server.manager
        rebuilt: list[str] = []
        real = manager.rebuild
        manager.rebuild = lambda record, *rest, **kw: (rebuilt.append(record.id), real(record, *rest, **kw))[1]  # type: ignore[method-assign]

        async def many() -> list[Any]:
            import asyncio

            return await asyncio.gather(*(manager.get(table_id) for _ in range(20)))

        got = server.client.portal.call(many)  # type: ignore[union-attr]
        assert rebuilt == [table_id] and all(table is got[0] for table in got)


def test_running_tables_with_a_seat_clock_load_in_the_background(open_server: Any, sqlite_url: str) -> None:
    clock = ManualClock()
    with open_server(sqlite_url, clock=clock) as server:
        timed, _ = _two_humans(server, clock={"mode": "per_move", "seconds": 30})
        untimed, _ = _two_humans(server)
    with open_server(sqlite_url, clock=clock) as server:
        server.wait_for(lambda: timed in server.manager.tables, what="the timed table to load")
        assert untimed not in server.manager.tables
        clock.advance(31)  # its seat runs out of time with nobody at the table: the table plays for them
        assert server.check_clocks() == 1


def test_an_idle_table_leaves_memory_and_comes_back_as_it_was(open_server: Any, sqlite_url: str) -> None:
    clock = ManualClock()
    with open_server(sqlite_url, clock=clock) as server:
        manager: TableManager = server.manager
        table_id, tokens = _two_humans(server)
        _play(server, table_id, tokens, 4)
        before = server.state(table_id, tokens[1])
        clock.advance(IDLE_SECONDS - 1)
        assert manager.evict_idle() == [] and table_id in manager.tables  # not idle long enough
        clock.advance(2)
        assert manager.evict_idle() == [table_id] and table_id not in manager.tables
        assert server.state(table_id, tokens[1]) == before  # loaded again from the store
        _play(server, table_id, tokens, 1)
        assert server.state(table_id)["ply"] == before["ply"] + 1


def test_a_table_in_use_stays_in_memory(open_server: Any, sqlite_url: str) -> None:
    clock = ManualClock()
    with open_server(sqlite_url, clock=clock) as server:
        manager: TableManager = server.manager
        watched, _ = _two_humans(server)
        timed, _ = _two_humans(server, clock={"mode": "per_move", "seconds": 3000})
        finished = server.create("captain-black", [{"kind": "bot", "level": "easy"}] * 2)["table_id"]
        server.wait_for(lambda: server.state(finished)["status"] == "finished", what="the bots' game")
        with server.client.websocket_connect(f"/ws/tables/{watched}") as ws:
            assert ws.receive_json()["type"] == "state"
            clock.advance(IDLE_SECONDS + 1)
            gone = manager.evict_idle()
            assert watched not in gone and timed not in gone  # a page is open; a seat's time is running
            assert finished in gone
        clock.advance(IDLE_SECONDS + 1)
        assert manager.evict_idle() == [watched]  # the page closed


def test_the_council_chat_comes_back_with_its_table(open_server: Any, sqlite_url: str) -> None:
    clock = ManualClock()
    with open_server(sqlite_url, clock=clock) as server:
        # no negotiation clock: a running negotiation period keeps the table in memory
        created = server.create("council", [{"kind": "human"}] * 4, seed=3,
                                params={"first_leader": 0, "negotiation_seconds": 0})
        table_id = created["table_id"]
        tokens = [created["you"]["token"]] + [server.join(created) for _ in range(3)]
        with server.client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
            assert ws.receive_json()["type"] == "state"
            for i in range(2):
                ws.send_json({"type": "chat", "text": f"line {i}"})
                while ws.receive_json().get("type") != "chat":
                    pass
        said = server.state(table_id)["extra"]["chat"]
        assert [line["text"] for line in said] == ["line 0", "line 1"]
        clock.advance(IDLE_SECONDS + 1)
        assert server.manager.evict_idle() == [table_id]
        assert server.state(table_id)["extra"]["chat"] == said
