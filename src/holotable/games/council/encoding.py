"""Black Hole Council's RL observation encoder: a fixed vector in [0, 1] from a seat's view.

Per-seat features are rotated so the observer comes first (``_r0``), then its left neighbour
(``_r1``, the next seat clockwise) and so on; seats a smaller game lacks are zero, with
``present_r*`` saying which exist, so one policy serves every seat and player count (4 to 8).
Planets are described by colour (one-hot, rainbow included), points, coin and whether they
match the observer's own Agenda, on the table and in the Planet History. Counts are divided by
a generous largest value and clipped into [0, 1].

Only the view is read, so an observation carries nothing the seat may not see (its own Agenda,
Intrigue card and points; public facts; the colours of Deduction cards it played or was shown);
the tests hold it to that under determinisation. Free chat has no integer index, so it is no
RL action (:data:`holotable.games.council.actions.SPACE`); the structured suggestions, pledges,
requests and claims are, and the encoder counts them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from holotable.engine import Config
from holotable.rl.encoding import EncoderSpec

from .data import COLOURS, OUTCOMES
from .rules import SPEC

MAX_SEATS = SPEC.max_players
PLANET_COLOURS = (*COLOURS, "rainbow")
PHASES = ("negotiate", "vote", "advance", "deduce", "over")
ROUND_KINDS = ("N", "D", "P")
NEGOTIATION_ROUNDS = 6
DEDUCTION_ROUNDS = 3
#: Generous caps for counts that have no hard limit (coins) or a configurable one.
BANK_CAP = 40.0
BRIBE_CAP = 5.0
TALK_CAP = 10.0
PAY_CAP = 20.0

_PLANET = (*[f"colour_{c}" for c in PLANET_COLOURS], "points", "coin", "mine")


def _per_seat(name: str) -> list[str]:
    return [f"{name}_r{r}" for r in range(MAX_SEATS)]


def _planet_slots(prefix: str) -> list[str]:
    return [f"{prefix}_{o}_{f}" for o in OUTCOMES for f in _PLANET]


SEAT_FEATURES = (
    "present",
    "leader",
    "asked",
    "committed",
    "position",  # space / track length
    "bank",  # / BANK_CAP
    "pending",  # / BRIBE_CAP
    "offer_open",
    "offer_accepted",
    "bribed",
    "moves_left",  # / the seat's cap this Proposal
    "intrigue_played",
    *[f"intrigue_{o}" for o in OUTCOMES],  # the played card's kind (public once played)
    "support",  # pledges this Proposal
    "oppose",
    "asked_bribe",  # largest "ask bribe" this Proposal / BRIBE_CAP
    "suggestions",  # suggestions made this Proposal / TALK_CAP
    "last_vote_pass",  # the latest revealed vote of this round
    "last_vote_fail",
    "advance_natural",  # this round's announcement
    "advance_pay",
    "advance_paid",
    "advance_coins",  # / PAY_CAP
    "advances",  # token moves in Negotiation Rounds so far / 6
    *[f"deduction_{d}_right" for d in range(1, DEDUCTION_ROUNDS + 1)],  # as guesser
    *[f"deduction_{d}_wrong" for d in range(1, DEDUCTION_ROUNDS + 1)],
)

FEATURES: tuple[str, ...] = (
    *[f"own_seat_{s}" for s in range(MAX_SEATS)],
    "my_turn",
    "terminal",
    *[f"phase_{p}" for p in PHASES],
    *[f"round_kind_{k}" for k in ROUND_KINDS],
    "round",  # Round Track space / 10
    "negotiation_round",  # / 6
    "deduction_round",  # / 3
    *[f"proposal_{k}" for k in (1, 2, 3)],
    "failed",  # / 2
    "bribe_space",  # / BRIBE_CAP
    "leader_pending",
    "deck",  # / 32
    "clock",  # the table has a negotiation timer
    *_planet_slots("table"),
    *[f"table_suggest_{a}_{b}" for i, a in enumerate(OUTCOMES) for b in OUTCOMES[i + 1 :]],  # / TALK_CAP
    *[f"agenda_{c}_{o}" for c in COLOURS for o in OUTCOMES],  # own Agenda: colour -> outcome
    *[f"intrigue_{o}" for o in OUTCOMES],  # own card
    "intrigue_played",
    "points",  # (points + 2) / 20
    "points_with_intrigue",
    *[f"history_{k}_written_off" for k in range(1, NEGOTIATION_ROUNDS + 1)],
    *[slot for k in range(1, NEGOTIATION_ROUNDS + 1) for slot in _planet_slots(f"history_{k}")],
    *[f"my_guess_{d}_{c}" for d in range(1, DEDUCTION_ROUNDS + 1) for c in COLOURS],
    *[f"my_guess_{d}_right" for d in range(1, DEDUCTION_ROUNDS + 1)],
    *[f"guessed_me_{d}_{c}" for d in range(1, DEDUCTION_ROUNDS + 1) for c in COLOURS],  # cards I was shown
    *[f"{name}_r{r}" for name in SEAT_FEATURES for r in range(MAX_SEATS)],
)
SIZE = len(FEATURES)
INDEX = {name: i for i, name in enumerate(FEATURES)}
_SUGGEST = {(a, b): INDEX[f"table_suggest_{a}_{b}"] for i, a in enumerate(OUTCOMES) for b in OUTCOMES[i + 1 :]}
#: Where each per-seat feature's ``_r0`` slot is (its ``_r1.._r7`` follow it).
_SEAT = {name: INDEX[f"{name}_r0"] for name in SEAT_FEATURES}
#: Per outcome name, the first slot of its planet block; the block is colours, points, coin, mine.
_PLANET_AT = {
    prefix: {o: INDEX[f"{prefix}_{o}_colour_red"] for o in OUTCOMES}
    for prefix in ("table", *[f"history_{k}" for k in range(1, NEGOTIATION_ROUNDS + 1)])
}
_COLOUR_OFFSET = {c: i for i, c in enumerate(PLANET_COLOURS)}
_POINTS, _COIN, _MINE = len(PLANET_COLOURS), len(PLANET_COLOURS) + 1, len(PLANET_COLOURS) + 2
_AGENDA = {(c, o): INDEX[f"agenda_{c}_{o}"] for c in COLOURS for o in OUTCOMES}
_MY_GUESS = {(d, c): INDEX[f"my_guess_{d}_{c}"] for d in range(1, DEDUCTION_ROUNDS + 1) for c in COLOURS}
_GUESSED_ME = {(d, c): INDEX[f"guessed_me_{d}_{c}"] for d in range(1, DEDUCTION_ROUNDS + 1) for c in COLOURS}
_ADVANCE_KIND = {"natural": _SEAT["advance_natural"], "pay": _SEAT["advance_pay"]}
_G = {name: INDEX[name] for name in FEATURES if not name.endswith(tuple(f"_r{r}" for r in range(MAX_SEATS)))}


def _clip(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def _planet(out: list[float], base: int, outcome: str, planet: Mapping[str, Any], goals: Mapping[str, str]) -> None:
    colour = str(planet["colour"])
    out[base + _COLOUR_OFFSET[colour]] = 1.0
    out[base + _POINTS] = _clip((int(planet["points"]) + 1) / 4)
    out[base + _COIN] = _clip(int(planet["coin"]) / 2)
    if colour == "rainbow" or goals.get(outcome) == colour:
        out[base + _MINE] = 1.0


def make_encoder(config: Config) -> Callable[[Mapping[str, Any]], list[float]]:
    """The encoder of one configuration (its player count, track and move caps fixed once)."""
    n = config.players
    track = float(len(config["track_costs"]) + 1)
    ticks = float(config["negotiation_ticks"])
    leader_cap = float(config["negotiation_ticks"] * config["leader_actions_per_tick"])
    template = [0.0] * SIZE
    for r in range(n):
        template[_SEAT["present"] + r] = 1.0
    if config["negotiation_seconds"]:
        template[_G["clock"]] = 1.0
    #: place[me][s]: how many seats after ``me`` seat ``s`` sits (the ``_r<k>`` rotation).
    place = [[(s - me) % n for s in range(n)] for me in range(n)]
    table_at = _PLANET_AT["table"]

    def encode(view: Mapping[str, Any]) -> list[float]:
        me: int = view["seat"]
        at = place[me]
        out = template[:]
        out[_G[f"own_seat_{me}"]] = 1.0
        asked = set(view["to_move"])
        if me in asked:
            out[_G["my_turn"]] = 1.0
        if view["terminal"]:
            out[_G["terminal"]] = 1.0
        out[_G[f"phase_{view['phase']}"]] = 1.0
        out[_G[f"round_kind_{view['round_kind']}"]] = 1.0
        out[_G["round"]] = _clip(view["round"] / 10)
        out[_G["negotiation_round"]] = _clip(view["negotiation_round"] / NEGOTIATION_ROUNDS)
        out[_G["deduction_round"]] = _clip(view["deduction_round"] / DEDUCTION_ROUNDS)
        out[_G[f"proposal_{view['proposal']}"]] = 1.0
        out[_G["failed"]] = _clip(view["failed"] / 2)
        out[_G["bribe_space"]] = _clip(view["bribe_space"] / BRIBE_CAP)
        out[_G["leader_pending"]] = float(view["leader_pending"])
        out[_G["deck"]] = _clip(view["deck_size"] / 32)
        you = view["you"]
        goals: dict[str, str] = you["agenda"]["goals"]
        for o in OUTCOMES:
            out[_AGENDA[(goals[o], o)]] = 1.0
        out[_G[f"intrigue_{you['intrigue']}"]] = 1.0
        if you["intrigue_played"]:
            out[_G["intrigue_played"]] = 1.0
        if you["points"] is not None:
            out[_G["points"]] = _clip((you["points"] + 2) / 20)
        if you["points_with_intrigue"] is not None:
            out[_G["points_with_intrigue"]] = _clip((you["points_with_intrigue"] + 2) / 20)
        for o, planet in view["table"].items():
            _planet(out, table_at[o], o, planet, goals)
        for k, hist in enumerate(view["history"][:NEGOTIATION_ROUNDS], start=1):
            if hist["written_off"]:
                out[_G[f"history_{k}_written_off"]] = 1.0
            else:
                bases = _PLANET_AT[f"history_{k}"]
                for o, planet in hist["planets"].items():
                    _planet(out, bases[o], o, planet, goals)
        # Per seat.
        leader = view["leader"]
        out[_SEAT["leader"] + at[leader]] = 1.0
        for s in asked:
            out[_SEAT["asked"] + at[s]] = 1.0
        for s in view.get("committed") or ():
            out[_SEAT["committed"] + at[s]] = 1.0
        for s in view["offers"]:
            out[_SEAT["offer_open"] + at[s]] = 1.0
        for s in view["bribed"]:
            out[_SEAT["bribed"] + at[s]] = 1.0
        accepted = view["accepted_from"]
        if accepted is not None:
            out[_SEAT["offer_accepted"] + at[accepted]] = 1.0
        for r in view["intrigue_discards"]:
            out[_SEAT["intrigue_played"] + at[r["seat"]]] = 1.0
            out[_SEAT[f"intrigue_{r['kind']}"] + at[r["seat"]]] = 1.0
        positions, banks, pending = view["positions"], view["banks"], view["pending"]
        negotiating = view["phase"] == "negotiate"
        moves = view["moves_left"]
        for s in range(n):
            r = at[s]
            out[_SEAT["position"] + r] = _clip(positions[s] / track)
            out[_SEAT["bank"] + r] = _clip(banks[s] / BANK_CAP)
            out[_SEAT["pending"] + r] = _clip(pending[s] / BRIBE_CAP)
            if negotiating and moves[s] is not None:
                out[_SEAT["moves_left"] + r] = _clip(moves[s] / (leader_cap if s == leader else ticks))
        suggestions = [0] * n
        asked_bribe = [0] * n
        for t in view["talk"]:
            seat, words = t["seat"], str(t["text"]).split()
            if not words or seat >= n:
                continue
            first = words[0]
            if first == "support" or first == "oppose":
                out[_SEAT["support"] + at[seat]] = 1.0 if first == "support" else 0.0
                out[_SEAT["oppose"] + at[seat]] = 1.0 if first == "oppose" else 0.0
            elif first == "ask" and len(words) == 3 and words[2].isdigit():
                asked_bribe[seat] = max(asked_bribe[seat], int(words[2]))
            elif first == "suggest" and len(words) == 4 and words[2] in OUTCOMES and words[3] in OUTCOMES:
                suggestions[seat] += 1
                a, b = sorted((words[2], words[3]), key=OUTCOMES.index)
                slot = _SUGGEST[(a, b)]
                out[slot] = _clip(out[slot] + 1 / TALK_CAP)
        for s in range(n):
            out[_SEAT["asked_bribe"] + at[s]] = _clip(asked_bribe[s] / BRIBE_CAP)
            out[_SEAT["suggestions"] + at[s]] = _clip(suggestions[s] / TALK_CAP)
        rnd = view["negotiation_round"]
        last_vote = None
        for v in view["votes"]:
            if v["round"] == rnd:
                last_vote = v
        if last_vote is not None:
            for s, ballot in enumerate(last_vote["votes"][:n]):
                if ballot is not None:
                    out[_SEAT[f"last_vote_{ballot}"] + at[s]] = 1.0
        moved = [0] * n
        for adv in view["advances"]:
            s = adv["seat"]
            if s >= n:
                continue
            if adv["choice"] != "get paid":
                moved[s] += 1
            if adv["round"] == rnd:
                out[_ADVANCE_KIND.get(adv["choice"], _SEAT["advance_paid"]) + at[s]] = 1.0
                out[_SEAT["advance_coins"] + at[s]] = _clip(adv["coins"] / PAY_CAP)
        for s in range(n):
            out[_SEAT["advances"] + at[s]] = _clip(moved[s] / NEGOTIATION_ROUNDS)
        for rnd_records in view["deductions"]:
            for rec in rnd_records:
                d = int(rec["deduction"])
                if not 1 <= d <= DEDUCTION_ROUNDS or rec["guesser"] >= n:
                    continue
                verdict = "right" if rec["correct"] else "wrong"
                out[_SEAT[f"deduction_{d}_{verdict}"] + at[rec["guesser"]]] = 1.0
                colour = rec.get("colour")
                if colour is None:
                    continue
                if rec["guesser"] == me:
                    out[_MY_GUESS[(d, colour)]] = 1.0
                    if rec["correct"]:
                        out[_G[f"my_guess_{d}_right"]] = 1.0
                elif rec["target"] == me:
                    out[_GUESSED_ME[(d, colour)]] = 1.0
        return out

    return encode


#: The ``encoder`` role of the manifest.
ENCODER = EncoderSpec(make_encoder, SIZE)
