"""Space Pirates' heuristic bot (spec §8.2, "GreedyBot") and a fast rollout policy for search.

The bot decides from its seat's :class:`~holotable.agents.Observation` only: the view for what it
knows, and ``obs.sample_state`` for a copy of the table whose hidden faces (tokens, market cards,
the others' hands) are re-dealt. Every simulation below runs on such a sample, never on the
true state. What it values:

* **Expected token value.** A face-down token the bot has not seen is worth
  ``P(cargo)·v − 3·P(asteroid) − 4·P(police)``, the chances counted from the tokens it cannot
  account for (34 minus its own hold, the faces it saw, open asteroids and police in front of
  players; the others' holds are cargo). ``v`` is the mean market price it knows (4 if none).
* **Flicks** are aimed by simulation: many (angle, strength) candidates are screened along a
  straight line, the best few are played out with the pymunk resolver under the game's dexterity
  noise, and the one with the best mean utility wins (no penalty, token value brought towards the
  bot's ship and away from the others, asteroids into rival ships).
* **Courses** come from a beam search over ruler angles that obeys the 90 degree rule (the
  engine's own legality check): relative turns plus exact bearings to tokens and gates; a course
  is worth the tokens under its rulers, a docking where the bot has business, and how close its
  end is to the next target.
* **Base actions** follow §8.2 step 7: buy when rich enough, always look, sell at good prices (all
  when it wins), recharge when the hand runs low.

Options (all optional): ``beam`` (course beam width, 8), ``flick_top`` (candidates simulated with
physics, 6), ``flick_samples`` (noise samples per candidate, 3), ``wind_step`` (degrees between
evaluated wind directions, 20).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import LineString, Point  # type: ignore[import-untyped]

from holotable.agents.base import Agent, Observation
from holotable.agents.rollout import Rollout
from holotable.engine import ActionError, Game, Rng, State

from . import flow
from . import geometry as geo
from .actions import SPAction
from .data import CARGO_TYPES, Content, content_for, load_default
from .decisions import Ruler
from .flow import Captures, Damage
from .physics import PymunkFlickResolver, apply_noise
from .skill import flick_noise
from .state import SPData
from .wind import blow

XY = tuple[float, float]
#: Relative turns (degrees) tried at every ruler of a course, besides exact bearings.
TURNS = (0.0, -15.0, 15.0, -30.0, 30.0, -60.0, 60.0, -90.0, 90.0)
#: Turns behind the ship, for a first ruler that may leave the nose in any direction (SP-AMB-04).
BACK_TURNS = (-120.0, 120.0, -150.0, 150.0, 180.0)
ASTEROID_VALUE = -3.0
POLICE_VALUE = -4.0
UNKNOWN_PRICE = 4.0
#: How far (cm) a ship can usefully reach in a turn or two: targets beyond count for nothing.
REACH = 35.0
#: Symbol values when choosing a card (spec §8.2 step 3: small bonuses for the adventures).
SYMBOL_VALUE = {"FLICK": 0.3, "NEW_RIGHT": 0.4, "NEW_LEFT": 0.4, "ASTEROID": 0.0, "STORM": 0.2, "WIND": 0.3}
#: What one energy point is worth when a card is spent (1 MC buys 5 points).
POINT_COST = 0.25


@dataclass
class Knowledge:
    """What the bot reads from one view: token values, prices, its hand and its rivals."""

    seat: int
    view: dict[str, Any]
    values: dict[int, float]  # expected value of each face-down or open token on the map
    prices: dict[int, dict[str, int]]  # base index -> known prices
    cargo_value: float
    hand_points: int
    mc: int
    hold: list[tuple[int, str]]
    owned: int | None
    bought: bool
    arrested: bool
    #: The configuration's content: its card values, prices and constants (data overrides included).
    content: Content = field(default_factory=load_default)

    def price(self, base: int, ident: str) -> float:
        known = self.prices.get(base)
        if known is not None:
            return float(known[ident])
        return self.best_price(ident) if self.prices else UNKNOWN_PRICE

    def best_price(self, ident: str) -> float:
        return max((float(p[ident]) for p in self.prices.values()), default=UNKNOWN_PRICE)


def read_view(view: dict[str, Any], seat: int, content: Content | None = None) -> Knowledge:
    """What ``seat`` knows from ``view``; ``content`` is the configuration's (the shipped one if omitted)."""
    content = load_default() if content is None else content
    me = view["players"][seat]
    hand = me["hand"] or []
    prices = {b["index"]: dict(b["prices"]) for b in view["bases"] if b["prices"]}
    known_prices = [float(p) for table in prices.values() for p in table.values()]
    cargo_value = sum(known_prices) / len(known_prices) if known_prices else UNKNOWN_PRICE
    # Tokens this seat can account for; the rest share the remaining identities.
    pool: dict[str, int] = {}
    for ident in content.tokens:
        pool[ident] = pool.get(ident, 0) + 1
    accounted = 0

    def take(ident: str) -> None:
        nonlocal accounted
        if pool.get(ident, 0) > 0:
            pool[ident] -= 1
            accounted += 1

    hold = [(h["tid"], h["identity"]) for h in (me["hold"] or [])]
    for _, ident in hold:
        take(ident)
    for tok in view["tokens"]:
        if tok["identity"] is not None:
            take(tok["identity"])
    for tr in view["transit"]:
        if tr["identity"] is not None:
            take(tr["identity"])
    for _ in view["police_tokens"]:
        take("POLICE")
    others_cargo = sum(p["hold_count"] for p in view["players"] if p["seat"] != seat)
    unknown_cargo = max(0, sum(pool[c] for c in CARGO_TYPES) - others_cargo)
    unknown = unknown_cargo + pool.get("ASTEROID", 0) + pool.get("POLICE", 0)
    if unknown:
        hidden_value = (unknown_cargo * cargo_value + pool.get("ASTEROID", 0) * ASTEROID_VALUE
                        + pool.get("POLICE", 0) * POLICE_VALUE) / unknown
    else:
        hidden_value = 0.0
    known = Knowledge(seat, view, {}, prices, cargo_value, sum(content.card(c).value for c in hand), me["mc"], hold,
                      me["owned_base"], me["owned_base"] is not None, me["ship"]["arrested"], content)
    for tok in view["tokens"]:
        ident = tok["identity"]
        if tok["open"] or ident == "ASTEROID":
            value = ASTEROID_VALUE
        elif ident == "POLICE":
            value = POLICE_VALUE
        elif ident is not None:
            value = known.best_price(ident)
        else:
            value = hidden_value
        known.values[tok["tid"]] = value
    return known


