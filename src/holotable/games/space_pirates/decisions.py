"""Space Pirates' decisions: each a frozen dataclass that knows its legal actions, their check and their effect.

The game (``rules.py``) asks the decision on top of the stack; ``apply`` runs after the decision
has been popped, then the flow (``flow.py``) goes on. Rule IDs refer to ``shared/specs/space-pirates.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from holotable.engine import IllegalActionError, State
from holotable.engine.words import seat_name

from . import flow, words
from . import geometry as geo
from .actions import SPAction
from .data import content_for
from .state import SPData
from .tasks import Ctx, SPDecision
from .wind import blow

SP = State[SPData, SPAction]
FLICK_ANGLES = tuple(float(a) for a in range(-165, 181, 15))
FLICK_STRENGTHS = (0.15, 0.3, 0.45, 0.6, 0.8)


def _illegal(msg: str, rule: str) -> IllegalActionError:
    return IllegalActionError(msg, rule=rule)


def _want(action: SPAction, *verbs: str) -> None:
    if action.verb not in verbs:
        raise _illegal(f"expected {' / '.join(verbs)} now, not {action.verb!r}", "SP-TURN-03")


def _point(action: SPAction) -> tuple[float, float]:
    assert isinstance(action.a, float) and isinstance(action.b, float)
    return (action.a, action.b)


def _ctx(st: SP) -> Ctx:
    return Ctx(st, content_for(st.config))


# ---------------------------------------------------------------------------- set-up


@dataclass(frozen=True, slots=True)
class StartBase(SPDecision):
    """SP-SETUP-09: each player in turn takes an inhabited base with a free slot."""

    seat: int
    kind = "start_base"

    def legal(self, st: SP) -> list[SPAction]:
        d = st.data
        return [SPAction("base", b.index) for b in d.layout.bases if b.inhabited and None in d.docked[b.index]]

    def check(self, st: SP, a: SPAction) -> None:
        _want(a, "base")
        if a not in self.legal(st):
            raise _illegal("choose an inhabited base with a free slot", "SP-SETUP-09")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        d = ctx.d
        seat, base = self.seat, int(a.a or 0)
        flow.dock_ship(ctx, seat, base)
        d.seen_markets[seat].add(base)  # SP-SETUP-10
        ctx.reveal()  # the start base's market card, seen by its new owner


def _placement_points(lay: geo.Layout, ships: tuple[geo.XY, ...], tokens: tuple[geo.XY, ...],
                      mode: str) -> tuple[tuple[float, float], ...]:
    return _placement_cached(lay.key, ships, tokens, mode)


@lru_cache(maxsize=256)
def _placement_cached(key: geo.LayoutKey, ships: tuple[geo.XY, ...], tokens: tuple[geo.XY, ...],
                      mode: str) -> tuple[tuple[float, float], ...]:
    lay = geo.build_layout(key)
    c = lay.c
    if mode == "setup":
        best: tuple[float, float, float] | None = None
        for step in (2.0, 1.0):  # a 2 cm grid first (fast); the 1 cm grid only when that finds nothing
            pts = geo.grid_points(lay, step)
            clear = geo.clearance_grid(lay, pts, ships)
            free = [(v, p) for p, v in zip(pts, clear, strict=True)
                    if all(geo.dist(p, t) >= 2 * c.token_radius for t in tokens)]
            ok = [p for v, p in free if v >= c.ruler_length - 1e-9]
            if ok:
                return tuple(ok)
            for v, p in free:
                key_ = (v, -p[0], -p[1])
                if best is None or key_ > best:
                    best = key_
        assert best is not None
        return ((-best[1], -best[2]),)  # SP-AMB-18: no legal point, the point of maximal clearance
    pts = geo.grid_points(lay, 5.0)
    ok = [p for p in pts if geo.token_free(lay, p, ships, tokens)]
    if not ok:
        ok = [p for p in geo.grid_points(lay, 1.0) if geo.token_free(lay, p, ships, tokens)]
    return tuple(ok)


@dataclass(frozen=True, slots=True)
class Place(SPDecision):
    """SP-SETUP-11, SP-ADV-NEWR-01: where a drawn transport goes."""

    seat: int
    tid: int
    mode: str  # "setup" or "new"
    kind = "place"

    def _args(self, st: SP) -> tuple[geo.Layout, tuple[geo.XY, ...], tuple[geo.XY, ...], str]:
        d = st.data
        ships = tuple(d.ship_positions().values())
        tokens = tuple(p for _, p in sorted(d.map_tokens().items()))
        mode = "setup" if self.mode == "setup" or st.config["new_transport_clearance"] == "setup" else "any"
        return d.layout, ships, tokens, mode

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("place", float(x), float(y)) for x, y in _placement_points(*self._args(st))]

    def check(self, st: SP, a: SPAction) -> None:
        _want(a, "place")
        lay, ships, tokens, mode = self._args(st)
        p = _point(a)
        if mode == "setup":
            pts = _placement_points(lay, ships, tokens, mode)
            if geo.setup_placement_legal(lay, p, ships, tokens):
                return
            if len(pts) == 1 and not geo.setup_placement_legal(lay, pts[0], ships, tokens) and p == pts[0]:
                return
            raise _illegal("a transport must be at least one ruler from everything and the edge", "SP-SETUP-11")
        if not geo.token_free(lay, p, ships, tokens):
            raise _illegal("a new transport must lie inside the field on a free spot", "SP-ADV-NEWR-01")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        flow.place_token(ctx, self.tid, _point(a))
        ctx.emit("token_placed", f"{seat_name(self.seat)} places token {self.tid}", tid=self.tid)


# ---------------------------------------------------------------------------- flicks


@dataclass(frozen=True, slots=True)
class Flick(SPDecision):
    """SP-FLICK-01: ``seat`` flicks token ``tid``; ``cause`` says why (set-up, an adventure, a target mode)."""

    seat: int
    tid: int
    cause: str
    kind = "flick"

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("flick", a, s) for a in FLICK_ANGLES for s in FLICK_STRENGTHS]

    def check(self, st: SP, a: SPAction) -> None:
        _want(a, "flick")
        s = a.b
        if not isinstance(s, float) or not 0.0 <= s <= 1.0:
            raise _illegal("a flick's strength lies between 0 and 1", "SP-FLICK-01")
        weakest = content_for(st.config).constants.min_flick_strength
        if s < weakest:  # SP-AMB-55: a touch that only nudges a token (to see what it touches) is no flick
            raise _illegal(f"a flick needs a strength of at least {weakest:g}: a touch that barely moves the token "
                           "is not a flick", "SP-FLICK-01")
        if not isinstance(a.a, float) or abs(a.a) > 360.0:
            raise _illegal("a flick's angle lies between -360 and 360 degrees", "SP-FLICK-01")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        assert isinstance(a.a, float) and isinstance(a.b, float)
        flow.do_flick(ctx, self, a.a, a.b)


@dataclass(frozen=True, slots=True)
class FlickTarget(SPDecision):
    """SP-ADV-FLICK-01 (a face-down token, mode ``hidden``) / SP-ADV-AST-01 (an open asteroid, ``open``)."""

    seat: int
    mode: str
    kind = "flick_target"

    def legal(self, st: SP) -> list[SPAction]:
        d = st.data
        want_open = self.mode == "open"
        return [SPAction("target", t) for t, w in enumerate(d.where) if w == "map" and d.open[t] == want_open]

    def check(self, st: SP, a: SPAction) -> None:
        _want(a, "target")
        if a not in self.legal(st):
            rule = "SP-ADV-AST-01" if self.mode == "open" else "SP-ADV-FLICK-01"
            raise _illegal("choose a face-down token (FLICK) or an open asteroid (ASTEROID) on the map", rule)

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        ctx.d.stack.push(Flick(self.seat, int(a.a or 0), self.mode))


# ---------------------------------------------------------------------------- turns


@dataclass(frozen=True, slots=True)
class TurnMode(SPDecision):
    """SP-TURN-05: a docked player stays (base actions) or departs (a card)."""

    seat: int
    after_base: bool = False  # the base actions are done (actions_before_departure)
    kind = "turn_mode"
    optional = frozenset({"after_base"})

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("stay"), SPAction("depart")]

    def check(self, st: SP, a: SPAction) -> None:
        if a.verb not in ("stay", "depart"):
            raise _illegal("a docked player chooses stay or depart", "SP-TURN-05")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        d = ctx.d
        seat = self.seat
        sh = d.ships[seat]
        if a.verb == "stay":
            if not self.after_base:
                assert sh.base is not None
                d.stack.push(flow.BaseStep(seat, sh.base, 0))
        else:
            d.stack.push(ChooseCard(seat, docked=True))


@dataclass(frozen=True, slots=True)
class ChooseCard(SPDecision):
    """SP-TURN-03; with multi_card (SP-AMB-06 alternative) more cards, then done."""

    seat: int
    docked: bool
    more: bool = False
    kind = "choose_card"
    optional = frozenset({"more"})

    def legal(self, st: SP) -> list[SPAction]:
        cards = [SPAction("card", cid) for cid in sorted(st.data.hands[self.seat])]
        return [*cards, SPAction("done")] if self.more else cards

    def check(self, st: SP, a: SPAction) -> None:
        if self.more and a.verb == "done":
            return
        _want(a, *(("card", "done") if self.more else ("card",)))
        if a.a not in st.data.hands[self.seat]:
            raise _illegal("play a card from your hand", "SP-TURN-03")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        seat, docked = self.seat, self.docked
        if not ctx.cfg["multi_card"]:
            flow.start_card(ctx, seat, str(a.a), docked)
            return
        # SP-AMB-06 alternative: each card is shown as it is chosen; "done" (or an empty hand) starts the play
        if a.verb == "card":
            flow.show_card(ctx, seat, str(a.a))
            if ctx.d.hands[seat]:
                ctx.d.stack.push(ChooseCard(seat, docked, more=True))
                return
        flow.begin_play(ctx, seat, docked)


@dataclass(frozen=True, slots=True)
class ChooseAdv(SPDecision):
    """SP-TURN-07: which of the card's remaining adventures resolves next."""

    seat: int
    left: tuple[str, ...]
    kind = "choose_adv"

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("adv", s) for s in dict.fromkeys(self.left)]  # copies (multi_card) listed once

    def check(self, st: SP, a: SPAction) -> None:
        _want(a, "adv")
        if a.a not in self.left:
            raise _illegal("choose one of the card's remaining adventures", "SP-TURN-07")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        rest = list(self.left)
        rest.remove(str(a.a))
        ctx.d.stack.push(flow.Adventures(self.seat, tuple(rest)))
        flow.resolve_symbol(ctx, self.seat, str(a.a))


