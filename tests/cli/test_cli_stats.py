"""Wilson intervals and t-based means against published values, plus invariants."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holotable.sim.stats import mean_ci, t_critical, wilson_interval


@pytest.mark.parametrize(
    ("successes", "n", "lo", "hi"),
    [  # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombe(successes, n, lo, hi):
    got = wilson_interval(successes, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_at_99_percent_is_wider():
    lo95, hi95 = wilson_interval(30, 100)
    lo99, hi99 = wilson_interval(30, 100, confidence=0.99)
    assert lo99 < lo95 and hi99 > hi95


@given(n=st.integers(1, 5000), data=st.data())
def test_wilson_contains_the_estimate_and_stays_in_0_1(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = wilson_interval(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    # symmetric: k failures mirror k successes
    lo2, hi2 = wilson_interval(n - k, n)
    assert lo2 == pytest.approx(1 - hi, abs=1e-12) and hi2 == pytest.approx(1 - lo, abs=1e-12)


def test_wilson_rejects_impossible_counts():
    with pytest.raises(ValueError):
        wilson_interval(5, 4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("df", "expected"),  # two-sided 95% critical values from standard t tables
    [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706), (10, 2.2281), (30, 2.0423), (120, 1.9799),
     (200, 1.9719), (1000, 1.9623)],
)
def test_t_critical_matches_tables(df, expected):
    assert t_critical(df) == pytest.approx(expected, abs=1e-4)


def test_t_critical_other_confidence():
    assert t_critical(5, 0.99) == pytest.approx(4.0321, abs=1e-4)
    assert t_critical(10**6) == pytest.approx(statistics.NormalDist().inv_cdf(0.975), abs=1e-5)


@given(df=st.integers(1, 400))
def test_t_critical_decreases_towards_the_normal_value(df):
    z = statistics.NormalDist().inv_cdf(0.975)
    assert z < t_critical(df + 1) < t_critical(df)


def test_mean_ci_of_a_known_sample():
    m = mean_ci([1.0, 2.0, 3.0, 4.0])  # R: t.test(1:4) gives 0.4457397 4.5542603
    assert (m.mean, m.lo, m.hi) == pytest.approx((2.5, 0.4457397, 4.5542603), abs=1e-6)
    assert m.sd == pytest.approx(statistics.stdev([1, 2, 3, 4]))


@given(st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=200))
def test_mean_ci_brackets_the_mean(values):
    m = mean_ci(values)
    assert m.lo <= m.mean <= m.hi
    assert m.mean == pytest.approx(statistics.fmean(values), abs=1e-6)


def test_mean_ci_edge_cases():
    assert math.isnan(mean_ci([]).mean)
    one = mean_ci([3.0])
    assert (one.mean, one.lo, one.hi) == (3.0, 3.0, 3.0)
