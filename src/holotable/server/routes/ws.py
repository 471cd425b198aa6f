"""``/ws/tables/{table_id}``: a table's WebSocket. The first message is the current state (and the log
since ``since``); after that every change of the table sends the fresh state. The connection sends
actions, undos and the game extension's own messages (Council's chat); a refusal goes back to this
connection only, as ``{"type": "error", "status", "detail"}``."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ..live import ApiError, Listener, LiveTable
from ..quotas import MessageRate, TooMany
from ..schemas import WsActionMessage, WsUndoMessage
from ..tables import TableManager
from .shared import Manager, client_of, describe_validation

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, manager: Manager, token: str = "",
                       since: str = "") -> None:
    await websocket.accept()
    try:
        table = await manager.get(table_id)
        seat = await manager.seat_of(table, token) if token else None
        start = int(since) if since.strip() else None
        if start is not None and start < 0:
            raise ApiError(422, "since must be a ply (0 or more)")
    except ValueError:
        await _refuse(websocket, ApiError(422, "since must be a ply (0 or more)"))
        return
    except ApiError as exc:
        await _refuse(websocket, exc)
        return
    client = client_of(websocket)
    try:
        manager.limits.socket_opened(client, len(table.listeners))
    except TooMany as exc:
        await _refuse(websocket, ApiError(429, exc.detail))
        return
    listener = Listener(seat, start, limit=manager.quotas.send_queue)
    rate = MessageRate(manager.quotas.messages_per_second)
    table.attach(listener)  # its first message: the current state and the log since `since`
    sender = asyncio.create_task(_send_loop(manager, websocket, table, listener))
    try:
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            now = manager.clock.now()
            if not rate.allow(now):  # a flood: refused (told once a second), never queued behind others
                if rate.tell(now):
                    listener.send_later({"type": "error", "status": 429, "detail": "too many messages: at most "
                                         f"{manager.quotas.messages_per_second:g} a second"})
                continue
            text = received.get("text")
            if text is None:  # a binary frame
                listener.send_later({"type": "error", "status": 422, "detail": "send JSON text messages"})
                continue
            other = _non_action_message(text)
            if other is not None and other["type"] == "undo":
                await _undo_message(manager, table, listener, text)
                continue
            if other is not None:
                await _extension_message(manager, table, listener, other)
                continue
            try:
                message = WsActionMessage.model_validate_json(text)
            except ValidationError as exc:
                listener.send_later({"type": "error", "status": 422, "detail": describe_validation(exc)})
                continue
            if seat is None:
                listener.send_later({"type": "error", "status": 403, "detail": "spectators cannot act"})
                continue
            try:
                await manager.act(table, seat, message.action, message.ply)
            except ApiError as exc:
                error: dict[str, Any] = {"type": "error", "status": exc.status, "detail": exc.detail}
                if exc.rule is not None:
                    error["rule"] = exc.rule
                listener.send_later(error)
    except WebSocketDisconnect:
        pass
    finally:
        manager.limits.socket_closed(client)
        table.detach(listener)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _undo_message(manager: TableManager, table: LiveTable, listener: Listener, text: str) -> None:
    """``{"type": "undo", "ply"?}``: take back this seat's action; refusals go back to this connection only."""
    try:
        message = WsUndoMessage.model_validate_json(text)
    except ValidationError as exc:
        listener.send_later({"type": "error", "status": 422, "detail": describe_validation(exc), "about": "undo"})
        return
    if listener.seat is None:
        listener.send_later({"type": "error", "status": 403, "detail": "spectators cannot undo", "about": "undo"})
        return
    try:
        await manager.undo(table, listener.seat, message.ply)
    except ApiError as exc:
        listener.send_later({"type": "error", "status": exc.status, "detail": exc.detail, "about": "undo"})


async def _extension_message(manager: TableManager, table: LiveTable, listener: Listener,
                             message: dict[str, Any]) -> None:
    """A message for this app's extension of the game (chat, ...); refusals go back to this connection only."""
    ext = manager.extension(table.record.game)
    try:
        if ext is None:
            raise ApiError(422, f"unknown message type {message.get('type')!r}")
        await ext.on_message(manager, table, listener, message)
    except ApiError as exc:
        listener.send_later({"type": "error", "status": exc.status, "detail": exc.detail})


async def _send_loop(manager: TableManager, websocket: WebSocket, table: LiveTable, listener: Listener) -> None:
    """All of a connection's messages go out from here, in order: errors, then the fresh state."""
    while True:
        await listener.wake.wait()
        listener.wake.clear()
        if listener.overflowed:  # it reads no more: close (a reconnect gets the whole state)
            await websocket.close(code=4429, reason="too many messages waiting for this connection")
            return
        while listener.outbox:
            await websocket.send_json(listener.outbox.pop(0))
        if listener.dirty:
            listener.dirty = False
            payload = manager.payload(table, listener.seat, listener.since)
            listener.since = payload["ply"]
            await websocket.send_json({"type": "state", **payload})


def _non_action_message(text: str) -> dict[str, Any] | None:
    """A JSON object message whose ``type`` is a string other than ``action`` (for the game's extension);
    ``None`` for anything else (the action model then reports what is wrong with it)."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # JSON nested a thousand deep must not drop the connection
        return None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str) or message["type"] == "action":
        return None
    return message


async def _refuse(websocket: WebSocket, exc: ApiError) -> None:
    await websocket.send_json({"type": "error", "status": exc.status, "detail": exc.detail})
    await websocket.close(code=4000 + exc.status)