@dataclass(frozen=True, slots=True)
class PlaceStorm(SPDecision):
    """SP-ADV-STORM-01..03."""

    seat: int
    kind = "place_storm"

    def legal(self, st: SP) -> list[SPAction]:
        ctx = _ctx(st)
        return [SPAction("storm", x, y) for x, y in geo.grid_points(st.data.layout, 5.0)
                if flow.storm_ok(ctx, (x, y))]

    def check(self, st: SP, a: SPAction) -> None:
        _want(a, "storm")
        problem = flow.storm_problem(st.data, _point(a))
        if problem is not None:
            raise _illegal(problem, "SP-ADV-STORM-02")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        ctx.d.storm = geo.rnd(_point(a), ctx.c.position_decimals)
        ctx.emit("storm", "the storm moves", at=list(ctx.d.storm))


@dataclass(frozen=True, slots=True)
class WindDir(SPDecision):
    """SP-ADV-WIND-01."""

    seat: int
    kind = "wind_dir"

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("wind", float(a)) for a in range(-170, 181, 10)]

    def check(self, st: SP, a: SPAction) -> None:
        _want(a, "wind")
        if not isinstance(a.a, float) or abs(a.a) > 360.0:
            raise _illegal("a wind direction is an angle in degrees", "SP-ADV-WIND-01")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        assert isinstance(a.a, float)
        blow(ctx, geo.norm_angle(a.a))


