"""Search bots thinking on Ray (``holotable serve --bots ray``): a real Ray started once for the module
(2 CPUs, no dashboard), real ISMCTS searches in its workers. They choose what the local worker processes
choose, a search out of time is cancelled on the cluster, and the quick bots still think in threads.
Skips without Ray locally; fails under CI, where the ``dev`` extra installs it."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from holotable.cli import app as cli_app
from holotable.cli import serve as serve_cli
from holotable.engine import Game, Match, State, derive_seed, load
from holotable.server import create_app
from holotable.server.bots import BotPool, build_agent, think_in_process
from support.services import in_ci

#: A search with a fixed amount of work: its choice depends on its seed only, never on the clock.
SEARCH = "ismcts:iterations=50:time_limit=10"


@pytest.fixture(scope="module")
def ray_pool() -> Iterator[Any]:
    """One Ray for the whole module, started (and at the end shut down) by a pool of its own; the other
    pools made meanwhile (the servers' among them) join it."""
    if importlib.util.find_spec("ray") is None:
        reason = "Ray is not installed (pip install -e '.[dev]' or '.[cluster]')"
        if in_ci():
            pytest.fail(f"{reason}; CI must run the Ray bot tests", pytrace=False)
        pytest.skip(reason)
    import ray

    from holotable.server.ray_bots import RayBotPool

    if ray.is_initialized():
        pytest.fail("a Ray is already running in this test process", pytrace=False)
    pool = RayBotPool(2)
    try:
        yield pool
    finally:
        pool.close()
        assert not ray.is_initialized()  # the pool started this Ray, so it shut it down


def _position(seed: int = 7) -> tuple[Game[Any, Any], State[Any, Any], int]:
    """Captain Black's opening for 2 players: the seat to move has 50 choices (``draw 1`` … ``draw 50``)."""
    game = load("captain-black")
    state = State.new(game, game.spec.make_config(2), seed)
    return game, state, state.to_move()[0]


def test_a_seeded_search_is_deterministic() -> None:
    """What makes "the same results" checkable: the same seed chooses the same, another seed may not."""
    _game, state, seat = _position()
    choices = [think_in_process(SEARCH, seed, state, seat) for seed in (1, 1, 2, 3, 4)]
    assert choices[0] == choices[1]
    assert len(set(choices)) > 1


def test_ray_and_local_processes_choose_the_same(ray_pool: Any) -> None:
    game, state, seat = _position()
    agent = build_agent(game, SEARCH, 7, seat)
    local = BotPool(2)

    async def both(seed: int) -> tuple[str, str]:
        on_ray = await ray_pool.think(agent, SEARCH, seed, state, seat, 60)
        here = await local.think(agent, SEARCH, seed, state, seat, 60)
        return on_ray, here

    try:
        pairs = [asyncio.run(both(seed)) for seed in (1, 2, 3, 4)]
    finally:
        local.close()
    assert all(on_ray == here for on_ray, here in pairs), pairs
    assert len({on_ray for on_ray, _ in pairs}) > 1  # the seeds mattered
    assert not ray_pool.tasks and ray_pool._processes is None  # it never used worker processes


def test_a_table_with_a_search_bot_on_ray_plays_on(ray_pool: Any, open_server: Any, sqlite_url: str,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    import ray

    from holotable.server.ray_bots import RayBotPool

    caplog.set_level(logging.WARNING, logger="holotable.server")
    with open_server(sqlite_url, bots="ray") as srv:
        pool = srv.manager.pool
        assert isinstance(pool, RayBotPool) and pool is not ray_pool
        created = srv.create("captain-black", [{"kind": "human"}, {"kind": "bot", "agent": SEARCH},
                                               {"kind": "bot", "level": "easy"}], params={"start_seat": 0})
        table_id, token = created["table_id"], created["you"]["token"]
        public = srv.play_until(table_id, {0: token}, lambda p: p["ply"] >= 7)
        live = srv.live(table_id)
        assert public["status"] == "finished" or public["ply"] >= 7
        searched = [(i, a) for i, a in enumerate(live.actions) if a.seat == 1]
        assert len(searched) >= 2 and {a.source for _i, a in searched} == {"bot"}
        match = Match(live.game, live.config, live.record.seed, [(a.seat, a.action) for a in live.actions])
        assert pool._processes is None  # the searches ran on Ray, not in worker processes
    assert ray.is_initialized()  # that server joined the module's Ray: its stop left Ray running
    assert not any("thinking in a thread instead" in r.getMessage() for r in caplog.records)
    # Each search chose what a worker process, given the same seed and position, chooses.
    for index, action in searched:
        before = match.state_at(index)
        seed = derive_seed(live.record.seed, "bot", 1, before.opened_ply)
        assert action.action == think_in_process(SEARCH, seed, before, 1)


def test_a_snapshot_ray_cannot_send_is_thought_in_a_thread(ray_pool: Any, caplog: pytest.LogCaptureFixture) -> None:
    game, state, seat = _position()
    snapshot = state.clone(keep_events=False)
    snapshot.events = [threading.Lock()]  # no pickler sends a lock; the agent never looks at it
    agent = build_agent(game, SEARCH, 7, seat)
    caplog.set_level(logging.WARNING, logger="holotable.server")
    action = asyncio.run(ray_pool.think(agent, SEARCH, 1, snapshot, seat, 60))
    assert action in state.legal_actions(seat)  # the agent itself answered, in a thread: an action, not text
    assert any("thinking in a thread instead" in r.getMessage() for r in caplog.records)
    assert not ray_pool.tasks


def test_the_app_and_the_command_line_pick_the_pool(ray_pool: Any, monkeypatch: pytest.MonkeyPatch,
                                                    sqlite_url: str) -> None:
    from holotable.server.ray_bots import RayBotPool

    with pytest.raises(ValueError, match="not 'cloud'"):
        create_app(sqlite_url, bots="cloud")
    with pytest.raises(ValueError, match="use it with bots='ray'"):
        create_app(sqlite_url, ray_address="127.0.0.1:6379")

    runner = CliRunner()
    shown = runner.invoke(cli_app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "--bots" in shown.output and "--address" in shown.output
    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.update(app=app))
    result = runner.invoke(cli_app, ["serve", "--database", sqlite_url, "--bots", "ray"])
    assert result.exit_code == 0, result.output
    pool = ran["app"].state.manager.pool
    assert isinstance(pool, RayBotPool)
    pool.close()  # its server never ran (uvicorn.run was replaced), so nothing else closes it

    refused = runner.invoke(cli_app, ["serve", "--database", sqlite_url, "--address", "127.0.0.1:6379"])
    assert refused.exit_code == 2 and "use it with --bots ray" in refused.output

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(serve_cli.importlib.util, "find_spec",
                        lambda name, *args: None if name == "ray" else real_find_spec(name, *args))
    missing = runner.invoke(cli_app, ["serve", "--database", sqlite_url, "--bots", "ray"])
    assert missing.exit_code == 2 and "needs Ray" in missing.output


def test_a_search_out_of_time_is_cancelled_on_ray(ray_pool: Any) -> None:
    """Last in the module: the forced cancel ends the Ray worker that ran the search."""
    import ray

    game, state, seat = _position()
    endless = "ismcts:iterations=100000000:time_limit=10"
    agent = build_agent(game, endless, 7, seat)

    async def run() -> Any:
        thinking = asyncio.create_task(ray_pool.think(agent, endless, 1, state, seat, 0.3))
        for _ in range(10_000):  # until the task is on the cluster (a few turns of the event loop)
            if ray_pool.tasks or thinking.done():
                break
            await asyncio.sleep(0)
        refs = set(ray_pool.tasks)
        with pytest.raises(TimeoutError):
            await thinking
        return refs

    refs = asyncio.run(run())
    assert len(refs) == 1 and not ray_pool.tasks
    with pytest.raises((ray.exceptions.TaskCancelledError, ray.exceptions.WorkerCrashedError)):
        ray.get(refs.pop(), timeout=30)
