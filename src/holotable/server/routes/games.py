"""``GET /api/games``: the games a table can be made for, with their options, bots and levels."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from holotable.engine import registry

from ..bots import LEVELS, agent_labels, level_info
from ..schemas import GameInfo

router = APIRouter()


@router.get("/api/games", response_model=list[GameInfo])
async def games() -> list[dict[str, Any]]:
    out = []
    for spec in registry.specs():
        out.append({
            "name": spec.name,
            "title": spec.title,
            "min_players": spec.min_players,
            "max_players": spec.max_players,
            "default_players": spec.default_players or spec.min_players,
            "params": [{**p.to_dict(), "help": p.doc} for p in spec.params],
            "agents": agent_labels(spec.name),
            "levels": [vars(level_info(spec.name, level)) | {"name": level} for level in LEVELS],
            "web": registry.manifest(spec.name).web or "generic",  # the page's renderer module
        })
    return out
