"""How Black Hole Council's heuristic bot bargains: interest, what the talk says, and the Proposal plan.

* **Interest.** A table's worth to the bot *relative to the others*: its own round value (see
  :func:`~holotable.games.council.bot_inference.step_value`) minus a weighted mean of what the others
  expect to gain on it under the bot's beliefs over their Agendas. The game is won by rank, so a
  step the Leader takes from a table that gives the bot only its salary is a loss to it.
* **Proposal 3.** A failed third vote gives nobody points and only Pass voters a coin
  (BHC-FAIL3-02/03). The bot passes it when the table's interest is at least that of writing the
  round off; it takes the other voters to decide as it does (a Fail majority needs them), so a
  table arranged to give the voters little and the Leader much is failed.
* **Signals.** Every pledge (``support``/``oppose``, ``pledge pass|fail if ...``), suggestion
  and request in ``view["talk"]`` says how that seat is likely to vote on an arrangement; an open
  offer says the offerer will pass the arrangement it asked for. A Leader folds them into the
  Pass chances of its plan (:class:`Plan`), so what is said changes the table it builds.
* **Plan.** For the Leader, every one of the 120 arrangements of the table with, per voter, a
  Pass chance and an expected gain, computed once per Proposal (and per pending bribe); the
  signals only override single entries, so re-planning on new talk is cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import actions as A
from .bot_inference import (
    BETA,
    PERMS,
    THRESHOLD,
    _leader_likelihood,
    _sigmoid,
    approval_chance,
    points_all,
    step_value,
)
from .data import OUTCOMES, CouncilData

#: Weight of the others' mean gain in the Leader's interest (its plan and its answers).
LEAD_WEIGHT = 0.5
#: Weight of the others' mean gain in a Proposal 1-2 vote (the round goes on if it fails).
VOTE_WEIGHT = 0.3
#: Weight of the others' mean value in a Proposal 3 vote (a failed round gives nobody points).
P3_WEIGHT = 1.0
#: How far a Pass on Proposal 3 may fall short of writing the round off. 0: the Pass voter's coin on a
#: failed vote is matched by the Pass voters' coins around it; 0.25 let 27% of the benchmark's exploit
#: tables through against 12% with 0, at the same strength.
P3_SLACK = 0.0
#: How strongly a Leader is taken to have arranged the current table for itself (its points,
#: capped at 5, in a soft-max over the table's 120 arrangements).
LEADER_LAMBDA = 0.7
#: The Pass chance read from a pledge (non-binding, so not certain), a suggestion and an open offer.
PLEDGE_TRUST, SUGGEST_TRUST, OFFER_TRUST = 0.85, 0.7, 0.9
VOTE_SIGNALS = frozenset({A.SUPPORT, A.OPPOSE, A.PLEDGE})
WANT_SIGNALS = frozenset({A.SUGGEST, A.SUGGEST_TABLE})

Table = tuple[str, ...]


def terms(view: dict[str, Any], seat: int) -> tuple[int, int, bool]:
    """A seat's step cost, Bank and whether it is on the last space."""
    pos = view["positions"][seat]
    costs = view["track_costs"]
    at_end = pos > len(costs)
    return (0 if at_end else costs[pos - 1]), view["banks"][seat], at_end


def expected_value(weights: Sequence[float], table: Sequence[str], term: tuple[int, int, bool],
                   data: CouncilData) -> float:
    """A seat's expected round value (in coins) on ``table`` under ``weights`` over its Agenda."""
    pts = points_all(table, data)
    cost, bank, at_end = term
    return sum(w * step_value(pts[a], cost, bank, at_end) for a, w in enumerate(weights) if w)


def arranged_for(table: Sequence[str], data: CouncilData) -> tuple[float, ...]:
    """P(a Leader chose ``table`` among its 120 arrangements | Agenda), up to a constant: a soft-max of
    its points (capped at 5) with :data:`LEADER_LAMBDA` (the inference's likelihood, sharper)."""
    return _leader_likelihood(table, data, LEADER_LAMBDA)


