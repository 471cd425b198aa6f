"""The course of a turn: step 2 (reveal and resolve) and step 3 (pass), then the scoring phase.

Pending work is one stack of typed tasks (``BHBData.tasks``, a :class:`holotable.engine.TaskStack`):
step 2 queues its work in the order of the rules, a task whose result must be settled first (a
time-machine part's group, the Tentacle's pick) is pushed on top, and :func:`run` carries the tasks
out until a decision (:mod:`.decisions`) waits for a seat. The scoring steps are in :mod:`.scoring`,
the moves they share in :mod:`.moves`. Rule IDs refer to the BHB spec.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from holotable.engine import Task, TaskStack, run_tasks
from holotable.engine import chance as chances

from . import cards as tb
from .data import TENTACLE_DRAW, JunkType
from .decisions import ChooseLaser, ChooseTentacle, PlacePart
from .moves import BHB, DIRECTION_WORDS, apply_triggers, card_name, name, only, pull, step_of, threshold_name
from .scoring import SCORING_TASKS
from .state import SCORING, Laid


def run(st: BHB) -> None:
    """Carry out pending work until a decision is needed or nothing is left; note the decision asked."""
    d = st.data
    d.asked = run_tasks(d.tasks, st)  # type: ignore[assignment]  # every decision of this game is an Asked


# ====================================================================== selection: step 2


def reveal(st: BHB, picks: Mapping[int, str]) -> None:
    """Step 2: every chosen card is laid out at once; toys face down (BHB-SEL-04/05)."""
    d = st.data
    d.revealed = []
    at = f"{d.round}.{d.turn}"
    tasks: list[Task[BHB]] = []
    for seat in range(d.players):
        cid = picks[seat]
        d.hands[seat].remove(cid)
        if tb.is_toy(cid):
            d.tableaux[seat].append(Laid(cid, face_down=True, laid_at=at))  # BHB-CARD-TOY-02
            st.emit("lay_toy", f"{name(seat)} lays a toy face down", seat=seat)
            st.emit("lay_toy_private", f"You lay {card_name(cid)} face down", to=only(seat), seat=seat, card=cid)
            continue
        d.tableaux[seat].append(Laid(cid, laid_at=at))
        d.revealed.append([seat, cid, "hand"])
        st.emit("reveal", f"{name(seat)} reveals {card_name(cid)}", seat=seat, card=cid)
        if tb.kind(cid) is JunkType.TIME_MACHINE:
            tasks.append(PlacePart(seat, cid))  # asked once every card is face up (AMB-32)
    for effect in tb.ON_REVEAL:  # BHB-ART-00-05 order
        for seat, cid, _source in d.revealed:
            if tb.effect_of(cid) == effect:
                tasks.append(ON_REVEAL_TASKS[effect](seat))
    tasks += [ROBOTS, TRIGGERS, PASS]
    d.tasks.clear()
    d.tasks.defer(*tasks)
    run(st)


@dataclass(frozen=True, slots=True)
class Gps(Task[BHB]):
    """Analog GPS Tracker: its owner plays a random card next turn (BHB-ART-GPS-01)."""

    seat: int

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        seat = self.seat
        st.data.gps_next[seat] = True  # BHB-ART-GPS-01
        st.emit("gps", f"Analog GPS Tracker: {name(seat)} must play a random card next turn", seat=seat)


@dataclass(frozen=True, slots=True)
class Tiit(Task[BHB]):
    """Everyone draws one card, the owner first, then in passing direction (BHB-ART-TIIT-01/04)."""

    seat: int

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        seat = self.seat
        n = d.players
        step = step_of(n, d.direction)
        order = [(seat + k * step) % n for k in range(n)]
        if len(d.draw) < n and d.discard:
            pull_all = tb.sort_cards(d.discard)
            d.discard = []
            chances.shuffle(st, "shuffle", pull_all)
            d.draw.extend(pull_all)
        if len(d.draw) >= n:  # AMB-11: if still short, nobody draws so hands stay equal
            st.reveal()  # each drawer sees its card
            for p in order:
                cid = d.draw.pop(0)
                d.hands[p].append(cid)
                st.emit("tiit_draw_private", f"TIIT CLO UHL: you draw {card_name(cid)}", to=only(p), seat=p, card=cid)
        th = tb.THRESHOLD_IDS[3]
        d.thresholds.append(th)  # BHB-ART-TIIT-02
        d.tiit_done = True
        st.emit("tiit", f"TIIT CLO UHL: everyone draws a card; {threshold_name(th)} goes to the black hole", seat=seat,
                threshold=th)


@dataclass(frozen=True, slots=True)
class TentacleDraw(Task[BHB]):
    """Titan Tentacle: its owner draws cards and is asked which to lay out (BHB-ART-TENTACLE-01)."""

    seat: int

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        seat = self.seat
        drawn = []
        for _ in range(TENTACLE_DRAW):
            cid = pull(st)
            if cid is None:
                break
            drawn.append(cid)
        d.tentacle = drawn
        st.emit("tentacle", f"Titan Tentacle: {name(seat)} draws {len(drawn)} cards", seat=seat, count=len(drawn))
        st.emit("tentacle_private", f"Titan Tentacle: you draw {', '.join(card_name(c) for c in drawn)}",
                to=only(seat), seat=seat,
                cards=list(drawn))
        if drawn:
            stack.push(ChooseTentacle(seat))


@dataclass(frozen=True, slots=True)
class Gyro(Task[BHB]):
    """Reality Gyro: the direction card flips (BHB-ART-GYRO-01)."""

    seat: int

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        d.direction = "CCW" if d.direction == "CW" else "CW"  # BHB-ART-GYRO-01
        st.emit("gyro", f"Reality Gyro: the direction card flips to {DIRECTION_WORDS[d.direction]}", seat=self.seat,
                direction=d.direction)


#: The task of each on-reveal effect (``tb.ON_REVEAL``), given the revealing seat.
ON_REVEAL_TASKS: dict[str, type[Gps | Tiit | ChooseLaser | TentacleDraw | Gyro]] = {
    "gps": Gps, "tiit": Tiit, "laser": ChooseLaser, "tentacle": TentacleDraw, "gyro": Gyro,
}


@dataclass(frozen=True, slots=True)
class Robots(Task[BHB]):
    """Robots revealed this step rotate once if another player also revealed one (BHB-CARD-ROBOT-02)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        robots = [(seat, cid) for seat, cid, _s in d.revealed if tb.kind(cid) is JunkType.ROBOT]
        if len({seat for seat, _ in robots}) < 2:
            return
        for seat, cid in robots:
            item = tb.laid(d, seat, cid)
            item.turns += 1
            now = tb.stats(d.tableaux[seat], item, tb.data_of(d))
            st.emit("robot", f"{name(seat)}'s {card_name(cid)} turns: now {now.value}/{now.weight}", seat=seat,
                    card=cid)


