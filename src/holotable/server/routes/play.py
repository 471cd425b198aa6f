"""Playing over HTTP: a seat's (or a spectator's) state, an action, an undo. Each answers with the
seat's fresh state."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ..schemas import ActionRequest, UndoRequest
from .shared import ERRORS, AsPlayer, AsViewer

router = APIRouter()


@router.get("/api/tables/{table_id}/state", responses=ERRORS)
async def table_state(
    viewer: AsViewer,
    since: Annotated[int | None, Query(ge=0, description="only log events after this ply")] = None,
) -> dict[str, Any]:
    return viewer.manager.payload(viewer.table, viewer.seat, since)


@router.post("/api/tables/{table_id}/actions", responses=ERRORS)
async def post_action(player: AsPlayer, body: ActionRequest) -> dict[str, Any]:
    await player.manager.act(player.table, player.seat, body.action, body.ply)
    return player.manager.payload(player.table, player.seat)


@router.post("/api/tables/{table_id}/undo", responses=ERRORS)
async def post_undo(player: AsPlayer, body: UndoRequest | None = None) -> dict[str, Any]:
    """Take back your own last action, under the undo policy (the state's ``undo`` says whether you may)."""
    await player.manager.undo(player.table, player.seat, None if body is None else body.ply)
    return player.manager.payload(player.table, player.seat)
