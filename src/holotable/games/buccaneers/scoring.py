"""The scoring phase (BHB-SCORE): steps A-H and the round's end, as typed tasks.

When the last cards of a round are at the black hole, :data:`SCORING_TASKS` is queued on the task
stack (``BHBData.tasks``); the steps with a relic push its owner's decision on top, so it is
answered before the next step. Rule IDs refer to the BHB spec.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from holotable.engine import Task, TaskStack
from holotable.engine import chance as chances

from . import cards as tb
from .decisions import UseEgg, UsePool, UseRing
from .moves import BHB, DIRECTION_WORDS, apply_triggers, card_name, name, only, scripted
from .state import OVER, SELECTION, BHBData


def _begin(st: BHB, letter: str) -> None:
    st.data.step = letter


@dataclass(frozen=True, slots=True)
class StepA(Task[BHB]):
    """Step A: the Surprise Egg's owner is asked whether to use it (BHB-SCORE-A)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        _begin(st, "A")
        seat = tb.owner(d, "surprise_egg")
        if seat is None or not (d.draw or d.discard):  # BHB-REL-EGG-06
            st.emit("score_step", "Step A: no Surprise Egg in play", step="A", skipped=True)
            return
        st.emit("score_step", f"Step A: {name(seat)} may use the Surprise Egg", step="A", skipped=False, seat=seat)
        stack.push(UseEgg(seat))


@dataclass(frozen=True, slots=True)
class StepB(Task[BHB]):
    """Step B: the Alien Wading Pool's owner is asked whether to use it (BHB-SCORE-B)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        _begin(st, "B")
        seat = tb.owner(d, "wading_pool")
        if seat is None or not d.bh_pile:
            st.emit("score_step", "Step B: no Alien Wading Pool in play", step="B", skipped=True)
            return
        st.emit("score_step", f"Step B: {name(seat)} may use the Alien Wading Pool", step="B", skipped=False, seat=seat)
        stack.push(UsePool(seat))


@dataclass(frozen=True, slots=True)
class StepC(Task[BHB]):
    """Toys face up; the single heaviest toy total above 0 takes W-6 (BHB-SCORE-C-01..03)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        _begin(st, "C")
        flipped: list[list[Any]] = []
        for seat, tableau in enumerate(d.tableaux):
            for item in tableau:
                if item.face_down:
                    st.reveal()
                    item.face_down = False
                    flipped.append([seat, item.card, "toy"])
                    st.emit("toy_up", f"{name(seat)} turns up {card_name(item.card)}", seat=seat,
                            card=item.card)
        if st.config["step_c_lootbox"]:  # AMB-20: only the owner's Lootbox reacts to its own toys
            loot = [entry for entry in flipped if entry[0] == tb.owner(d, "lootbox")]
            apply_triggers(st, loot)
        toy_w = [tb.toy_weight(d, seat) for seat in range(d.players)]
        d.toy_weight = toy_w
        top = max(toy_w)
        winners = [s for s, w in enumerate(toy_w) if w == top]
        holder = winners[0] if len(winners) == 1 and top > 0 else None
        if holder is not None:
            d.tokens[tb.W6] = holder
        text = f"Step C: toy weights {by_seat(toy_w)}; " + (
            f"{name(holder)} takes the -6 weight card" if holder is not None else "nobody takes the -6 weight card")
        st.emit("score_step", text, step="C", toy_weights=toy_w, w6=holder)


@dataclass(frozen=True, slots=True)
class StepD(Task[BHB]):
    """Step D: the One Ring's owner is asked whether to discard it (BHB-SCORE-D)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        _begin(st, "D")
        seat = tb.owner(d, "one_ring")
        if seat is None:
            st.emit("score_step", "Step D: no One Ring in play", step="D", skipped=True)
            return
        st.emit("score_step", f"Step D: {name(seat)} may discard the One Ring", step="D", skipped=False, seat=seat)
        stack.push(UseRing(seat))


@dataclass(frozen=True, slots=True)
class StepE(Task[BHB]):
    """Record the weights, then Carpet and Exoskeleton on those numbers (BHB-SCORE-E-01/02)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        _begin(st, "E")
        n = d.players
        ew = [tb.weight(d, seat) for seat in range(n)]
        d.e_weight = ew
        carpet, exo = tb.owner(d, "anti_grav_carpet"), tb.owner(d, "exoskeleton")
        gets_v = carpet is not None and all(ew[carpet] < ew[q] for q in range(n) if q != carpet)
        gets_w = exo is not None and all(ew[exo] > ew[q] for q in range(n) if q != exo)
        # BHB-REL-EXO-04: nobody can be strictly lightest and heaviest at once with n >= 2.
        assert not (gets_v and gets_w and carpet == exo)
        if gets_v and carpet is not None:
            d.tokens[tb.V10] = carpet
        if gets_w and exo is not None:
            d.tokens[tb.W10] = exo
        parts = [f"Step E: weights {by_seat(ew)}"]
        if carpet is not None:
            took = "takes the +10 value card" if gets_v else "is not the lightest"
            parts.append(f"Anti-Grav Carpet: {name(carpet)} {took}")
        if exo is not None:
            took = "takes the -10 weight card" if gets_w else "is not the heaviest"
            parts.append(f"Exoskeleton: {name(exo)} {took}")
        st.emit("score_step", "; ".join(parts), step="E", weights=ew, v10=carpet if gets_v else None,
                w10=exo if gets_w else None)