def _legal(obs: Observation) -> list[SPAction]:
    return list(obs.legal)


def ship_pos(d: SPData, seat: int) -> XY:
    return d.ship_center_any(seat)


def closeness(p: XY, q: XY) -> float:
    """1 on top of q, falling to 0 at REACH cm."""
    return max(0.0, 1.0 - geo.dist(p, q) / REACH)


# ---------------------------------------------------------------------------- courses


@dataclass
class Course:
    angles: tuple[float, ...]
    score: float  # value of the course if it stopped here
    gained: float  # token value collected so far
    task: Ruler  # the move after the last ruler
    taken: frozenset[int]  # tokens already counted
    docked: bool
    end: XY


def hold_sale(k: Knowledge, base: int) -> float:
    """What the hold sells for at ``base`` (the best known price where its market is unknown)."""
    return sum(k.price(base, ident) for _, ident in k.hold)


def dock_value(k: Knowledge, d: SPData, base: int, *, card_value: int = 0) -> float:
    """What docking at ``base`` is worth now (spec §8.2 step 5: cargo to sell, energy, a purchase)."""
    value = -0.5  # the next turn starts in the base, behind its gate
    if k.arrested:
        value += 8.0  # the fine frees the ship
    sale = hold_sale(k, base)
    value += 0.9 * sale
    points_left = k.hand_points - card_value
    if points_left < 8 and (k.mc >= 2 or d.owner[base] == k.seat):
        value += 0.35 * (8 - points_left)
    if not k.bought and d.owner[base] is None and k.mc + sale >= k.content.constants.base_price + 2:
        value += 4.0
    return value


def end_potential(k: Knowledge, d: SPData, end: XY, taken: frozenset[int], extra_hold: float) -> float:
    """How promising a resting point is: the best target within reach, discounted by distance."""
    best = 0.0
    for t, value in k.values.items():
        if value <= 0 or t in taken:
            continue
        p = d.pos[t]
        if p is not None:
            best = max(best, value * closeness(end, p))
    if k.hold or extra_hold > 0 or k.hand_points < 6 or k.arrested:
        want = sum(k.cargo_value for _ in k.hold) + extra_hold + (8.0 if k.arrested else 0.0) + 2.0
        for b in d.layout.bases:
            if b.inhabited and None in d.docked[b.index]:
                best = max(best, 0.8 * want * closeness(end, b.gate_mid))
    return 0.6 * best


