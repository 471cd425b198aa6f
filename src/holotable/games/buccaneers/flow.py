"""The course of a round: step 2 (reveal and resolve), step 3 (pass), scoring steps A-H, cleanup.

Work is a queue of tasks (``BHBData.tasks``); :func:`run` carries them out until one needs a player's
decision, which it announces in ``BHBData.ask``. Rule IDs refer to the BHB spec.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from holotable.engine import State
from holotable.engine import chance as chances

from . import cards as tb
from .data import TENTACLE_DRAW, Artifact, JunkType
from .state import CHOOSE, EGG, GROUP, LASER, OVER, POOL, RING, SCORING, SELECTION, TENTACLE, BHBData, Laid

BHB = State[BHBData, Any]
DECISIONS = (GROUP, LASER, TENTACLE, EGG, POOL, RING)
SCORING_STEPS = ("A", "B", "C", "D", "E", "F", "G", "H")


def name(seat: int) -> str:
    return f"Seat {seat}"


def only(seat: int) -> frozenset[int]:
    return frozenset((seat,))


def on_one_ring_discarded(st: BHB, seat: int) -> None:
    """Hook for the One Ring's missing effect (BHB-REL-RING-02, AMB-25): nothing by default."""


def step_of(n: int, direction: str) -> int:
    return 1 if direction == "CW" else n - 1  # BHB-PASS-01 (AMB-12)


def pull(st: BHB) -> str | None:
    """Take the top card of the draw pile, refilling it from the discards if empty (AMB-11)."""
    d = st.data
    if not d.draw and d.discard:
        d.draw = tb.sort_cards(d.discard)
        d.discard = []
        chances.shuffle(st, "shuffle", d.draw)
        st.emit("reshuffle", "The draw pile ran out: the discards are shuffled into a new one")
    if not d.draw:
        return None
    st.reveal()  # the top card of the draw pile is seen
    return d.draw.pop(0)


def scripted(st: BHB, key: str, options: list[str]) -> str:
    """A random pick among ``options``, or the next scripted card of a scenario."""
    return chances.pick(st, key, options)


# ====================================================================== the task runner


def run(st: BHB) -> None:
    """Carry out queued work until a decision is needed or the queue is empty."""
    d = st.data
    while d.tasks:
        task = d.tasks[0]
        kind = task[0]
        if kind in DECISIONS:
            if kind == GROUP:
                seat, card = task[1], task[2]
                if not tb.open_groups(d.tableaux[seat], card):
                    # Only a new group is possible: no choice to ask (BHB-CARD-TM-03).
                    d.tasks.pop(0)
                    place_group(st, seat, card, 0)
                    continue
            d.ask = (kind, task[1])
            return
        d.tasks.pop(0)
        AUTO[kind](st, task)


# ====================================================================== selection: step 2


def reveal(st: BHB, picks: Mapping[int, str]) -> None:
    """Step 2: every chosen card is laid out at once; toys face down (BHB-SEL-04/05)."""
    d = st.data
    d.revealed = []
    at = f"{d.round}.{d.turn}"
    tasks: list[tuple[Any, ...]] = []
    for seat in range(d.players):
        cid = picks[seat]
        d.hands[seat].remove(cid)
        if tb.is_toy(cid):
            d.tableaux[seat].append(Laid(cid, face_down=True, laid_at=at))  # BHB-CARD-TOY-02
            st.emit("lay_toy", f"{name(seat)} lays a toy face down", seat=seat)
            st.emit("lay_toy_private", f"You lay {cid} face down", to=only(seat), seat=seat, card=cid)
            continue
        d.tableaux[seat].append(Laid(cid, laid_at=at))
        d.revealed.append([seat, cid, "hand"])
        st.emit("reveal", f"{name(seat)} reveals {cid} ({tb.CARDS[cid].name})", seat=seat, card=cid)
        if tb.kind(cid) is JunkType.TIME_MACHINE:
            tasks.append((GROUP, seat, cid))  # asked once every card is face up (AMB-32)
    for effect in tb.ON_REVEAL:  # BHB-ART-00-05 order
        for seat, cid, _source in d.revealed:
            if tb.effect_of(cid) == effect:
                tasks.append((effect, seat) if effect != "tentacle" else ("tentacle_draw", seat))
    tasks += [("robots",), ("triggers",), ("pass",)]
    d.tasks = tasks
    run(st)