# ---------------------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True)
class Ruler(SPDecision):
    """SP-MOVE: the next ruler of a move (or stop). Also the plain form of a move in progress: a dock
    offer carries the move it interrupts, and the bots plan with it."""

    seat: int
    left: int  # rulers still allowed
    count: int  # rulers laid so far
    anchor: geo.XY | None  # where the next ruler starts
    prev: float | None  # the last heading (None for a drift)
    departing: bool
    offered: tuple[int, ...]  # tokens already offered for capture in this move
    hits: tuple[int, ...]  # open asteroids already touched
    route: float  # route length so far (orders the captures, SP-CAPTURE-02)
    drift: bool
    kind = "ruler"

    def laid(self, end: geo.XY, theta: float) -> Ruler:
        """The move after one more ruler ending at ``end`` towards ``theta`` (the bots plan with it;
        the constructor, not ``dataclasses.replace``, as the planner makes thousands)."""
        return Ruler(self.seat, self.left - 1, self.count + 1, end, theta, self.departing, self.offered, self.hits,
                     self.route, self.drift)

    def legal(self, st: SP) -> list[SPAction]:
        out = [SPAction("ruler", a) for a in flow.ruler_choices(st.data, self)]
        if not (self.departing and self.count == 0) or not out:
            out.append(SPAction("stop"))
        return out

    def check(self, st: SP, a: SPAction) -> None:
        if a.verb == "stop":
            if self.departing and self.count == 0 and flow.ruler_choices(st.data, self):
                raise _illegal("a departing ship lays at least one ruler", "SP-TURN-08")
            return
        _want(a, "ruler", "stop")
        assert isinstance(a.a, float)
        if abs(a.a) > 360.0:
            raise _illegal("angles are in degrees", "SP-MOVE-02")
        res = flow.ruler_result(st.data, self, geo.norm_angle(a.a))
        if not res.legal:
            raise _illegal(res.reason, res.rule)

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        if a.verb == "stop":  # SP-MOVE-09
            ctx.d.stack.push(flow.EndMove(self.seat))
            return
        assert isinstance(a.a, float)
        res = flow.ruler_result(ctx.d, self, geo.norm_angle(a.a))
        flow.commit_ruler(ctx, self, res)


