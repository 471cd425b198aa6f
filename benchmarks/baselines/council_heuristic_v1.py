"""A frozen copy of Black Hole Council's heuristic bot before issue 17 (bargaining), used only by
benchmarks/council_bargaining.py as the "previous heuristic" baseline. Do not change it.

The original docstring follows.

The bot reads only its seat's view (BHC-DIG-05). Its pieces:

* **Value of a round.** For points ``p`` on a track step costing ``c`` with ``b`` coins, a round is
  worth, in coins, ``c`` when ``p >= c`` (a free step), ``p`` when the step can be bought with
  ``c - p`` coins (the points save that much), else the 1-coin salary. Its Intrigue card is kept for
  a gain of at least 2 (any gain in the last Negotiation Round); the Tax card pays the Tax planet's
  points on top of the salary.
* **Beliefs.** A posterior over the 20 Agendas for every other seat: announced Advances are hard
  constraints (natural means ``points >= cost``, ``pay c`` means ``points + c >= cost``), as are the
  results of its own Deduction cards; every revealed vote is a soft likelihood
  ``sigmoid(BETA * (value - THRESHOLD))`` for Pass, ``1 -`` that for Fail; Get Paid on a table worth a
  step is mildly unlikely.
* **Voting.** Pass when the table is worth more to it (pending bribes included, an accepted offer
  deducted) than a failed Proposal (about :data:`FAIL_VALUE` for Proposals 1-2; on Proposal 3 a Pass
  vote is paid anyway if the vote fails, so it passes).
* **Leading.** It tries all 120 arrangements of the table, estimating each voter's Pass chance from
  its beliefs, and picks the one with the best ``P(approved) x value + P(failed) x FAIL_VALUE``; it
  then swaps towards it, accepts an offered bribe, gives the Bribe Space's coins to the voters closest
  to indifference, and calls the Vote.
* **Negotiating** (not leading): it suggests the swap that helps it most, pledges support or
  opposition, then says it is done.
* **Deduction.** It guesses the colour (and in D3 the neighbour) most likely to be right under its
  beliefs.

For search agents it has ``ROLLOUT``, a fast rollout (:func:`rollout_move`) that stops at the
end of the current round and is valued by the standings (:func:`standing_value`); see
:mod:`holotable.agents.rollout`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import permutations
from typing import Any

from holotable.agents.base import Agent, Observation
from holotable.agents.rollout import Rollout
from holotable.engine import Game, Rng, State
from holotable.games.council import actions as A
from holotable.games.council.actions import Act
from holotable.games.council.data import COLOURS, DEDUCTION_GOALS, OUTCOMES, TAX, CouncilData, data_for, load_default
from holotable.games.council.scoring import round_points, tax_coins
from holotable.games.council.state import BHCData

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
        self.leader: dict[frozenset[str], dict[tuple[str, ...], tuple[float, ...]]] = {}


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


def _leader_likelihood(table: Sequence[str], data: CouncilData = DATA) -> tuple[float, ...]:
    """P(the Leader settled on ``table`` | Agenda), as a soft-max over the 120 arrangements of its planets."""
    groups = _memo(data).leader
    group = groups.setdefault(frozenset(table), {})
    got = group.get(tuple(table))
    if got is None:
        scores = [[math.exp(LAMBDA * min(p, 5)) for p in points_all([table[i] for i in perm], data)]
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


class CouncilHeuristic(Agent):
    """Votes, leads, advances and deduces on its Agenda's value and Bayesian beliefs about the others."""

    name = "heuristic_v1"

    def __init__(self, game: Game[Any, Any], seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        self.reset()

    def reset(self) -> None:
        self._plan: dict[tuple[int, int], list[str]] = {}
        self._said: dict[tuple[int, int], int] = {}
        self._beliefs: tuple[tuple[int, int, int], dict[int, list[float]]] | None = None
        #: The game's data (with the configuration's overrides), set on every decision.
        self._data: CouncilData = DATA

    # ------------------------------------------------------------------ helpers
    def _post(self, view: dict[str, Any]) -> dict[int, list[float]]:
        key = (len(view["votes"]), len(view["advances"]), len(view["deductions"]))
        if self._beliefs is None or self._beliefs[0] != key:
            self._beliefs = (key, beliefs(view, self._data))
        return self._beliefs[1]

    def _my_value(self, view: dict[str, Any], table: Sequence[str]) -> float:
        data = self._data
        me = view["seat"]
        agenda = data.agendas[data.agenda_ids.index(view["you"]["agenda"]["id"])]
        pos = view["positions"][me]
        costs = view["track_costs"]
        at_end = pos > len(costs)
        cost = 0 if at_end else costs[pos - 1]
        bank = view["banks"][me]
        value = step_value(round_points(data, agenda, table), cost, bank, at_end)
        if not view["you"]["intrigue_played"]:
            kind = OUTCOMES.index(view["you"]["intrigue"])
            with_card = step_value(round_points(data, agenda, table, kind, view["failed"]), cost, bank, at_end)
            if kind == TAX:
                with_card = max(with_card, 1 + tax_coins(data, table))
            if with_card - value >= 2 or (with_card > value and view["negotiation_round"] >= 6):
                value = with_card
        return value

    @staticmethod
    def _cost(view: dict[str, Any], seat: int) -> int:
        pos = view["positions"][seat]
        costs = view["track_costs"]
        return costs[pos - 1] if pos <= len(costs) else 0

    # ------------------------------------------------------------------ decisions
    def act(self, obs: Observation) -> Any:
        view = obs.view
        data = data_for(obs.config)
        if data is not self._data:  # another configuration: beliefs were computed with other numbers
            self._data, self._beliefs = data, None
        legal: Sequence[Act] = obs.legal
        phase = view["phase"]
        if phase == "vote":
            return self._vote(view, legal)
        if phase == "advance":
            return self._advance(view, legal)
        if phase == "deduce":
            return self._guess(view, legal)
        if view["seat"] == view["leader"]:
            return self._lead(view, legal)
        return self._talk(view, legal)

    def _vote(self, view: dict[str, Any], legal: Sequence[Act]) -> Act:
        me = view["seat"]
        if view["proposal"] >= 3:
            return A.VOTE_PASS  # a Pass vote earns a coin if the Proposal fails anyway (BHC-FAIL3-03)
        table = _table_ids(view["table"]) or []
        approve = self._my_value(view, table) + view["pending"][me] - (1 if view["accepted_from"] == me else 0)
        return A.VOTE_PASS if approve >= FAIL_VALUE + 0.5 else A.VOTE_FAIL

    def _advance(self, view: dict[str, Any], legal: Sequence[Act]) -> Act:
        me = view["seat"]
        cost = self._cost(view, me)
        bank = view["banks"][me]
        mine = view["you"]
        table = _table_ids(view["table"]) or []
        options: list[tuple[float, int, Act]] = []
        for play in (False, True):
            if play and mine["intrigue_played"]:
                continue
            pts = mine["points_with_intrigue"] if play else mine["points"]
            # Keep the card for a real gain (always use it in the last Negotiation Round).
            penalty = 0.0 if not play or view["negotiation_round"] >= 6 else 1.5
            salary = 1 + (tax_coins(self._data, table) if play and mine["intrigue"] == "tax" else 0)
            candidates = [(salary - penalty, A.advance(A.PAID, 0, play))]
            if cost and pts >= cost:
                candidates.append((cost + STEP_BONUS - penalty, A.advance(A.NATURAL, 0, play)))
            elif cost and pts >= 1 and cost - pts <= bank:
                candidates.append((pts + STEP_BONUS - penalty, A.advance(A.PAY, cost - pts, play)))
            for value, act in candidates:
                options.append((value, -len(options), act))
        for _value, _, act in sorted(options, key=lambda o: (o[0], o[1]), reverse=True):
            if act in legal:
                return act
        return legal[0]

    def _guess(self, view: dict[str, Any], legal: Sequence[Act]) -> Act:
        me, n = view["seat"], view["players"]
        post = self._post(view)
        number = view["deduction_round"]
        goals = DEDUCTION_GOALS[number - 1]
        best: tuple[float, Act] | None = None
        for act in legal:
            target = (me + 1) % n if act.b == 0 else (me - 1) % n
            chance = sum(w for a, w in enumerate(post[target]) if self._data.agendas[a][act.a] in goals)
            if best is None or chance > best[0] + 1e-12:
                best = (chance, act)
        assert best is not None
        return best[1]

    def _lead(self, view: dict[str, Any], legal: Sequence[Act]) -> Act:
        me, n = view["seat"], view["players"]
        key = (view["negotiation_round"], view["proposal"])
        table = _table_ids(view["table"]) or []
        if key not in self._plan:
            self._plan[key] = self._best_arrangement(view, table)
        target = self._plan[key]
        worth_it = self._my_value(view, target) > FAIL_VALUE or view["proposal"] >= 3
        accepts = [a for a in legal if a.kind == A.ACCEPT]
        if accepts and worth_it:
            return accepts[0]
        for i in range(5):
            if table[i] != target[i]:
                j = table.index(target[i])
                return A.swap(i, j)
        if worth_it and view["bribe_space"] > 0:
            post = self._post(view)
            voters = [s for s in range(n) if s != me and s != view["accepted_from"]]
            if voters:
                marginal = min(voters, key=lambda s: (abs(pass_chance(
                    post[s], target, self._cost(view, s), view["pending"][s], self._data) - 0.5), s))
                act = A.bribe(marginal, 1)
                if act in legal:
                    return act
        return A.CALL_VOTE

    def _best_arrangement(self, view: dict[str, Any], table: list[str]) -> list[str]:
        me, n = view["seat"], view["players"]
        post = self._post(view)
        need = (n - 1) // 2 + 1
        fail_value = FAIL_VALUE if view["proposal"] < 3 else 0.0
        voters = [s for s in range(n) if s != me]
        costs = {s: self._cost(view, s) for s in voters}
        best: tuple[float, int, list[str]] | None = None
        for perm in PERMS:
            arr = [table[i] for i in perm]
            chances = [pass_chance(post[s], arr, costs[s], 0.0, self._data) for s in voters]
            p = approval_chance(chances, need)
            score = p * self._my_value(view, arr) + (1 - p) * fail_value
            moved = sum(1 for i in range(5) if arr[i] != table[i])
            if best is None or (score, -moved) > (best[0], best[1]):
                best = (score, -moved, arr)
        assert best is not None
        return best[2]

    def _talk(self, view: dict[str, Any], legal: Sequence[Act]) -> Act:
        key = (view["negotiation_round"], view["proposal"])
        said = self._said.get(key, 0)
        self._said[key] = said + 1
        table = _table_ids(view["table"]) or []
        if said == 0:
            now = self._my_value(view, table)
            best: tuple[float, Act] | None = None
            for i, j in A.PAIRS:
                swapped = list(table)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                gain = self._my_value(view, swapped) - now
                if gain >= 1 and (best is None or gain > best[0]):
                    best = (gain, A.suggest(i, j))
            if best is not None and best[1] in legal:
                return best[1]
        if said <= 1:
            act = A.SUPPORT_ACT if self._vote(view, legal) == A.VOTE_PASS else A.OPPOSE_ACT
            if act in legal:
                return act
        return A.DONE_ACT if A.DONE_ACT in legal else legal[0]


# ---------------------------------------------------------------------- rollouts for search agents
def rollout_move(st: State[Any, Any], seat: int, rng: Rng) -> Act:
    """A quick, plausible move for rollouts (it may read the whole determinised state, never ``pending``):
    the Leader mostly calls the Vote at once and the others mostly say they are done, so a simulated
    Proposal takes a few moves; votes are random; an Advance takes the step when points or a few coins
    allow, else the salary; guesses are random."""
    d = st.data
    legal: Sequence[Act] = st.legal_actions(seat)
    if d.phase == "negotiate":
        if seat == d.leader:
            swaps: list[Act] = [a for a in legal if a.kind == A.SWAP]
            return rng.choice(swaps) if swaps and rng.random() < 0.3 else A.CALL_VOTE
        if rng.random() < 0.8 or A.DONE_ACT not in legal:
            return A.DONE_ACT if A.DONE_ACT in legal else legal[0]
        return rng.choice([A.SUPPORT_ACT, A.OPPOSE_ACT])
    if d.phase == "advance":
        steps: list[Act] = [a for a in legal if a.kind == A.NATURAL or (a.kind == A.PAY and a.a <= 2)]
        if steps and rng.random() < 0.8:
            return min(steps, key=lambda a: (a.b, a.a))
        return A.advance(A.PAID)
    return legal[rng.randrange(len(legal))]


def rollout_round(st: State[Any, Any]) -> int:
    """Rollouts stop when the round ends (the Round Marker moves)."""
    return int(st.data.round)


def projected_space(d: BHCData, seat: int) -> float:
    """Where ``seat`` would end if the game ended now: its space after spending its coins on the
    compulsory final climb (BHC-FINAL), plus the part of the next step its leftover coins pay for."""
    space, bank = d.positions[seat], d.banks[seat]
    while space < d.track_end and bank >= d.costs[space - 1]:
        bank -= d.costs[space - 1]
        space += 1
    return space + (bank / d.costs[space - 1] if space < d.track_end else 0.0)


def standing_value(st: State[Any, Any]) -> tuple[float, ...]:
    """Utilities from the standings, coins counted as the spaces they will buy at the end; tied seats
    share their ranks (1 for the first, 0 for the last)."""
    d = st.data
    n = d.players
    keys = [projected_space(d, s) for s in range(n)]
    out = []
    for s in range(n):
        above = sum(1 for t in range(n) if keys[t] > keys[s])
        level = sum(1 for t in range(n) if keys[t] == keys[s]) - 1
        out.append(1.0 - (above + level / 2) / (n - 1))
    return tuple(out)


#: The ``rollout`` role of the manifest.
ROLLOUT = Rollout(rollout_move, horizon=rollout_round, evaluator=standing_value)
