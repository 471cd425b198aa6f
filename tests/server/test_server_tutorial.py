"""Tutorial tables: ``POST /api/tutorials/{game}`` seats the learner against the tutorial's bots, sends
the learner (and nobody else) the lessons reached so far, and a restart or an undo gives the same."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from holotable.engine import registry

if TYPE_CHECKING:  # only for the annotations: another folder's conftest may be the one imported
    from conftest import Harness, OpenServer


def _start(srv: Harness, game: str = "captain-black", **body: Any) -> dict[str, Any]:
    response = srv.client.post(f"/api/tutorials/{game}", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def test_the_lobby_says_which_games_have_a_tutorial(server: Harness) -> None:
    games = {g["name"]: g for g in server.client.get("/api/games").json()}
    assert all(g["tutorial"] for g in games.values())


def test_a_tutorial_table_teaches_its_learner_only(server: Harness) -> None:
    made = _start(server, name="Ada")
    table_id, token = made["table_id"], made["you"]["token"]
    tutorial = registry.offered("captain-black", "tutorial")
    assert made["you"]["seat"] == tutorial.human
    mine = server.state(table_id, token)
    assert mine["status"] == "running" and mine["seats"][0]["name"] == "Ada"
    assert [s["kind"] for s in mine["seats"]] == ["human", "bot"]
    assert mine["seats"][1]["level"] == tutorial.bots
    lessons = mine["tutorial"]
    assert lessons["title"] == tutorial.title and lessons["count"] == len(tutorial.lessons)
    assert [lesson["say"] for lesson in lessons["lessons"]] == [tutorial.lessons[0].say]
    assert lessons["lessons"][0]["try"] == "draw 2" and lessons["outro"] == ""
    assert "tutorial" not in server.state(table_id)  # a spectator is not taught
    # The table is made from the tutorial's scenario: its seed and parameters.
    record = server.live(table_id).record
    assert record.tutorial and record.seed == tutorial.scenario.seed
    # The learner's move reaches the next lesson once the bot has answered it.
    assert server.act(table_id, token, "draw 2", mine["ply"]).status_code == 200
    server.wait_for(lambda: 0 in server.state(table_id)["to_move"], what="the bot's move")
    after = server.state(table_id, token)["tutorial"]
    assert len(after["lessons"]) == 2 and after["new_from"] == 1


def test_a_game_without_a_tutorial_or_no_game_is_a_404(server: Harness) -> None:
    assert server.client.post("/api/tutorials/no-such-game").status_code == 404
    assert server.client.post("/api/tutorials/captain-black", json={"name": ""}).status_code == 422


def test_a_restart_keeps_the_lessons(open_server: OpenServer, sqlite_url: str) -> None:
    with open_server(sqlite_url) as srv:
        made = _start(srv)
        table_id, token = made["table_id"], made["you"]["token"]
        for _ in range(3):
            srv.wait_for(lambda: 0 in srv.state(table_id)["to_move"], what="the learner's turn")
            srv.act(table_id, token, "draw 1", srv.state(table_id)["ply"])
        srv.wait_for(lambda: 0 in srv.state(table_id)["to_move"], what="the learner's turn")
        before = srv.state(table_id, token)["tutorial"]
        assert len(before["lessons"]) >= 2
    with open_server(sqlite_url) as srv:
        assert srv.state(table_id, token)["tutorial"]["lessons"] == before["lessons"]


def test_a_table_rebuilt_with_fewer_moves_has_the_lessons_those_moves_reach(server: Harness) -> None:
    # An undo rebuilds the table from the moves that remain (TableManager.rebuild): the lessons follow.
    made = _start(server)
    table_id, token = made["table_id"], made["you"]["token"]
    for _ in range(6):
        server.wait_for(lambda: 0 in server.state(table_id)["to_move"], what="the learner's turn")
        server.act(table_id, token, "draw 3", server.state(table_id)["ply"])
    server.wait_for(lambda: 0 in server.state(table_id)["to_move"], what="the learner's turn")
    live = server.live(table_id)
    tutorial = registry.offered("captain-black", "tutorial")
    for keep in (0, 1, 4, len(live.actions)):
        rebuilt = server.manager.rebuild(live.record, live.seats, live.actions[:keep], resume=False)
        st = tutorial.scenario.start(record=True)
        reached, since = tutorial.advance(0, st, -1), st.ply
        for action in live.actions[:keep]:
            st.apply(action.action, action.seat)
            reached, since = tutorial.advance(reached, st, since), st.ply
        lessons = rebuilt.tutorial_for(tutorial.human)
        assert lessons is not None and len(lessons["lessons"]) == reached
    assert len(server.state(table_id, token)["tutorial"]["lessons"]) == reached