@dataclass(frozen=True, slots=True)
class Drift(SPDecision):
    """SP-DRIFT: a ship without a card or a legal first ruler drifts one ruler, any direction."""

    seat: int
    kind = "drift"

    def legal(self, st: SP) -> list[SPAction]:
        task = flow.drift_move(st.data, self.seat)
        return [SPAction("drift", a) for a in flow.ruler_choices(st.data, task, (10.0, 1.0))]

    def check(self, st: SP, a: SPAction) -> None:
        _want(a, "drift")
        assert isinstance(a.a, float)
        if abs(a.a) > 360.0:
            raise _illegal("angles are in degrees", "SP-DRIFT-02")
        res = flow.drift_result(st.data, self.seat, geo.norm_angle(a.a))
        if not res.legal:
            raise _illegal(res.reason, res.rule)

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        assert isinstance(a.a, float)
        theta = geo.norm_angle(a.a)
        res = flow.drift_result(ctx.d, self.seat, theta)
        task = replace(flow.drift_move(ctx.d, self.seat), anchor=res.start)
        ctx.emit("drift", f"{seat_name(self.seat)} drifts", seat=self.seat)
        flow.commit_ruler(ctx, task, res)


@dataclass(frozen=True, slots=True)
class DockOffer(SPDecision):
    """SP-MOVE-12: the ruler reached a gate; dock, or continue if the whole ruler is legal."""

    seat: int
    base: int
    res: tuple[Any, ...]  # the ruler's result (flow.res_from turns it back)
    move: Ruler  # the move as it stands after this ruler
    kind = "dock_offer"

    def legal(self, st: SP) -> list[SPAction]:
        full_legal = self.res[4]
        return [SPAction("dock"), SPAction("continue")] if full_legal else [SPAction("dock")]

    def check(self, st: SP, a: SPAction) -> None:
        if a not in self.legal(st):
            raise _illegal("dock, or continue if the whole ruler stays clear of the base", "SP-MOVE-12")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        flow.ruler_effects(ctx, self.move, flow.res_from(self.res), dock=a.verb == "dock")