def leader_weights(view: dict[str, Any], post: dict[int, list[float]], data: CouncilData) -> list[float]:
    """The bot's beliefs over the Leader's Agenda, sharpened by the arrangement it is proposing now."""
    base = post[view["leader"]]
    like = arranged_for(table_ids(view["table"]), data)
    out = [w * like[a] for a, w in enumerate(base)]
    total = sum(out)
    return [w / total for w in out] if total > 0 else list(base)


def table_ids(table: dict[str, Any] | None) -> list[str]:
    return [table[o]["id"] for o in OUTCOMES] if table else []


def others_mean(view: dict[str, Any], table: Sequence[str], post: dict[int, list[float]], data: CouncilData,
                *, leader: list[float] | None = None) -> float:
    """The mean over the other seats of their expected round value on ``table`` (the Leader's from
    ``leader`` when given)."""
    me, n = view["seat"], view["players"]
    total = 0.0
    for s in range(n):
        if s == me:
            continue
        weights = leader if leader is not None and s == view["leader"] else post[s]
        total += expected_value(weights, table, terms(view, s), data)
    return total / (len(view["positions"]) - 1)


def p3_passes(view: dict[str, Any], mine: float, post: dict[int, list[float]], data: CouncilData) -> bool:
    """Proposal 3: Pass when the table's interest (``mine``, the bot's value with its bribes, minus
    :data:`P3_WEIGHT` x the others' mean value) is at least that of a written-off round, where nobody
    gains (less :data:`P3_SLACK`), BHC-FAIL3-02/03."""
    table = table_ids(view["table"])
    theirs = others_mean(view, table, post, data, leader=leader_weights(view, post, data))
    return mine - P3_WEIGHT * theirs >= -P3_SLACK


def describe(want: Sequence[str], now: Sequence[str]) -> str:
    """A change in plain words: "swap Mine and Conquer" for one swap, else "that arrangement"."""
    diff = [i for i in range(5) if want[i] != now[i]]
    if len(diff) == 2:
        return f"swap {said(diff[0])} and {said(diff[1])}"
    return "that arrangement" if diff else "this table"


def said(outcome: int) -> str:
    return OUTCOMES[outcome].replace("_", " ").title()


def signals(view: dict[str, Any]) -> tuple[dict[int, dict[Table, float]], dict[int, Table], dict[int, int]]:
    """What this Proposal's talk says: per seat, a Pass chance per arrangement it spoke of (the latest
    word wins; pledges over suggestions), the arrangement it last asked for, and the coins it last asked
    the Leader for. The Leader's own words are left out."""
    chances: dict[int, dict[Table, float]] = {}
    wants: dict[int, Table] = {}
    asks: dict[int, int] = {}
    for rec in view["talk"]:
        s = rec["seat"]
        if s == view["leader"]:
            continue
        kind = rec["kind"]
        if kind in VOTE_SIGNALS:
            arr = tuple(rec["wants"])
            chances.setdefault(s, {})[arr] = PLEDGE_TRUST if rec["vote"] == "pass" else 1 - PLEDGE_TRUST
            if rec["vote"] == "pass" and kind == A.PLEDGE and arr != tuple(rec["table"]):
                wants[s] = arr  # "I pass if you swap ...": a request as well as a pledge
        elif kind in WANT_SIGNALS:
            arr = tuple(rec["wants"])
            seat = chances.setdefault(s, {})
            seat[arr] = max(seat.get(arr, 0.0), SUGGEST_TRUST)
            wants[s] = arr
        elif kind == A.ASK:
            asks[s] = rec["coins"]
    return chances, wants, asks