def place_group(st: BHB, seat: int, card: str, group: int) -> None:
    d = st.data
    item = tb.laid(d, seat, card)
    tb.place_part(d.tableaux[seat], item, group)
    members = tb.groups(d.tableaux[seat])[item.group]
    st.emit("tm_group", f"{name(seat)} puts {card} into time-machine group {item.group} "
            f"({len(members)} part(s), orientation {item.turns % 4})",
            seat=seat, card=card, group=item.group, size=len(members), orientation=item.turns % 4)


def _gps(st: BHB, task: tuple[Any, ...]) -> None:
    d = st.data
    seat = task[1]
    d.gps_next[seat] = True  # BHB-ART-GPS-01
    st.emit("gps", f"Analog GPS Tracker: {name(seat)} must play a random card next turn", seat=seat)


def _tiit(st: BHB, task: tuple[Any, ...]) -> None:
    """Everyone draws one card, the owner first, then in passing direction (BHB-ART-TIIT-01/04)."""
    d = st.data
    seat = task[1]
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
            st.emit("tiit_draw_private", f"TIIT CLO UHL: you draw {cid}", to=only(p), seat=p, card=cid)
    th = tb.THRESHOLD_IDS[3]
    d.thresholds.append(th)  # BHB-ART-TIIT-02
    d.tiit_done = True
    st.emit("tiit", f"TIIT CLO UHL: everyone draws a card; {th} goes to the black hole", seat=seat, threshold=th)


def _tentacle_draw(st: BHB, task: tuple[Any, ...]) -> None:
    d = st.data
    seat = task[1]
    drawn = []
    for _ in range(TENTACLE_DRAW):
        cid = pull(st)
        if cid is None:
            break
        drawn.append(cid)
    d.tentacle = drawn
    st.emit("tentacle", f"Titan Tentacle: {name(seat)} draws {len(drawn)} cards", seat=seat, count=len(drawn))
    st.emit("tentacle_private", f"Titan Tentacle: you draw {', '.join(drawn)}", to=only(seat), seat=seat,
            cards=list(drawn))
    if drawn:
        d.tasks.insert(0, (TENTACLE, seat))


def take(st: BHB, seat: int, card: str) -> None:
    """The Tentacle's pick is laid out face up; the rest is discarded face up (BHB-ART-TENTACLE-02/03)."""
    d = st.data
    st.reveal()  # the Tentacle's cards are laid out and discarded face up
    rest = [c for c in d.tentacle if c != card]
    d.tentacle = []
    d.discard.extend(rest)
    eff = tb.effect_of(card)
    suppressed = eff in tb.ON_REVEAL and not (eff == "gps" and st.config["gps_via_tentacle"])
    d.tableaux[seat].append(Laid(card, source="tentacle", laid_at=f"{d.round}.{d.turn}", suppressed=suppressed))
    d.revealed.append([seat, card, "tentacle"])
    st.emit("tentacle_take", f"{name(seat)} lays out {card} with the Titan Tentacle and discards "
            f"{', '.join(rest) or 'nothing'}", seat=seat, card=card, discarded=rest)
    if eff == "gps" and not suppressed:
        d.gps_next[seat] = True  # the AMB-14 alternative
    if tb.kind(card) is JunkType.TIME_MACHINE:
        d.tasks.insert(0, (GROUP, seat, card))


def laser(st: BHB, seat: int, amount: int) -> None:
    """Place the chosen threshold card; a plus card sends the Laser to the discards (BHB-ART-LASER-01..03)."""
    d = st.data
    th = tb.THRESHOLD_IDS[amount]
    d.thresholds.append(th)
    if amount > 0:
        item = tb.laid(d, seat, tb.EFFECT_CARD["laser"])
        d.tableaux[seat].remove(item)
        d.discard.append(item.card)
    st.emit("laser", f"Swiss Pocket Laser: {name(seat)} places {th} at the black hole"
            + (" and discards the Laser" if amount > 0 else ""), seat=seat, threshold=th, amount=amount)


