"""Black Hole Buccaneers' game data: plain dataclasses with hand-written copies.

Zones (BHB spec §1.2) are lists of card ids: ``draw`` (top card first), ``discard``, ``hands``,
``tableaux`` (each a list of :class:`Laid` in the order the cards were laid out; the shapeshifter
stack is the order of the shapeshifters in it), ``bh_pile`` (with the contributor of each card) and
``tentacle`` (the Titan Tentacle's drawn cards while its owner picks). The cards chosen in step 1 stay
in their hands (the engine holds the sealed choices) until step 2 moves them all at once.

Pending work of step 2 and of the scoring phase is a stack of typed tasks (``tasks``, see
:mod:`.flow`); the rules run it until a decision (:mod:`.decisions`) is on top, which ``ask`` names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from holotable.engine import TaskStack

if TYPE_CHECKING:
    from .decisions import Asked

SELECTION = "selection"
SCORING = "scoring"
OVER = "over"

#: Kinds of decision (spec §1.7), as ``BHBData.ask`` and views name them.
CHOOSE = "choose"  # DEC-CHOOSE: every seat not under the GPS constraint, sealed
GROUP = "group"  # DEC-TM-GROUP
LASER = "laser"  # DEC-LASER
TENTACLE = "tentacle"  # DEC-TENTACLE
EGG = "egg"  # DEC-EGG
POOL = "pool"  # DEC-POOL
RING = "ring"  # DEC-RING


@dataclass(slots=True)
class Laid:
    """A card in a tableau (spec §1.3)."""

    card: str
    #: Clockwise quarter turns so far (the raw count; the orientation is ``turns % 4``).
    turns: int = 0
    face_down: bool = False
    #: The owner's time-machine group number (1, 2, ...); 0 for other cards or a part not yet placed.
    group: int = 0
    #: ``hand``, ``tentacle``, ``egg`` or ``pool``.
    source: str = "hand"
    #: Round and turn (or ``"A"``/``"B"``) it was laid out.
    laid_at: str = ""
    #: An artifact whose effects are ignored (on-reveal via the Tentacle, any via the Egg or Pool).
    suppressed: bool = False
    #: An ongoing artifact whose effect applies now (from the turn after it was laid out).
    active: bool = False

    def copy(self) -> Laid:
        return Laid(self.card, self.turns, self.face_down, self.group, self.source, self.laid_at,
                    self.suppressed, self.active)

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "turns": self.turns, "face_down": self.face_down, "group": self.group,
                "source": self.source, "laid_at": self.laid_at, "suppressed": self.suppressed,
                "active": self.active}


@dataclass(slots=True)
class BHBData:
    players: int
    #: ``standard``, ``first_game`` or ``custom``.
    mode: str
    #: The three black holes of this game, top (round 1) first.
    stack: list[str]
    #: Black holes put back in the box (unused ones and those played).
    box: list[str]
    round: int = 1
    phase: str = SELECTION
    turn: int = 1
    #: The scoring step being resolved ("A".."H") during the scoring phase.
    step: str = ""
    direction: str = "CW"
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    tableaux: list[list[Laid]] = field(default_factory=list)
    bh_pile: list[str] = field(default_factory=list)
    #: The seat that put each ``bh_pile`` card there (-1 when unknown).
    bh_from: list[int] = field(default_factory=list)
    #: The card revealed in step F (it stays in ``bh_pile``).
    bh_revealed: str | None = None
    tentacle: list[str] = field(default_factory=list)
    #: Threshold cards lying at the black hole.
    thresholds: list[str] = field(default_factory=list)
    #: Token id (W-6, W-10, V+10) -> holding seat; absent = in the supply.
    tokens: dict[str, int] = field(default_factory=dict)
    scores: list[int] = field(default_factory=list)
    #: Per round: {"round", "black_hole", "e_weight", "threshold", "revealed", "pulled_in", "value", "points"}.
    pad: list[dict[str, Any]] = field(default_factory=list)
    #: Seats that must play a random card this turn (Analog GPS Tracker) and from next turn.
    gps_now: list[bool] = field(default_factory=list)
    gps_next: list[bool] = field(default_factory=list)
    #: Cards revealed and laid out in the current step 2 / scoring step: [seat, card, source].
    revealed: list[list[Any]] = field(default_factory=list)
    #: Pending work, the next task on top; between actions either empty or a decision on top.
    tasks: TaskStack[Any] = field(default_factory=TaskStack)
    #: The decision on top of ``tasks`` once they have run (``flow.run`` sets it), ``None`` when nothing
    #: is pending: kept apart so that the hot ``to_move`` reads one attribute.
    asked: Asked | None = None
    #: Whether TIIT CLO UHL's on-reveal effect resolved this round.
    tiit_done: bool = False
    #: Per-round scratch of the scoring phase: e-weights, thresholds, pulled-in seats, points.
    toy_weight: list[int] = field(default_factory=list)
    e_weight: list[int] = field(default_factory=list)
    threshold: list[int] = field(default_factory=list)
    pulled_in: list[bool] = field(default_factory=list)
    round_points: list[int] = field(default_factory=list)
    #: The card data this game plays with (``data.data_for(config)``: the shipped files with the
    #: configuration's data overrides); ``None`` = the shipped data. Shared, never modified.
    game_data: Any = None

    def copy(self) -> BHBData:
        return BHBData(
            players=self.players, mode=self.mode, stack=list(self.stack), box=list(self.box), round=self.round,
            phase=self.phase, turn=self.turn, step=self.step, direction=self.direction, draw=list(self.draw),
            discard=list(self.discard), hands=[list(h) for h in self.hands],
            tableaux=[[c.copy() for c in t] for t in self.tableaux], bh_pile=list(self.bh_pile),
            bh_from=list(self.bh_from), bh_revealed=self.bh_revealed, tentacle=list(self.tentacle),
            thresholds=list(self.thresholds), tokens=dict(self.tokens), scores=list(self.scores),
            pad=[dict(r) for r in self.pad], gps_now=list(self.gps_now), gps_next=list(self.gps_next),
            revealed=[list(r) for r in self.revealed], tasks=self.tasks.copy(), asked=self.asked,
            tiit_done=self.tiit_done, toy_weight=list(self.toy_weight), e_weight=list(self.e_weight),
            threshold=list(self.threshold),
            pulled_in=list(self.pulled_in), round_points=list(self.round_points), game_data=self.game_data,
        )

    @property
    def ask(self) -> tuple[str, int]:
        """The decision asked now: (kind, seat), (CHOOSE, -1) for the simultaneous pick, ("", -1) at the end."""
        top = self.asked
        if top is not None:
            return top.kind, top.seat
        return ("", -1) if self.phase == OVER else (CHOOSE, -1)

    @property
    def black_hole(self) -> str:
        return self.stack[self.round - 1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players, "mode": self.mode, "stack": list(self.stack), "box": sorted(self.box),
            "round": self.round, "phase": self.phase, "turn": self.turn, "step": self.step,
            "direction": self.direction, "draw_top_first": list(self.draw), "discard": list(self.discard),
            "hands": [list(h) for h in self.hands], "tableaux": [[c.to_dict() for c in t] for t in self.tableaux],
            "bh_pile": list(self.bh_pile), "bh_from": list(self.bh_from), "bh_revealed": self.bh_revealed,
            "tentacle": list(self.tentacle), "thresholds": list(self.thresholds), "tokens": dict(self.tokens),
            "scores": list(self.scores), "pad": [dict(r) for r in self.pad], "gps_now": list(self.gps_now),
            "gps_next": list(self.gps_next), "revealed": [list(r) for r in self.revealed],
            "tasks": self.tasks.to_json(), "ask": list(self.ask), "tiit_done": self.tiit_done,
            "toy_weight": list(self.toy_weight), "e_weight": list(self.e_weight), "threshold": list(self.threshold),
            "pulled_in": list(self.pulled_in),
            "round_points": list(self.round_points),
        }
