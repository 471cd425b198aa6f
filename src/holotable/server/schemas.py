"""The request and message models (pydantic): anything else is refused with a 422 and the reason."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: The largest seed a table accepts (it is stored in a signed 64-bit column).
MAX_SEED = 2**62


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatRequest(Strict):
    kind: Literal["human", "bot"]
    level: Literal["easy", "normal", "hard"] | None = Field(None, description="bot level (default normal)")
    agent: str | None = Field(None, min_length=1, max_length=200,
                              description="a bot's agent spec, e.g. 'ismcts:iterations=200'; overrides level")
    name: str | None = Field(None, min_length=1, max_length=40)


class ClockRequest(Strict):
    mode: Literal["none", "per_move", "per_game"] = "none"
    seconds: int = Field(60, ge=1, le=86_400)


class CreateTableRequest(Strict):
    game: str = Field(min_length=1, max_length=64, examples=["captain-black"])
    players: int | None = Field(None, ge=1, le=64, examples=[2],
                                description="default: the game's default player count")
    params: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] | None = Field(
        None, min_length=1, max_length=64,
        description="one per player; default: a human at seat 0 and normal bots elsewhere",
    )
    clock: ClockRequest | None = None
    seed: int | None = Field(None, ge=0, le=MAX_SEED)
    name: str | None = Field(None, min_length=1, max_length=40, description="the creator's name at the table")
    public: bool = Field(False, description="list the invitation in the lobby, so anyone may take a free seat")


class JoinRequest(Strict):
    invite: str = Field(min_length=1, max_length=64)
    name: str | None = Field(None, min_length=1, max_length=40)


class TutorialRequest(Strict):
    name: str | None = Field(None, min_length=1, max_length=40, description="the learner's name at the table")


class NameRequest(Strict):
    name: str = Field(min_length=1, max_length=40, description="the name your seat shows at the table")


class SeatName(BaseModel):
    seat: int
    name: str


class ActionRequest(Strict):
    action: str = Field(min_length=1, max_length=4000, examples=["draw 1"],
                        description="the action's text form, e.g. 'draw 3'")
    ply: int | None = Field(None, ge=0, description=(
        "the ply the seat chose the action at; refused (409) as stale once what the seat's decision rests on "
        "has changed since (in most games any later action; in Council's live negotiation a Leader swap)"))


class UndoRequest(Strict):
    ply: int | None = Field(None, ge=0, description="the ply the undo is meant for; a stale one is refused (409)")


class WsUndoMessage(Strict):
    type: Literal["undo"]
    ply: int | None = Field(None, ge=0)


class WsActionMessage(Strict):
    type: Literal["action"]
    action: str = Field(min_length=1, max_length=4000)
    ply: int | None = Field(None, ge=0)


class SeatToken(BaseModel):
    seat: int
    token: str


class CreateTableResponse(BaseModel):
    table_id: str
    invite: str
    invite_url: str
    you: SeatToken | None


class RematchResponse(BaseModel):
    table_id: str
    invite: str
    invite_url: str
    you: SeatToken


class SeatSummary(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    name: str | None
    level: str | None
    agent: str | None
    claimed: bool


class SeededInfo(BaseModel):
    by: str | None = Field(description="the name of whoever chose the seed (null: the creator gave none)")
    text: str = Field(description="the sentence the pages show")


class Presence(BaseModel):
    online: list[int] = Field(description="the seats with a page connected now")
    watchers: int = Field(description="how many connections watch without a seat")


class TableSummary(BaseModel):
    table_id: str
    game: str
    players: int
    status: Literal["open", "running", "finished"]
    seats: list[SeatSummary]
    created_at: float
    ply: int
    clock: ClockRequest
    rematch_id: str | None
    rematch_of: str | None
    public: bool
    invite: str | None = Field(None, description="a public table's invitation, while it has free seats")
    seeded: SeededInfo | None = Field(None, description="the creator chose the seed (null: the server drew it)")
    presence: Presence | None = Field(None, description="who has the table open (tables in memory only)")


class ParamInfo(BaseModel):
    name: str
    label: str = Field(description="the option's name in plain words, as a player reads it")
    default: Any
    table_default: Any = Field(description="the value at a table with people when none is given")
    kind: str
    choices: list[Any] | None
    choice_labels: list[str] | None = Field(description="plain words for each of choices, in the same order")
    minimum: float | None
    maximum: float | None
    optional: bool
    help: str
    assumed: str | None = Field(None, description="the rulebook ambiguity this parameter settles")


class LevelModel(BaseModel):
    name: str
    agent: str
    think_seconds: float


class LobbyNote(BaseModel):
    text: str
    link: str
    href: str


class GameInfo(BaseModel):
    name: str
    title: str
    #: What the game is, in a sentence a newcomer reads in the lobby.
    description: str
    min_players: int
    max_players: int
    default_players: int
    params: list[ParamInfo]
    agents: list[dict[str, str]]
    levels: list[LevelModel]
    #: The table page's renderer: ``/static/games/<web>.js`` (the ``web`` role of the game's manifest).
    web: str
    #: What the lobby says beside this game's form (its server extension's ``lobby_note``), or ``None``.
    lobby_note: LobbyNote | None = None
    #: The game has a guided first game (``POST /api/tutorials/{name}``).
    tutorial: bool = False


class ErrorBody(BaseModel):
    detail: str
    rule: str | None = None