@dataclass(frozen=True, slots=True)
class Triggers(Task[BHB]):
    """Morphosucker, Cubus Librae and Lootbox react to the cards revealed this step (BHB-ROT)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        apply_triggers(st, st.data.revealed)


@dataclass(frozen=True, slots=True)
class PassHands(Task[BHB]):
    """Step 3: pass every hand on, or put the last cards at the black hole (BHB-SEL-07/08)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        n = d.players
        last = len(d.hands[0]) < 2
        for tableau in d.tableaux:  # ongoing artifacts laid out this turn act from the next one (BHB-ART-00-03)
            for item in tableau:
                fresh = tb.effect_of(item.card) in tb.ONGOING and not item.suppressed and not item.active
                if fresh and (not last or st.config["ongoing_last_turn"]):
                    item.active = True
        d.revealed = []
        if not last:
            step = step_of(n, d.direction)
            st.reveal()  # everyone picks up a hand it has not seen
            d.hands = [d.hands[(seat - step) % n] for seat in range(n)]
            d.gps_now = list(d.gps_next)
            d.gps_next = [False] * n
            d.turn += 1
            st.emit("pass", f"Hands are passed {DIRECTION_WORDS[d.direction]}; turn {d.turn} begins",
                    direction=d.direction,
                    turn=d.turn)
            for seat in range(n):
                if d.gps_now[seat]:
                    st.emit("gps_turn", f"{name(seat)} plays a random card this turn (Analog GPS Tracker)",
                            seat=seat)
            return
        for seat in range(n):
            for cid in d.hands[seat]:
                d.bh_pile.append(cid)
                d.bh_from.append(seat)
                st.emit("bh_card_private", f"You put {card_name(cid)} face down at the black hole", to=only(seat),
                        seat=seat,
                        card=cid)
            d.hands[seat] = []
        d.gps_now = [False] * n  # a pending GPS constraint lapses (BHB-ART-GPS-04)
        d.gps_next = [False] * n
        st.emit("selection_end", f"Everyone puts their last card at the black hole ({len(d.bh_pile)} cards); "
                "the scoring phase begins", bh_pile=len(d.bh_pile))
        d.phase = SCORING
        stack.defer(*SCORING_TASKS)  # nothing else is pending: this was step 2's last task
        d.e_weight, d.threshold = [0] * n, [0] * n
        d.pulled_in, d.round_points = [False] * n, [0] * n


# Tasks without fields are values alike: one of each serves every game.
ROBOTS, TRIGGERS, PASS = Robots(), Triggers(), PassHands()
