"""Server extension of the Space Pirates page: flick trajectories and ruler previews.

* **Flick trajectories.** The engine stores only where a flick left the tokens. After a flick the
  extension re-resolves it from the state *before* the action, with the same random stream and the
  same resolver but recording the path (:func:`replay_flick`), checks that the replay ends exactly
  where the engine's own resolution did, and keeps a sampled, compact copy per table in memory. Every
  screen gets it in ``extra.flick`` and animates it once (keyed by its ply). Only token ids and
  positions travel: the identity of a face-down token is never part of it.
* **Ruler previews.** ``POST /api/tables/{id}/preview`` (seat token) tries a ``ruler``, ``drift``,
  ``place`` or ``storm`` action on a clone of the table and answers whether the rules allow it, with
  the engine's reason and rule id when not, and the ruler's route when it is. Nothing changes.
* **The fan.** ``extra.fan`` is the geometry of the ruler being laid: its origin, the allowed range
  of directions and its length. The range is read from :func:`~holotable.games.space_pirates.flow.turn_limit`:
  90 degrees either side of the previous ruler (or of the heading for a first ruler under
  ``first_ruler=within_90``), a whole turn (``max - min == 360``, ``limit`` null) for a drift and for a
  first ruler under the default ``first_ruler=nose``.

The table's catalog (energy cards, sizes, dexterity noise) is the manifest's ``cards`` role, served by
``GET /api/tables/{id}/catalog`` like every game's (:mod:`holotable.games.space_pirates.catalog`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Header
from pydantic import BaseModel, Field

from holotable.engine.errors import ActionError
from holotable.games.space_pirates import geometry as geo
from holotable.games.space_pirates.decisions import DockOffer, Drift, Flick, Ruler
from holotable.games.space_pirates.flow import drift_anchor, nose, resolve_flick, turn_limit
from holotable.games.space_pirates.physics import FlickOutcome, PymunkFlickResolver
from holotable.games.space_pirates.placement import legal_area
from holotable.games.space_pirates.skill import flick_noise, skill_name
from holotable.server.extensions import TableExtension
from holotable.server.live import ApiError, bearer_token

if TYPE_CHECKING:
    from holotable.engine import State
    from holotable.server.live import LiveTable
    from holotable.server.storage import ActionRecord
    from holotable.server.tables import TableManager

log = logging.getLogger(__name__)

#: Verbs a preview may try: the deterministic, geometric choices (never a flick: it draws chance).
PREVIEW_VERBS = ("ruler", "drift", "place", "storm")
#: Frames per second of the stored trajectory (the engine records 60; half is smooth enough).
TRAJECTORY_FPS = 30
#: Positions are sent to a tenth of a centimetre.
DECIMALS = 1


class PreviewRequest(BaseModel):
    action: str = Field(max_length=200, description="the action's text form, e.g. 'ruler 45.0'")


def replay_flick(before: State[Any, Any], action: Any) -> tuple[int, int, FlickOutcome] | None:
    """Re-resolve the flick ``action`` from ``before`` with trajectory recording.

    Returns ``(token id, flicker, outcome)``, or ``None`` when ``before`` is not asking for a flick.
    It runs the game's own :func:`~holotable.games.space_pirates.flow.resolve_flick` on a clone with a
    recording resolver, so the random stream (hence the noise and the result) is the engine's own.
    """
    if getattr(action, "verb", None) != "flick":
        return None
    st = before.clone(keep_events=False)
    game: Any = st.game
    dec = game.decision(st)
    if not isinstance(dec, Flick):
        return None
    _, _, out = resolve_flick(game.ctx(st), dec, float(action.a), float(action.b),
                              PymunkFlickResolver(record_trajectory=True))
    return dec.tid, dec.seat, out


def _flick_path(table: LiveTable, before: State[Any, Any], after: State[Any, Any],
                action: Any) -> dict[str, Any] | None:
    """The compact path of ``action`` played from ``before`` to ``after``, or ``None`` for a move that is
    not a flick (or, never expected, a re-resolved flick that lands elsewhere than the engine's)."""
    replay = replay_flick(before, action)
    if replay is None:
        return None
    tid, flicker, out = replay
    engine = _engine_rest(after)
    if engine is not None and engine != out.rest:  # never animate a path the table did not take
        log.error("flick replay at table %s, ply %s differs from the engine's result", table.id, after.ply)
        return None
    return compact_trajectory(before, after, tid, flicker, out)


def compact_trajectory(before: State[Any, Any], after: State[Any, Any], tid: int, flicker: int,
                       out: FlickOutcome) -> dict[str, Any]:
    """The public, sampled record of one flick: the tokens that moved, their path and where they ended."""
    start = before.data.map_tokens()
    moved = sorted(set(out.rest) | set(out.exits) | {tid})
    step = max(1, round(60 / TRAJECTORY_FPS))
    frames: list[list[float | None]] = []
    samples = out.trajectory[step - 1::step]
    for frame in samples:
        row: list[float | None] = []
        for t in moved:
            p = frame.get(t)
            row += [None, None] if p is None else [round(p[0], DECIMALS), round(p[1], DECIMALS)]
        frames.append(row)
    final: list[float | None] = []
    for t in moved:
        p = after.data.pos[t] if after.data.where[t] == "map" else None
        final += [None, None] if p is None else [round(p[0], DECIMALS), round(p[1], DECIMALS)]
    return {
        "ply": after.ply,
        "tid": tid,
        "flicker": flicker,
        "tids": moved,
        "start": [[round(start[t][0], DECIMALS), round(start[t][1], DECIMALS)] for t in moved],
        "frames": frames,
        "final": final,
        "fps": TRAJECTORY_FPS,
        "exits": sorted(out.exits),
        "turned_over": sorted(out.turned_over),
    }


def _engine_rest(after: State[Any, Any]) -> dict[int, tuple[float, float]] | None:
    """Where the engine's own resolution left the tokens (its last ``flick`` event), if recorded."""
    for e in reversed(after.log_for(None)):
        if e.ply != after.ply:
            break
        if e.kind == "flick":
            rest = e.data.get("rest", {})
            return {int(k): (float(v[0]), float(v[1])) for k, v in rest.items()}
    return None


def _flicker(state: State[Any, Any]) -> int | None:
    """The seat that flicks at this decision, or ``None`` when no flick is asked for."""
    game: Any = state.game
    dec = game.decision(state)
    return dec.seat if isinstance(dec, Flick) else None


def fan_of(state: State[Any, Any]) -> dict[str, Any] | None:
    """The ruler being laid: origin, allowed directions and length (public geometry), or ``None``."""
    game: Any = state.game
    dec = game.decision(state)
    if not isinstance(dec, Ruler | Drift):
        return None
    d = state.data
    c = d.layout.c
    seat = dec.seat
    if isinstance(dec, Drift) or dec.drift:
        sh = d.ships[seat]
        center = sh.center
        if center is None:
            return None
        east = drift_anchor(d, seat, 0.0)
        return {"kind": "drift", "seat": seat, "origin": [center[0], center[1]], "offset": east[0] - center[0],
                "heading": None, "limit": None, "min": -180.0, "max": 180.0, "length": c.ruler_length}
    anchor, prev = dec.anchor, dec.prev
    if anchor is None or prev is None:  # pragma: no cover - a ruler decision always has its anchor
        anchor, prev = nose(d, seat)
    prev = float(prev)
    limit = turn_limit(d, dec)
    # ``heading``: the direction the page starts its angle at (the limit, else the ship's heading);
    # ``limit``: the direction the ruler must stay within 90 degrees of, ``None`` for any direction.
    lo, hi = (prev - 180.0, prev + 180.0) if limit is None else (float(limit) - 90.0, float(limit) + 90.0)
    return {"kind": "ruler", "seat": seat, "origin": [anchor[0], anchor[1]], "offset": 0.0,
            "heading": prev if limit is None else float(limit), "limit": None if limit is None else float(limit),
            "min": lo, "max": hi, "length": c.ruler_length, "left": dec.left, "count": dec.count}


def preview(state: State[Any, Any], seat: int, text: str) -> dict[str, Any]:
    """Try ``text`` for ``seat`` on a clone of ``state``: legal or not (with the engine's reason), and the route."""
    game: Any = state.game
    try:
        action = game.parse_action(text)
    except ActionError as exc:
        raise ApiError(422, str(exc), exc.rule) from exc
    if action.verb not in PREVIEW_VERBS:
        raise ApiError(422, f"only {', '.join(PREVIEW_VERBS)} can be previewed")
    if seat not in state.to_move():
        return {"legal": False, "reason": "it is not your turn", "rule": None}
    trial = state.clone(keep_events=True)
    before_events = len(trial.log_for(seat))
    try:
        trial.apply(action, seat)
    except ActionError as exc:
        return {"legal": False, "reason": str(exc), "rule": exc.rule, "action": game.action_to_str(action)}
    out: dict[str, Any] = {"legal": True, "action": game.action_to_str(action)}
    if action.verb in ("ruler", "drift"):
        d = state.data
        for e in trial.log_for(seat)[before_events:]:
            if e.kind == "ruler":
                out["start"], out["end"] = e.data["start"], e.data["end"]
                break
        dec = game.decision(trial)
        if isinstance(dec, DockOffer):
            out["dock_base"] = dec.base
        # Face-down tokens under this ruler (their positions are public, their faces are not sent).
        if "start" in out:
            rect = geo.ruler_rect(tuple(out["start"]), float(action.a), d.layout.c)
            out["under"] = [t for t, p in sorted(d.map_tokens().items())
                            if not d.open[t] and geo.token_under_ruler(p, rect, d.layout.c.token_radius) is not None]
    return out


class SpacePiratesExtension(TableExtension):
    game = "space-pirates"

    def __init__(self) -> None:
        #: table id -> the last flick's compact trajectory
        self.flicks: dict[str, dict[str, Any]] = {}

    def after_action(self, manager: TableManager, table: LiveTable, seat: int, before: State[Any, Any],
                     after: State[Any, Any], action: Any, source: str) -> None:
        path = _flick_path(table, before, after, action)
        if path is not None:
            self.flicks[table.id] = path

    def heard_action(self, manager: TableManager, table: LiveTable, before: State[Any, Any], after: State[Any, Any],
                     action: Any) -> None:
        self.after_action(manager, table, 0, before, after, action, "remote")  # only records the path

    def forget(self, table_id: str) -> None:
        self.flicks.pop(table_id, None)

    def replay_extra(self, manager: TableManager, table: LiveTable, before: State[Any, Any] | None,
                     after: State[Any, Any], action: ActionRecord | None, seat: int | None) -> dict[str, Any] | None:
        """A replayed flick is drawn as it was played: its path, when the move stepped onto is a flick
        (the same public record every seat's page animated live)."""
        path = None
        if before is not None and action is not None:
            path = _flick_path(table, before, after, before.game.parse_action(action.action))
        return {"flick": path, "d_max": float(after.data.layout.c.physics["d_max"])}

    def payload_extra(self, manager: TableManager, table: LiveTable, seat: int | None) -> dict[str, Any] | None:
        st = table.state
        c = st.data.layout.c
        # The noise of the seat that flicks now (the page draws its cone), else the viewer's own.
        flicker = _flicker(st)
        who = flicker if flicker is not None else (seat if seat is not None else 0)
        level = flick_noise(st.config, who)
        return {
            "flick": self.flicks.get(table.id),
            "fan": fan_of(st),
            "noise": {"level": skill_name(st.config, who), "angle_sd": level[0], "strength_sd": level[1]},
            "d_max": float(c.physics["d_max"]),
            # Sampled legal storm or new-transport positions (public geometry): the page shades them and
            # snaps a tap to the nearest one.
            "area": legal_area(st),
        }

    def router(self, manager: TableManager) -> APIRouter | None:
        api = APIRouter()

        @api.post("/api/tables/{table_id}/preview")
        async def preview_route(table_id: str, body: PreviewRequest,
                                authorization: str | None = Header(default=None)) -> dict[str, Any]:
            """Would this ruler (or drift, placement, storm position) be legal now? Changes nothing."""
            table = await manager.get(table_id)
            if table.record.game != self.game:
                raise ApiError(404, "previews are for Space Pirates tables")
            token = bearer_token(authorization,
                                 missing="a preview needs your seat token (Authorization: Bearer <token>)")
            seat = await manager.seat_of(table, token)
            return preview(table.state, seat, body.action)

        return api