@dataclass(frozen=True)
class Valuation:
    """How a planner values where a course ends: docking at a base, and a resting point in space.

    The heuristic's are :func:`dock_value` and :func:`end_potential`; the search bot passes its own,
    aware of the race to a base and 20 MC (:mod:`.bot_goals`), through the same beam search."""

    dock: Callable[..., float]
    potential: Callable[[Knowledge, SPData, XY, frozenset[int], float], float]

    def wants_dock(self, k: Knowledge, d: SPData, base: int) -> bool:
        return self.dock(k, d, base) > 0.5


HEURISTIC_VALUES = Valuation(dock_value, end_potential)


def _ruler_gain(k: Knowledge, d: SPData, res: geo.RulerResult, task: Ruler, taken: frozenset[int],
                length: float) -> tuple[float, frozenset[int]]:
    """Token value under one ruler (captures, open asteroids), as the engine would offer them."""
    c = d.layout.c
    rect = None
    gain = 0.0
    new = set(taken)
    mid = ((res.start[0] + res.end[0]) / 2, (res.start[1] + res.end[1]) / 2)
    for t, value in k.values.items():
        p = d.pos[t]
        if p is None or t in new or t in task.offered or t in task.hits:
            continue
        if geo.dist(p, mid) > length / 2 + c.ruler_width + c.token_radius + c.ship_radius:
            continue
        if rect is None:
            rect = geo.ruler_rect(res.start, res.theta, c, length)
        if geo.token_under_ruler(p, rect, c.token_radius) is None:
            continue
        if d.open[t]:
            gain -= 1.5
            new.add(t)
        elif not k.arrested and value > 0:
            gain += value
            new.add(t)
    return gain, frozenset(new)


def _candidate_angles(k: Knowledge, d: SPData, task: Ruler) -> list[float]:
    prev = task.prev
    anchor = task.anchor
    assert prev is not None and anchor is not None  # a ruler move, never a drift
    limit = flow.turn_limit(d, task)  # None: a first ruler may point anywhere (SP-AMB-04)
    out = [geo.norm_angle(prev + turn) for turn in (TURNS if limit is not None else TURNS + BACK_TURNS)]
    reach = task.left * d.layout.c.ruler_length + 3.0
    targets: list[XY] = [d.pos[t] for t, v in k.values.items() if v > 0 and d.pos[t] is not None]  # type: ignore[misc]
    targets += [b.gate_mid for b in d.layout.bases if b.inhabited]
    for p in targets:
        if geo.dist(anchor, p) <= reach:
            a = math.degrees(math.atan2(p[1] - anchor[1], p[0] - anchor[0]))
            if limit is None or geo.angle_diff(a, limit) <= 90.0:
                out.append(round(a, 1))
    seen: set[float] = set()
    unique = []
    for a in out:
        key = round(a, 1)
        if key not in seen:
            seen.add(key)
            unique.append(a)
    return unique


def plan_courses(k: Knowledge, d: SPData, task: Ruler, *, beam: int, card_value: int = 0,
                 depth: int | None = None, values: Valuation = HEURISTIC_VALUES) -> list[Course]:
    """Beam search over ruler angles; returns the best course found for each number of rulers.

    Element 0 is the empty course (stop now); element i the best course of exactly i rulers
    (or fewer when it docked), when one exists.
    """
    return [level[0] for level in course_levels(k, d, task, beam=beam, card_value=card_value, depth=depth,
                                                values=values)]


