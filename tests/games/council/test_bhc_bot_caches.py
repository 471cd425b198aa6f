"""The heuristic bot's caches are bounded and never change a result: a cached table's points and
the Leader's likelihoods equal a fresh computation, however many tables and data objects pass."""

from __future__ import annotations

import copy
import itertools

import pytest

from holotable.games.council import bots
from holotable.games.council.data import load_default
from holotable.games.council.scoring import round_points

DATA = load_default()
IDS = [p.id for p in DATA.planets[:6]]
TABLES = [list(t) for t in itertools.permutations(IDS, 5)][:60]


def test_points_stay_right_when_the_cache_is_cleared_at_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots._Memo, "POINTS_MAX", 10)
    data = copy.copy(DATA)  # its own caches, empty
    for table in TABLES * 2:
        assert bots.points_all(table, data) == tuple(round_points(data, a, tuple(table)) for a in data.agendas)
        assert len(bots._memo(data).points) <= 11


def test_leader_likelihoods_stay_right_when_their_cache_is_cleared(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = {tuple(t): bots._leader_likelihood(t, copy.copy(DATA)) for t in TABLES[:8]}
    monkeypatch.setattr(bots._Memo, "LEADER_MAX", 2)
    data = copy.copy(DATA)
    for table in TABLES[:8] * 2:
        assert bots._leader_likelihood(table, data) == fresh[tuple(table)]
        assert len(bots._memo(data).leader) <= 3


def test_only_the_last_few_data_objects_keep_caches() -> None:
    copies = [copy.copy(DATA) for _ in range(3 * bots._MEMOS_MAX)]
    expected = bots.points_all(TABLES[0], DATA)
    for data in copies:
        assert bots.points_all(TABLES[0], data) == expected
    kept = [memo.data for memo in bots._MEMOS.values()]
    assert len(kept) == bots._MEMOS_MAX
    assert all(a is b for a, b in zip(kept, copies[-bots._MEMOS_MAX:], strict=True))  # the oldest went first