@dataclass(frozen=True, slots=True)
class StepF(Task[BHB]):
    """Reveal one black-hole card: T + w + threshold cards; XXL doubles w for its owner (BHB-SCORE-F)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        _begin(st, "F")
        base = tb.hole(d).threshold
        w = 0
        if d.bh_pile:
            card = scripted(st, "reveal", tb.sort_cards(d.bh_pile))
            st.reveal()
            d.bh_revealed = card
            w = tb.printed_weight(card, tb.data_of(d))  # BHB-ROT-08
        extra = sum(tb.THRESHOLD_AMOUNTS[t] for t in d.thresholds)
        xxl = tb.owner(d, "xxl_paperweight")
        d.threshold = [base + (2 * w if seat == xxl else w) + extra for seat in range(d.players)]
        st.emit("score_step", f"Step F: revealed {card_name(d.bh_revealed)} (weight {w}); threshold {base} {w:+d}"
                + (f" {extra:+d} (threshold cards)" if d.thresholds else "") + f" = {base + w + extra}"
                + (f"; {name(xxl)} (XXL Paperweight) {d.threshold[xxl]}" if xxl is not None else ""),
                step="F", card=d.bh_revealed, weight=w, base=base, threshold_cards=list(d.thresholds),
                thresholds=list(d.threshold), xxl=xxl)


@dataclass(frozen=True, slots=True)
class StepG(Task[BHB]):
    """Pull-ins: weight strictly above the own threshold; the Space Blanket gives 5 (BHB-SCORE-G)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        _begin(st, "G")
        blanket = tb.owner(d, "space_blanket")
        gw = [tb.weight(d, seat) for seat in range(d.players)]
        for seat in range(d.players):
            if gw[seat] > d.threshold[seat]:
                d.pulled_in[seat] = True
                if seat == blanket:
                    d.round_points[seat] = st.config["blanket_points"]
                for item in d.tableaux[seat]:
                    d.discard.append(item.card)
                d.tableaux[seat] = []
        pulled = [s for s in range(d.players) if d.pulled_in[s]]
        st.emit("score_step", f"Step G: weight against threshold {by_seat(gw, d.threshold)}; pulled in: "
                + (", ".join(name(s) for s in pulled) or "nobody")
                + (f"; Space Blanket gives {name(blanket)} {d.round_points[blanket]} points"
                   if blanket is not None and blanket in pulled else ""),
                step="G", weights=gw, thresholds=list(d.threshold), pulled_in=pulled,
                blanket=blanket if blanket is not None and blanket in pulled else None)


def placements(d: BHBData, points: tuple[int, ...], tie_rule: str, compare: str) -> tuple[list[int], list[int]]:
    """Places and step-H points of the survivors (spec §3.3, BHB-TIE-01..05); 0 for others."""
    n = d.players
    survivors = [s for s in range(n) if not d.pulled_in[s]]
    keys = {s: (tb.value(d, s), *tb.ship_key(d, s, compare)) for s in survivors}
    order = sorted(survivors, key=lambda s: keys[s], reverse=True)
    place = [0] * n
    pts = [0] * n
    i, at = 0, 1
    while i < len(order):
        j = i
        if tie_rule == "worst_for_all":  # the AMB-29 alternative: equal value is one run if anyone lacks a ship
            while j + 1 < len(order) and keys[order[j + 1]][0] == keys[order[i]][0] and (
                    keys[order[i]][1] == 0 or keys[order[j + 1]][1] == 0):
                j += 1
        else:
            while j + 1 < len(order) and keys[order[j + 1]] == keys[order[i]]:
                j += 1
        size = j - i + 1
        worst = at + size - 1
        for s in order[i:j + 1]:
            place[s] = worst
            pts[s] = points[worst - 1]
        at += size
        i = j + 1
    return place, pts


