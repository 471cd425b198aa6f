"""The heuristic bot's Negotiate phase: a Leader that listens and non-Leaders that bargain, on a clock or in ticks.

A mixin of :class:`~holotable.games.council.bots.CouncilHeuristic` (it uses the bot's value of a
table, its beliefs and its vote). Two ways to play:

* **Ticked** (simulation, ``obs.period`` is None): every asked seat answers with an action at
  once. A non-Leader says what matters most first (suggestion, conditional pledge, offer, request,
  pledge on the current table) and then that it is done; the Leader swaps towards its plan,
  answers offers and suggestions, gives bribes that buy votes, and calls the Vote only once every
  other seat with moves left has moved since its last swap (or it has waited one move for them).
* **Live** (``obs.period`` set, a table with people): the bot may answer
  :class:`~holotable.agents.live.Wait`. Non-Leaders react to a change after a short human delay
  (1.5-4 s, from the bot's seeded rng) and say a few things per Proposal; the Leader answers within
  a few seconds and calls the Vote once the talk has quieted and a real share of the timer has
  passed (:data:`CALL_SHARE`), sooner only when every other seat has pledged or said done on the
  current arrangement, and always near the end.

The chat lines are short and plain and never tell the bot's Agenda or points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from holotable.agents.live import PeriodTime, Wait
from holotable.engine.words import seat_name

from . import actions as A
from .actions import Act
from .bot_bargaining import OFFER_TRUST, Plan, Table, describe, signals, table_ids
from .bot_inference import PERMS, pass_chance
from .data import OUTCOMES, CouncilData

#: A Leader accepts an offer when it raises its plan's expected interest by at least this much.
ACCEPT_MARGIN = 0.05
#: A non-Leader offers its coin when the swap it asks for is worth at least this much more to it.
OFFER_GAIN = 1.5
#: A non-Leader suggests a change worth at least this much to it (a whole arrangement: this more than a swap).
SUGGEST_GAIN, TABLE_GAIN = 1.0, 1.5
#: How sure a belief must be before the bot claims it out loud, and how often it does.
CLAIM_SURE, CLAIM_CHANCE = 0.8, 0.35
#: In ticks: the Leader's own moves after which an ignored offer is taken back.
WITHDRAW_AFTER = 3
#: Live: a bot's delay before reacting (seconds, uniform), the Leader's, and the gap between its swaps.
REACT, LEAD_REACT, SWAP_GAP = (1.5, 4.0), (1.5, 3.0), (0.8, 1.6)
#: Live: the share of the timer a Leader leaves the others before calling the Vote, the quiet it waits
#: for, and the seconds before the end at which it calls anyway.
CALL_SHARE, QUIET, LAST_CALL = 0.45, 8.0, 4.0
#: Live: at most this many things a non-Leader says per Proposal (pledges that keep its word excepted).
LIVE_SAYS = 6
#: Live: how long a bot with nothing to say waits before looking again (a change wakes it sooner).
IDLE = (6.0, 12.0)
#: Live: the shortest Wait the bot answers.
MIN_WAIT = 0.1
#: Live: an offer the Leader has not taken in this many seconds is withdrawn.
OFFER_PATIENCE = 20.0


@dataclass
class Memory:
    """What the bot remembers of one Proposal (forgotten at the next)."""

    proposal: int
    # Leader
    plan: Plan | None = None
    plan_key: Any = None
    locked: Table | None = None  # the arrangement promised for an accepted coin
    answered: set[tuple[int, Table]] = field(default_factory=set)
    change_talk: int = 0  # talk records before the Leader's last swap
    change_moves: list[Any] | None = None  # the others' moves left at that swap (ticked)
    waited: bool = False
    deal_said: bool = False
    quiet_since: float = 0.0
    seen: Any = None
    next_ok: float = 0.0
    reading: bool = False  # news came in and its answer is timed (later news does not push it back)
    # non-Leader
    suggested: set[Table] = field(default_factory=set)
    pledged_if: set[Table] = field(default_factory=set)
    asked: set[Table] = field(default_factory=set)
    offered_at: Any = None
    offered: bool = False
    claimed: bool = False
    done_on: set[Table] = field(default_factory=set)
    says: int = 0


class Negotiator:
    """Negotiate-phase decisions; see the module docstring. Expects the bot's ``_my_value``, ``_post``,
    ``_vote``, ``_data`` and ``rng``."""

    _data: CouncilData
    rng: Any

    def _my_value(self, view: dict[str, Any], table: Sequence[str]) -> float:  # pragma: no cover - the bot's
        raise NotImplementedError

    def _post(self, view: dict[str, Any]) -> dict[int, list[float]]:  # pragma: no cover - the bot's
        raise NotImplementedError

    def _vote(self, view: dict[str, Any], legal: Sequence[Act]) -> Act:  # pragma: no cover - the bot's
        raise NotImplementedError

    def _reset_negotiation(self) -> None:
        self._memory: Memory | None = None
        self._claimed: set[tuple[int, int, int]] = set()
        self._values: tuple[Any, dict[Table, float]] | None = None
        self._wants: tuple[Any, tuple[Table | None, float]] | None = None

    def _mem(self, view: dict[str, Any]) -> Memory:
        if self._memory is None or self._memory.proposal != view["proposals_made"]:
            self._memory = Memory(view["proposals_made"])
        return self._memory

    def _value(self, view: dict[str, Any], arr: Table) -> float:
        """The bot's value of an arrangement, cached for the Proposal (and its Bank)."""
        me = view["seat"]
        key = (view["proposals_made"], view["banks"][me])
        if self._values is None or self._values[0] != key:
            self._values = (key, {})
        got = self._values[1].get(arr)
        if got is None:
            got = self._values[1][arr] = self._my_value(view, arr)
        return got

    def _delay(self, span: tuple[float, float]) -> float:
        return float(self.rng.uniform(*span))

    # ------------------------------------------------------------------ the Leader
    def _lead(self, view: dict[str, Any], legal: Sequence[Act], period: PeriodTime | None = None) -> Act | Wait:
        m = self._mem(view)
        table: Table = tuple(table_ids(view["table"]))
        plan = self._plan(view, m, table)
        told, wants, asks = signals(view)
        for s in view["offers"]:  # an open offer: the offerer means to pass what it asked for
            arr = wants.get(s)
            if arr is not None:
                told.setdefault(s, {})[arr] = max(told.get(s, {}).get(arr, 0.0), OFFER_TRUST)
        if m.change_moves is None:
            m.change_moves = list(view["moves_left"])
        live = period is not None
        if live:
            assert period is not None
            heard = sum(1 for rec in view["talk"] if rec["seat"] != view["seat"])  # its own lines are no news
            seen = (table, heard, tuple(view["offers"]), tuple(view["pending"]))
            if seen != m.seen:
                if m.seen is not None and seen[1:3] != m.seen[1:3]:
                    if not m.reading:  # read, then answer; news meanwhile does not push the answer back
                        m.next_ok = max(m.next_ok, period.elapsed + self._delay(LEAD_REACT))
                        m.reading = True
                    m.quiet_since = period.elapsed
                elif m.seen is None:
                    m.next_ok = period.elapsed + self._delay(LEAD_REACT)
                    m.quiet_since = period.elapsed
                m.seen = seen
            if period.elapsed < m.next_ok and period.left > LAST_CALL:
                return _wait(m.next_ok - period.elapsed)
        act = self._leader_move(view, legal, m, plan, table, told, wants, asks, period)
        m.reading = False  # what it has read is answered (or needs no answer)
        if isinstance(act, Wait):
            return act
        if live:
            assert period is not None
            gap = SWAP_GAP if act.kind == A.SWAP else LEAD_REACT
            m.next_ok = period.elapsed + self._delay(gap)
        if act.kind == A.SWAP:
            m.change_talk = len(view["talk"])
            m.change_moves = [None if x is None else x - (1 if s == view["seat"] else 0)
                              for s, x in enumerate(view["moves_left"])]
            m.waited = False
        return act

    def _plan(self, view: dict[str, Any], m: Memory, table: Table) -> Plan:
        key = frozenset(table)  # once per Proposal and set of planets (an accepted coin is counted apart)
        if m.plan is None or m.plan_key != key:
            m.plan = Plan(view, table, self._post(view), lambda arr: self._value(view, arr), self._data)
            m.plan_key = key
        else:
            m.plan.update_pending(view, self._data)
        return m.plan

    def _leader_move(self, view: dict[str, Any], legal: Sequence[Act], m: Memory, plan: Plan, table: Table,
                     told: dict[int, dict[Table, float]], wants: dict[int, Table], asks: dict[int, int],
                     period: PeriodTime | None) -> Act | Wait:
        me = view["seat"]
        best_score, k = plan.best(told, table)
        target = m.locked if m.locked is not None else plan.arrangements[k]
        # 1. Offers: take the best coin worth it, with what its giver asked for; refuse the others.
        choice: tuple[float, int, Table] | None = None
        for s in view["offers"]:
            if A.accept(s) not in legal:
                continue
            arr = wants.get(s, target)
            score = plan.score(plan.index[arr], told, coin=1.0, boost={s: OFFER_TRUST})
            if score > best_score + ACCEPT_MARGIN and (choice is None or score > choice[0]):
                choice = (score, s, arr)
        if choice is not None and m.locked is None:
            _, giver, arr = choice
            m.locked = arr
            m.answered.add((giver, arr))
            return A.accept(giver)
        if m.locked is not None and view["accepted_from"] is not None:
            giver = view["accepted_from"]
            if not m.deal_said:
                m.deal_said = True
                deal = describe(m.locked, table)
                return _chat(f"Deal, {seat_name(giver)}: I'll {deal} for your coin." if deal != "this table"
                             else f"Deal, {seat_name(giver)}: thanks for the coin.")
        for s in view["offers"]:
            arr = wants.get(s, table)
            if (s, arr) not in m.answered:
                m.answered.add((s, arr))
                what = "that swap" if describe(arr, table).startswith("swap") else "that"
                return _chat(f"No, {seat_name(s)}: {what} costs me too much." if arr != target
                             else f"{seat_name(s)}, keep your coin: I'm doing that anyway.")
        # A deal struck is kept at once: its planets move before other talk is answered.
        if m.locked is not None:
            for i in range(5):
                if table[i] != target[i]:
                    return A.swap(i, table.index(target[i]))
        # 2. Suggestions without a coin: say whether the Leader takes them.
        for s, arr in sorted(wants.items()):
            if (s, arr) in m.answered or s in view["offers"] or arr == table:
                continue
            m.answered.add((s, arr))
            change = describe(arr, table)
            if arr == target:
                return _chat(f"Good idea, {seat_name(s)}: I'll {change}.")
            return _chat(f"Sorry, {seat_name(s)}: {'that swap' if change.startswith('swap') else 'that'} "
                         "doesn't work for me.")
        # 3. Move the planets.
        for i in range(5):
            if table[i] != target[i]:
                return A.swap(i, table.index(target[i]))
        # 4. Bribes that buy a vote.
        bribe = self._bribe(view, legal, plan, told, asks, target)
        if bribe is not None:
            return bribe
        # 5. The Vote, once the others had their say.
        if period is not None:
            return self._call_live(view, m, period, table)
        others = [s for s in range(view["players"]) if s != me]
        answered = all(self._has_answered(view, m, s, table) for s in others)
        if answered or m.waited:
            return A.CALL_VOTE
        m.waited = True
        return _chat("Any last words on this table? I'll call the vote.")

    @staticmethod
    def _has_answered(view: dict[str, Any], m: Memory, s: int, table: Table) -> bool:
        """Whether seat ``s`` has moved since the Leader's last swap (or has no moves left)."""
        left = view["moves_left"][s]
        before = m.change_moves[s] if m.change_moves is not None else None
        if left is not None and (left == 0 or (before is not None and left < before)):
            return True
        return any(rec["seat"] == s and tuple(rec["table"]) == table for rec in view["talk"][m.change_talk:])

    def _call_live(self, view: dict[str, Any], m: Memory, period: PeriodTime, table: Table) -> Act | Wait:
        me = view["seat"]
        if period.left <= LAST_CALL:
            return A.CALL_VOTE
        heard = all(any(rec["seat"] == s and tuple(rec["table"]) == table
                        and (rec["kind"] == A.DONE or ("vote" in rec and tuple(rec["wants"]) == table))
                        for rec in view["talk"][m.change_talk:])
                    for s in range(view["players"]) if s != me)
        quiet = period.elapsed - m.quiet_since >= QUIET
        if heard or (period.share >= CALL_SHARE and quiet):
            return A.CALL_VOTE
        wake = period.seconds * CALL_SHARE - period.elapsed if period.share < CALL_SHARE else \
            m.quiet_since + QUIET - period.elapsed
        return _wait(max(0.5, min(wake, period.left - LAST_CALL)))

    def _bribe(self, view: dict[str, Any], legal: Sequence[Act], plan: Plan, told: dict[int, dict[Table, float]],
               asks: dict[int, int], target: Table) -> Act | None:
        """The bribe that raises the approval chance most for its coins, when that is worth more than the
        coins handed to a rival (they count in the Leader's interest)."""
        space = view["bribe_space"]
        if space <= 0:
            return None
        k = plan.index[target]
        base_p = plan.approval(k, told)
        stake = plan.interest[k] - plan.fail
        if stake <= 0:
            return None
        best: tuple[float, Act] | None = None
        for s in plan.voters:
            for coins in {1, min(space, asks.get(s, 1))}:
                act = A.bribe(s, coins)
                if act not in legal:
                    continue
                extra = view["pending"][s] + coins
                chance = pass_chance(plan.post[s], target, plan.terms[s][0], extra, self._data)
                if asks.get(s, 99) <= extra:
                    chance = max(chance, 0.8)  # it asked for this much
                word = told.get(s, {}).get(target)
                if word is not None and word < 0.5 and asks.get(s, 99) > extra:
                    continue  # it said it will fail this table whatever it gets
                boost = {s: chance}
                gain = (plan.approval(k, told, boost) - base_p) * stake - 0.5 * coins / len(plan.voters)
                if gain > 0.02 and (best is None or gain > best[0]):
                    best = (gain, act)
        return None if best is None else best[1]

    # ------------------------------------------------------------------ the other seats
    def _talk(self, view: dict[str, Any], legal: Sequence[Act], period: PeriodTime | None = None) -> Act | Wait:
        m = self._mem(view)
        table: Table = tuple(table_ids(view["table"]))
        if period is not None:
            seen = (table, tuple(view["offers"]), tuple(view["pending"]), view["accepted_from"])
            if seen != m.seen:
                m.next_ok = max(m.next_ok, period.elapsed + self._delay(REACT))  # take it in, then speak
                m.seen = seen
            if period.elapsed < m.next_ok:
                return _wait(m.next_ok - period.elapsed)
        act = self._next_word(view, legal, m, table, period)
        if act is None:
            if period is not None:
                return _wait(self._delay(IDLE))
            return A.DONE_ACT if A.DONE_ACT in legal else legal[0]
        if period is not None:
            m.next_ok = period.elapsed + self._delay(REACT)
            if act.kind not in (A.SUPPORT, A.OPPOSE):
                m.says += 1
        return act

    def _next_word(self, view: dict[str, Any], legal: Sequence[Act], m: Memory, table: Table,
                   period: PeriodTime | None) -> Act | None:
        me = view["seat"]
        vote = self._vote(view, legal) == A.VOTE_PASS
        mine = [rec for rec in view["talk"] if rec["seat"] == me]
        on_table = [rec for rec in mine if "vote" in rec and tuple(rec["wants"]) == table]
        pledge_act = A.SUPPORT_ACT if vote else A.OPPOSE_ACT
        # 1. Keep its word: a pledge on this table that no longer matches the vote is restated.
        if on_table and (on_table[-1]["vote"] == "pass") != vote:
            return pledge_act
        # ... and once it has pledged, a new arrangement gets its pledge before anything else: in ticks
        # always (its moves are counted anyway), on a live table only when its vote has turned (a
        # pledge on every passing arrangement would flood the table talk).
        plain = [rec for rec in mine if rec["kind"] in (A.SUPPORT, A.OPPOSE)]
        if not on_table and plain and (period is None or (plain[-1]["vote"] == "pass") != vote):
            return pledge_act
        quota = period is None or m.says < LIVE_SAYS
        # 2. Take back an offer the Leader ignores.
        if me in view["offers"] and self._ignored(view, m, period):
            return A.WITHDRAW_ACT
        want, gain = self._wanted(view, table)
        if quota and want is not None and want not in m.suggested:
            m.suggested.add(want)
            swap = _one_swap(want, table)
            return A.suggest(*swap) if swap else A.suggest_table(list(want))
        if quota and want is not None and want not in m.pledged_if:
            m.pledged_if.add(want)
            swap = _one_swap(want, table)
            if self._would_pass(view, want):
                return A.pledge(True, swap_of=swap) if swap else A.pledge(True, table=list(want))
        if (quota and want is not None and gain >= OFFER_GAIN and not m.offered and A.OFFER_ACT in legal
                and view["accepted_from"] is None and self._would_pass(view, want, paid=True)):
            m.offered = True
            m.offered_at = period.elapsed if period is not None else view["moves_left"][view["leader"]]
            return A.OFFER_ACT
        if quota and not vote and not m.asked and not m.offered:
            m.asked.add(table)
            ask = self._ask(view, legal)
            if ask is not None:
                return ask
        if not on_table and not plain:
            return pledge_act
        if quota and not m.claimed:
            m.claimed = True
            claim = self._claim(view, legal)
            if claim is not None:
                return claim
        if table not in m.done_on and (period is None or not m.done_on):  # live: once a Proposal
            m.done_on.add(table)
            return A.DONE_ACT
        return None

    def _ignored(self, view: dict[str, Any], m: Memory, period: PeriodTime | None) -> bool:
        if m.offered_at is None:
            return False
        if period is not None:
            return bool(period.elapsed - m.offered_at >= OFFER_PATIENCE)
        left = view["moves_left"][view["leader"]]
        return left is not None and m.offered_at - left >= WITHDRAW_AFTER

    def _wanted(self, view: dict[str, Any], table: Table) -> tuple[Table | None, float]:
        """The change it would ask for: the best swap worth :data:`SUGGEST_GAIN`, or a whole arrangement worth
        :data:`TABLE_GAIN` more than that; with its gain (cached for the Proposal, table and Bank)."""
        key = (view["proposals_made"], table, view["banks"][view["seat"]])
        if self._wants is None or self._wants[0] != key:
            self._wants = (key, self._find_wanted(view, table))
        return self._wants[1]

    def _find_wanted(self, view: dict[str, Any], table: Table) -> tuple[Table | None, float]:
        now = self._value(view, table)
        best: tuple[float, Table] | None = None
        for i, j in A.PAIRS:
            arr = list(table)
            arr[i], arr[j] = arr[j], arr[i]
            gain = self._value(view, tuple(arr)) - now
            if gain >= SUGGEST_GAIN and (best is None or gain > best[0]):
                best = (gain, tuple(arr))
        whole = max(((self._value(view, arr) - now, arr) for arr in _arrangements(table)), default=None)
        if whole is not None and whole[0] >= (best[0] if best else SUGGEST_GAIN) + TABLE_GAIN:
            return whole[1], whole[0]
        return (best[1], best[0]) if best else (None, 0.0)

    def _would_pass(self, view: dict[str, Any], arr: Table, paid: bool = False) -> bool:
        """Its vote on ``arr`` as things stand (the same rule as its vote); ``paid``: with its coin
        accepted by the Leader."""
        shown = dict(view)
        shown["table"] = {OUTCOMES[o]: {"id": pid} for o, pid in enumerate(arr)}
        if paid:
            shown["accepted_from"] = view["seat"]
        return self._vote(shown, ()) == A.VOTE_PASS

    def _ask(self, view: dict[str, Any], legal: Sequence[Act]) -> Act | None:
        """The fewest coins that would turn its Fail into a Pass (none if the Bribe Space cannot pay them)."""
        me = view["seat"]
        for coins in range(1, min(view["bribe_space"], A.MAX_BRIBE) + 1):
            shown = dict(view)
            pending = list(view["pending"])
            pending[me] += coins
            shown["pending"] = pending
            if self._vote(shown, ()) == A.VOTE_PASS:
                act = A.ask(coins)
                return act if act in legal else None
        return None

    def _claim(self, view: dict[str, Any], legal: Sequence[Act]) -> Act | None:
        """Now and then, say what it is sure another seat wants (from its beliefs; the truth as it sees it)."""
        if self.rng.random() >= CLAIM_CHANCE:
            return None
        post = self._post(view)
        best: tuple[float, int, int, int] | None = None
        for s, weights in post.items():
            for colour in range(5):
                for outcome in range(5):
                    sure = sum(w for a, w in enumerate(weights) if w and self._data.agendas[a][colour] == outcome)
                    if sure >= CLAIM_SURE and (s, outcome, colour) not in self._claimed \
                            and (best is None or sure > best[0]):
                        best = (sure, s, outcome, colour)
        if best is None:
            return None
        _, s, outcome, colour = best
        self._claimed.add((s, outcome, colour))
        act = A.claim(s, outcome, colour)
        return act if act in legal else None


def _wait(seconds: float) -> Wait:
    """A Wait of at least :data:`MIN_WAIT` (a zero wait would have the table ask again at once)."""
    return Wait(round(max(MIN_WAIT, seconds), 2))


def _chat(text: str) -> Act:
    return A.chat(text)


def _one_swap(want: Sequence[str], now: Sequence[str]) -> tuple[int, int] | None:
    diff = [i for i in range(5) if want[i] != now[i]]
    return (diff[0], diff[1]) if len(diff) == 2 else None


def _arrangements(table: Table) -> list[Table]:
    return [tuple(table[i] for i in perm) for perm in PERMS]