@dataclass(frozen=True, slots=True)
class CaptureOffer(SPDecision):
    """SP-CAPTURE-01: capture the face-down token ``tid`` under the ruler, or skip it."""

    seat: int
    tid: int
    theta: float
    kind = "capture_offer"

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("capture"), SPAction("skip")]

    def check(self, st: SP, a: SPAction) -> None:
        if a.verb not in ("capture", "skip"):
            raise _illegal("capture or skip", "SP-CAPTURE-01")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        if a.verb == "capture":
            flow.capture(ctx, self.seat, self.tid, self.theta)


# ---------------------------------------------------------------------------- base actions (SP-BASE)


@dataclass(frozen=True, slots=True)
class _YesSkip(SPDecision):
    """A base action taken or skipped (SP-BASE-01: strictly in order)."""

    seat: int
    base: int
    verb = ""

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction(self.verb), SPAction("skip")]

    def check(self, st: SP, a: SPAction) -> None:
        if a.verb not in (self.verb, "skip"):
            raise _illegal(f"{self.verb} or skip (base actions go strictly in order)", "SP-BASE-01")


@dataclass(frozen=True, slots=True)
class BaseBuy(_YesSkip):
    kind = "base_buy"
    verb = "buy"

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        d = ctx.d
        seat, base = self.seat, self.base
        if a.verb == "buy":  # SP-BASE-02
            flow.pay(ctx, seat, ctx.c.base_price, None)
            d.owner[base], d.owned[seat], d.bought[seat] = seat, base, True
            ctx.emit("base_bought", f"{seat_name(seat)} buys base {d.layout.bases[base].id}", seat=seat, base=base)


@dataclass(frozen=True, slots=True)
class BaseLook(_YesSkip):
    kind = "base_look"
    verb = "look"

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        if a.verb == "look":  # SP-BASE-03
            ctx.d.seen_markets[self.seat].add(self.base)
            ctx.reveal()
            ctx.emit("market_looked", f"{seat_name(self.seat)} looks at the market card", seat=self.seat)


@dataclass(frozen=True, slots=True)
class BaseSell(SPDecision):
    seat: int
    base: int
    kind = "base_sell"

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("sell", t) for t in sorted(st.data.holds[self.seat])] + [SPAction("done")]

    def check(self, st: SP, a: SPAction) -> None:
        if a.verb == "done":
            return
        _want(a, "sell", "done")
        if a.a not in st.data.holds[self.seat]:
            raise _illegal("sell cargo from your own hold", "SP-BASE-04")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        d = ctx.d
        if a.verb == "done":
            return
        seat, base, t = self.seat, self.base, int(a.a or 0)
        card = d.market[base]
        assert card is not None
        price = next(m for m in ctx.content.markets if m.id == card).prices[d.ident[t]]
        d.holds[seat].remove(t)
        ident = d.ident[t]
        ctx.reveal()  # the cargo and the market card are shown to all
        flow.to_bag(d, t)
        got = flow.bank_pays(ctx, seat, price)  # SP-BASE-04 / SP-MONEY-04
        d.market_up[base] = True  # SP-BASE-05
        ctx.emit("sold", f"{seat_name(seat)} sells {words.face(ident)} for {got} MC", seat=seat, identity=ident,
                 price=got)
        if d.holds[seat]:
            d.stack.push(BaseSell(seat, base))


