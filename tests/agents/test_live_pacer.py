"""The pacer of live tables (agents/live.py): a bot is never asked again sooner than its gap after its
own action, is asked at its wake time or at the next change, whichever comes first."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from holotable.agents.live import MIN_GAP, Pacer, PeriodTime

EVENTS = st.lists(st.tuples(st.sampled_from(["act", "wait", "change", "tick"]), st.integers(0, 2),
                            st.floats(0.0, 5.0)), max_size=40)


@settings(max_examples=200, deadline=None)
@given(EVENTS)
def test_a_seat_is_never_due_within_its_gap_and_always_by_its_wake_or_a_change(events: list) -> None:
    pacer = Pacer()
    now = 0.0
    acted: dict[int, float] = {}
    wake: dict[int, float] = {}
    for kind, seat, amount in events:
        now += amount / 10
        if kind == "act" and seat in pacer.due([seat], now):
            pacer.acted(seat, now)
            acted[seat] = now
            wake.pop(seat, None)
        elif kind == "wait":
            pacer.waits(seat, now, amount)
            wake[seat] = now + amount
        elif kind == "change":
            pacer.changed(now)
            wake = {s: min(t, now) for s, t in wake.items()}
        for s in range(3):
            due = s in pacer.due(range(3), now)
            if s in acted and now < acted[s] + MIN_GAP:
                assert not due  # never faster than the gap
            expected = max(wake.get(s, float("-inf")), acted.get(s, float("-inf")) + MIN_GAP)
            assert due == (expected <= now)


def test_period_time_left_and_share() -> None:
    t = PeriodTime(120.0, 30.0)
    assert (t.left, t.share) == (90.0, 0.25)
    assert PeriodTime(120.0, 200.0).left == 0.0 and PeriodTime(0.0, 1.0).share == 1.0
