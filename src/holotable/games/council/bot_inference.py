"""What Black Hole Council's heuristic bot knows and infers: round values, Pass chances, beliefs.

Pure functions of a seat's view and the game's data, shared by the bot (:mod:`.bots`) and its
bargaining (:mod:`.bot_bargaining`); see :mod:`.bots` for how they fit together. The caches here
(:class:`_Memo`) hold pure functions of (data, table), so forgetting them changes no result.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import permutations
from typing import Any

from .data import COLOURS, DEDUCTION_GOALS, OUTCOMES, CouncilData, load_default
from .scoring import round_points

DATA: CouncilData = load_default()
N_AGENDAS = len(DATA.agendas)
BETA = 0.8
THRESHOLD = 1.5
LAMBDA = 0.0
GET_PAID_FREE = 0.05
GET_PAID_PART = 0.2
PAY_EXACT = 8.0
FAIL_VALUE = 1.0
PERMS = tuple(permutations(range(5)))


STEP_BONUS = 0.5


def step_value(points: int, cost: int, bank: int, at_end: bool = False) -> float:
    """What a round with ``points`` is worth in coins (see the module docstring).

    A step is worth half a coin more than the points or coins it saves: later steps cost more.

    >>> step_value(3, 2, 0), step_value(1, 2, 5), step_value(1, 3, 1), step_value(-1, 2, 9)
    (2.5, 1.5, 1.0, 1.0)
    """
    if at_end:
        return 1.0
    if points >= cost:
        return cost + STEP_BONUS
    if points >= 1 and cost - points <= bank:
        return points + STEP_BONUS
    return 1.0


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _table_ids(table: dict[str, Any] | None) -> list[str] | None:
    if not table:
        return None
    return [table[o]["id"] for o in OUTCOMES]


class _Memo:
    """One data object's caches: the points of a table for every Agenda, and the Leader's
    likelihoods by set of planets. Both are pure functions of (data, table), so forgetting them
    changes no result; each is cleared when it grows past its bound."""

    __slots__ = ("data", "leader", "points")

    POINTS_MAX = 50_000
    LEADER_MAX = 5_000

    def __init__(self, data: CouncilData) -> None:
        self.data = data  # held, so that the id it is filed under stays this object's
        self.points: dict[tuple[str, ...], tuple[int, ...]] = {}
        self.leader: dict[tuple[float, frozenset[str]], dict[tuple[str, ...], tuple[float, ...]]] = {}


#: The caches of the last few data objects (the shipped data and a table's overrides), by id.
_MEMOS: dict[int, _Memo] = {}
_MEMOS_MAX = 8


def _memo(data: CouncilData) -> _Memo:
    memo = _MEMOS.get(id(data))
    if memo is None or memo.data is not data:
        if len(_MEMOS) >= _MEMOS_MAX:
            del _MEMOS[next(iter(_MEMOS))]  # the oldest data object's caches go first
        memo = _MEMOS[id(data)] = _Memo(data)
    return memo


def points_all(table: Sequence[str], data: CouncilData = DATA) -> tuple[int, ...]:
    """Points of ``table`` for each of the 20 Agendas (cached; tables repeat a lot); ``data``: the
    game's data with its configuration's overrides."""
    cache = _memo(data).points
    key = tuple(table)
    got = cache.get(key)
    if got is None:
        if len(cache) > _Memo.POINTS_MAX:
            cache.clear()
        got = tuple(round_points(data, agenda, key) for agenda in data.agendas)
        cache[key] = got
    return got


def pass_chance(beliefs: Sequence[float], table: Sequence[str], cost: int, extra: float = 0.0,
                data: CouncilData = DATA) -> float:
    """A voter's chance of voting Pass on ``table`` under ``beliefs`` over its Agenda."""
    pts = points_all(table, data)
    return sum(w * _sigmoid(BETA * (min(pts[a], cost) + extra - THRESHOLD)) for a, w in enumerate(beliefs) if w)


