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
