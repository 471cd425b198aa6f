"""The period tracker (holotable.engine.periods): fed the game's period and the time, it never reads
a clock; the contract's timed-play hooks default to "no timed phases"."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import holotable
from holotable.engine import Game, Period, PeriodTracker

#: A run of (period key or None, seconds it lasts, time that passes before the next sync).
STEPS = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(0, 3)), st.integers(1, 300), st.integers(0, 400)),
    max_size=30,
)


@given(STEPS)
def test_the_deadline_is_the_start_of_the_current_key_plus_its_length(steps: list[tuple[int | None, int, int]]) -> None:
    """The model: a period starts when its key differs from the one before (or none ran before);
    the same key seen again keeps its start even if its length changed."""
    tracker = PeriodTracker()
    now = 0.0
    started: tuple[int, float] | None = None  # (key, start) of the period running in the model
    for key, seconds, pause in steps:
        period = None if key is None else Period(key, float(seconds), "deadline")
        assert tracker.sync(period, now) is period
        if key is None:
            started = None
        elif started is None or started[0] != key:
            started = (key, now)
        if started is None:
            assert tracker.deadline() is None and tracker.left(now) is None and not tracker.over(now + 1e9)
        else:
            deadline = started[1] + seconds
            assert tracker.deadline() == deadline
            assert tracker.left(now) == seconds - (now - started[1])
            assert tracker.over(deadline) and not tracker.over(deadline - 0.5)
        now += pause


def test_clear_makes_the_same_key_start_again() -> None:
    tracker = PeriodTracker()
    period = Period(("proposal", 1), 60.0, "deadline")
    tracker.sync(period, 5.0)
    tracker.clear()
    assert tracker.period is None and tracker.deadline() is None
    tracker.sync(period, 100.0)
    assert tracker.deadline() == 160.0


def test_restart_moves_only_a_running_period() -> None:
    tracker = PeriodTracker()
    tracker.restart(50.0)
    assert tracker.deadline() is None
    tracker.sync(Period("p", 30.0, "deadline"), 10.0)
    tracker.restart(200.0)
    assert tracker.deadline() == 230.0 and not tracker.over(229.0) and tracker.over(230.0)


def test_a_game_without_timed_phases_keeps_the_contracts_defaults() -> None:
    for name in ("buccaneers", "captain-black", "kyrum", "space-pirates"):
        game = holotable.load(name)
        state = game.new_state(seed=3)
        assert type(game).period is Game.period, name
        assert game.period(state) is None
    buccaneers = holotable.load("buccaneers")
    state = buccaneers.new_state(seed=3)
    assert buccaneers.timeout_action(state, state.to_move()[0]) is None
