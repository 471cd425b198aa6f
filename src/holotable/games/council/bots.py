"""Black Hole Council's heuristic bot: values tables by its Agenda and infers the others' Agendas.

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
* **Voting** by interest (:mod:`.bot_bargaining`): on Proposals 1-2 Pass when the table, pending
  bribes included and an accepted offer deducted, less a share of the others' mean gain, beats a
  failed Proposal (about :data:`FAIL_VALUE`); on Proposal 3 Pass when the table's interest is at
  least that of a written-off round (BHC-FAIL3-02/03), so a table arranged against the voters fails.
  At the Vote it keeps its last pledge on the table voted on, if it made one.
* **Negotiating** (:mod:`.bot_negotiation`): as Leader it plans over all 120 arrangements with each
  voter's Pass chance from its beliefs and from what that voter said (pledges, suggestions, open
  offers), accepts an offer or makes a suggested swap when that is worth it to its Agenda and says
  why in one line, gives bribes that buy votes and calls the Vote once the others had their say; as
  a non-Leader it suggests the swap or arrangement that helps it, pledges (conditionally too),
  offers a coin or asks for one when that turns its vote, claims what it is sure of, withdraws an
  ignored offer, and pledges again when the table changes. In simulation it answers at once; at a
  live table (``obs.period``) it paces itself and may answer :class:`~holotable.agents.live.Wait`.
* **Deduction.** It guesses the colour (and in D3 the neighbour) most likely to be right under its
  beliefs.

For search agents it has ``ROLLOUT``, a fast rollout (:func:`rollout_move`) that stops at the
end of the current round and is valued by the standings (:func:`standing_value`); see
:mod:`holotable.agents.rollout`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from holotable.agents.base import Agent, Observation
from holotable.agents.live import Wait
from holotable.agents.rollout import Rollout
from holotable.engine import Game, Rng, State

from . import actions as A
from .actions import Act
from .bot_bargaining import VOTE_WEIGHT, others_mean, p3_passes
from .bot_inference import (
    _MEMOS,
    _MEMOS_MAX,
    BETA,
    DATA,
    FAIL_VALUE,
    GET_PAID_FREE,
    GET_PAID_PART,
    LAMBDA,
    N_AGENDAS,
    PAY_EXACT,
    PERMS,
    STEP_BONUS,
    THRESHOLD,
    _advance_likelihood,
    _leader_likelihood,
    _Memo,
    _memo,
    _sigmoid,
    _table_ids,
    approval_chance,
    beliefs,
    pass_chance,
    points_all,
    step_value,
)
from .bot_negotiation import Negotiator
from .data import DEDUCTION_GOALS, OUTCOMES, TAX, CouncilData, data_for
from .scoring import round_points, tax_coins
from .state import BHCData

__all__ = [  # the inference helpers stay importable from here, where other code and tests look for them
    "BETA",
    "DATA",
    "FAIL_VALUE",
    "GET_PAID_FREE",
    "GET_PAID_PART",
    "LAMBDA",
    "N_AGENDAS",
    "PAY_EXACT",
    "PERMS",
    "ROLLOUT",
    "STEP_BONUS",
    "THRESHOLD",
    "_MEMOS",
    "_MEMOS_MAX",
    "CouncilHeuristic",
    "Wait",
    "_Memo",
    "_advance_likelihood",
    "_leader_likelihood",
    "_memo",
    "_sigmoid",
    "approval_chance",
    "beliefs",
    "pass_chance",
    "points_all",
    "projected_space",
    "rollout_move",
    "rollout_round",
    "standing_value",
    "step_value",
]


class CouncilHeuristic(Negotiator, Agent):
    """Votes, leads, advances and deduces on its Agenda's value and Bayesian beliefs about the others;
    bargains in Negotiate (:mod:`.bot_negotiation`), in ticks or on a live table's clock."""

    name = "heuristic"
    live = True

    def __init__(self, game: Game[Any, Any], seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        self.reset()

    def reset(self) -> None:
        self._reset_negotiation()
        self._voted: tuple[Any, Act] | None = None
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
        index = data.agenda_ids.index(view["you"]["agenda"]["id"])
        agenda = data.agendas[index]
        pos = view["positions"][me]
        costs = view["track_costs"]
        at_end = pos > len(costs)
        cost = 0 if at_end else costs[pos - 1]
        bank = view["banks"][me]
        value = step_value(points_all(table, data)[index], cost, bank, at_end)  # the cached points
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
        period = obs.period if self.live else None  # a Wait only where the table can ask again
        if view["seat"] == view["leader"]:
            return self._lead(view, legal, period)
        return self._talk(view, legal, period)

    def _vote(self, view: dict[str, Any], legal: Sequence[Act]) -> Act:
        """By interest (:mod:`.bot_bargaining`): its value with pending bribes (an accepted offer deducted)
        against the others' gains; Proposal 3 against a written-off round (BHC-FAIL3-02/03)."""
        me = view["seat"]
        table = _table_ids(view["table"]) or []
        key = (view["proposals_made"], tuple(table), view["pending"][me], view["accepted_from"], view["banks"][me],
               len(view["votes"]), len(view["advances"]))
        if self._voted is not None and self._voted[0] == key:
            act = self._voted[1]
        else:
            act = self._decide_vote(view, table)
            self._voted = (key, act)
        if view["phase"] == "vote":
            word = _last_word(view, table)
            if word is not None:
                return word  # it keeps its last word on this table (a bribe after it could not be answered)
        return act

    def _decide_vote(self, view: dict[str, Any], table: list[str]) -> Act:
        me = view["seat"]
        mine = self._my_value(view, table) + view["pending"][me] - (1 if view["accepted_from"] == me else 0)
        post = self._post(view)
        if view["proposal"] >= 3:
            return A.VOTE_PASS if p3_passes(view, mine, post, self._data) else A.VOTE_FAIL
        theirs = others_mean(view, table, post, self._data) - 1.0  # their mean gain over the salary
        return A.VOTE_PASS if mine - VOTE_WEIGHT * theirs >= FAIL_VALUE + 0.5 else A.VOTE_FAIL

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


def _last_word(view: dict[str, Any], table: list[str]) -> Act | None:
    """The vote the seat last pledged on ``table`` this Proposal, if it did."""
    me = view["seat"]
    for rec in reversed(view["talk"]):
        if rec["seat"] == me and "vote" in rec and rec["wants"] == table:
            return A.VOTE_PASS if rec["vote"] == "pass" else A.VOTE_FAIL
    return None


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
