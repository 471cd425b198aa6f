"""Per-game server extensions: what a game's browser page needs beyond views and legal moves.

Most games need nothing more than :meth:`TableManager.payload` gives. A few do: Council's table chat
outside the Negotiate phase, Kyrum's campaigns kept on the server, Space Pirates' flick trajectories
and ruler previews. Each lives in its game's folder (``holotable.games.<game>.server`` for the built-in games), a
:class:`TableExtension` subclass named as the ``server`` role of the game's manifest; :func:`extension_class`
finds it by game name. Each app's :class:`~holotable.server.tables.TableManager` makes its own instances
(:func:`new_extensions`), so two servers in one process (tests, a restart) share no extension state. The
table manager calls the hooks; none of them may change the game state (they see clones or read only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import APIRouter

    from holotable.engine import State

    from .live import Listener, LiveTable
    from .storage import ActionRecord
    from .tables import TableManager

class TableExtension:
    """The hooks a game may fill in; the defaults do nothing."""

    #: The game this extension serves (a registry name).
    game: str = ""
    #: What the lobby says beside this game's new-table form, as ``(text, link words, href)``: a game
    #: usually started somewhere else (Kyrum's campaigns) says so there. ``None``: nothing to say.
    lobby_note: tuple[str, str, str] | None = None

    def router(self, manager: TableManager) -> APIRouter | None:
        """Extra HTTP routes (included once, when the app is made; they may use ``self`` and
        ``manager``, both this app's), or ``None``."""
        return None

    async def start(self, manager: TableManager) -> None:
        """Called once when the server starts, after the store's schema exists and before the tables
        are loaded (create the extension's own storage here, on ``manager.store``)."""

    def forget(self, table_id: str) -> None:
        """The table left the server's memory (idle): drop what the extension keeps of it in memory only
        as a cache (what it stores, it reads again when the table comes back)."""

    def heard_action(self, manager: TableManager, table: LiveTable, before: State[Any, Any], after: State[Any, Any],
                     action: Any) -> None:
        """Another server process stored this action and the table here caught up with it: keep what the
        extension shows of it (Space Pirates' flick path). The side effects belong to the process that
        took the action (:meth:`after_action`, run there once)."""

    async def heard(self, manager: TableManager, table: LiveTable, kind: str) -> None:
        """Another server process announced a change of the extension's own (``kind``, as it passed it to
        :meth:`~holotable.server.storage.Store.notify`; Council's chat line): catch up and tell this
        process's pages."""

    def after_action(self, manager: TableManager, table: LiveTable, seat: int, before: State[Any, Any],
                     after: State[Any, Any], action: Any, source: str) -> None:
        """Called after an action was committed (``before`` and ``after`` must not be changed)."""

    def undo_refusal(self, manager: TableManager, table: LiveTable, seat: int, action: ActionRecord) -> str | None:
        """Why ``seat`` may not take back ``action`` (the one the undo policy would take back) because of
        what the extension did with it beyond the table (a message already delivered elsewhere), or
        ``None``. Only the extension's own side effects belong here: the rules' reasons are the undo
        policy's (:mod:`holotable.engine.undo`)."""
        return None

    def payload_extra(self, manager: TableManager, table: LiveTable, seat: int | None) -> dict[str, Any] | None:
        """Extra data for ``seat``'s state message, sent as its ``extra`` field (``None``: no field).
        It must hold nothing that seat may not see."""
        return None

    def replay_extra(self, manager: TableManager, table: LiveTable, before: State[Any, Any] | None,
                     after: State[Any, Any], action: ActionRecord | None, seat: int | None) -> dict[str, Any] | None:
        """The ``extra`` field of a replayed position as ``seat`` saw it: ``after`` is the table after
        ``action`` (``None`` at the start, where ``before`` is ``None`` too). What the live table's
        :meth:`payload_extra` showed at that moment, as far as it can be told again (a flick's path,
        the chat said by then); ``None``: no field. Like the views, it must hold nothing that seat may
        not see at that ply."""
        return None

    def rematch_refusal(self, manager: TableManager, table: LiveTable) -> str | None:
        """Why "play again" makes no sense at this finished table (a Kyrum campaign's game: the campaign
        goes on with its next game instead), or ``None`` when it is offered."""
        return None

    async def on_message(self, manager: TableManager, table: LiveTable, listener: Listener,
                         message: dict[str, Any]) -> None:
        """A WebSocket message whose ``type`` is not ``action`` (chat, for instance). Answer through
        ``listener.send_later`` or the table's listeners; raise :class:`~holotable.server.live.ApiError`
        to refuse it (the connection is told, nothing changes)."""
        from .live import ApiError

        raise ApiError(422, f"unknown message type {message.get('type')!r}")


def extension_class(game: str) -> type[TableExtension] | None:
    """The extension class of ``game`` (the ``server`` role of its manifest), or ``None`` when it has none."""
    from holotable.engine import registry

    found = registry.offered(game, "server")  # None for a game without one, or no such game
    if found is None:
        return None
    assert isinstance(found, type) and issubclass(found, TableExtension), (
        f"{game}'s manifest names {found!r} as its server extension, not a TableExtension subclass")
    return found


def new_extensions() -> dict[str, TableExtension]:
    """One fresh instance of every game's extension (game name -> extension), for one app."""
    from holotable.engine import registry

    return {game: cls() for game in registry.names() if (cls := extension_class(game)) is not None}