@dataclass(frozen=True, slots=True)
class BaseRecharge(SPDecision):
    seat: int
    base: int
    kind = "base_recharge"

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("recharge", k) for k in flow.recharge_options(_ctx(st), self.seat, self.base)] + [
            SPAction("skip")]

    def check(self, st: SP, a: SPAction) -> None:
        if a.verb == "skip":
            return
        _want(a, "recharge", "skip")
        if a.a not in flow.recharge_options(_ctx(st), self.seat, self.base):
            raise _illegal("buy 0-4 MC of energy that you can pay for (nothing extra at your own base)",
                           "SP-ENERGY-06")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        if a.verb == "skip":
            return
        points = flow.recharge(ctx, self.seat, self.base, int(a.a or 0))
        ctx.emit("recharged", f"{seat_name(self.seat)} recharges for {points} points", seat=self.seat, points=points)
        if flow.take_options(ctx.d, points):
            ctx.d.stack.push(BaseTake(self.seat, points))


@dataclass(frozen=True, slots=True)
class BaseTake(SPDecision):
    seat: int
    points: int
    kind = "base_take"

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("take", v) for v in flow.take_options(st.data, self.points)] + [SPAction("done")]

    def check(self, st: SP, a: SPAction) -> None:
        if a.verb == "done":
            return
        _want(a, "take", "done")
        if a.a not in flow.take_options(st.data, self.points):
            raise _illegal("take from a non-empty draw stack within your remaining points", "SP-ENERGY-07")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        d = ctx.d
        if a.verb == "done":
            return
        v = int(a.a or 0)
        d.hands[self.seat].append(d.draw[v].pop())  # SP-ENERGY-09: from the top
        ctx.reveal()
        left = self.points - v
        if flow.take_options(d, left):
            d.stack.push(BaseTake(self.seat, left))


# ---------------------------------------------------------------------------- damage (SP-DAMAGE)


@dataclass(frozen=True, slots=True)
class DamagePay(SPDecision):
    seat: int
    kind = "damage_pay"

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("pay", how, x) for how, x in flow.damage_options(st.data, self.seat)]

    def check(self, st: SP, a: SPAction) -> None:
        _want(a, "pay")
        if a not in self.legal(st):
            rule = "SP-DAMAGE-03" if a.a == "cargo" else "SP-DAMAGE-01"
            raise _illegal("pay with a cargo of your hold or name another player to pick a card", rule)

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        flow.pay_damage(ctx, self.seat, str(a.a), int(a.b or 0))


@dataclass(frozen=True, slots=True)
class BlindPick(SPDecision):
    """SP-DAMAGE-01: ``seat`` picks one of ``victim``'s face-down cards."""

    seat: int
    victim: int
    kind = "blind_pick"

    def legal(self, st: SP) -> list[SPAction]:
        return [SPAction("pick", i) for i in range(len(st.data.hands[self.victim]))]

    def check(self, st: SP, a: SPAction) -> None:
        _want(a, "pick")
        if a not in self.legal(st):
            raise _illegal("pick one of the face-down cards", "SP-DAMAGE-01")

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        flow.blind_pick(ctx, self.victim, int(a.a or 0))


#: Every decision's kind (the encoder gives each one an input).
DECISION_KINDS = frozenset(cls.kind for cls in (
    StartBase, Place, Flick, FlickTarget, TurnMode, ChooseCard, ChooseAdv, PlaceStorm, WindDir, Ruler, DockOffer,
    CaptureOffer, Drift, BaseBuy, BaseLook, BaseSell, BaseRecharge, BaseTake, DamagePay, BlindPick,
))