def course_levels(k: Knowledge, d: SPData, task: Ruler, *, beam: int, card_value: int = 0,
                  depth: int | None = None, values: Valuation = HEURISTIC_VALUES) -> list[list[Course]]:
    """The beam search of :func:`plan_courses`, every level kept: element i lists the courses of i
    rulers it found, best first (element 0: only the empty course). The search bot's candidates."""
    c = d.layout.c
    start_end = ship_pos(d, k.seat)
    base = Course((), values.potential(k, d, start_end, frozenset(), 0.0), 0.0, task, frozenset(), False, start_end)
    best: list[list[Course]] = [[base]]
    frontier = [base]
    depth = task.left if depth is None else min(depth, task.left)
    for _ in range(depth):
        grown: list[Course] = []
        for course in frontier:
            t = course.task
            for theta in _candidate_angles(k, d, t):
                res = flow.ruler_result(d, t, theta)
                if not res.legal:
                    continue
                dock = res.dock_base is not None and (res.full_legal is False or values.wants_dock(k, d, res.dock_base))
                length = c.ruler_length * (res.dock_fraction if dock else 1.0)
                gain, taken = _ruler_gain(k, d, res, t, course.taken, length)
                total = course.gained + gain
                nxt = t.laid(res.end, res.theta)
                if dock:
                    assert res.dock_base is not None
                    score = total + values.dock(k, d, res.dock_base, card_value=card_value)
                    end = d.layout.bases[res.dock_base].gate_mid
                else:
                    end = geo.end_center(res.end, res.theta, c)
                    score = total + values.potential(k, d, end, taken, 0.0)
                    if d.storm is not None and geo.dist(end, d.storm) < c.ship_radius + c.storm_radius:
                        score -= 2.0
                grown.append(Course((*course.angles, res.theta), score, total, nxt, taken, dock, end))
        if not grown:
            break
        grown.sort(key=lambda co: -co.score)
        best.append(grown)
        frontier = [co for co in grown if not co.docked and co.task.left > 0][:beam]
        if not frontier:
            break
    return best


def move_task(d: SPData, seat: int, value: int, departing: bool) -> Ruler:
    """The ruler task a move of ``value`` rulers would start with (as the engine builds it)."""
    a, heading = flow.nose(d, seat)
    return Ruler(seat, value, 0, a, heading, departing, (), (), 0.0, False)


# ---------------------------------------------------------------------------- flicks


def token_utility(k: Knowledge, d: SPData, value: float, p: XY, active: int) -> float:
    """A token of this value resting at p: near me is good for cargo, near rivals good for trouble."""
    mine = closeness(p, ship_pos(d, k.seat))
    rivals = 0.0
    for s in range(d.n):
        if s != k.seat:
            weight = 1.3 if s == active else 1.0
            rivals = max(rivals, weight * closeness(p, ship_pos(d, s)))
    return value * (mine - rivals)


def _straight_penalty(d: SPData, start: XY, end: XY) -> bool:
    lay = d.layout
    r = lay.c.token_radius
    if not (0.0 <= end[0] <= lay.W and 0.0 <= end[1] <= lay.H):
        return True
    if lay.solid.is_empty:
        return False
    seg = LineString([start, end]) if start != end else Point(start)
    return bool(seg.distance(lay.solid) < r)


@dataclass
class FlickPlan:
    angle: float
    strength: float
    score: float


def aim_flick(k: Knowledge, d: SPData, tid: int, dexterity: tuple[float, float], rng: Rng, *, top: int,
              samples: int) -> FlickPlan:
    """Screen candidates on a straight line, then simulate the best ones with physics and noise."""
    return aim_flick_candidates(k, d, tid, dexterity, rng, top=top, samples=samples)[0]


