"""Small, dependency-free statistics for simulation reports.

Win rates get a Wilson score interval (well behaved near 0 and 1 and for small
samples, unlike the normal approximation); means get a Student-t interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

#: Above this many degrees of freedom the t quantile comes from a series around
#: the normal quantile, which is accurate to far better than the digits we print.
_EXACT_T_MAX_DF = 200


def _z(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion ``successes / n``.

    >>> lo, hi = wilson_interval(8, 10)
    >>> round(lo, 4), round(hi, 4)
    (0.4902, 0.9433)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return (0.0, 1.0)
    z = _z(confidence)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At 0/n and n/n the interval touches 0 or 1 exactly; rounding would leave dust there.
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def _t_two_sided_mass(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with integer ``df`` (Abramowitz & Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    s = math.sin(theta)
    if df % 2 == 1:
        total, term = 0.0, 1.0
        if df > 1:
            total = term
            for k in range(3, df - 1, 2):  # terms (2*4*..*(k-1)) / (1*3*..*k) cos^(k-1)
                term *= c2 * (k - 1) / k
                total += term
            total *= s * math.cos(theta)
        return (2.0 / math.pi) * (theta + total)
    total, term = 1.0, 1.0
    for k in range(2, df - 1, 2):  # terms (1*3*..*(k-1)) / (2*4*..*k) cos^k
        term *= c2 * (k - 1) / k
        total += term
    return s * total


def t_critical(df: int, confidence: float = 0.95) -> float:
    """The two-sided critical value of Student's t: P(|T| < t) = ``confidence``.

    >>> round(t_critical(1), 3), round(t_critical(10), 3), round(t_critical(1000), 3)
    (12.706, 2.228, 1.962)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    z = _z(confidence)
    if df > _EXACT_T_MAX_DF:
        # Cornish-Fisher expansion of the t quantile in powers of 1/df.
        z3, z5, z7 = z**3, z**5, z**7
        return (
            z
            + (z3 + z) / (4 * df)
            + (5 * z5 + 16 * z3 + 3 * z) / (96 * df**2)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df**3)
        )
    lo, hi = 0.0, 1.0
    while _t_two_sided_mass(hi, df) < confidence:
        hi *= 2.0
    for _ in range(100):  # bisection to double precision
        mid = (lo + hi) / 2.0
        if _t_two_sided_mass(mid, df) < confidence:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


@dataclass(frozen=True)
class MeanCI:
    """A sample mean with its confidence interval (``lo == hi == mean`` for one value)."""

    mean: float
    lo: float
    hi: float
    n: int
    sd: float

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2.0

    def to_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "lo": self.lo, "hi": self.hi, "n": self.n, "sd": self.sd}


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> MeanCI:
    """Mean of ``values`` with a Student-t confidence interval.

    >>> m = mean_ci([1.0, 2.0, 3.0, 4.0])
    >>> m.mean, round(m.lo, 4), round(m.hi, 4)
    (2.5, 0.4457, 4.5543)
    """
    n = len(values)
    if n == 0:
        return MeanCI(math.nan, math.nan, math.nan, 0, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return MeanCI(mean, mean, mean, 1, 0.0)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_critical(n - 1, confidence) * sd / math.sqrt(n)
    return MeanCI(mean, mean - half, mean + half, n, sd)
