"""What a flick or a ruler would do, before it is played: pure computations for the terminal's
``preview`` (no I/O, nothing printed).

A preview reads only what the asking seat may see: the layout, where the ships and the tokens lie
(never a face-down token's face) and the seat's own dexterity (:func:`.skill.flick_noise`). It runs
the rules' own physics (:class:`.physics.PymunkFlickResolver`) and ruler geometry
(:func:`.flow.ruler_result`), so what it says is what the rules would do. The noise samples come
from a generator seeded with a hash of that public data, never from the game's generator: a
preview neither advances nor peeks the game's chances, and asking twice gives the same answer.

>>> import holotable
>>> st = holotable.load("space-pirates").new_state(players=2, seed=3, first_seat=0)
>>> try:
...     ruler_preview(st, 0, "ruler 90")
... except PreviewError as exc:
...     print(exc)
ruler is not what the game asks of you now (start_base)
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from holotable.engine import ActionError, State

from . import decisions as dec
from . import flow
from . import geometry as geo
from .actions import SPAction, parse
from .physics import FlickOutcome, PymunkFlickResolver, apply_noise
from .skill import flick_noise, skill_name

XY = tuple[float, float]

#: How many noisy flicks a preview samples unless asked otherwise: enough for a spread that holds
#: to about a centimetre, few enough to answer in about a second on a laptop.
SAMPLES = 40


class PreviewError(ValueError):
    """A preview that cannot be made (the reason is plain words for the player)."""


@dataclass(frozen=True)
class FlickPreview:
    """A flick's expected result and the spread of its stops under the seat's own noise."""

    tid: int
    angle: float
    strength: float
    skill: str  # the seat's dexterity level
    noise: tuple[float, float]  # (angle sd in degrees, strength sd as a fraction)
    start: XY
    path: tuple[XY, ...]  # the flicked token's path without noise, start to stop
    stop: XY | None  # where it stops without noise (None: it leaves the table)
    exit: XY | None  # where it crosses the edge without noise
    touches: tuple[str, ...]  # what it touches without noise, in order ("token 7", "ship 1", "element E03")
    moved: dict[int, XY]  # every token that moves without noise -> where it stops
    samples: int
    stops: tuple[XY, ...]  # the noisy stops on the table
    centre: XY | None  # mean of the noisy stops
    radius: float  # 90 % of the noisy stops lie within this of the centre (cm)
    exits: int  # noisy flicks that leave the table
    hits: dict[str, int] = field(default_factory=dict)  # label -> in how many noisy flicks
    penalties: int = 0  # noisy flicks that cost the flicker 1 damage (edge, element or turned over)
    turned: int = 0  # noisy flicks in which the flicked token turns over


@dataclass(frozen=True)
class RulerPreview:
    """A ruler (or drift) as the rules would lay it now, or why not."""

    action: str
    legal: bool
    reason: str  # plain words when not legal
    start: XY
    end: XY
    theta: float
    ship_end: XY  # where the ship's centre would stand after it
    dock_base: int | None  # the base it would enter (a dock offer)
    captures: tuple[int, ...]  # face-down tokens it passes over (each offered for capture)
    asteroids: tuple[int, ...]  # open asteroids it touches (1 damage each)


def _public_seed(state: State[Any, Any], seat: int, *parts: Any) -> int:
    """A seed from what every seat sees (the ply, the positions, the question): never the game's seed,
    which would let a seat compute hidden faces."""
    d = state.data
    public = [state.ply, seat, sorted((t, list(p)) for t, p in d.map_tokens().items()),
              sorted((s, list(p)) for s, p in d.ship_positions().items()), [float(x) for x in parts]]
    digest = hashlib.sha256(json.dumps(public).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def flick_target(state: State[Any, Any], seat: int, tid: int | None) -> int:
    """The token a preview flicks: ``tid`` when given, else the one of the seat's open flick decision."""
    d = state.data
    if tid is None:
        pending = state.game.decision(state)  # type: ignore[attr-defined]
        if isinstance(pending, dec.Flick) and pending.seat == seat:
            return pending.tid
        raise PreviewError("no flick is asked of you now: name the token (preview flick ANGLE STRENGTH TOKEN)")
    if not 0 <= tid < len(d.where) or d.where[tid] != "map":
        raise PreviewError(f"token {tid} is not on the map")
    return tid


def _labels(state: State[Any, Any], out: FlickOutcome, tid: int) -> list[str]:
    """What a flick touched, in time order, once each: tokens, ships (docked ones too, through a
    gate), elements and bases the flicked token touched, and ships any moving token touched."""
    d = state.data
    eps = d.layout.c.eps_touch
    seen: list[str] = []
    for ct in sorted(out.contacts, key=lambda k: (k.time, k.token)):
        label = None
        if ct.kind == "ship":
            label = f"ship {ct.other}"
        elif ct.kind == "base" and ct.point is not None:
            docked = flow.docked_ship_hit(d, int(ct.other), ct.point, eps)
            if docked is not None:
                label = f"ship {docked}"
            elif ct.token == tid:
                label = f"base {ct.other}"
        elif ct.token == tid:
            label = f"{ct.kind} {ct.other}"
        if label is not None and label not in seen:
            seen.append(label)
    return seen


def _penalised(state: State[Any, Any], out: FlickOutcome, tid: int) -> bool:
    """SP-FLICK-04 as :func:`.flow.apply_flick_outcome` applies it (the table's options included)."""
    cfg = state.config
    faulty = {tid}
    if cfg["penalty_for_pushed_tokens"]:
        faulty |= set(out.rest) | set(out.exits)
    hard = ("element", "base") if cfg["bases_are_elements"] else ("element",)
    touched = any(ct.token in faulty and ct.kind in hard for ct in out.contacts)
    return bool(faulty & (set(out.exits) | out.turned_over)) or touched