def aim_flick_candidates(k: Knowledge, d: SPData, tid: int, dexterity: tuple[float, float], rng: Rng, *,
                         top: int, samples: int) -> list[FlickPlan]:
    """The ``top`` screened flicks with their simulated mean utility, best first (ties: screening order)."""
    c = d.layout.c
    start = d.pos[tid]
    assert start is not None
    d_max = float(c.physics["d_max"])
    value = k.values.get(tid, 0.0)
    is_asteroid = d.open[tid] or value == ASTEROID_VALUE
    active = d.active
    weakest = c.min_flick_strength  # the rules refuse anything softer: no nudging a token to peek at it
    cands: list[tuple[float, float]] = []
    for i in range(24):
        for s in (max(weakest, 0.08), max(weakest, 0.15), 0.25, 0.4):
            cands.append((-180.0 + 15.0 * (i + 1), s))
    targets = [ship_pos(d, k.seat)] if value > 0 else []
    targets += [ship_pos(d, s) for s in range(d.n) if s != k.seat and (value <= 0 or is_asteroid)]
    for q in targets:
        gap = geo.dist(start, q) - c.ship_radius - c.token_radius
        if gap <= 0:
            continue
        a = math.degrees(math.atan2(q[1] - start[1], q[0] - start[0]))
        for extra in ((0.5, 4.0) if is_asteroid else (-2.0, 0.5)):
            s = min(0.9, max(weakest, (gap + extra) / d_max))
            cands.append((round(a, 2), round(s, 3)))
    screened = []
    for angle, s in cands:
        ux, uy = geo.unit(angle)
        end = (start[0] + ux * s * d_max, start[1] + uy * s * d_max)
        score = -4.0 if _straight_penalty(d, start, end) else 0.0
        inside = 0.0 <= end[0] <= d.layout.W and 0.0 <= end[1] <= d.layout.H
        if inside:
            score += token_utility(k, d, value, end, active)
        if is_asteroid:
            for seat in range(d.n):
                q = ship_pos(d, seat)
                near = geo.segment_distance(q, start, end)[0] < c.ship_radius + c.token_radius
                if d.ships[seat].center is not None and near:
                    score += -3.0 if seat == k.seat else 3.0
        screened.append((score, angle, s))
    screened.sort(key=lambda x: -x[0])
    resolver = PymunkFlickResolver()
    ships = d.ship_positions()
    tokens = d.map_tokens()
    plans: list[FlickPlan] = []
    for _, angle, s in screened[:top]:
        total = 0.0
        for _ in range(samples):
            na, ns = apply_noise(angle, s, dexterity, rng)
            out = resolver.resolve(d.layout, ships, tokens, tid, na, ns, Rng(rng.getrandbits(32)))
            util = 0.0
            element = any(ct.token == tid and ct.kind == "element" for ct in out.contacts)
            if tid in out.exits or element or tid in out.turned_over:
                util -= 4.0
            rest = out.rest.get(tid)
            if rest is not None:
                util += token_utility(k, d, value, rest, active)
            hit: set[int] = set()
            for ct in out.contacts:
                if ct.kind == "ship" and ct.token == tid and is_asteroid and int(ct.other) not in hit:
                    hit.add(int(ct.other))
                    util += -3.0 if int(ct.other) == k.seat else 3.0
            total += util
        plans.append(FlickPlan(angle, s, total / samples))
    plans.sort(key=lambda p: -p.score)  # stable: the first of equal plans stays first, as before
    return plans


# ---------------------------------------------------------------------------- the agent


