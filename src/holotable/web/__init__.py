"""The browser client: plain HTML, CSS and ES modules served by ``holotable serve``.

Nothing here is built: ``static/`` is shipped as it is and served under ``/static/`` (the lobby
``index.html`` at ``/``, the table page ``table.html`` at ``/t/{table_id}``). Every file is local,
so the pages work on a closed network. :mod:`holotable.web.cards` builds the per-table card catalog
the Black Hole Buccaneers page asks the server for. See docs/web.md.
"""

from __future__ import annotations

from pathlib import Path

#: The folder served under ``/static/``.
STATIC_DIR: Path = Path(__file__).resolve().parent / "static"

__all__ = ["STATIC_DIR"]