class Plan:
    """A Leader's view of one Proposal: the 120 arrangements of the table with the bot's value,
    and per voter a Pass chance and expected gain over the salary (from the bot's beliefs)."""

    __slots__ = ("arrangements", "chances", "extras", "fail", "gains", "index", "interest", "need", "post",
                 "terms", "value", "voters")

    def __init__(self, view: dict[str, Any], table: Sequence[str], post: dict[int, list[float]],
                 value_of: Any, data: CouncilData) -> None:
        me, n = view["seat"], view["players"]
        self.post = post
        self.voters = [s for s in range(n) if s != me]
        self.need = (n - 1) // 2 + 1
        self.fail = 1.0 if view["proposal"] < 3 else 0.0  # FAIL_VALUE; nothing after a third failure
        self.terms = {s: terms(view, s) for s in self.voters}
        self.arrangements: list[Table] = [tuple(table[i] for i in perm) for perm in PERMS]
        self.index = {arr: k for k, arr in enumerate(self.arrangements)}
        self.value = [value_of(arr) for arr in self.arrangements]
        self.chances: dict[int, list[float]] = {}
        self.extras: dict[int, float] = {}
        self.gains: dict[int, list[float]] = {}
        for s in self.voters:
            self._voter(s, float(view["pending"][s]), data)
        self.interest = [self.value[k] - LEAD_WEIGHT * sum(self.gains[s][k] for s in self.voters) / len(self.voters)
                         for k in range(len(self.arrangements))]

    def _voter(self, s: int, extra: float, data: CouncilData) -> None:
        """Voter ``s``'s Pass chance (with ``extra`` coins pending) and gain on every arrangement.

        Both depend on an Agenda only through its points, so they are looked up in small tables by
        points (a few distinct values) rather than recomputed for each of the 20 Agendas."""
        cost, bank, at_end = self.terms[s]
        agendas = [a for a, w in enumerate(self.post[s]) if w]
        weights = [self.post[s][a] for a in agendas]
        self.chances[s] = self._averaged(agendas, weights, data,
                                         lambda p: _sigmoid(BETA * (min(p, cost) + extra - THRESHOLD)))
        self.extras[s] = extra
        if s not in self.gains:
            self.gains[s] = self._averaged(agendas, weights, data, lambda p: step_value(p, cost, bank, at_end) - 1.0)

    def _averaged(self, agendas: list[int], weights: list[float], data: CouncilData,
                  of_points: Callable[[int], float]) -> list[float]:
        """For every arrangement, the ``weights``-average over ``agendas`` of ``of_points(points)``,
        each distinct points value computed once."""
        memo: dict[int, float] = {}
        out = []
        for arr in self.arrangements:
            pts = points_all(arr, data)
            total = 0.0
            for a, w in zip(agendas, weights, strict=True):
                p = pts[a]
                v = memo.get(p)
                if v is None:
                    v = memo[p] = of_points(p)
                total += w * v
            out.append(total)
        return out

    def update_pending(self, view: dict[str, Any], data: CouncilData) -> None:
        """Bribes change the voters' Pass chances (their pending coins); recompute only those."""
        for s in self.voters:
            if self.extras[s] != float(view["pending"][s]):
                self._voter(s, float(view["pending"][s]), data)

    def chance(self, s: int, k: int, told: dict[int, dict[Table, float]]) -> float:
        """Voter ``s``'s Pass chance on arrangement ``k``: what it said of it (a Pass pledge never lowers
        the beliefs' chance, a Fail pledge never raises it), else the beliefs."""
        base = self.chances[s][k]
        word = told.get(s, {}).get(self.arrangements[k])
        if word is None:
            return base
        return max(word, base) if word >= 0.5 else min(word, base)

    def approval(self, k: int, told: dict[int, dict[Table, float]], boost: dict[int, float] | None = None) -> float:
        chances = []
        for s in self.voters:
            c = self.chance(s, k, told)
            if boost and s in boost:
                c = max(c, boost[s])
            chances.append(c)
        return approval_chance(chances, self.need)

    def score(self, k: int, told: dict[int, dict[Table, float]], *, coin: float = 0.0,
              boost: dict[int, float] | None = None) -> float:
        """Expected interest of putting arrangement ``k`` to the vote (``coin``: an accepted offer, paid
        only if it is approved)."""
        p = self.approval(k, told, boost)
        return float(p * (self.interest[k] + coin) + (1 - p) * self.fail)

    def best(self, told: dict[int, dict[Table, float]], now: Sequence[str]) -> tuple[float, int]:
        """The best arrangement's score and index (fewer moved planets first on a tie)."""
        best: tuple[float, int, int] | None = None
        for k, arr in enumerate(self.arrangements):
            moved = sum(1 for i in range(5) if arr[i] != now[i])
            cand = (self.score(k, told), -moved, -k)
            if best is None or cand > best:
                best = cand
        assert best is not None
        return best[0], -best[2]