class SpacePiratesHeuristic(Agent):
    """GreedyBot of spec §8.2 (see the module docstring)."""

    name = "heuristic"

    def __init__(self, game: Game[Any, Any], seed: int = 0, **options: Any) -> None:
        known = {"beam", "flick_top", "flick_samples", "wind_step"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown heuristic option(s) {unknown}; known: {sorted(known)}")
        super().__init__(game, seed, **options)
        self.beam = int(options.get("beam", 8))
        self.flick_top = int(options.get("flick_top", 6))
        self.flick_samples = int(options.get("flick_samples", 3))
        self.wind_step = int(options.get("wind_step", 20))
        #: how courses, drifts, docking offers and the wind are valued (the search bot's are goal-aware)
        self.values = HEURISTIC_VALUES
        for name, v in (("beam", self.beam), ("flick_top", self.flick_top), ("flick_samples", self.flick_samples),
                        ("wind_step", self.wind_step)):
            if v < 1:
                raise ValueError(f"{name} must be at least 1, got {v}")

    def act(self, obs: Observation) -> Any:
        legal = _legal(obs)
        if len(legal) == 1:
            return legal[0]
        return self.act_on(obs, obs.sample_state(self.rng))

    def act_on(self, obs: Observation, st: State[SPData, SPAction]) -> Any:
        """The action for ``obs`` planned on ``st``, a table the seat cannot tell from the true one
        (``act`` draws it; the search bot passes the determinisation it plays out on)."""
        legal = _legal(obs)
        if len(legal) == 1:
            return legal[0]
        view = obs.view
        dec = view["decision"]
        k = read_view(view, obs.seat, content_for(obs.config))
        handler = getattr(self, "_" + dec["kind"], None)
        action = handler(obs, k, st, dec) if handler is not None else None
        if action is None or action not in legal:
            # continuous choices (flicks, exact ruler angles) are checked by the engine, not listed
            if action is not None and action.verb in ("flick", "ruler", "drift", "wind"):
                try:
                    obs.game.check(st, obs.seat, action)
                    return action
                except ActionError:
                    pass
            return legal[self.rng.randrange(len(legal))]
        return action

    # ------------------------------------------------------------------ set-up and placement
    def _start_base(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        d = st.data
        lay = d.layout

        def openness(b: geo.BaseGeom) -> float:
            ux, uy = geo.unit(b.normal)
            free = 0
            for r in (4.0, 8.0, 12.0, 16.0):
                for off in (-60.0, -30.0, 0.0, 30.0, 60.0):
                    vx, vy = geo.unit(b.normal + off)
                    p = (b.gate_mid[0] + r * vx, b.gate_mid[1] + r * vy)
                    if geo.disc_inside_field(p, 1.5, lay) and not geo.disc_overlaps(p, 1.5, lay.solid):
                        free += 1
            crowd = sum(1 for s in d.docked[b.index] if s is not None)
            centre = closeness((b.gate_mid[0] + ux, b.gate_mid[1] + uy), (lay.W / 2, lay.H / 2))
            return free - 6 * crowd + 3 * centre

        options = [a for a in _legal(obs) if isinstance(a.a, int)]
        return max(options, key=lambda a: (openness(lay.bases[int(a.a or 0)]), -int(a.a or 0)))

    def _place(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        d = st.data
        ident = next((tr["identity"] for tr in k.view["transit"] if tr["tid"] == dec["tid"]), None)
        bad = ident in ("ASTEROID", "POLICE")
        me = ship_pos(d, k.seat)
        rivals = [ship_pos(d, s) for s in range(d.n) if s != k.seat]

        def key(a: SPAction) -> float:
            p = (float(a.a or 0.0), float(a.b or 0.0))
            if bad:
                return min(geo.dist(p, q) for q in rivals)
            return geo.dist(p, me) - 0.5 * min(geo.dist(p, q) for q in rivals)

        return min(_legal(obs), key=key)

    # ------------------------------------------------------------------ flicks
    def _flick(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        level = flick_noise(st.config, obs.seat)
        plan = aim_flick(k, st.data, dec["tid"], level, self.rng, top=self.flick_top, samples=self.flick_samples)
        return SPAction("flick", float(plan.angle), float(plan.strength))

    def _flick_target(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        d = st.data
        me = ship_pos(d, k.seat)

        def key(a: SPAction) -> float:
            t = int(a.a or 0)
            p = d.pos[t]
            assert p is not None
            value = k.values.get(t, 0.0)
            rival = max(closeness(p, ship_pos(d, s)) for s in range(d.n) if s != k.seat)
            if d.open[t] or value < 0:
                return rival  # trouble near a rival
            # a good token a rival could take next, and that is not already mine to take
            return value * (rival - closeness(p, me))

        return max(_legal(obs), key=key)

    # ------------------------------------------------------------------ turn choices
    def _turn_mode(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        if dec.get("after_base"):  # actions_before_departure: the base actions are over, nothing to wait for
            return SPAction("depart")
        d = st.data
        base = d.ships[k.seat].base
        assert base is not None
        can_buy = not k.bought and d.owner[base] is None and wants_base(k, base)
        own = d.owner[base] == k.seat
        low = k.hand_points < 5 and (k.mc >= 2 or own)
        return SPAction("stay") if can_buy or low else SPAction("depart")

    def _choose_card(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        if dec.get("more"):  # multi_card: the planner values one card's reach, so it plays one
            return SPAction("done")
        d = st.data
        hand = sorted({k.content.card(str(a.a)).value for a in _legal(obs)})
        task = move_task(d, k.seat, max(hand), bool(dec.get("docked")))
        courses = plan_courses(k, d, task, beam=self.beam, values=self.values)
        open_asteroids = any(d.open[t] and w == "map" for t, w in enumerate(d.where))

        def score(a: SPAction) -> float:
            card = k.content.card(str(a.a))
            reach = [co.score for co in courses[: card.value + 1] if co.angles or not task.departing]
            best = max(reach, default=-5.0)
            bonus = sum(SYMBOL_VALUE[s] for s in card.symbols) + (1.0 if "ASTEROID" in card.symbols and
                                                                    open_asteroids else 0.0)
            return best + bonus - POINT_COST * card.value

        return max(_legal(obs), key=lambda a: (round(score(a), 6), -k.content.card(str(a.a)).value))

    def _choose_adv(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        order = ("NEW_LEFT", "NEW_RIGHT", "FLICK", "ASTEROID", "WIND", "STORM")
        return min(_legal(obs), key=lambda a: order.index(str(a.a)))

    def _place_storm(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        d = st.data
        c = d.layout.c
        me = ship_pos(d, k.seat)
        rivals = [d.ships[s].center for s in range(d.n) if s != k.seat and d.ships[s].center is not None]

        def key(a: SPAction) -> float:
            p = (float(a.a or 0.0), float(a.b or 0.0))
            score = 0.0
            if rivals:
                score -= min(geo.dist(p, q) for q in rivals if q is not None)
            if d.ships[k.seat].center is not None and geo.dist(p, me) < c.ship_radius + c.storm_radius + 5.0:
                score -= 30.0
            return score

        return max(_legal(obs), key=key)

    def _wind_dir(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        best: tuple[float, float] = (-math.inf, 0.0)
        for i in range(0, 360, self.wind_step):
            phi = geo.norm_angle(float(i))
            score = wind_utility(k, st, phi, self.values)
            if score > best[0] + 1e-9:
                best = (score, phi)
        return SPAction("wind", float(best[1]))

    # ------------------------------------------------------------------ moving
    def _ruler(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        d = st.data
        task = d.stack.top
        assert isinstance(task, Ruler)
        courses = plan_courses(k, d, task, beam=self.beam, values=self.values)
        allowed = [co for co in courses if co.angles or SPAction("stop") in _legal(obs)]
        if not allowed:  # a departure whose planned angles are all blocked: the rules' own legal rulers
            return _legal(obs)[0]
        best = max(allowed, key=lambda co: co.score)
        if not best.angles:
            return SPAction("stop")
        return SPAction("ruler", float(best.angles[0]))

    def _drift(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        d = st.data
        c = d.layout.c
        best: tuple[float, SPAction] = (-math.inf, _legal(obs)[0])
        task = flow.drift_move(d, k.seat)  # nothing offered or hit yet
        for a in _legal(obs):
            res = flow.drift_result(d, k.seat, float(a.a or 0.0))
            if not res.legal:
                continue
            gain, taken = _ruler_gain(k, d, res, task, frozenset(), c.ruler_length)
            if res.dock_base is not None and self.values.wants_dock(k, d, res.dock_base):
                score = gain + self.values.dock(k, d, res.dock_base)
            else:
                score = gain + self.values.potential(k, d, geo.end_center(res.end, res.theta, c), taken, 0.0)
            if score > best[0]:
                best = (score, a)
        return best[1]

    def _dock_offer(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        if SPAction("continue") not in _legal(obs) or self.values.wants_dock(k, st.data, dec["base"]):
            return SPAction("dock")
        return SPAction("continue")

    def _capture_offer(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        return SPAction("capture") if k.values.get(dec["tid"], 0.0) > 0 else SPAction("skip")

    # ------------------------------------------------------------------ bases
    def _base_buy(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        return SPAction("buy") if wants_base(k, dec["base"]) else SPAction("skip")

    def _base_look(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        return SPAction("look")

    def _base_sell(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        base = dec["base"]
        goal = flow.threshold(flow.Ctx(st, k.content))
        total = hold_sale(k, base)
        wins = k.owned is not None and k.mc + total >= goal
        best: tuple[float, SPAction] = (-1.0, SPAction("done"))
        for tid, ident in k.hold:
            price = k.price(base, ident)
            if (wins or price >= 4 or k.mc < 4 or price >= k.best_price(ident)) and price > best[0]:
                best = (price, SPAction("sell", tid))
        return best[1]

    def _base_recharge(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        options = [int(a.a) for a in _legal(obs) if a.verb == "recharge" and isinstance(a.a, int)]
        if st.data.owner[dec["base"]] == k.seat:
            return SPAction("recharge", 0) if k.hand_points < 12 and 0 in options else SPAction("skip")
        if k.hand_points >= 10 or not options:
            return SPAction("skip")
        reserve = 0 if k.mc <= 4 and k.hand_points == 0 else 1
        most = max((x for x in options if x <= max(0, k.mc - reserve)), default=0)
        if 5 * most <= k.hand_points:
            return SPAction("skip")
        return SPAction("recharge", most)

    def _base_take(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        takes = [a for a in _legal(obs) if a.verb == "take"]
        return max(takes, key=lambda a: int(a.a or 0)) if takes else SPAction("done")

    # ------------------------------------------------------------------ damage
    def _damage_pay(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        cargo = [(k.best_price(dict(k.hold)[int(a.b or 0)]), a) for a in _legal(obs) if a.a == "cargo"]
        cards = [a for a in _legal(obs) if a.a == "card"]
        cargo.sort(key=lambda x: (x[0], int(x[1].b or 0)))
        if cargo and cargo[0][0] <= 3:
            return cargo[0][1]
        if cards and (k.hand_points >= 8 or not cargo):
            return cards[0]
        return cargo[0][1] if cargo else _legal(obs)[0]

    def _blind_pick(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        return _legal(obs)[self.rng.randrange(len(_legal(obs)))]


def wants_base(k: Knowledge, base: int) -> bool:
    """Spec §8.2 step 7: buy when the money left and the hold still make a good start."""
    price = k.content.constants.base_price
    hold_value = hold_sale(k, base)
    return k.mc >= price and (k.mc - price + hold_value >= 8 or k.mc >= 20)


def wind_utility(k: Knowledge, st: State[SPData, SPAction], phi: float,
                 values: Valuation = HEURISTIC_VALUES) -> float:
    """Blow the wind on a copy of the sampled table and score what it does (spec §8.2 step 9)."""
    copy = st.clone(keep_events=False)
    d = copy.data
    before = len(d.stack)
    blow(flow.Ctx(copy, k.content), phi)
    score = 0.0
    pushed = list(d.stack)[: len(d.stack) - before]  # what the wind pushed, top first
    for task in reversed(pushed):  # bottom first, the order the scores always added up in
        if isinstance(task, Damage):
            score += -4.0 if task.seat == k.seat else 3.0
        elif isinstance(task, Captures) and task.seat == k.seat:
            score += sum(max(0.0, k.values.get(t, 0.0)) for t in task.tids)
    sh = d.ships[k.seat]
    if sh.base is not None and st.data.ships[k.seat].base is None:
        score += values.dock(k, d, sh.base)
    elif sh.center is not None:
        score += values.potential(k, d, sh.center, frozenset(), 0.0)
    return score


# ---------------------------------------------------------------------------- rollouts for search


def rollout_policy(st: State[SPData, SPAction], seat: int, rng: Rng) -> SPAction:
    """A fast, loosely sensible move for search rollouts (reads the determinised state)."""
    legal: Sequence[SPAction] = st.legal_actions(seat)
    verbs = {a.verb for a in legal}
    for want in ("capture", "dock", "buy", "look"):
        if want in verbs:
            return SPAction(want)
    sells = [a for a in legal if a.verb == "sell"]
    if sells:
        return sells[0]
    takes = [a for a in legal if a.verb in ("take", "recharge")]
    if takes:
        return max(takes, key=lambda a: int(a.a or 0))
    rulers = [a for a in legal if a.verb == "ruler"]
    if rulers and ("stop" not in verbs or rng.random() < 0.85):
        return rulers[rng.randrange(len(rulers))]
    return legal[rng.randrange(len(legal))]


def rollout_turn(st: State[SPData, SPAction]) -> int:
    """Rollouts stop when the turn they began in is over."""
    return st.data.turn


def position_value(st: State[SPData, SPAction]) -> tuple[float, ...]:
    """Each seat's share of the table's wealth: money, a base, cargo and energy, in [0, 1]."""
    d = st.data
    if d.over and d.winner is not None:
        return tuple(1.0 if s == d.winner else 0.0 for s in range(d.n))
    content = content_for(st.config)
    worth = []
    for s in range(d.n):
        points = sum(content.card(cid).value for cid in d.hands[s])
        worth.append(1.0 + d.mc[s] + (15.0 if d.owned[s] is not None else 0.0) + 3.5 * len(d.holds[s])
                     + 0.2 * points - (3.0 if d.ships[s].arrested else 0.0))
    out = []
    for s in range(d.n):
        rival = max(w for o, w in enumerate(worth) if o != s)
        out.append(max(0.0, worth[s]) / (max(0.0, worth[s]) + max(0.0, rival) + 1e-9))
    return tuple(out)


#: The ``rollout`` role of the manifest.
ROLLOUT = Rollout(rollout_policy, horizon=rollout_turn, evaluator=position_value)