@dataclass(frozen=True, slots=True)
class StepH(Task[BHB]):
    """Step H: places and points of the survivors, written on the score pad (BHB-SCORE-H)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        _begin(st, "H")
        n = d.players
        points = tb.data_of(d).scoring_card(n).points
        place, pts = placements(d, points, st.config["tie_rule"], st.config["ship_compare"])
        values: list[int | None] = [None if d.pulled_in[s] else tb.value(d, s) for s in range(n)]
        for s in range(n):
            if not d.pulled_in[s]:
                d.round_points[s] = pts[s]
            d.scores[s] += d.round_points[s]
        d.pad.append({
            "round": d.round, "black_hole": d.black_hole, "toy_weight": list(d.toy_weight),
            "e_weight": list(d.e_weight),
            "revealed": d.bh_revealed,
            "threshold": list(d.threshold), "pulled_in": list(d.pulled_in), "value": values, "place": place,
            "points": list(d.round_points), "total": list(d.scores),
        })
        ranking = ", ".join(
            f"{name(s)} place {place[s]} (value {values[s]}) +{d.round_points[s]}" if place[s]
            else f"{name(s)} pulled in +{d.round_points[s]}"
            for s in range(n))
        st.emit("score_step", f"Step H: {ranking}", step="H", values=values, places=place,
                points=list(d.round_points), totals=list(d.scores))


@dataclass(frozen=True, slots=True)
class EndRound(Task[BHB]):
    """The round is over: the game ends after round 3, else cleanup and the next round (BHB-FLOW-02)."""

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        d = st.data
        if d.round >= 3:  # BHB-FLOW-02: no cleanup after round 3
            d.phase = OVER
            d.step = ""
            st.emit("game_end", f"Final scores: {by_seat(d.scores)}", scores=list(d.scores))
            return
        cleanup(st)


def cleanup(st: BHB) -> None:
    """BHB-CLEAN-01..08: next black hole, tokens back, all junk reshuffled and dealt; points stay."""
    d = st.data
    n = d.players
    d.box.append(d.black_hole)
    d.round += 1
    d.tokens = {}
    d.thresholds = []
    cards = tb.sort_cards(tb.all_cards(d))
    chances.shuffle(st, "shuffle", cards)
    h = tb.hole(d).cards
    d.hands = [cards[i * h:(i + 1) * h] for i in range(n)]
    d.draw = cards[n * h:]
    d.discard, d.bh_pile, d.bh_from, d.tentacle = [], [], [], []
    d.tableaux = [[] for _ in range(n)]
    d.bh_revealed = None
    start_round(st)


def start_round(st: BHB) -> None:
    d = st.data
    n = d.players
    d.phase, d.turn, d.step = SELECTION, 1, ""
    d.gps_now, d.gps_next = [False] * n, [False] * n
    d.revealed = []
    d.tasks.clear()  # in place: the runner holds this stack
    d.tiit_done = False
    d.e_weight, d.threshold, d.pulled_in, d.round_points, d.toy_weight = [], [], [], [], []
    hole = tb.hole(d)
    st.emit("round_start", f"Round {d.round}: a {hole.category} black hole ({hole.cards} cards, "
            f"threshold {hole.threshold}); passing {DIRECTION_WORDS[d.direction]}", round=d.round, black_hole=hole.id,
            cards=hole.cards, threshold=hole.threshold, direction=d.direction)
    st.reveal()  # each player picks up a new hand
    for seat in range(n):
        hand = ", ".join(card_name(c) for c in d.hands[seat])
        st.emit("deal_private", f"Your hand: {hand}", to=only(seat), seat=seat, cards=list(d.hands[seat]))


#: Steps A-H, then the round's end, in the order they run (tasks are values: one set serves every game).
SCORING_TASKS: tuple[Task[BHB], ...] = (StepA(), StepB(), StepC(), StepD(), StepE(), StepF(), StepG(), StepH(),
                                        EndRound())


def by_seat(values: list[int], against: list[int] | None = None) -> str:
    """Per-seat numbers in words for the log: "Seat 0 27, Seat 1 16" (or "Seat 0 24/30" against thresholds)."""
    if against is None:
        return ", ".join(f"{name(seat)} {v}" for seat, v in enumerate(values))
    return ", ".join(f"{name(seat)} {v}/{t}" for seat, (v, t) in enumerate(zip(values, against, strict=True)))
