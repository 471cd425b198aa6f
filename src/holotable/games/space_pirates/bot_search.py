"""Space Pirates' search bot: it looks a turn further ahead than the heuristic, through the rules' own geometry.

The heuristic (:mod:`.bots`) plans a move as a beam of ruler angles checked with the engine's ruler
legality (:func:`.flow.ruler_result`), and values where a course ends by a rule of thumb (the best token
within 35 cm, :func:`.bots.end_potential`), blind to what is really reachable from there. The search
bot keeps the heuristic's candidate courses but values each one by **searching the next turn from
where it ends**: the ship is put at the course's end pose (or docked in the base it reaches, leaving
again next turn) with the tokens it captured gone, and a second beam search over the card it will
still hold finds the best next move from there. A course is worth what it gathers now, what docking
brings, and the discounted best next move (a dead end, a pose behind an element, a gate approached
from the wrong side all show there). The card is chosen with the same two-turn values. Both beams
value where a course ends with the race-aware valuation of :mod:`.bot_goals` (a base it can buy, a
base where a sale wins), and its base actions are that module's :class:`~.bot_goals.RaceEconomy`.

**The rivals move in between.** Before it searches, the bot plans each rival's next move with the
heuristic's beam (from the rival's ship, with this seat's own estimate of the tokens and the
determinisation's hand for the rival's reach): the tokens that move would capture are gone from the
table the next turn is searched on, and a course that takes one of them first gains ``DENIAL`` times
its value (the rival loses it). Without this the bot planned its next turn around tokens a rival
was about to take. The figures of each step are in docs/games/space-pirates.md.

Flicks are searched wider: more aimed candidates, each simulated more often through pymunk under the
seat's own dexterity noise (8 candidates x 4 throws, the heuristic 6 x 3); the wind on a 15 degree grid.
Every other choice (captures, damage, placements) is the heuristic's.

The chosen course is kept as a plan: the rulers after the first follow it while the move goes as
planned (same anchor), so a move is searched once, not at every ruler. Each search stops ranking at
``time_limit``: the courses not re-valued by then keep the heuristic's order behind those that were.

A first design played every candidate out to the end of the turn on determinisations (successive
halving over play-outs); one play-out through the engine costs about a second here (each ruler
decision lists 181 legal angles, each flick runs pymunk), so 1 s bought one or two play-outs per
decision: too few to tell candidates apart. The two-turn beam costs about 0.1 s per candidate.

Options: ``time_limit`` (seconds per decision, 1.0; ``0`` for none: deterministic for a seed),
``candidates`` (courses re-valued per move, 8), ``next_beam`` (beam of the next-turn search, 2),
``next_depth`` (rulers looked at next turn, 2), ``discount`` (next turn's weight, 0.85), ``rivals``
(model the rivals' next moves, true), ``flick_top`` (8) and ``flick_samples`` (4).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from typing import Any

from holotable.agents.base import Agent, Observation
from holotable.engine import ActionError, Game, State

from . import flow
from . import geometry as geo
from .actions import SPAction
from .bot_goals import RaceEconomy, goal_values, victory_sum
from .bots import (
    HEURISTIC_VALUES,
    POINT_COST,
    SYMBOL_VALUE,
    Course,
    Knowledge,
    Valuation,
    course_levels,
    move_task,
    plan_courses,
    read_view,
)
from .data import content_for
from .decisions import Ruler
from .state import Ship, SPData

#: A token taken from under a rival's nose counts this much more than its value (the rival loses it).
DENIAL = 0.5
#: How many rulers of each rival's next move are looked at (its likely captures).
RIVAL_DEPTH = 3


@dataclass(frozen=True)
class Plan:
    """The course chosen for a move: the anchor its next ruler starts from, and the angles left."""

    anchor: geo.XY
    angles: tuple[float, ...]


def reached_base(d: SPData, course: Course) -> int:
    """The base a docking course ends in (the planner ends it at that base's gate)."""
    return min(range(len(d.layout.bases)), key=lambda b: geo.dist(d.layout.bases[b].gate_mid, course.end))


def what_if(d: SPData, seat: int, course: Course, gone: frozenset[int] = frozenset()) -> SPData:
    """A light copy of the table with ``seat``'s ship where ``course`` leaves it, its captures gone
    and the tokens in ``gone`` (taken by the rivals before the seat moves again) gone too.

    Only what the ruler geometry and the planner read is replaced (ships, token positions); the rest
    is shared with ``d`` and never written."""
    d2 = copy.copy(d)
    d2.pos = [None if t in course.taken or t in gone else p for t, p in enumerate(d.pos)]
    ships = [s.copy() for s in d.ships]
    if course.docked:
        base = reached_base(d, course)
        slot = next((i for i, s in enumerate(d.docked[base]) if s is None), 0)
        ships[seat] = Ship(base, slot, None, d.layout.bases[base].normal, ships[seat].arrested, False)
    else:
        heading = course.angles[-1] if course.angles else ships[seat].heading
        ships[seat] = Ship(None, None, course.end, heading, ships[seat].arrested, False)
    d2.ships = ships
    return d2


class SpacePiratesSearch(Agent):
    """The heuristic with a two-turn course search and a wider flick search (see the module docstring)."""

    name = "search"

    def __init__(self, game: Game[Any, Any], seed: int = 0, **options: Any) -> None:
        known = {"time_limit", "candidates", "next_beam", "next_depth", "discount", "flick_top", "flick_samples",
                 "rivals"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown search option(s) {unknown}; known: {sorted(known)}")
        super().__init__(game, seed, **options)
        limit = options.get("time_limit", 1.0)
        if isinstance(limit, bool) or not isinstance(limit, (int, float)) or limit < 0:
            raise ValueError(f"time_limit must be a number of seconds (0 for none), got {limit!r}")
        self.time_limit: float | None = float(limit) or None
        self.candidates = int(options.get("candidates", 8))
        self.next_beam = int(options.get("next_beam", 2))
        self.next_depth = int(options.get("next_depth", 2))
        self.discount = float(options.get("discount", 0.85))
        self.rivals = options.get("rivals", True)
        if not isinstance(self.rivals, bool):
            raise ValueError(f"rivals must be true or false, got {self.rivals!r}")
        for name, v in (("candidates", self.candidates), ("next_beam", self.next_beam),
                        ("next_depth", self.next_depth)):
            if v < 1:
                raise ValueError(f"{name} must be at least 1, got {v}")
        if not 0.0 <= self.discount <= 1.0:
            raise ValueError(f"discount must lie in [0, 1], got {self.discount}")
        self.base = RaceEconomy(game, seed, flick_top=int(options.get("flick_top", 8)),
                                          flick_samples=int(options.get("flick_samples", 4)), wind_step=15)
        self.plan: Plan | None = None
        #: tokens the rivals' own best moves would take before this seat moves again (token -> value)
        self.contested: dict[int, float] = {}
        self.values: Valuation = HEURISTIC_VALUES  # set per decision: the race to the victory sum
        #: courses re-valued and seconds spent by the last decision (the benchmark reports them)
        self.last_valued = 0
        self.last_seconds = 0.0

    def reset(self) -> None:
        super().reset()
        self.base.reset()
        self.plan = None

    # ------------------------------------------------------------------ deciding
    def act(self, obs: Observation) -> Any:
        started = time.perf_counter()
        self.last_valued = 0
        legal = list(obs.legal)
        dec = obs.view["decision"]
        kind = dec["kind"] if dec else None
        if len(legal) == 1:
            action = legal[0]
        elif kind in ("ruler", "choose_card"):
            st: State[SPData, SPAction] = obs.sample_state(self.rng)
            k = read_view(obs.view, obs.seat, content_for(obs.config))
            self.values = goal_values(victory_sum(st))
            self.contested = self._rival_takes(obs, k, st) if self.rivals else {}
            deadline = None if self.time_limit is None else started + self.time_limit
            action = self._ruler(obs, k, st, deadline) if kind == "ruler" else self._card(obs, k, st, dec, deadline)
        else:
            action = self.base.act(obs)  # flicks and wind: the heuristic, searching wider (see __init__)
        self.last_seconds = time.perf_counter() - started
        return action

    def _ruler(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction],
               deadline: float | None) -> SPAction:
        d = st.data
        task = d.stack.top
        assert isinstance(task, Ruler) and task.anchor is not None
        plan = self.plan
        if plan is not None and geo.dist(plan.anchor, task.anchor) < 1e-6:
            action = self._follow(obs, st, plan)
            if action is not None:
                return action
        self.plan = None
        ranked = self._rank(k, d, task, deadline)
        can_stop = SPAction("stop") in obs.legal
        for _value, co in ranked:
            if not co.angles:
                if can_stop:
                    return SPAction("stop")
                continue
            action = SPAction("ruler", float(co.angles[0]))
            try:
                obs.game.check(st, obs.seat, action)
            except ActionError:
                continue
            self._keep(d, task, co.angles)
            return action
        fallback: SPAction = self.base.act_on(obs, st)
        return fallback

    def _follow(self, obs: Observation, st: State[SPData, SPAction], plan: Plan) -> SPAction | None:
        """The plan's next ruler, or stopping when it is spent; ``None`` when the table says no."""
        if not plan.angles:
            self.plan = None
            return SPAction("stop") if SPAction("stop") in obs.legal else None
        action = SPAction("ruler", float(plan.angles[0]))
        try:
            obs.game.check(st, obs.seat, action)
        except ActionError:
            return None
        task = st.data.stack.top
        assert isinstance(task, Ruler)
        self._keep(st.data, task, plan.angles)
        return action

    def _keep(self, d: SPData, task: Ruler, angles: tuple[float, ...]) -> None:
        """Remember the rulers after ``angles[0]`` (laid now from ``task.anchor``) for the next decisions."""
        res = flow.ruler_result(d, task, angles[0])
        self.plan = None if res.dock_base is not None else Plan(res.end, angles[1:])

    def _rival_takes(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction]) -> dict[int, float]:
        """The tokens each rival's best next move (the heuristic's beam, from the rival's place and with
        the seat's own estimate of the tokens) would capture: gone by this seat's next turn unless it
        takes them first. The rivals' hands are the determinisation's (their sizes are public)."""
        d = st.data
        out: dict[int, float] = {}
        for r in range(d.n):
            if r == k.seat or d.ships[r].arrested:
                continue
            hand = [k.content.card(c).value for c in d.hands[r]]
            if not hand:
                continue
            rk = read_view(obs.view, r, k.content)
            rk.values = {t: v for t, v in k.values.items() if v > 0 and not d.open[t]}
            reach = min(RIVAL_DEPTH, max(hand))
            task = move_task(d, r, reach, d.ships[r].base is not None)
            courses = plan_courses(rk, d, task, beam=4, depth=reach)
            best = max(courses, key=lambda co: co.score)
            for t in best.taken:
                out[t] = max(out.get(t, 0.0), k.values.get(t, 0.0))
        return out

    def _card(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any,
              deadline: float | None) -> SPAction:
        """The card whose reach buys the best two-turn course (its adventures and energy priced as the
        heuristic prices them)."""
        if dec.get("more"):
            return SPAction("done")
        d = st.data
        values = sorted({k.content.card(str(a.a)).value for a in obs.legal if a.verb == "card"})
        if not values:
            fallback: SPAction = self.base.act_on(obs, st)
            return fallback
        task = move_task(d, k.seat, max(values), bool(dec.get("docked")))
        ranked = self._rank(k, d, task, deadline)
        open_asteroids = any(d.open[t] and w == "map" for t, w in enumerate(d.where))

        def score(a: SPAction) -> float:
            card = k.content.card(str(a.a))
            reach = [v for v, co in ranked if len(co.angles) <= card.value and (co.angles or not task.departing)]
            best = max(reach, default=-5.0)
            bonus = sum(SYMBOL_VALUE[s] for s in card.symbols) + (
                1.0 if "ASTEROID" in card.symbols and open_asteroids else 0.0)
            return best + bonus - POINT_COST * card.value

        cards: list[SPAction] = [a for a in obs.legal if a.verb == "card"]
        return max(cards, key=lambda a: (round(score(a), 6), -k.content.card(str(a.a)).value))

    # ------------------------------------------------------------------ the two-turn values
    def _rank(self, k: Knowledge, d: SPData, task: Ruler, deadline: float | None) -> list[tuple[float, Course]]:
        """The heuristic's courses for ``task`` (every length, the empty one too), best two-turn value first."""
        levels = course_levels(k, d, task, beam=8, values=self.values)
        courses = sorted((co for level in levels for co in level), key=lambda co: -co.score)
        pool: list[Course] = []
        firsts: list[tuple[float, ...]] = []
        for co in courses:  # distinct courses: not the same first rulers to within 4 degrees
            if any(len(f) == len(co.angles) and all(geo.angle_diff(x, y) < 4.0 for x, y in zip(f, co.angles,
                                                                                              strict=True))
                   for f in firsts):
                continue
            firsts.append(co.angles)
            pool.append(co)
            if len(pool) >= self.candidates:
                break
        ranked: list[tuple[float, Course]] = []
        rest: list[tuple[float, Course]] = []
        next_value = self._next_card_value(k, task)
        for co in pool:
            if deadline is not None and time.perf_counter() > deadline:
                rest.append((co.score - 1e3, co))  # not re-valued: behind the others, in the heuristic's order
                continue
            ranked.append((self._value(k, d, co, next_value), co))
            self.last_valued += 1
        ranked.sort(key=lambda x: -x[0])
        return ranked + rest

    def _next_card_value(self, k: Knowledge, task: Ruler) -> int:
        """The reach of the best card the seat will hold next turn (the most valuable left but one)."""
        values = sorted((k.content.card(c).value for c in (k.view["players"][k.seat]["hand"] or [])), reverse=True)
        return min(self.next_depth, values[1] if len(values) > 1 else (values[0] if values else 1))

    def _value(self, k: Knowledge, d: SPData, co: Course, next_value: int) -> float:
        now = co.gained + DENIAL * sum(v for t, v in self.contested.items() if t in co.taken)
        if co.docked:
            now += self.values.dock(k, d, reached_base(d, co))
        d2 = what_if(d, k.seat, co, gone=frozenset(self.contested))
        nxt = move_task(d2, k.seat, max(1, next_value), co.docked)
        ahead = plan_courses(k, d2, nxt, beam=self.next_beam, depth=max(1, next_value), values=self.values)
        best_next = max(c.score for c in ahead if c.angles or not co.docked) if any(
            c.angles or not co.docked for c in ahead) else -2.0
        if d.storm is not None and not co.docked and geo.dist(co.end, d.storm) < (
                d.layout.c.ship_radius + d.layout.c.storm_radius):
            now -= 2.0
        return now + self.discount * best_next
