"""CB-INV-16 (and CB-DRAW-01): blind draws are uniform samples without replacement.

The number of black coins in a draw of k from G gold and B black must follow the hypergeometric
law: P(x black) = C(B, x) C(G, k - x) / C(G + B, k); in particular P(all gold) = C(G, k) / C(G + B, k).
The samples come from a fixed seed, so the test is deterministic; the tolerance is 6 standard
errors, far outside seed noise, yet a sampler with replacement or an off-by-one is caught (the
last test proves that the same check rejects a biased sampler).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from math import comb, sqrt

import pytest

from holotable.engine import Rng
from holotable.games.captain_black import draw_black

SAMPLES = 20_000
TOLERANCE_SE = 6.0
CASES = [(42, 8, 1), (42, 8, 3), (42, 8, 6), (20, 5, 4), (10, 8, 6), (3, 7, 2), (0, 4, 2)]

Sampler = Callable[[Rng, int, int, int], int]


def hypergeometric(gold: int, black: int, k: int, x: int) -> float:
    return comb(black, x) * comb(gold, k - x) / comb(gold + black, k)


def worst_deviation(sampler: Sampler, gold: int, black: int, k: int, seed: int = 16) -> float:
    """The largest |observed - expected| over all black counts, in standard errors."""
    rng = Rng(seed)
    counts = Counter(sampler(rng, gold, black, k) for _ in range(SAMPLES))
    worst = 0.0
    for x in range(0, k + 1):
        p = hypergeometric(gold, black, k, x)
        observed = counts.get(x, 0) / SAMPLES
        if p in (0.0, 1.0):
            if observed != p:
                return float("inf")
            continue
        worst = max(worst, abs(observed - p) / sqrt(p * (1 - p) / SAMPLES))
    return worst


@pytest.mark.parametrize(("gold", "black", "k"), CASES)
def test_CB_INV_16_CB_DRAW_01_black_counts_follow_the_hypergeometric_law(gold: int, black: int, k: int) -> None:
    assert worst_deviation(draw_black, gold, black, k) < TOLERANCE_SE


def test_CB_INV_16_all_gold_rate_is_C_G_k_over_C_GB_k() -> None:
    gold, black, k = 42, 8, 5
    rng = Rng(2)
    all_gold = sum(1 for _ in range(SAMPLES) if draw_black(rng, gold, black, k) == 0) / SAMPLES
    p = comb(gold, k) / comb(gold + black, k)
    assert abs(all_gold - p) < TOLERANCE_SE * sqrt(p * (1 - p) / SAMPLES)


def test_CB_INV_16_certain_draws() -> None:
    rng = Rng(0)
    assert draw_black(rng, 42, 0, 10) == 0  # no black coin in the bag
    assert draw_black(rng, 42, 8, 50) == 8  # the whole bag
    assert all(draw_black(rng, 3, 5, 6) >= 3 for _ in range(200))  # only 3 gold to fill 6 places


def _with_replacement(rng: Rng, gold: int, black: int, k: int) -> int:
    return sum(1 for _ in range(k) if rng.random() < black / (gold + black))


def _one_black_short(rng: Rng, gold: int, black: int, k: int) -> int:
    return draw_black(rng, gold + 1, max(black - 1, 0), k)


@pytest.mark.parametrize("biased", [_with_replacement, _one_black_short])
def test_CB_INV_16_the_check_rejects_a_biased_sampler(biased: Sampler) -> None:
    assert worst_deviation(biased, 10, 8, 6) > TOLERANCE_SE
