"""``GET /api/games``: the games a table can be made for, with their options, bots and levels."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from holotable.engine import registry

from ..bots import LEVELS, agent_labels, level_info
from ..extensions import extension_class
from ..schemas import GameInfo

router = APIRouter()


@router.get("/api/games", response_model=list[GameInfo])
async def games() -> list[dict[str, Any]]:
    out = []
    for spec in registry.specs():
        out.append({
            "name": spec.name,
            "title": spec.title,
            "description": spec.description,
            "min_players": spec.min_players,
            "max_players": spec.max_players,
            "default_players": spec.default_players or spec.min_players,
            "params": [{**p.to_dict(), "help": p.doc} for p in spec.params],
            "agents": agent_labels(spec.name),
            "levels": [vars(level_info(spec.name, level)) | {"name": level} for level in LEVELS],
            "web": registry.manifest(spec.name).web or "generic",  # the page's renderer module
            "lobby_note": _lobby_note(spec.name),
            "tutorial": registry.manifest(spec.name).path("tutorial") is not None,
        })
    return out


def _lobby_note(game: str) -> dict[str, str] | None:
    ext = extension_class(game)
    note = None if ext is None else ext.lobby_note
    return None if note is None else dict(zip(("text", "link", "href"), note, strict=True))
