"""Playing over HTTP: a seat's (or a spectator's) state, an action, an undo. Each answers with the
seat's fresh state."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ..schemas import ActionRequest, UndoRequest
from .shared import ERRORS, Seat

router = APIRouter()


@router.get("/api/tables/{table_id}/state", responses=ERRORS)
async def table_state(
    ref: Seat, since: Annotated[int | None, Query(ge=0, description="only log events after this ply")] = None,
) -> dict[str, Any]:
    table, seat = await ref.viewer()
    return ref.manager.payload(table, seat, since)


@router.get("/api/tables/{table_id}/replay", responses=ERRORS)
async def table_replay(
    ref: Seat,
    ply: Annotated[int | None, Query(ge=0, description="the position after this many moves (default: now)")] = None,
    seat: Annotated[int | None, Query(ge=0, description="whose view (default: yours; any once it is over)")] = None,
) -> dict[str, Any]:
    """The table at a past move, as one seat saw it: while the game runs, only your own seat (or the public
    view); once it is over, any seat, for anyone with the link."""
    table, viewer = await ref.viewer()
    return await ref.manager.replay(table, viewer, ply, seat)


@router.post("/api/tables/{table_id}/actions", responses=ERRORS)
async def post_action(ref: Seat, body: ActionRequest) -> dict[str, Any]:
    table, seat = await ref.player()
    await ref.manager.act(table, seat, body.action, body.ply)
    return ref.manager.payload(table, seat)


@router.post("/api/tables/{table_id}/undo", responses=ERRORS)
async def post_undo(ref: Seat, body: UndoRequest | None = None) -> dict[str, Any]:
    """Take back your own last action, under the undo policy (the state's ``undo`` says whether you may)."""
    table, seat = await ref.player()
    await ref.manager.undo(table, seat, None if body is None else body.ply)
    return ref.manager.payload(table, seat)
