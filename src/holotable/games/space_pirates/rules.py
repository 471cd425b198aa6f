"""Space Pirates' rules (spec ``SP``): the Game subclass, set-up, decisions and their checks.

The flow itself (turns, adventures, moves, bases, damage, flicks, wind) lives in ``flow.py``;
geometry in ``geometry.py``; the pymunk flick simulation in ``physics.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from holotable.engine import (
    Chance,
    Config,
    ConfigError,
    Dynamics,
    Game,
    GameSpec,
    IllegalActionError,
    Information,
    Outcome,
    Param,
    Rng,
    State,
)

from . import actions as act
from . import flow
from . import geometry as geo
from . import scenario as scenarios
from . import view as views
from .actions import SPAction
from .data import CATALOG, Content, Preset, content_for, load_default
from .flow import Ctx, push
from .generator import random_preset
from .state import Ship, SPData

#: The shipped content. The rules read a configuration's own content (``content_for(config)``:
#: this one unless the configuration carries data overrides); module-level choices below take
#: from it only what overrides cannot change (preset and dexterity names, energy card ids).
CONTENT: Content = load_default()
SP = State[SPData, SPAction]
FLICK_ANGLES = tuple(float(a) for a in range(-165, 181, 15))
FLICK_STRENGTHS = (0.15, 0.3, 0.45, 0.6, 0.8)
PRESETS = tuple(sorted(CONTENT.presets))

SPEC = GameSpec(
    name="space-pirates",
    title="Space Pirates",
    min_players=2,
    max_players=4,
    default_players=3,
    dynamics=Dynamics.SEQUENTIAL,
    chance=Chance.SAMPLED,
    information=Information.IMPERFECT,
    rule_prefix="SP",
    description="Flick transports across a cardboard galaxy, chase them with rulers, sell the loot, buy a base.",
    max_game_length=40 * 400,
    data=CATALOG,
    params=(
        Param("preset", None, "str", "board layout; empty = crossroads-60x60 for 2, spiral-80x70 for 3-4",
              choices=(None, *PRESETS), optional=True, assumed="SP-AMB-01"),
        Param("layout_seed", None, "int", "if set, a random legal layout generated from this seed",
              optional=True, minimum=0),
        Param("first_seat", None, "int", "first player; empty = seeded random seat", optional=True, minimum=0,
              assumed="SP-AMB-40"),
        Param("dexterity", "standard", "str", "flick noise level (spec §6.9)",
              choices=tuple(CONTENT.constants.dexterity), assumed="SP-AMB-55"),
        Param("victory", "standard", "str", "20 MC, or the longer variant", choices=("standard", "long")),
        Param("bank", "finite", "str", "a finite 195 MC bank or an unlimited one", choices=("finite", "unlimited"),
              assumed="SP-AMB-29"),
        Param("setup_hit_always_damages", False, "bool", "set-up hits always damage (alternative reading)",
              assumed="SP-AMB-09"),
        Param("new_transport_clearance", "any", "str", "placement rule for new transports",
              choices=("any", "setup"), assumed="SP-AMB-42"),
        Param("walled_border", False, "bool", "the game box as a bouncing border (no token leaves the table)",
              assumed="SP-AMB-15"),
        Param("penalty_for_pushed_tokens", False, "bool", "pushed tokens' faults also penalise the flicker",
              assumed="SP-AMB-13"),
        Param("bases_are_elements", False, "bool", "striking an inhabited base also penalises the flicker",
              assumed="SP-AMB-17"),
        Param("docked_ships_immune_to_tokens", False, "bool", "tokens at an occupied gate hit no docked ship",
              assumed="SP-AMB-62"),
        Param("capture_geometry", "ruler", "str",
              "what a move captures: tokens under the ruler rectangle, or under the ship disc swept along the course",
              choices=("ruler", "swept_ship"), assumed="SP-AMB-03"),
        Param("dock_geometry", "ruler", "str",
              "what docks a ruler move or drift: the ruler reaching the gate, or the ship disc swept along the course",
              choices=("ruler", "stand"), assumed="SP-AMB-23"),
        Param("actions_before_departure", False, "bool",
              "a docked ship may use the base actions and then depart in the same turn", assumed="SP-AMB-24"),
        Param("multi_card", False, "bool",
              "several energy cards a turn: values added, every adventure resolved", assumed="SP-AMB-06"),
        # SP-AMB-59: no limit in play (the table default), a cap for simulations, tests and RL
        Param("turn_cap", CONTENT.constants.sim_turn_cap, "int",
              "turns after which a game ends without a winner; 0 or empty = no limit (the default at a table)",
              optional=True, minimum=0, assumed="SP-AMB-59", table_default=0),
    ),
)


def preset_for(config: Config) -> Preset:
    seed = config["layout_seed"]
    if seed is not None:
        return random_preset(content_for(config), config.players, seed)
    name = config["preset"] or ("crossroads-60x60" if config.players == 2 else "spiral-80x70")
    return CONTENT.presets[name]


def new_data(config: Config, rng: Rng, preset: Preset) -> SPData:
    content = content_for(config)
    c = content.constants
    n = config.players
    key = geo.layout_key(preset, n, content)
    lay = geo.build_layout(key)
    tokens = list(content.tokens)
    first = config["first_seat"]
    if first is None:
        first = rng.randrange(n)  # SP-SETUP-08 / SP-AMB-40
    elif first >= n:
        raise ConfigError(f"first_seat {first} is not a seat of a {n}-player game")
    # SP-SETUP-05: each value shuffled separately (top of a stack = end of its list)
    draw = {v: sorted(card.id for card in content.energy if card.value == v) for v in range(1, 6)}
    for v in range(1, 6):
        rng.shuffle(draw[v])
    hands: list[list[str]] = [[] for _ in range(n)]
    for s in range(n):
        for v in range(1, 6):  # SP-SETUP-07: one card of each value, 15 points
            hands[s].append(draw[v].pop())
    markets = [m.id for m in content.markets]
    rng.shuffle(markets)  # SP-SETUP-04
    market: list[str | None] = [None] * len(lay.bases)
    for b in lay.bases:
        if b.inhabited:
            market[b.index] = markets.pop()
    bank = c.bank_total - n * c.start_mc  # SP-SETUP-06
    d = SPData(
        n=n, layout_key=key, layout=lay, ident=tokens, where=["bag"] * len(tokens), pos=[None] * len(tokens),
        open=[False] * len(tokens), known=[0] * len(tokens), holder=[None] * len(tokens),
        ships=[Ship() for _ in range(n)], mc=[c.start_mc] * n, hands=hands, holds=[[] for _ in range(n)],
        police=[None] * n, owned=[None] * n, seen_markets=[set() for _ in range(n)], draw=draw,
        discard={v: [] for v in range(1, 6)}, in_play=None, bank=bank, owner=[None] * len(lay.bases),
        market=market, market_up=[False] * len(lay.bases), docked=[[None, None] for _ in lay.bases],
        market_out=sorted(markets), active=first, first_seat=first, bought=[False] * n,
        dock_stand=config["dock_geometry"] == "stand",
    )
    d.sort_bag()
    push(d, "setup_draw")
    for i in reversed(range(n)):  # SP-SETUP-09: start bases in seat order from the first player
        push(d, "start_base", seat=(first + i) % n)
    return d


class SpacePirates(Game[SPData, SPAction]):
    spec: ClassVar[GameSpec] = SPEC
    #: The shipped content; a configuration plays with ``content_for(config)``.
    content = CONTENT

    # ------------------------------------------------------------------ set-up
    def setup(self, config: Config, rng: Rng) -> SPData:
        return new_data(config, rng, preset_for(config))

    def copy_data(self, data: SPData) -> SPData:
        return data.copy()

    def arrange(self, st: SP, arrangement: Mapping[str, Any]) -> None:
        scenarios.arrange(st, arrangement)

    def chance_events(self, st: SP) -> Mapping[str, Any]:
        return scenarios.chance_events(st)

    # ------------------------------------------------------------------ flow
    def ctx(self, st: SP) -> Ctx:
        return Ctx(st, content_for(st.config))

    def decision(self, st: SP) -> dict[str, Any] | None:
        d = st.data
        if d.over or not d.stack:
            return None
        top = d.stack[-1]
        return top if top["kind"] in flow.DECISIONS else None

    def to_move(self, st: SP) -> tuple[int, ...]:
        dec = self.decision(st)
        return () if dec is None else (dec["seat"],)

    def sealed(self, st: SP) -> bool:
        return False

    def legal_actions(self, st: SP, seat: int) -> Sequence[SPAction]:
        dec = self.decision(st)
        if dec is None or dec["seat"] != seat:
            return ()
        return tuple(LEGAL[dec["kind"]](self, st, dec))

    def check(self, st: SP, seat: int, action: SPAction) -> None:
        dec = self.decision(st)
        if dec is None or dec["seat"] != seat:  # pragma: no cover - the engine checks to_move first
            raise IllegalActionError("it is not your decision", rule="SP-COMP-03")
        CHECK[dec["kind"]](self, st, dec, action)

    def apply(self, st: SP, seat: int, action: SPAction) -> None:
        d = st.data
        dec = d.stack.pop()
        ctx = self.ctx(st)
        APPLY[dec["kind"]](self, ctx, dec, action)
        flow.advance(ctx)

    def is_terminal(self, st: SP) -> bool:
        return st.data.over

    def outcome(self, st: SP) -> Outcome:
        d = st.data
        if d.winner is None:  # SP-AMB-59: the turn cap, no winner
            ranks = tuple(1 for _ in range(d.n))
        else:
            ranks = tuple(1 if s == d.winner else 2 for s in range(d.n))
        return Outcome(scores=tuple(float(m) for m in d.mc), ranks=ranks, reason=d.reason or "game over",
                       details={"mc": list(d.mc), "owned": list(d.owned)})

    # ------------------------------------------------------------------ information
    def view(self, st: SP, seat: int | None) -> dict[str, Any]:
        return views.view(st, seat)

    def full(self, st: SP) -> dict[str, Any]:
        return st.data.to_dict()

    def determinize(self, st: SP, seat: int, rng: Rng) -> None:
        views.determinize(st, seat, rng)

    # ------------------------------------------------------------------ actions
    def parse_action(self, text: str) -> SPAction:
        return act.parse(text)

    def is_action(self, action: object) -> bool:
        return act.is_action(action)

    def num_actions(self, config: Config) -> int:
        return index_space(config).size

    def action_index(self, action: SPAction) -> int:
        return _space_for(action).index(action)

    def index_action(self, index: int) -> SPAction:
        return LAST_SPACE[0].action(index)


@lru_cache(maxsize=32)
def _index_space_for(w: int, h: int) -> act.IndexSpace:
    # Card ids are names, never data overrides, so the shipped deck's ids serve every configuration.
    return act.IndexSpace(w, h, tuple(c.id for c in CONTENT.energy))


#: The largest field of any layout bounds every configuration's grid, so one space serves all.
MAX_FIELD = (100, 100)
LAST_SPACE = [_index_space_for(*MAX_FIELD)]


def index_space(config: Config) -> act.IndexSpace:
    return LAST_SPACE[0]


def _space_for(action: SPAction) -> act.IndexSpace:
    return LAST_SPACE[0]


# ---------------------------------------------------------------------------- per-decision rules


def _illegal(msg: str, rule: str) -> IllegalActionError:
    return IllegalActionError(msg, rule=rule)


def _want(action: SPAction, *verbs: str) -> None:
    if action.verb not in verbs:
        raise _illegal(f"expected {' / '.join(verbs)} now, not {action.verb!r}", "SP-TURN-03")


def _point(action: SPAction) -> tuple[float, float]:
    assert isinstance(action.a, float) and isinstance(action.b, float)
    return (action.a, action.b)


# start base (SP-SETUP-09)
def l_start_base(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    d = st.data
    return [SPAction("base", b.index) for b in d.layout.bases if b.inhabited and None in d.docked[b.index]]


def c_start_base(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    _want(a, "base")
    if a not in l_start_base(g, st, dec):
        raise _illegal("choose an inhabited base with a free slot", "SP-SETUP-09")


def a_start_base(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    d = ctx.d
    seat, base = dec["seat"], int(a.a or 0)
    flow.dock_ship(ctx, seat, base)
    d.seen_markets[seat].add(base)  # SP-SETUP-10
    ctx.reveal()  # the start base's market card, seen by its new owner

# placing a token (SP-SETUP-11, SP-ADV-NEWR-01)
def _placement_mode(st: SP, dec: dict[str, Any]) -> str:
    if dec["mode"] == "setup" or st.config["new_transport_clearance"] == "setup":
        return "setup"
    return "any"


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


def _place_args(st: SP, dec: dict[str, Any]) -> tuple[geo.Layout, tuple[geo.XY, ...], tuple[geo.XY, ...], str]:
    d = st.data
    ships = tuple(d.ship_positions().values())
    tokens = tuple(p for _, p in sorted(d.map_tokens().items()))
    return d.layout, ships, tokens, _placement_mode(st, dec)


def l_place(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    return [SPAction("place", float(x), float(y)) for x, y in _placement_points(*_place_args(st, dec))]


def c_place(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    _want(a, "place")
    lay, ships, tokens, mode = _place_args(st, dec)
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


def a_place(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    flow.place_token(ctx, dec["tid"], _point(a))
    ctx.emit("token_placed", f"seat {dec['seat']} places token {dec['tid']}", tid=dec["tid"])


# flick (SP-FLICK-01)
def l_flick(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    return [SPAction("flick", a, s) for a in FLICK_ANGLES for s in FLICK_STRENGTHS]


def c_flick(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
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


def a_flick(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    assert isinstance(a.a, float) and isinstance(a.b, float)
    flow.do_flick(ctx, dec, a.a, a.b)


# flick target (SP-ADV-FLICK-01, SP-ADV-AST-01)
def l_flick_target(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    d = st.data
    want_open = dec["mode"] == "open"
    return [SPAction("target", t) for t, w in enumerate(d.where) if w == "map" and d.open[t] == want_open]


def c_flick_target(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    _want(a, "target")
    if a not in l_flick_target(g, st, dec):
        rule = "SP-ADV-AST-01" if dec["mode"] == "open" else "SP-ADV-FLICK-01"
        raise _illegal("choose a face-down token (FLICK) or an open asteroid (ASTEROID) on the map", rule)


def a_flick_target(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    push(ctx.d, "flick", seat=dec["seat"], tid=int(a.a or 0), cause=dec["mode"])


# turn mode (SP-TURN-05)
def l_turn_mode(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    return [SPAction("stay"), SPAction("depart")]


def c_turn_mode(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    if a.verb not in ("stay", "depart"):
        raise _illegal("a docked player chooses stay or depart", "SP-TURN-05")


def a_turn_mode(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    d = ctx.d
    seat = dec["seat"]
    sh = d.ships[seat]
    if a.verb == "stay":
        if not dec.get("after_base"):  # after_base: the base actions are done (actions_before_departure)
            push(d, "base_step", seat=seat, base=sh.base, step=0)
    else:
        push(d, "choose_card", seat=seat, docked=True)


# card (SP-TURN-03); with multi_card (SP-AMB-06 alternative) more cards, then done
def l_choose_card(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    cards = [SPAction("card", cid) for cid in sorted(st.data.hands[dec["seat"]])]
    return [*cards, SPAction("done")] if dec.get("more") else cards


def c_choose_card(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    if dec.get("more") and a.verb == "done":
        return
    _want(a, *(("card", "done") if dec.get("more") else ("card",)))
    if a.a not in st.data.hands[dec["seat"]]:
        raise _illegal("play a card from your hand", "SP-TURN-03")


def a_choose_card(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    seat, docked = dec["seat"], dec["docked"]
    if not ctx.cfg["multi_card"]:
        flow.start_card(ctx, seat, str(a.a), docked)
        return
    # SP-AMB-06 alternative: each card is shown as it is chosen; "done" (or an empty hand) starts the play
    if a.verb == "card":
        flow.show_card(ctx, seat, str(a.a))
        if ctx.d.hands[seat]:
            push(ctx.d, "choose_card", seat=seat, docked=docked, more=True)
            return
    flow.begin_play(ctx, seat, docked)


# adventure order (SP-TURN-07)
def l_choose_adv(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    return [SPAction("adv", s) for s in dict.fromkeys(dec["left"])]  # copies (multi_card) listed once


def c_choose_adv(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    _want(a, "adv")
    if a.a not in dec["left"]:
        raise _illegal("choose one of the card's remaining adventures", "SP-TURN-07")


def a_choose_adv(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    rest = list(dec["left"])
    rest.remove(str(a.a))
    push(ctx.d, "adventures", seat=dec["seat"], left=tuple(rest))
    flow.resolve_symbol(ctx, dec["seat"], str(a.a))


# storm (SP-ADV-STORM-01..03)
def l_place_storm(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    ctx = g.ctx(st)
    return [SPAction("storm", x, y) for x, y in geo.grid_points(st.data.layout, 5.0) if flow.storm_ok(ctx, (x, y))]


def c_place_storm(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    _want(a, "storm")
    if not flow.storm_ok(g.ctx(st), _point(a)):
        raise _illegal("the storm must lie inside the field, off elements and other ships, and move",
                       "SP-ADV-STORM-02")


def a_place_storm(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    ctx.d.storm = geo.rnd(_point(a), ctx.c.position_decimals)
    ctx.emit("storm", "the storm moves", at=list(ctx.d.storm))


# wind (SP-ADV-WIND-01)
def l_wind(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    return [SPAction("wind", float(a)) for a in range(-170, 181, 10)]


def c_wind(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    _want(a, "wind")
    if not isinstance(a.a, float) or abs(a.a) > 360.0:
        raise _illegal("a wind direction is an angle in degrees", "SP-ADV-WIND-01")


def a_wind(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    assert isinstance(a.a, float)
    flow.wind(ctx, geo.norm_angle(a.a))


# rulers (SP-MOVE)
def l_ruler(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    out = [SPAction("ruler", a) for a in flow.ruler_choices(st.data, dec)]
    if not (dec["departing"] and dec["count"] == 0) or not out:
        out.append(SPAction("stop"))
    return out


def c_ruler(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    if a.verb == "stop":
        if dec["departing"] and dec["count"] == 0 and flow.ruler_choices(st.data, dec):
            raise _illegal("a departing ship lays at least one ruler", "SP-TURN-08")
        return
    _want(a, "ruler", "stop")
    assert isinstance(a.a, float)
    if abs(a.a) > 360.0:
        raise _illegal("angles are in degrees", "SP-MOVE-02")
    res = flow.ruler_result(st.data, dec, geo.norm_angle(a.a))
    if not res.legal:
        raise _illegal(res.reason, res.rule)


def a_ruler(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    if a.verb == "stop":  # SP-MOVE-09
        push(ctx.d, "end_move", seat=dec["seat"])
        return
    assert isinstance(a.a, float)
    res = flow.ruler_result(ctx.d, dec, geo.norm_angle(a.a))
    flow.commit_ruler(ctx, dec, res)


# drift (SP-DRIFT)
def l_drift(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    task = _drift_task(st.data, dec["seat"])
    return [SPAction("drift", a) for a in flow.ruler_choices(st.data, task, (10.0, 1.0))]


def _drift_task(d: SPData, seat: int) -> dict[str, Any]:
    sh = d.ships[seat]
    return {"seat": seat, "left": 1, "count": 0, "anchor": sh.center, "prev": None, "departing": False,
            "offered": (), "hits": (), "route": 0.0, "drift": True}


def c_drift(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    _want(a, "drift")
    assert isinstance(a.a, float)
    if abs(a.a) > 360.0:
        raise _illegal("angles are in degrees", "SP-DRIFT-02")
    res = flow.drift_result(st.data, dec["seat"], geo.norm_angle(a.a))
    if not res.legal:
        raise _illegal(res.reason, res.rule)


def a_drift(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    assert isinstance(a.a, float)
    theta = geo.norm_angle(a.a)
    res = flow.drift_result(ctx.d, dec["seat"], theta)
    task = _drift_task(ctx.d, dec["seat"])
    task["anchor"] = res.start
    ctx.emit("drift", f"seat {dec['seat']} drifts", seat=dec["seat"])
    flow.commit_ruler(ctx, task, res)


# dock offer (SP-MOVE-12)
def l_dock_offer(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    full_legal = dec["res"][4]
    return [SPAction("dock"), SPAction("continue")] if full_legal else [SPAction("dock")]


def c_dock_offer(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    if a not in l_dock_offer(g, st, dec):
        raise _illegal("dock, or continue if the whole ruler stays clear of the base", "SP-MOVE-12")


def a_dock_offer(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    flow.ruler_effects(ctx, dict(dec["move"]), flow.res_from(dec["res"]), dock=a.verb == "dock")


# capture offer (SP-CAPTURE-01)
def l_capture_offer(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    return [SPAction("capture"), SPAction("skip")]


def c_capture_offer(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    if a.verb not in ("capture", "skip"):
        raise _illegal("capture or skip", "SP-CAPTURE-01")


def a_capture_offer(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    if a.verb == "capture":
        flow.capture(ctx, dec["seat"], dec["tid"], dec["theta"])


# base actions (SP-BASE)
def l_yes_skip(verb: str) -> Any:
    def legal(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
        return [SPAction(verb), SPAction("skip")]

    return legal


def c_yes_skip(verb: str, rule: str) -> Any:
    def check(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
        if a.verb not in (verb, "skip"):
            raise _illegal(f"{verb} or skip (base actions go strictly in order)", rule)

    return check


def a_base_buy(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    d = ctx.d
    seat, base = dec["seat"], dec["base"]
    if a.verb == "buy":  # SP-BASE-02
        flow.pay(ctx, seat, ctx.c.base_price, None)
        d.owner[base], d.owned[seat], d.bought[seat] = seat, base, True
        ctx.emit("base_bought", f"seat {seat} buys base {d.layout.bases[base].id}", seat=seat, base=base)


def a_base_look(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    if a.verb == "look":  # SP-BASE-03
        ctx.d.seen_markets[dec["seat"]].add(dec["base"])
        ctx.reveal()
        ctx.emit("market_looked", f"seat {dec['seat']} looks at the market card", seat=dec["seat"])


def l_base_sell(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    return [SPAction("sell", t) for t in sorted(st.data.holds[dec["seat"]])] + [SPAction("done")]


def c_base_sell(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    if a.verb == "done":
        return
    _want(a, "sell", "done")
    if a.a not in st.data.holds[dec["seat"]]:
        raise _illegal("sell cargo from your own hold", "SP-BASE-04")


def a_base_sell(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    d = ctx.d
    if a.verb == "done":
        return
    seat, base, t = dec["seat"], dec["base"], int(a.a or 0)
    card = d.market[base]
    assert card is not None
    price = next(m for m in ctx.content.markets if m.id == card).prices[d.ident[t]]
    d.holds[seat].remove(t)
    ident = d.ident[t]
    ctx.reveal()  # the cargo and the market card are shown to all
    flow.to_bag(d, t)
    got = flow.bank_pays(ctx, seat, price)  # SP-BASE-04 / SP-MONEY-04
    d.market_up[base] = True  # SP-BASE-05
    ctx.emit("sold", f"seat {seat} sells {ident} for {got} MC", seat=seat, identity=ident, price=got)
    if d.holds[seat]:
        push(d, "base_sell", seat=seat, base=base)


def l_base_recharge(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    ctx = g.ctx(st)
    return [SPAction("recharge", k) for k in flow.recharge_options(ctx, dec["seat"], dec["base"])] + [
        SPAction("skip")]


def c_base_recharge(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    if a.verb == "skip":
        return
    _want(a, "recharge", "skip")
    if a.a not in flow.recharge_options(g.ctx(st), dec["seat"], dec["base"]):
        raise _illegal("buy 0-4 MC of energy that you can pay for (nothing extra at your own base)",
                       "SP-ENERGY-06")


def a_base_recharge(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    if a.verb == "skip":
        return
    points = flow.recharge(ctx, dec["seat"], dec["base"], int(a.a or 0))
    ctx.emit("recharged", f"seat {dec['seat']} recharges for {points} points", seat=dec["seat"], points=points)
    if flow.take_options(ctx.d, points):
        push(ctx.d, "base_take", seat=dec["seat"], points=points)


def l_base_take(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    return [SPAction("take", v) for v in flow.take_options(st.data, dec["points"])] + [SPAction("done")]


def c_base_take(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    if a.verb == "done":
        return
    _want(a, "take", "done")
    if a.a not in flow.take_options(st.data, dec["points"]):
        raise _illegal("take from a non-empty draw stack within your remaining points", "SP-ENERGY-07")


def a_base_take(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    d = ctx.d
    if a.verb == "done":
        return
    v = int(a.a or 0)
    d.hands[dec["seat"]].append(d.draw[v].pop())  # SP-ENERGY-09: from the top
    ctx.reveal()
    left = dec["points"] - v
    if flow.take_options(d, left):
        push(d, "base_take", seat=dec["seat"], points=left)


# damage (SP-DAMAGE)
def l_damage_pay(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    return [SPAction("pay", how, x) for how, x in flow.damage_options(st.data, dec["seat"])]


def c_damage_pay(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    _want(a, "pay")
    if a not in l_damage_pay(g, st, dec):
        rule = "SP-DAMAGE-03" if a.a == "cargo" else "SP-DAMAGE-01"
        raise _illegal("pay with a cargo of your hold or name another player to pick a card", rule)


def a_damage_pay(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    flow.pay_damage(ctx, dec["seat"], str(a.a), int(a.b or 0))


def l_blind_pick(g: SpacePirates, st: SP, dec: dict[str, Any]) -> list[SPAction]:
    return [SPAction("pick", i) for i in range(len(st.data.hands[dec["victim"]]))]


def c_blind_pick(g: SpacePirates, st: SP, dec: dict[str, Any], a: SPAction) -> None:
    _want(a, "pick")
    if a not in l_blind_pick(g, st, dec):
        raise _illegal("pick one of the face-down cards", "SP-DAMAGE-01")


def a_blind_pick(g: SpacePirates, ctx: Ctx, dec: dict[str, Any], a: SPAction) -> None:
    flow.blind_pick(ctx, dec["victim"], int(a.a or 0))


LEGAL: dict[str, Any] = {
    "start_base": l_start_base, "place": l_place, "flick": l_flick, "flick_target": l_flick_target,
    "turn_mode": l_turn_mode, "choose_card": l_choose_card, "choose_adv": l_choose_adv,
    "place_storm": l_place_storm, "wind_dir": l_wind, "ruler": l_ruler, "dock_offer": l_dock_offer,
    "capture_offer": l_capture_offer, "drift": l_drift, "base_buy": l_yes_skip("buy"),
    "base_look": l_yes_skip("look"), "base_sell": l_base_sell, "base_recharge": l_base_recharge,
    "base_take": l_base_take, "damage_pay": l_damage_pay, "blind_pick": l_blind_pick,
}
CHECK: dict[str, Any] = {
    "start_base": c_start_base, "place": c_place, "flick": c_flick, "flick_target": c_flick_target,
    "turn_mode": c_turn_mode, "choose_card": c_choose_card, "choose_adv": c_choose_adv,
    "place_storm": c_place_storm, "wind_dir": c_wind, "ruler": c_ruler, "dock_offer": c_dock_offer,
    "capture_offer": c_capture_offer, "drift": c_drift, "base_buy": c_yes_skip("buy", "SP-BASE-01"),
    "base_look": c_yes_skip("look", "SP-BASE-01"), "base_sell": c_base_sell, "base_recharge": c_base_recharge,
    "base_take": c_base_take, "damage_pay": c_damage_pay, "blind_pick": c_blind_pick,
}
APPLY: dict[str, Any] = {
    "start_base": a_start_base, "place": a_place, "flick": a_flick, "flick_target": a_flick_target,
    "turn_mode": a_turn_mode, "choose_card": a_choose_card, "choose_adv": a_choose_adv,
    "place_storm": a_place_storm, "wind_dir": a_wind, "ruler": a_ruler, "dock_offer": a_dock_offer,
    "capture_offer": a_capture_offer, "drift": a_drift, "base_buy": a_base_buy, "base_look": a_base_look,
    "base_sell": a_base_sell, "base_recharge": a_base_recharge, "base_take": a_base_take,
    "damage_pay": a_damage_pay, "blind_pick": a_blind_pick,
}