def _gyro(st: BHB, task: tuple[Any, ...]) -> None:
    d = st.data
    d.direction = "CCW" if d.direction == "CW" else "CW"  # BHB-ART-GYRO-01
    st.emit("gyro", f"Reality Gyro: the direction card flips to {d.direction}", seat=task[1],
            direction=d.direction)


def _robots(st: BHB, task: tuple[Any, ...]) -> None:
    """Robots revealed this step rotate once if another player also revealed one (BHB-CARD-ROBOT-02)."""
    d = st.data
    robots = [(seat, cid) for seat, cid, _s in d.revealed if tb.kind(cid) is JunkType.ROBOT]
    if len({seat for seat, _ in robots}) < 2:
        return
    for seat, cid in robots:
        item = tb.laid(d, seat, cid)
        item.turns += 1
        now = tb.stats(d.tableaux[seat], item, tb.data_of(d))
        st.emit("robot", f"{name(seat)}'s robot {cid} turns: now {now.value}/{now.weight}", seat=seat, card=cid)


def apply_triggers(st: BHB, revealed: list[list[Any]]) -> None:
    d = st.data
    for q, cid, count in tb.trigger_counts(d, revealed):
        item = tb.laid(d, q, cid)
        item.turns += count  # BHB-ROT-04: wraps modulo 4
        now = tb.stats(d.tableaux[q], item, tb.data_of(d))
        st.emit("rotate", f"{name(q)}'s {tb.CARDS[cid].name} turns {count} time(s): now {now.value}/{now.weight}",
                seat=q, card=cid, count=count, turns=item.turns, value=now.value, weight=now.weight)


def _triggers(st: BHB, task: tuple[Any, ...]) -> None:
    apply_triggers(st, st.data.revealed)


def _pass(st: BHB, task: tuple[Any, ...]) -> None:
    """Step 3: pass every hand on, or put the last cards at the black hole (BHB-SEL-07/08)."""
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
        d.ask = (CHOOSE, -1)
        st.emit("pass", f"Hands are passed {d.direction}; turn {d.turn} begins", direction=d.direction, turn=d.turn)
        for seat in range(n):
            if d.gps_now[seat]:
                st.emit("gps_turn", f"{name(seat)} plays a random card this turn (Analog GPS Tracker)", seat=seat)
        return
    for seat in range(n):
        for cid in d.hands[seat]:
            d.bh_pile.append(cid)
            d.bh_from.append(seat)
            st.emit("bh_card_private", f"You put {cid} face down at the black hole", to=only(seat), seat=seat,
                    card=cid)
        d.hands[seat] = []
    d.gps_now = [False] * n  # a pending GPS constraint lapses (BHB-ART-GPS-04)
    d.gps_next = [False] * n
    st.emit("selection_end", f"Everyone puts their last card at the black hole ({len(d.bh_pile)} cards); "
            "the scoring phase begins", bh_pile=len(d.bh_pile))
    d.phase = SCORING
    d.tasks = [(s,) for s in SCORING_STEPS] + [("end",)]
    d.e_weight, d.threshold = [0] * n, [0] * n
    d.pulled_in, d.round_points = [False] * n, [0] * n


# ====================================================================== scoring phase (BHB-SCORE)


def _begin(st: BHB, letter: str) -> None:
    st.data.step = letter


def lay_scoring(st: BHB, seat: int, card: str, source: str) -> None:
    """A card from the Egg or the Pool: face up, robots upright, artifacts ignored (BHB-REL-EGG-03..05)."""
    d = st.data
    artifact = isinstance(tb.CARDS[card], Artifact)
    item = Laid(card, source=source, laid_at=f"{d.round}.{d.step}", suppressed=artifact)
    if artifact and st.config["egg_pool_ignore"] == "on_reveal" and tb.effect_of(card) in tb.ONGOING:
        item.suppressed, item.active = False, True  # the AMB-18 alternative
    d.tableaux[seat].append(item)
    st.emit("lay_scoring", f"{name(seat)} lays out {card} ({tb.CARDS[card].name})", seat=seat, card=card,
            source=source)
    if tb.kind(card) is JunkType.TIME_MACHINE:
        d.tasks.insert(0, (GROUP, seat, card))
    if not artifact and st.config["scoring_triggers"]:
        apply_triggers(st, [[seat, card, source]])  # AMB-19