def approval_chance(chances: Sequence[float], need: int) -> float:
    """P(at least ``need`` Pass votes) for independent voters (Poisson-binomial)."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return sum(dist[need:])


def _advance_likelihood(points: int, rec: dict[str, Any]) -> float:
    """How likely an announced Advance is for a player who made ``points`` (0 when impossible)."""
    cost, coins = rec["cost"], rec["coins"]
    if rec["choice"] == "get paid":
        if points >= max(1, cost):
            return GET_PAID_FREE  # a free step turned down
        return GET_PAID_PART if points >= 1 else 1.0
    if points + coins < cost:
        return 0.0  # an announced Advance is always honest (BHC-ADV-08)
    if rec["choice"] == "pay":
        return PAY_EXACT if points == cost - coins else 1.0  # paying just enough is the usual way
    return 1.0


def _leader_likelihood(table: Sequence[str], data: CouncilData = DATA, lam: float = LAMBDA) -> tuple[float, ...]:
    """P(the Leader settled on ``table`` | Agenda), as a soft-max with ``lam`` of its points (capped at 5)
    over the 120 arrangements of its planets; cached per set of planets and ``lam``."""
    groups = _memo(data).leader
    group = groups.setdefault((lam, frozenset(table)), {})
    got = group.get(tuple(table))
    if got is None:
        scores = [[math.exp(lam * min(p, 5)) for p in points_all([table[i] for i in perm], data)]
                  for perm in PERMS]
        totals = [sum(row[a] for row in scores) for a in range(N_AGENDAS)]
        for perm, row in zip(PERMS, scores, strict=True):
            group[tuple(table[i] for i in perm)] = tuple(row[a] / totals[a] * len(PERMS) for a in range(N_AGENDAS))
        got = group[tuple(table)]
    if len(groups) > _Memo.LEADER_MAX:
        groups.clear()
    return got


def beliefs(view: dict[str, Any], data: CouncilData = DATA) -> dict[int, list[float]]:
    """The posterior over Agendas of every other seat, from ``view`` alone (and the game's data)."""
    me = view["seat"]
    n = view["players"]
    mine = data.agenda_ids.index(view["you"]["agenda"]["id"])
    post = {s: [0.0 if a == mine else 1.0 for a in range(N_AGENDAS)] for s in range(n) if s != me}
    sets = {s["round"]: s for s in view["history"]}
    for rec in view["advances"]:
        s = rec["seat"]
        if s == me:
            continue
        found = sets.get(rec["round"])
        if found is not None:
            table, failed = _table_ids(found["planets"]), found["proposal"] - 1
        elif rec["round"] == view["negotiation_round"]:
            table, failed = _table_ids(view["table"]), view["failed"]
        else:
            table, failed = None, 0
        if table is None:
            continue
        kind = None if rec["intrigue"] is None else OUTCOMES.index(rec["intrigue"])
        for a in range(N_AGENDAS):
            if post[s][a]:
                post[s][a] *= _advance_likelihood(round_points(data, data.agendas[a], table, kind, failed), rec)
    for vote in view["votes"]:
        if vote["table"] is None:
            continue
        if vote["leader"] != me:  # a Leader arranges the table to suit their Agenda
            lead = post[vote["leader"]]
            choice = _leader_likelihood(vote["table"], data)
            for a in range(N_AGENDAS):
                lead[a] *= choice[a]
        if vote["proposal"] >= 3:
            continue  # on Proposal 3 Pass pays even if the vote fails, so a Pass says little
        table_points = points_all(vote["table"], data)
        for s, ballot in enumerate(vote["votes"]):
            if ballot is None or s == me:
                continue
            for a in range(N_AGENDAS):
                like = _sigmoid(BETA * (min(table_points[a], 4) - THRESHOLD))
                post[s][a] *= like if ballot == "pass" else 1.0 - like
    for rnd in view["deductions"]:
        for r in rnd:
            if r["guesser"] != me or "colour" not in r:
                continue
            colour = COLOURS.index(r["colour"])
            goals = DEDUCTION_GOALS[r["deduction"] - 1]
            for a in range(N_AGENDAS):
                if (data.agendas[a][colour] in goals) != r["correct"]:
                    post[r["target"]][a] = 0.0
    for s, weights in post.items():
        total = sum(weights)
        post[s] = [w / total for w in weights] if total > 0 else [0.0 if a == mine else 1.0 / (N_AGENDAS - 1)
                                                                      for a in range(N_AGENDAS)]
    return post
