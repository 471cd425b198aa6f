"""The lobby: make a table, list and describe tables, join one with its invitation, play again."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter

from ..live import ApiError
from ..schemas import (
    CreateTableRequest,
    CreateTableResponse,
    JoinRequest,
    NameRequest,
    RematchResponse,
    SeatName,
    SeatToken,
    TableSummary,
    TutorialRequest,
)
from .shared import ERRORS, NEW_TABLE, Manager, Seat, Table, created

router = APIRouter()


@router.post("/api/tables", status_code=201, response_model=CreateTableResponse, responses=ERRORS,
             dependencies=[NEW_TABLE])
async def create_table(body: CreateTableRequest, manager: Manager) -> dict[str, Any]:
    table, you = await manager.create(body)
    return created(table, you)


@router.post("/api/tutorials/{game}", status_code=201, response_model=CreateTableResponse, responses=ERRORS,
             dependencies=[NEW_TABLE])
async def create_tutorial(game: str, manager: Manager, body: TutorialRequest | None = None) -> dict[str, Any]:
    """A guided first game of ``game`` against its bots: the page explains each step as it comes."""
    table, you = await manager.create_tutorial(game, None if body is None else body.name)
    return created(table, you)


@router.get("/api/tables", response_model=list[TableSummary], responses=ERRORS)
async def list_tables(
    manager: Manager, status: Literal["open", "running", "finished"] | None = None,
) -> list[dict[str, Any]]:
    return await manager.summaries(status)


@router.get("/api/tables/{table_id}", response_model=TableSummary, responses=ERRORS)
async def table_summary(ref: Table) -> dict[str, Any]:
    return (await ref.table()).summary()


@router.post("/api/tables/{table_id}/join", response_model=SeatToken, responses=ERRORS)
async def join(ref: Table, body: JoinRequest) -> dict[str, Any]:
    seat, token = await ref.manager.join(await ref.table(), body.invite, body.name)
    return {"seat": seat, "token": token}


@router.post("/api/tables/{table_id}/name", response_model=SeatName, responses=ERRORS)
async def rename(ref: Seat, body: NameRequest) -> dict[str, Any]:
    """Your name at the table (an invited player who came by the link sets it here)."""
    table, seat = await ref.player()
    name = " ".join(body.name.split())
    if not name:
        raise ApiError(422, "a name needs at least one letter or digit")
    await ref.manager.rename(table, seat, name)
    return {"seat": seat, "name": name}


@router.get("/api/tables/{table_id}/catalog", responses=ERRORS)
async def table_catalog(ref: Table) -> dict[str, Any]:
    """What the table page needs beyond a view (Buccaneers' card list), built from this table's config."""
    table = await ref.table()
    try:
        from holotable.web.cards import catalog
    except ImportError:  # the browser package is not installed: nothing to describe
        return {}
    return catalog(table.record.game, table.config)


@router.post("/api/tables/{table_id}/rematch", response_model=RematchResponse, responses=ERRORS)
async def rematch(ref: Seat) -> dict[str, Any]:
    table, seat = await ref.player()
    new, you = await ref.manager.rematch(table, seat)
    return created(new, you)