def _step_a(st: BHB, task: tuple[Any, ...]) -> None:
    d = st.data
    _begin(st, "A")
    seat = tb.owner(d, "surprise_egg")
    if seat is None or not (d.draw or d.discard):  # BHB-REL-EGG-06
        st.emit("score_step", "Step A: no Surprise Egg in play", step="A", skipped=True)
        return
    st.emit("score_step", f"Step A: {name(seat)} may use the Surprise Egg", step="A", skipped=False, seat=seat)
    d.tasks.insert(0, (EGG, seat))


def egg(st: BHB, seat: int, use: bool) -> None:
    d = st.data
    if not use:
        st.emit("egg", f"{name(seat)} keeps the Surprise Egg", seat=seat, used=False)
        return
    item = tb.laid(d, seat, tb.EFFECT_CARD["surprise_egg"])
    d.tableaux[seat].remove(item)
    d.discard.append(item.card)
    card = pull(st)
    st.emit("egg", f"{name(seat)} discards the Surprise Egg and reveals {card} from the draw pile", seat=seat,
            used=True, card=card)
    if card is not None:
        lay_scoring(st, seat, card, "egg")


def _step_b(st: BHB, task: tuple[Any, ...]) -> None:
    d = st.data
    _begin(st, "B")
    seat = tb.owner(d, "wading_pool")
    if seat is None or not d.bh_pile:
        st.emit("score_step", "Step B: no Alien Wading Pool in play", step="B", skipped=True)
        return
    st.emit("score_step", f"Step B: {name(seat)} may use the Alien Wading Pool", step="B", skipped=False, seat=seat)
    d.tasks.insert(0, (POOL, seat))


def pool(st: BHB, seat: int, use: bool) -> None:
    d = st.data
    if not use:
        st.emit("pool", f"{name(seat)} keeps the Alien Wading Pool", seat=seat, used=False)
        return
    item = tb.laid(d, seat, tb.EFFECT_CARD["wading_pool"])
    d.tableaux[seat].remove(item)
    d.discard.append(item.card)
    card = scripted(st, "pool", tb.sort_cards(d.bh_pile))  # BHB-REL-POOL-02: uniform
    st.reveal()
    i = d.bh_pile.index(card)
    d.bh_pile.pop(i)
    d.bh_from.pop(i)
    st.emit("pool", f"{name(seat)} discards the Alien Wading Pool and takes {card} from the black hole",
            seat=seat, used=True, card=card)
    lay_scoring(st, seat, card, "pool")


