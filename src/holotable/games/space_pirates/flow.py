"""The task machine of Space Pirates: set-up, turns, adventures, moves, base actions, damage.

Pending work is a :class:`~holotable.engine.tasks.TaskStack` in ``SPData.stack``. The automatic
tasks are defined here (each a frozen dataclass whose ``run`` is one step of the flow); the
decisions they push are in ``decisions.py``, the solar wind in ``wind.py``. :func:`advance` runs
tasks until a decision is on top or the game ends. Rule IDs in comments refer to ``shared/specs/space-pirates.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from holotable.engine import ScenarioError
from holotable.engine import chance as chances
from holotable.engine.tasks import TaskStack, run_tasks
from holotable.engine.words import seat_name

from . import decisions as dec
from . import geometry as geo
from . import words
from .data import CARGO_TYPES, Constants
from .geometry import XY, Mover, RulerResult
from .physics import Contact, FlickOutcome, FlickResolver, PymunkFlickResolver, apply_noise
from .skill import flick_noise
from .state import SPData
from .tasks import Ctx as Ctx  # re-exported: the rest of the game knows it as flow.Ctx
from .tasks import SPTask

Stack = TaskStack[Ctx]



def all_bits(n: int) -> int:
    return (1 << n) - 1


def left(d: SPData, seat: int) -> int:
    return (seat + 1) % d.n


def right(d: SPData, seat: int) -> int:
    return (seat - 1) % d.n


def threshold(ctx: Ctx) -> int:
    if ctx.cfg["victory"] == "long":  # SP-WIN-02
        return ctx.c.victory_long[ctx.d.n]
    return ctx.c.victory_standard  # SP-WIN-01


def check_victory(ctx: Ctx) -> bool:
    """SP-WIN-01..03: checked after every state change; the first player to satisfy it wins."""
    d = ctx.d
    if d.over:
        return True
    goal = threshold(ctx)
    for i in range(d.n):
        s = (d.active + i) % d.n
        owned = d.owned[s]
        if owned is not None and d.mc[s] >= goal:
            d.winner, d.over = s, True
            d.reason = f"{seat_name(s)} owns base {d.layout.bases[owned].id} and has {d.mc[s]} MC"
            d.stack.clear()
            ctx.emit("victory", d.reason, seat=s)
            return True
    return False


def advance(ctx: Ctx) -> None:
    """Run tasks until a decision is on top or the game is over; victory is checked before each
    task (and an empty stack starts the next turn, as after a scenario's arrangement)."""
    d = ctx.d
    stack = d.stack

    def over() -> bool:
        return check_victory(ctx)

    while run_tasks(stack, ctx, stop=over) is None and not over():
        stack.push(TurnStart())


# ---------------------------------------------------------------------------- money


def pay(ctx: Ctx, seat: int, amount: int, to: int | None) -> None:
    """Move MC from a seat to another seat or the bank (SP-MONEY-01..03)."""
    d = ctx.d
    d.mc[seat] -= amount
    if to is None:
        if ctx.cfg["bank"] == "finite":
            d.bank += amount
    else:
        d.mc[to] += amount


def bank_pays(ctx: Ctx, seat: int, amount: int) -> int:
    """SP-MONEY-04: a finite bank pays what it has."""
    d = ctx.d
    if ctx.cfg["bank"] == "finite":
        amount = min(amount, d.bank)
        d.bank -= amount
    d.mc[seat] += amount
    return amount


# ---------------------------------------------------------------------------- tokens


def to_bag(d: SPData, t: int) -> None:
    """Back into the bag: position, holder and knowledge are forgotten (SP-INFO-01), and the bag
    mixes, so the token's id no longer names its face."""
    d.where[t], d.pos[t], d.holder[t], d.open[t], d.known[t] = "bag", None, None, False, 0
    d.sort_bag()


def draw_token(ctx: Ctx, seat: int) -> int | None:
    """SP-COMP-05: a uniformly random token from the bag; the drawer sees it.

    The token drawn takes the lowest id in the bag (what a player at the table can predict),
    whatever its face: the random draw picks a face, never an id."""
    d = ctx.d
    bag = [t for t, w in enumerate(d.where) if w == "bag"]
    if not bag:
        return None
    face = chances.take(ctx.st, "bag") if ctx.st.script else None
    if face is None:
        t, picked = bag[0], bag[ctx.rng.randrange(len(bag))]
    else:  # a scenario's scripted face
        t, picked = bag[0], next((b for b in bag if d.ident[b] == face), -1)
        if picked < 0:
            raise ScenarioError(f"chance.bag: no {face} token is left in the bag")
    d.ident[t], d.ident[picked] = d.ident[picked], d.ident[t]
    d.where[t], d.holder[t], d.known[t] = "transit", seat, 1 << seat
    d.sort_bag()
    ctx.reveal()
    ctx.emit("token_drawn", f"{seat_name(seat)} draws a transport", seat=seat, tid=t)
    return t


def ship_obstacles(d: SPData, seat: int) -> tuple[XY, ...]:
    """Centres of the other ships, in space or docked (SP-MOVE-06)."""
    return tuple(d.ship_center_any(s) for s in range(d.n) if s != seat)


def free_for_token(d: SPData, exclude: int | None = None) -> Any:
    lay = d.layout
    ships = tuple(d.ship_positions().values())
    tokens = tuple(d.map_tokens(exclude).values())
    return lambda p: geo.token_free(lay, p, ships, tokens)


def place_token(ctx: Ctx, t: int, p: XY) -> None:
    d = ctx.d
    d.where[t], d.pos[t], d.holder[t] = "map", geo.rnd(p, ctx.c.position_decimals), None


# ---------------------------------------------------------------------------- set-up (SP-SETUP)


@dataclass(frozen=True, slots=True)
class SetupDraw(SPTask):
    """SP-SETUP-11: the main-token holder draws 3 tokens (2 with four players) and places them."""

    kind = "setup_draw"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        d = ctx.d
        k = 2 if d.n == 4 else 3
        drawn = [t for t in (draw_token(ctx, d.active) for _ in range(k)) if t is not None]
        stack.push(SetupFlicks(tuple(drawn)))
        for t in reversed(drawn):
            stack.push(dec.Place(d.active, t, "setup"))


@dataclass(frozen=True, slots=True)
class SetupFlicks(SPTask):
    """SP-SETUP-12 / SP-AMB-41: the left neighbour flicks each token in placement order."""

    tids: tuple[int, ...]
    kind = "setup_flicks"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        d = ctx.d
        for t in reversed(self.tids):
            stack.push(dec.Flick(left(d, d.active), t, "setup"))


# ---------------------------------------------------------------------------- turns (SP-TURN)


def mover_for(d: SPData, seat: int, *, first: bool, prev_dir: float | None, anchor: XY) -> Mover:
    sh = d.ships[seat]
    lay = d.layout
    room = frozenset(b.index for b in lay.bases if b.inhabited and None in d.docked[b.index])
    target = arrest_target(d, anchor) if sh.arrested else None
    return Mover(seat, ship_obstacles(d, seat), sh.base if first else None, first, prev_dir, target, room,
                 d.dock_stand)


def arrest_target(d: SPData, a: XY) -> XY | None:
    """SP-POLICE-03: the gate midpoint of the nearest inhabited base with room, from the ruler start."""
    best: tuple[float, int] | None = None
    for b in d.layout.bases:
        if b.inhabited and None in d.docked[b.index]:
            key = (geo.dist(a, b.gate_mid), b.index)
            if best is None or key < best:
                best = key
    return None if best is None else d.layout.bases[best[1]].gate_mid


def nose(d: SPData, seat: int) -> tuple[XY, float]:
    """SP-GEO-03: the nose point and heading of a ship (docked ships face out of the gate)."""
    sh = d.ships[seat]
    c = d.layout.c
    if sh.center is None:
        assert sh.base is not None and sh.slot is not None
        b = d.layout.bases[sh.base]
        center, heading = b.slots[sh.slot], b.normal
    else:
        center, heading = sh.center, sh.heading
    ux, uy = geo.unit(heading)
    return (center[0] + c.ship_radius * ux, center[1] + c.ship_radius * uy), heading


def ruler_angles(prev: float | None, step: float) -> list[float]:
    """Candidate absolute angles on a grid of ``step`` degrees within 90° of prev (all for drift)."""
    out = []
    k = round(360 / step)
    for i in range(k):
        a = geo.norm_angle(-180.0 + step * (i + 1))
        if prev is None or geo.angle_diff(a, prev) <= 90.0 + 1e-9:
            out.append(float(a))
    return out


def first_limit(d: SPData, heading: float) -> float | None:
    """The direction the first ruler of a move must stay within 90 degrees of, or ``None`` for any.

    SP-MOVE-02 / SP-AMB-04: the rulebook asks only that the first ruler touch the ship's nose ("nose",
    the default), so a ship may turn straight away from an element its nose faces; the option
    ``first_ruler: within_90`` keeps the spec's earlier reading (within 90 degrees of the heading).
    """
    return heading if d.first_within_90 else None


def turn_limit(d: SPData, task: dec.Ruler) -> float | None:
    """The direction the next ruler of ``task`` must stay within 90 degrees of (SP-MOVE-02/03), or
    ``None`` when any direction will do (a drift, SP-DRIFT-02; a first ruler under SP-AMB-04's "nose").

    The pages, the terminal and the bots read the allowed sector here rather than from ``task.prev``.
    """
    if task.drift:
        return None
    if task.count == 0:
        assert task.prev is not None
        return first_limit(d, task.prev)
    return task.prev


def first_ruler_exists(d: SPData, seat: int) -> bool:
    """SP-TURN-04: some angle on a 1° grid gives a legal first ruler: heading-90..heading+90, or the
    whole turn when the first ruler may leave the nose in any direction (SP-AMB-04)."""
    a, heading = nose(d, seat)
    limit = first_limit(d, heading)
    mover = mover_for(d, seat, first=True, prev_dir=limit, anchor=a)
    # nearest the heading first: most ships find a legal ruler straight ahead
    for k in range(0, 91 if limit is not None else 181):
        for sgn in ((1,) if k in (0, 180) else (1, -1)):
            if geo.check_ruler(d.layout, mover, a, heading + sgn * k).legal:
                return True
    return False


def drift_anchor(d: SPData, seat: int, theta: float) -> XY:
    """SP-DRIFT-02 / SP-AMB-36: the drift ruler starts on the disc boundary, radially outward."""
    sh = d.ships[seat]
    assert sh.center is not None
    ux, uy = geo.unit(theta)
    r = d.layout.c.ship_radius
    return (sh.center[0] + r * ux, sh.center[1] + r * uy)


def drift_result(d: SPData, seat: int, theta: float) -> RulerResult:
    a = drift_anchor(d, seat, theta)
    mover = mover_for(d, seat, first=False, prev_dir=None, anchor=a)
    return geo.check_ruler(d.layout, mover, a, theta)


def any_drift(d: SPData, seat: int) -> bool:
    return any(drift_result(d, seat, float(a)).legal for a in range(-179, 181))


@dataclass(frozen=True, slots=True)
class TurnStart(SPTask):
    kind = "turn_start"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        d = ctx.d
        d.turn += 1
        cap = ctx.cfg["turn_cap"]
        if cap and d.turn > cap:  # 0 or None: no limit  # SP-AMB-59: the harness cap, no winner
            d.over, d.reason = True, f"turn cap of {cap} turns reached without a winner"
            stack.clear()
            return
        seat = d.active
        sh = d.ships[seat]
        ctx.emit("turn", f"Turn {d.turn}: {seat_name(seat)}", seat=seat, turn=d.turn)
        d.rulers = []  # the last turn's rulers leave the table
        stack.push(TurnEnd(seat))
        if sh.base is not None:  # SP-TURN-05
            if ctx.cfg["actions_before_departure"]:  # SP-AMB-24 alternative: base actions, then maybe depart
                stack.push(DepartOffer(seat))
                stack.push(BaseStep(seat, sh.base, 0))
            elif can_depart(d, seat):
                stack.push(dec.TurnMode(seat))
            else:
                stack.push(BaseStep(seat, sh.base, 0))
            return
        if d.hands[seat] and first_ruler_exists(d, seat):  # SP-TURN-03
            stack.push(dec.ChooseCard(seat, docked=False))
        elif any_drift(d, seat):  # SP-TURN-04 / SP-DRIFT-01
            stack.push(dec.Drift(seat))
        # else SP-DRIFT-05: no legal drift ruler, the ship stays


def can_depart(d: SPData, seat: int) -> bool:
    """SP-TURN-05: *Depart* needs a card, no fine due and a legal departure ruler."""
    sh = d.ships[seat]
    return sh.base is not None and bool(d.hands[seat]) and not sh.fine_due and first_ruler_exists(d, seat)


@dataclass(frozen=True, slots=True)
class DepartOffer(SPTask):
    """SP-AMB-24 alternative (``actions_before_departure``): after the base actions, stay or depart."""

    seat: int
    kind = "depart_offer"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        if can_depart(ctx.d, self.seat):
            stack.push(dec.TurnMode(self.seat, after_base=True))


@dataclass(frozen=True, slots=True)
class TurnEnd(SPTask):
    """SP-TURN-11 / SP-ADV-STORM-04..06: storm check for the active ship, then pass the main token."""

    seat: int
    kind = "turn_end"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        d = ctx.d
        seat = self.seat
        stack.push(TurnPass(seat))
        sh = d.ships[seat]
        storm = d.storm
        if storm is not None and sh.center is not None and (
                geo.dist(sh.center, storm) < ctx.c.ship_radius + ctx.c.storm_radius - 1e-9):
            stack.push(Damage(seat, "storm"))


@dataclass(frozen=True, slots=True)
class TurnPass(SPTask):
    seat: int
    kind = "turn_pass"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        d = ctx.d
        d.active = left(d, self.seat)  # SP-TURN-01
        stack.push(TurnStart())


def show_card(ctx: Ctx, seat: int, cid: str) -> None:
    """SP-TURN-06: a played card leaves the hand and is shown to all."""
    d = ctx.d
    d.hands[seat].remove(cid)
    ctx.reveal()
    if d.in_play is None:
        d.in_play = cid
    else:
        d.also_played.append(cid)  # SP-AMB-06 alternative (multi_card)
    card = ctx.content.card(cid)
    ctx.emit("card_played", f"{seat_name(seat)} plays {words.energy_card(card.value, card.symbols)}",
             seat=seat, card=cid)


def start_card(ctx: Ctx, seat: int, cid: str, docked: bool) -> None:
    """SP-TURN-06..09: the card is shown, its adventures resolve, then the ship moves."""
    show_card(ctx, seat, cid)
    begin_play(ctx, seat, docked)


def begin_play(ctx: Ctx, seat: int, docked: bool) -> None:
    """Adventures, then the move, then the discard, for the card(s) in play.

    With ``multi_card`` (SP-AMB-06 alternative) the values add up and the symbols of all cards form
    one pool, resolved each exactly once in the player's order as SP-TURN-07 does for one card.
    """
    d = ctx.d
    assert d.in_play is not None
    cards = [ctx.content.card(cid) for cid in (d.in_play, *d.also_played)]
    d.stack.push(AfterMove(seat, docked))
    d.stack.push(MoveBegin(seat, sum(card.value for card in cards), docked))
    d.stack.push(Adventures(seat, tuple(sym for card in cards for sym in card.symbols)))


@dataclass(frozen=True, slots=True)
class Adventures(SPTask):
    """SP-TURN-07: every symbol once, in the player's order."""

    seat: int
    left: tuple[str, ...]
    kind = "adventures"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        rest = self.left
        if not rest:
            return
        if len(set(rest)) > 1:
            stack.push(dec.ChooseAdv(self.seat, rest))
            return
        # one symbol left, or only copies of one (several cards, SP-AMB-06): nothing to choose
        if len(rest) > 1:
            stack.push(Adventures(self.seat, rest[1:]))
        resolve_symbol(ctx, self.seat, rest[0])


def resolve_symbol(ctx: Ctx, seat: int, sym: str) -> None:
    d = ctx.d
    ctx.emit("adventure", f"Adventure: {words.adventure(sym)}", seat=seat, symbol=sym)
    if sym == "FLICK":  # SP-ADV-FLICK-01
        if any(w == "map" and not d.open[t] for t, w in enumerate(d.where)):
            d.stack.push(dec.FlickTarget(seat, "hidden"))
    elif sym == "ASTEROID":  # SP-ADV-AST-01
        if any(w == "map" and d.open[t] for t, w in enumerate(d.where)):
            d.stack.push(dec.FlickTarget(seat, "open"))
    elif sym in ("NEW_RIGHT", "NEW_LEFT"):  # SP-ADV-NEWR-01 / SP-ADV-NEWL-01
        t = draw_token(ctx, seat)
        if t is not None:
            flicker = right(d, seat) if sym == "NEW_RIGHT" else left(d, seat)
            d.stack.push(dec.Flick(flicker, t, sym))
            d.stack.push(dec.Place(seat, t, "new"))
    elif sym == "STORM":  # SP-ADV-STORM-01/03: if no legal position exists, the storm stays
        if any(storm_ok(ctx, p) for p in geo.grid_points(d.layout, 5.0)):
            d.stack.push(dec.PlaceStorm(seat))
    elif sym == "WIND":  # SP-ADV-WIND-01
        d.stack.push(dec.WindDir(seat))


@dataclass(frozen=True, slots=True)
class MoveBegin(SPTask):
    seat: int
    value: int
    departing: bool
    kind = "move_begin"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        d = ctx.d
        seat = self.seat
        sh = d.ships[seat]
        departing = self.departing
        if not departing and sh.base is not None:
            return  # SP-TURN-13: docked by the wind of its own card, no move
        a, heading = nose(d, seat)
        ruler = dec.Ruler(seat, self.value, 0, a, heading, departing, (), (), 0.0, False)
        if departing and not ruler_choices(d, ruler):
            return  # SP-TURN-08: no legal departure ruler left, it stays docked
        stack.push(ruler)


def drift_move(d: SPData, seat: int) -> dec.Ruler:
    """A drift as a one-ruler move from the ship's centre, any direction (SP-DRIFT-02)."""
    return dec.Ruler(seat, 1, 0, d.ships[seat].center, None, False, (), (), 0.0, True)


def ruler_result(d: SPData, task: dec.Ruler, theta: float) -> RulerResult:
    seat = task.seat
    first = task.count == 0
    if task.drift:
        return drift_result(d, seat, theta)
    assert task.anchor is not None and task.prev is not None
    mover = mover_for(d, seat, first=first, prev_dir=turn_limit(d, task), anchor=task.anchor)
    if not (first and task.departing):
        mover = Mover(mover.seat, mover.others, None, first, mover.prev_dir, mover.arrested_target,
                      mover.bases_with_room, mover.dock_stand)
    return geo.check_ruler(d.layout, mover, task.anchor, theta)


def ruler_choices(d: SPData, task: dec.Ruler, steps: tuple[float, ...] = (5.0, 1.0)) -> list[float]:
    """The representative legal ruler angles: a 5° grid (10° for drift), or 1° when that finds none."""
    prev = turn_limit(d, task)
    for step in steps:
        angles = [a for a in ruler_angles(prev, step) if ruler_result(d, task, a).legal]
        if angles:
            return angles
    return []


def commit_ruler(ctx: Ctx, task: dec.Ruler, res: RulerResult) -> None:
    """SP-MOVE-09: a committed ruler is final. Captures, asteroid contacts and docking follow."""
    d = ctx.d
    seat = task.seat
    sh = d.ships[seat]
    extra: dict[str, Any] = {}
    if res.dock_base is not None:  # where the ruler meets the gate: its length if the ship docks (SP-GEO-05)
        extra = {"dock_base": res.dock_base, "entry_end": list(geo.rnd(entry_end(res, ctx.c), 6)),
                 "dock_only": not res.full_legal}
    ctx.emit("ruler", f"{seat_name(seat)} lays a ruler at {res.theta:.1f}°", seat=seat,
             start=list(res.start), end=list(res.end), **extra)
    # on the table as it lies: cut at the gate at once when the ship can only dock (SP-MOVE-12)
    d.rulers.append((res.start, geo.rnd(entry_end(res, ctx.c), 6) if extra.get("dock_only") else res.end))
    if sh.base is not None:  # SP-MOVE-11: leaving the base
        d.docked[sh.base][sh.slot or 0] = None
        sh.base, sh.slot = None, None
    new = replace(task, count=task.count + 1, left=task.left - 1)
    if res.dock_base is not None:  # SP-MOVE-12: "continue" only if the whole ruler is legal
        d.stack.push(dec.DockOffer(seat, res.dock_base, _res_tuple(res), new))
        return
    ruler_effects(ctx, new, res, dock=False)


def entry_end(res: RulerResult, c: Constants) -> XY:
    """The end of an entry ruler cut where it meets the gate (R[0, t_g] of SP-GEO-05)."""
    ux, uy = geo.unit(res.theta)
    length = c.ruler_length * res.dock_fraction
    return (res.start[0] + length * ux, res.start[1] + length * uy)


def _res_tuple(res: RulerResult) -> tuple[Any, ...]:
    return (res.start, res.end, res.theta, res.dock_base, res.full_legal, res.dock_fraction)


def res_from(t: tuple[Any, ...]) -> RulerResult:
    return RulerResult(True, "", "", t[0], t[1], t[2], t[3], t[4], t[5])


def ruler_effects(ctx: Ctx, move: dec.Ruler, res: RulerResult, *, dock: bool) -> None:
    """After a committed ruler: captures in route order (SP-CAPTURE-01/02), open asteroids
    (SP-CAPTURE-07), then the dock or the next ruler."""
    d = ctx.d
    stack = d.stack
    c = ctx.c
    seat = move.seat
    sh = d.ships[seat]
    length = c.ruler_length * (res.dock_fraction if dock else 1.0)
    rect = geo.ruler_rect(res.start, res.theta, c, length)
    if ctx.cfg["capture_geometry"] == "swept_ship":  # SP-AMB-03 alternative
        path = geo.swept_ship_path(res.start, res.theta, length, c)

        def under(p: XY) -> bool:
            return geo.token_under_swept_ship(p, path, c)
    else:
        def under(p: XY) -> bool:
            return geo.token_under_ruler(p, rect, c.token_radius) is not None
    end_c = geo.end_center(res.end, res.theta, c)
    # what follows, bottom of the stack first
    if dock:
        assert res.dock_base is not None
        if d.rulers:  # the entry ruler ends where it met the gate (SP-GEO-05)
            d.rulers[-1] = (d.rulers[-1][0], geo.rnd(entry_end(res, c), 6))
        stack.push(Dock(seat, res.dock_base))
    elif move.left > 0 and not move.drift:
        stack.push(replace(move, anchor=res.end, prev=res.theta))
    else:
        stack.push(EndMove(seat))
    if not dock:
        sh.center, sh.heading = geo.rnd(end_c, c.position_decimals), geo.norm_angle(res.theta)
    hits = set(move.hits)
    for t, w in enumerate(d.where):
        p = d.pos[t]
        if w != "map" or not d.open[t] or t in hits or p is None:
            continue
        touched = geo.token_under_ruler(p, rect, c.token_radius) is not None
        if not dock and geo.dist(p, end_c) < c.token_radius + c.ship_radius - 1e-9:
            touched = True
        if touched:
            hits.add(t)
            stack.push(Damage(seat, "asteroid"))
    # The next ruler keeps what this one touched and offered only while it is on top: a damage pushed
    # above it leaves it as it was (so an asteroid hit now can be hit again by the next ruler).
    nxt = stack.top
    ruler = nxt if isinstance(nxt, dec.Ruler) else None
    if ruler is not None:
        ruler = replace(ruler, hits=tuple(sorted(hits)), route=move.route + c.ruler_length)
    tids: tuple[int, ...] = ()
    if not sh.arrested:  # SP-POLICE-02
        offered = set(move.offered)
        cands = []
        for t, w in enumerate(d.where):
            p = d.pos[t]
            if w != "map" or d.open[t] or t in offered or p is None:
                continue
            if under(p):
                dline, proj = geo.segment_distance(p, res.start, res.end)
                cands.append((move.route + proj * c.ruler_length, dline, t))
        cands.sort()
        tids = tuple(t for *_, t in cands)
        if ruler is not None:
            ruler = replace(ruler, offered=tuple(sorted(offered | set(tids))))
    if ruler is not None:
        stack.replace_top(ruler)
    if tids:
        stack.push(Captures(seat, tids, res.theta))


@dataclass(frozen=True, slots=True)
class Captures(SPTask):
    """SP-CAPTURE-02: one offer at a time; none once the player is arrested (SP-CAPTURE-05)."""

    seat: int
    tids: tuple[int, ...]
    theta: float
    kind = "captures"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        d = ctx.d
        seat = self.seat
        tids = self.tids
        if not tids or d.ships[seat].arrested:
            return
        t = tids[0]
        stack.push(Captures(seat, tids[1:], self.theta))
        if d.where[t] == "map" and not d.open[t]:
            stack.push(dec.CaptureOffer(seat, t, self.theta))


def capture(ctx: Ctx, seat: int, t: int, theta: float) -> None:
    """SP-CAPTURE-03..05."""
    d = ctx.d
    ident = d.ident[t]
    ctx.reveal()  # the capturer turns the token over (and for an asteroid or the police, everyone sees it)
    if ident in CARGO_TYPES:
        d.where[t], d.pos[t], d.holder[t] = "hold", None, seat
        d.known[t] |= 1 << seat
        d.holds[seat].append(t)
        ctx.emit("captured", f"{seat_name(seat)} captures a transport", seat=seat, tid=t)
        ctx.emit("captured_private", f"You capture {words.face(ident)}", to=seat, tid=t, identity=ident)
    elif ident == "ASTEROID":  # SP-CAPTURE-04 / SP-GEO-10
        pickup = d.pos[t]
        assert pickup is not None
        free = free_for_token(d, exclude=t)
        p = geo.asteroid_put_back(d.layout, pickup, theta, free)
        d.pos[t] = geo.rnd(p, ctx.c.position_decimals)
        d.open[t], d.known[t] = True, all_bits(d.n)
        ctx.emit("asteroid_opened", f"{seat_name(seat)} picks up an asteroid", seat=seat, tid=t)
        d.stack.push(Damage(seat, "asteroid"))
    else:  # POLICE: SP-CAPTURE-05 / SP-POLICE-01
        d.where[t], d.pos[t], d.holder[t] = "police", None, seat
        d.known[t] = all_bits(d.n)
        d.police[seat] = t
        d.ships[seat].arrested = True
        ctx.emit("arrested", f"{seat_name(seat)} is arrested by the galactic police", seat=seat, tid=t)


@dataclass(frozen=True, slots=True)
class EndMove(SPTask):
    """SP-MOVE-14 / SP-AMB-57: tokens under the ship's final disc are pushed to the nearest free spot."""

    seat: int
    kind = "end_move"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        push_aside(ctx, self.seat)


def push_aside(ctx: Ctx, seat: int) -> None:
    d = ctx.d
    sh = d.ships[seat]
    if sh.center is None:
        return
    c = ctx.c
    for t in sorted(d.map_tokens()):
        p = d.pos[t]
        if p is not None and geo.dist(p, sh.center) < c.token_radius + c.ship_radius - 0.05:
            free = free_for_token(d, exclude=t)
            d.pos[t] = geo.rnd(geo.nudge(d.layout, p, free), c.position_decimals)


@dataclass(frozen=True, slots=True)
class Dock(SPTask):
    seat: int
    base: int
    kind = "dock"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        dock_ship(ctx, self.seat, self.base)


def dock_ship(ctx: Ctx, seat: int, base: int) -> None:
    """SP-MOVE-12/13: into a free slot; the move ends. Arrested ships pay the fine (SP-POLICE-04/05)."""
    d = ctx.d
    sh = d.ships[seat]
    slot = d.docked[base].index(None)
    d.docked[base][slot] = seat
    sh.base, sh.slot, sh.center, sh.heading = base, slot, None, d.layout.bases[base].normal
    ctx.emit("docked", f"{seat_name(seat)} docks at {d.layout.bases[base].id}", seat=seat, base=base)
    if sh.arrested:
        settle_fine(ctx, seat, base, waive=False)


def settle_fine(ctx: Ctx, seat: int, base: int, *, waive: bool) -> None:
    d = ctx.d
    sh = d.ships[seat]
    if (d.mc[seat] >= ctx.c.fine and ctx.c.fine > 0) or ctx.c.fine == 0:
        pay(ctx, seat, ctx.c.fine, d.owner[base])
        ctx.emit("fine_paid", f"{seat_name(seat)} pays the police fine", seat=seat)
    elif not waive:
        sh.fine_due = True  # SP-POLICE-05: the fine stays due
        return
    else:
        ctx.emit("fine_waived", f"{seat_name(seat)}'s fine is waived", seat=seat)
    t = d.police[seat]
    if t is not None:
        to_bag(d, t)
    d.police[seat] = None
    sh.arrested, sh.fine_due = False, False


@dataclass(frozen=True, slots=True)
class AfterMove(SPTask):
    """SP-TURN-09/10/13: discard the played card; a ship that docked this turn uses the base."""

    seat: int
    was_docked: bool
    kind = "after_move"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        d = ctx.d
        seat = self.seat
        for cid in ([] if d.in_play is None else [d.in_play, *d.also_played]):
            d.discard[ctx.content.card(cid).value].append(cid)
        d.in_play, d.also_played = None, []
        sh = d.ships[seat]
        if sh.base is not None and not self.was_docked:
            stack.push(BaseStep(seat, sh.base, 0))


# ---------------------------------------------------------------------------- bases (SP-BASE)


def can_buy(ctx: Ctx, seat: int, base: int) -> bool:
    d = ctx.d
    return d.owner[base] is None and not d.bought[seat] and d.mc[seat] >= ctx.c.base_price


@dataclass(frozen=True, slots=True)
class BaseStep(SPTask):
    """SP-BASE-01: buy, look, sell, (fine), recharge, strictly in this order."""

    seat: int
    base: int
    step: int
    kind = "base_step"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        d = ctx.d
        seat, base, step = self.seat, self.base, self.step
        if not d.layout.bases[base].inhabited:  # SP-BASE-09
            return
        nxt = BaseStep(seat, base, step + 1)
        if step == 0:
            stack.push(nxt)
            if can_buy(ctx, seat, base):
                stack.push(dec.BaseBuy(seat, base))
        elif step == 1:
            stack.push(nxt)
            if not d.market_up[base] and base not in d.seen_markets[seat]:
                stack.push(dec.BaseLook(seat, base))
        elif step == 2:
            stack.push(nxt)
            if d.holds[seat]:
                stack.push(dec.BaseSell(seat, base))
        elif step == 3:
            stack.push(nxt)
            if d.ships[seat].fine_due:  # SP-POLICE-05
                settle_fine(ctx, seat, base, waive=True)
        elif step == 4:
            stack.push(dec.BaseRecharge(seat, base))


def recharge_options(ctx: Ctx, seat: int, base: int) -> list[int]:
    d = ctx.d
    if d.owner[base] == seat:
        return [0]  # SP-ENERGY-06 / SP-AMB-26: free, 15 points
    return list(range(0, min(ctx.c.max_buy_mc, d.mc[seat]) + 1))


def recharge(ctx: Ctx, seat: int, base: int, k: int) -> int:
    """SP-ENERGY-04..06: hand to discards, empty stacks rebuilt, pay; returns the points bought."""
    d = ctx.d
    if d.hands[seat]:
        ctx.reveal()  # the hand goes face up onto the discard piles
    for cid in d.hands[seat]:
        d.discard[ctx.content.card(cid).value].append(cid)
    d.hands[seat] = []
    for v in range(1, 6):
        if not d.draw[v] and d.discard[v]:
            pile = sorted(d.discard[v])
            chances.shuffle(ctx.st, "shuffle", pile)
            d.draw[v], d.discard[v] = pile, []
    own = d.owner[base] == seat
    if own:
        return ctx.c.own_base_cap
    if k:
        pay(ctx, seat, k * ctx.c.mc_per_5_energy, d.owner[base])
    return min(5 * k, ctx.c.hand_cap)


def take_options(d: SPData, points: int) -> list[int]:
    return [v for v in range(1, 6) if v <= points and d.draw[v]]


# ---------------------------------------------------------------------------- damage (SP-DAMAGE)


def damage_options(d: SPData, seat: int) -> list[tuple[str, int]]:
    opts = [("cargo", t) for t in sorted(d.holds[seat])]
    if d.hands[seat]:
        opts += [("card", s) for s in range(d.n) if s != seat]
    return opts


@dataclass(frozen=True, slots=True)
class Damage(SPTask):
    """SP-DAMAGE-01/02/05: each point paid separately; one option is applied; none is no effect."""

    seat: int
    cause: str
    kind = "damage"

    def run(self, ctx: Ctx, stack: Stack) -> None:
        d = ctx.d
        seat = self.seat
        ctx.emit("damage", f"{seat_name(seat)} takes 1 damage ({self.cause})", seat=seat, cause=self.cause)
        opts = damage_options(d, seat)
        if not opts:
            return
        if len(opts) == 1:
            pay_damage(ctx, seat, *opts[0])
            return
        stack.push(dec.DamagePay(seat))


def pay_damage(ctx: Ctx, seat: int, how: str, arg: int) -> None:
    d = ctx.d
    if how == "cargo":
        d.holds[seat].remove(arg)
        to_bag(d, arg)
        ctx.emit("damage_paid", f"{seat_name(seat)} returns a cargo to the bag", seat=seat)
    else:
        d.stack.push(dec.BlindPick(arg, seat))


def blind_pick(ctx: Ctx, victim: int, index: int) -> None:
    d = ctx.d
    cid = chances.take(ctx.st, "blind") if ctx.st.script else None
    if cid is None:
        hand = sorted(d.hands[victim])
        ctx.rng.shuffle(hand)  # the picker sees only backs: a fresh shuffled presentation
        cid = hand[index]
    elif cid not in d.hands[victim]:
        raise ScenarioError(f"chance.blind: seat {victim} holds no {cid}")
    ctx.reveal()
    d.hands[victim].remove(cid)
    d.discard[ctx.content.card(cid).value].append(cid)
    lost = ctx.content.card(cid)
    ctx.emit("card_lost", f"{seat_name(victim)} loses {words.energy_card(lost.value, lost.symbols)}", seat=victim,
             card=cid)


# ---------------------------------------------------------------------------- flicks (SP-FLICK)


def resolve_flick(ctx: Ctx, task: dec.Flick, angle: float, strength: float,
                  flick_resolver: FlickResolver | None = None) -> tuple[float, float, FlickOutcome]:
    """The flick's physical result, before the rules apply it: the dexterity noise (SP-PHYS-05) drawn
    from the game's RNG, then the resolver (the game's own unless one is given, e.g. one that records
    the path for the browser's animation). Returns the noisy angle and strength and the outcome.

    A scenario's scripted ``flick`` outcome replaces both: no noise, no physics, no draw from the RNG."""
    d = ctx.d
    scripted = chances.take(ctx.st, "flick") if ctx.st.script else None
    if scripted is not None:
        return angle, strength, scripted_flick(d, task.tid, scripted)
    level = flick_noise(ctx.st.config, task.seat)
    na, ns = apply_noise(angle, strength, level, ctx.rng)
    physics = flick_resolver or PymunkFlickResolver()
    out = physics.resolve(d.layout, d.ship_positions(), d.map_tokens(), task.tid, na, ns, ctx.rng,
                          walled=ctx.cfg["walled_border"])
    return na, ns, out


def scripted_flick(d: SPData, tid: int, outcome: dict[str, Any]) -> FlickOutcome:
    """A scenario's flick outcome (checked in form by ``scenario.flick_outcome``) against the table now."""
    on_map = {t for t, w in enumerate(d.where) if w == "map"}
    named = set(outcome["rest"]) | set(outcome["exits"]) | set(outcome["turned_over"])
    named |= {ct["token"] for ct in outcome["contacts"]}
    if tid not in on_map or not named <= on_map:
        raise ScenarioError(f"chance.flick: token(s) {sorted(named - on_map)} or the flicked token {tid} "
                            f"are not on the map")
    if set(outcome["rest"]) & set(outcome["exits"]):
        raise ScenarioError("chance.flick: a token cannot both rest on the field and leave it")
    return FlickOutcome(rest=dict(outcome["rest"]), exits=dict(outcome["exits"]),
                        contacts=[Contact(**ct) for ct in outcome["contacts"]],
                        turned_over=set(outcome["turned_over"]))


def do_flick(ctx: Ctx, task: dec.Flick, angle: float, strength: float) -> None:
    d = ctx.d
    t, flicker = task.tid, task.seat
    na, ns, out = resolve_flick(ctx, task, angle, strength)
    apply_flick_outcome(ctx, t, flicker, out, task.cause)
    d.last_flick = {"tid": t, "flicker": flicker, "input": [angle, strength],
                    "noisy": [round(na, 6), round(ns, 6)], "turned_over": sorted(out.turned_over),
                    "exits": sorted(out.exits)}
    if ctx.st.events is not None:  # the log keeps the applied result, rounded, not just the input
        rest = {str(k): list(p) for k, p in sorted(out.rest.items())}
        ctx.emit("flick", f"{seat_name(flicker)} flicks token {t}", rest=rest, **d.last_flick)


def apply_flick_outcome(ctx: Ctx, t: int, flicker: int, out: FlickOutcome, cause: str) -> None:
    """SP-FLICK-13: (1) put back, (2) turn-over reveals, (3) ship contacts, (4) flicker penalty."""
    d = ctx.d
    c = ctx.c
    lay = d.layout
    dec = c.position_decimals
    for tid, p in out.rest.items():
        d.pos[tid] = p
    # (1) out-of-field tokens (SP-FLICK-06, SP-GEO-09) and tokens left on an element (SP-FLICK-07)
    for tid in sorted(out.exits):
        target = geo.put_back_from_edge(lay, out.exits[tid])
        d.pos[tid] = geo.rnd(geo.nudge(lay, target, free_for_token(d, exclude=tid)), dec)
    for tid in sorted(set(out.rest) | set(out.exits)):
        here = d.pos[tid]
        if here is not None and not free_for_token(d, exclude=tid)(here):
            d.pos[tid] = geo.rnd(geo.nudge(lay, here, free_for_token(d, exclude=tid)), dec)
    # (2) SP-FLICK-05: a turned-over token is seen by all, then lies as before
    for tid in sorted(out.turned_over):
        ctx.reveal()
        d.known[tid] = all_bits(d.n)
        ctx.emit("revealed", f"Token {tid} turns over: {words.face(d.ident[tid])}", tid=tid, identity=d.ident[tid])
    damages: list[tuple[int, str]] = []
    # (3) ship contacts in time order, at most once per token and ship (SP-FLICK-09..12)
    seen: set[tuple[int, int]] = set()
    for ct in sorted(out.contacts, key=lambda k: (k.time, k.token)):
        ship: int | None = None
        if ct.kind == "ship":
            ship = int(ct.other)
        elif ct.kind == "base" and ct.point is not None and not ctx.cfg["docked_ships_immune_to_tokens"]:
            ship = docked_ship_hit(d, int(ct.other), ct.struck or ct.point, c.eps_touch)
        if ship is None or (ct.token, ship) in seen:
            continue
        seen.add((ct.token, ship))
        tid = ct.token
        if d.open[tid]:  # SP-FLICK-10
            damages.append((ship, "asteroid"))
        else:  # SP-FLICK-09
            ctx.reveal()
            d.known[tid] |= 1 << ship
            if d.ident[tid] == "ASTEROID":
                d.open[tid], d.known[tid] = True, all_bits(d.n)
                ctx.emit("asteroid_opened", f"an asteroid hits {seat_name(ship)}", tid=tid, seat=ship)
                damages.append((ship, "asteroid"))
            else:
                ctx.emit("token_seen", f"Token {tid} touches your ship: {words.face(d.ident[tid])}", to=ship, tid=tid)
                if cause == "setup" and ctx.cfg["setup_hit_always_damages"]:  # SP-AMB-09 alternative
                    damages.append((ship, "setup hit"))
    # (4) SP-FLICK-04: at most one penalty, for the flicked token only (SP-AMB-11/13; the alternatives
    # penalty_for_pushed_tokens and bases_are_elements are options, SP-AMB-13/17)
    faulty = {t}
    if ctx.cfg["penalty_for_pushed_tokens"]:
        faulty |= set(out.rest) | set(out.exits)
    hard = ("element", "base") if ctx.cfg["bases_are_elements"] else ("element",)
    touched_element = any(ct.token in faulty and ct.kind in hard for ct in out.contacts)
    if faulty & (set(out.exits) | out.turned_over) or touched_element:
        damages.append((flicker, "flicker penalty"))
    for seat, cause_ in reversed(damages):
        d.stack.push(Damage(seat, cause_))


def docked_ship_hit(d: SPData, base: int, point: XY, eps: float) -> int | None:
    """SP-FLICK-12: a touch on the gate of a base with docked ships hits the nearest docked ship.

    ``point`` is where the token struck: the physics' contact point (a point of the token already inside
    the base, by as far as it moved into it in the last step, up to about 0.4 cm) traced back along the
    token's velocity to the outline (``Contact.struck``); a scripted outcome gives the contact point
    alone. The token touched the base where that point is nearest to the base's outline
    (``geo.struck_point``), so it touched the gate iff that boundary point lies on the gate: no tolerance
    that some speed or slant would outrun.
    """
    b = d.layout.bases[base]
    struck = geo.struck_point(b, point)
    if geo.segment_distance(struck, *b.gate_ends)[0] > eps:
        return None
    best: tuple[float, int] | None = None
    for slot, seat in enumerate(d.docked[base]):
        if seat is not None:
            key = (geo.dist(point, b.slots[slot]), seat)
            if best is None or key < best:
                best = key
    return None if best is None else best[1]


# ---------------------------------------------------------------------------- storm (the wind: wind.py)


def storm_problem(d: SPData, p: XY) -> str | None:
    """SP-ADV-STORM-02/03: why the active player may not put the storm at ``p``, or ``None``.

    Every other player's ship counts, docked ones too (``ship_obstacles``: their slot centres).
    """
    problem = geo.storm_problem(d.layout, p, ship_obstacles(d, d.active))
    if problem is None and d.storm is not None and geo.dist(p, d.storm) < 0.01:  # SP-AMB-32
        problem = "the storm must move"
    return problem


def storm_ok(ctx: Ctx, p: XY) -> bool:
    return storm_problem(ctx.d, p) is None