def flick_preview(state: State[Any, Any], seat: int, angle: float, strength: float, *, tid: int | None = None,
                  samples: int = SAMPLES) -> FlickPreview:
    """The flick of ``tid`` (default: the token the seat is asked to flick) at ``angle`` degrees and
    ``strength`` by ``seat``: the noiseless path through the real physics and ``samples`` noisy flicks
    under the seat's own dexterity."""
    if not (math.isfinite(angle) and math.isfinite(strength)) or not 0.0 <= strength <= 1.0:
        raise PreviewError("a flick's strength lies between 0 and 1 and its angle is a number of degrees")
    if samples < 1:
        raise PreviewError("a preview needs at least one sample")
    t = flick_target(state, seat, tid)
    d = state.data
    lay = d.layout
    ships, tokens = d.ship_positions(), d.map_tokens()
    walled = bool(state.config["walled_border"])
    rng = random.Random(_public_seed(state, seat, t, angle, strength, samples))
    exact = PymunkFlickResolver(record_trajectory=True).resolve(lay, ships, tokens, t, angle, strength, rng,
                                                                walled=walled)
    start = tokens[t]
    path = [start] + [frame[t] for frame in exact.trajectory if t in frame]
    stop = exact.rest.get(t, start if t not in exact.exits else None)
    if stop is not None:
        path.append(stop)
    else:
        path.append(exact.exits[t])
    level = flick_noise(state.config, seat)
    plain = PymunkFlickResolver()
    stops: list[XY] = []
    hits: Counter[str] = Counter()
    exits = penalties = turned = 0
    for _ in range(samples):
        na, ns = apply_noise(angle, strength, level, rng)
        out = plain.resolve(lay, ships, tokens, t, na, ns, rng, walled=walled)
        if t in out.exits:
            exits += 1
        else:
            stops.append(out.rest.get(t, start))
        hits.update(set(_labels(state, out, t)))
        penalties += _penalised(state, out, t)
        turned += t in out.turned_over
    centre: XY | None = None
    radius = 0.0
    if stops:
        centre = (sum(p[0] for p in stops) / len(stops), sum(p[1] for p in stops) / len(stops))
        far = sorted(geo.dist(p, centre) for p in stops)
        radius = far[min(len(far) - 1, math.ceil(0.9 * len(far)) - 1)]
    moved = {k: p for k, p in exact.rest.items() if k != t or p != start}
    return FlickPreview(t, angle, strength, skill_name(state.config, seat), level, start, tuple(path), stop,
                        exact.exits.get(t), tuple(_labels(state, exact, t)), moved, samples, tuple(stops),
                        centre, radius, exits, dict(hits), penalties, turned)


def _ruler_task(state: State[Any, Any], seat: int, verb: str) -> dec.Ruler:
    pending = state.game.decision(state)  # type: ignore[attr-defined]
    if pending is None or pending.seat != seat:
        raise PreviewError("no move is asked of you now")
    if verb == "drift" and isinstance(pending, dec.Drift):
        return flow.drift_move(state.data, seat)
    if verb == "ruler" and isinstance(pending, dec.Ruler):
        return pending
    raise PreviewError(f"{verb} is not what the game asks of you now ({pending.kind})")


def ruler_preview(state: State[Any, Any], seat: int, action_text: str) -> RulerPreview:
    """``ruler ANGLE`` or ``drift ANGLE`` as the rules would lay it now for ``seat``: legal or the
    plain reason why not, where the ruler lies, where the ship would stand, what it would pass over."""
    try:
        action = parse(action_text)
    except ActionError as exc:
        raise PreviewError(exc.reason) from exc
    if action.verb not in ("ruler", "drift") or not isinstance(action.a, float):
        raise PreviewError("preview a move as: preview ruler ANGLE (or preview drift ANGLE)")
    d = state.data
    c = d.layout.c
    task = _ruler_task(state, seat, action.verb)
    theta = geo.norm_angle(action.a)
    res = flow.ruler_result(d, task, theta)
    reason = ""
    try:
        state.game.check(state, seat, SPAction(action.verb, action.a))
    except ActionError as exc:
        reason = exc.reason
    legal = res.legal and not reason
    start, end = res.start, res.end
    if not res.legal or res.start == res.end:  # a refused ruler reports no segment: draw the full ruler
        a = task.anchor if task.anchor is not None and not task.drift else flow.drift_anchor(d, seat, theta)
        start, end = a, geo.ruler_end(a, theta, c)
    ship_end = geo.end_center(end, theta, c)
    rect = geo.ruler_rect(start, theta, c)
    swept = geo.swept_ship_path(start, theta, c.ruler_length, c) \
        if state.config["capture_geometry"] == "swept_ship" else None  # SP-AMB-03 alternative
    captures, asteroids = [], []
    for t, where in enumerate(d.where):
        p = d.pos[t]
        if where != "map" or p is None or (t in task.offered and not d.open[t]):
            continue
        under = geo.token_under_ruler(p, rect, c.token_radius) is not None
        if d.open[t]:
            if t not in task.hits and (under or geo.dist(p, ship_end) < c.token_radius + c.ship_radius):
                asteroids.append(t)
        elif geo.token_under_swept_ship(p, swept, c) if swept is not None else under:
            captures.append(t)
    return RulerPreview(str(action), legal, reason or res.reason, start, end, theta, ship_end,
                        res.dock_base if legal else None, tuple(captures), tuple(asteroids))