def _step_c(st: BHB, task: tuple[Any, ...]) -> None:
    """Toys face up; the single heaviest toy total above 0 takes W-6 (BHB-SCORE-C-01..03)."""
    d = st.data
    _begin(st, "C")
    flipped: list[list[Any]] = []
    for seat, tableau in enumerate(d.tableaux):
        for item in tableau:
            if item.face_down:
                st.reveal()
                item.face_down = False
                flipped.append([seat, item.card, "toy"])
                st.emit("toy_up", f"{name(seat)} turns up {item.card} ({tb.CARDS[item.card].name})", seat=seat,
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
    text = f"Step C: toy weights {toy_w}; " + (f"{name(holder)} takes {tb.W6}" if holder is not None
                                                else f"nobody takes {tb.W6}")
    st.emit("score_step", text, step="C", toy_weights=toy_w, w6=holder)


def _step_d(st: BHB, task: tuple[Any, ...]) -> None:
    d = st.data
    _begin(st, "D")
    seat = tb.owner(d, "one_ring")
    if seat is None:
        st.emit("score_step", "Step D: no One Ring in play", step="D", skipped=True)
        return
    st.emit("score_step", f"Step D: {name(seat)} may discard the One Ring", step="D", skipped=False, seat=seat)
    d.tasks.insert(0, (RING, seat))


def ring(st: BHB, seat: int, use: bool) -> None:
    d = st.data
    if use:
        item = tb.laid(d, seat, tb.EFFECT_CARD["one_ring"])
        d.tableaux[seat].remove(item)
        d.discard.append(item.card)  # face up (AMB-41)
        on_one_ring_discarded(st, seat)
    st.emit("ring", f"{name(seat)} {'discards' if use else 'keeps'} the One Ring", seat=seat, used=use)


def _step_e(st: BHB, task: tuple[Any, ...]) -> None:
    """Record the weights, then Carpet and Exoskeleton on those numbers (BHB-SCORE-E-01/02)."""
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
    parts = [f"Step E: weights {ew}"]
    if carpet is not None:
        parts.append(f"Anti-Grav Carpet: {name(carpet)} {'takes ' + tb.V10 if gets_v else 'is not the lightest'}")
    if exo is not None:
        parts.append(f"Exoskeleton: {name(exo)} {'takes ' + tb.W10 if gets_w else 'is not the heaviest'}")
    st.emit("score_step", "; ".join(parts), step="E", weights=ew, v10=carpet if gets_v else None,
            w10=exo if gets_w else None)


def _step_f(st: BHB, task: tuple[Any, ...]) -> None:
    """Reveal one black-hole card: T + w + threshold cards; XXL doubles w for its owner (BHB-SCORE-F)."""
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
    st.emit("score_step", f"Step F: revealed {d.bh_revealed} (weight {w}); threshold {base} {w:+d}"
            + (f" {extra:+d} (threshold cards)" if d.thresholds else "") + f" = {base + w + extra}"
            + (f"; {name(xxl)} (XXL Paperweight) {d.threshold[xxl]}" if xxl is not None else ""),
            step="F", card=d.bh_revealed, weight=w, base=base, threshold_cards=list(d.thresholds),
            thresholds=list(d.threshold), xxl=xxl)


def _step_g(st: BHB, task: tuple[Any, ...]) -> None:
    """Pull-ins: weight strictly above the own threshold; the Space Blanket gives 5 (BHB-SCORE-G)."""
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
    st.emit("score_step", f"Step G: weights {gw} against thresholds {d.threshold}; pulled in: "
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


def _step_h(st: BHB, task: tuple[Any, ...]) -> None:
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
        "round": d.round, "black_hole": d.black_hole, "toy_weight": list(d.toy_weight), "e_weight": list(d.e_weight),
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


def _end(st: BHB, task: tuple[Any, ...]) -> None:
    d = st.data
    if d.round >= 3:  # BHB-FLOW-02: no cleanup after round 3
        d.phase = OVER
        d.step = ""
        d.ask = ("", -1)
        st.emit("game_end", f"Final scores {d.scores}", scores=list(d.scores))
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
    d.revealed, d.tasks = [], []
    d.tiit_done = False
    d.e_weight, d.threshold, d.pulled_in, d.round_points, d.toy_weight = [], [], [], [], []
    d.ask = (CHOOSE, -1)
    hole = tb.hole(d)
    st.emit("round_start", f"Round {d.round}: black hole {hole.id} ({hole.category}, {hole.cards} cards, "
            f"threshold {hole.threshold}); passing {d.direction}", round=d.round, black_hole=hole.id,
            cards=hole.cards, threshold=hole.threshold, direction=d.direction)
    st.reveal()  # each player picks up a new hand
    for seat in range(n):
        st.emit("deal_private", f"Your hand: {', '.join(d.hands[seat])}", to=only(seat), seat=seat,
                cards=list(d.hands[seat]))


AUTO: dict[str, Callable[[BHB, tuple[Any, ...]], None]] = {
    "gps": _gps, "tiit": _tiit, "tentacle_draw": _tentacle_draw, "gyro": _gyro,
    "robots": _robots, "triggers": _triggers, "pass": _pass,
    "A": _step_a, "B": _step_b, "C": _step_c, "D": _step_d, "E": _step_e, "F": _step_f, "G": _step_g,
    "H": _step_h, "end": _end,
}
