"""Last Pebble's server extension (the ``server`` role): every screen gets the pile's size in
``extra`` (public, so any seat and spectators may see it). Real games add routes or chat here;
most need no extension at all (leave the role out)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from holotable.server.extensions import TableExtension

if TYPE_CHECKING:
    from holotable.server.live import LiveTable
    from holotable.server.tables import TableManager


class PebbleExtension(TableExtension):
    game = "template"

    def payload_extra(self, manager: TableManager, table: LiveTable, seat: int | None) -> dict[str, Any] | None:
        return {"pebbles_left": table.state.data.pile}
