"""Black Hole Buccaneers' heuristic bot: as much value as the black hole's pull allows.

The bot reads only its seat's view. Every decision is scored by one estimate, the
expected points of this round, for the tableau the decision leads to:

1. *The threshold.* The final threshold is the black hole's value, plus the threshold
   cards lying at it, plus the printed weight of one card revealed from the black-hole
   pile. The pile's cards are unknown except the bot's own, so the revealed weight is
   spread like the weights of the cards the bot has not seen (its own card counting
   one share). The XXL Paperweight doubles it for its owner.
2. *The rest of the round.* The bot will lay out ``f`` more cards this round and steers
   their weight: each adds about ``a + b·w`` value for weight ``w`` between a light and
   a heavy pick, and the bot takes the total future weight that scores best. The others
   are projected to add a typical card per turn; their face-down toys count as an
   average unseen toy.
3. *The points.* For each revealed weight, the bot survives if its weight stays at or
   under its threshold (a normal spread for the cards still to come); each rival
   survives likewise and beats the bot's value with a normal chance; the number of
   rivals ahead gives the place and the scoring card its points. A pulled-in Space
   Blanket owner scores its 5 points instead.

Card effects enter through the tableau they build: time-machine parts join the group
that gains most (and a group that can still grow is worth a little more), shapeshifters
re-weigh the whole stack, robots risk a rotation when others are likely to reveal one,
toys may win the -6 weight card, Anti-Grav Carpet and Exoskeleton count with the
chance of being lightest or heaviest, TIIT CLO UHL adds a card for everyone and +3 to
the threshold, the Titan Tentacle adds a pick, the Laser tries each of its cards, and
the rotating artifacts are valued at the turns they are likely to reach. A card the
next player (who receives the rest of the hand) would gain much from is worth a little
more to take (blocking). Relic choices (Egg, Pool, Ring) compare using with keeping.

For search agents it has ``ROLLOUT``, a fast rollout policy (:func:`rollout_move`)
that stops at the end of a round and values the scores so far (:func:`standing_value`);
see :mod:`holotable.agents.rollout`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from holotable.agents.base import Agent, Observation
from holotable.agents.rollout import Rollout
from holotable.engine import Config, Game, Rng, State

from . import cards as tb
from .actions import Action, Group, Laser, Play, Relic, Take
from .data import Artifact, BuccaneersData, JunkType, TimeMachinePart, data_for
from .state import BHBData, Laid

_SQRT2 = math.sqrt(2.0)

#: Future picks: about ``_FUTURE_A + _FUTURE_B * w`` value for a card of weight ``w`` in this range.
_FUTURE_A = 1.0
_FUTURE_B = 1.2
_LIGHT_PICK = 2.0
_HEAVY_PICK = 7.5
#: How far the bot's own future weight may miss its plan, per card to come.
_MY_SPREAD = 0.7
#: A rival's typical card, and the spread of a rival's value and weight per card to come.
_RIVAL_VALUE = 4.5
_RIVAL_WEIGHT = 3.8
_RIVAL_VALUE_VAR = 7.0
_RIVAL_WEIGHT_VAR = 4.0
#: Value lost by the Analog GPS Tracker's random card next turn.
_GPS_COST = 1.5
#: Points per value unit the next player would gain from a card we pass on (blocking).
_BLOCK_WEIGHT = 0.08
_BLOCK_FLOOR = 2.0
#: A shapeshifter or time-machine part that leaves room to grow: value per likely later gain.
_GROWTH_SHARE = 0.35
#: Chances per card to come: a rival reveals a shapeshifter, a card of printed weight 7+ (not a robot),
#: and the bot itself reveals one of weight 6+ (for Morphosucker, Cubus Librae and Lootbox).
_P_SHAPE = 10 / 67
_P_HEAVY7 = 12 / 67
_P_HEAVY6 = 0.25

#: Share of toys among the cards, and a toy's average printed weight.
_TOY_SHARE = 10 / 67
_TOY_WEIGHT = 4.0

_TOY_IDS = tuple(cid for cid, card in tb.CARDS.items() if card.kind is JunkType.TOY)
_ROBOT_IDS = frozenset(cid for cid, card in tb.CARDS.items() if card.kind is JunkType.ROBOT)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / _SQRT2))


# ====================================================================== reading the view


@dataclass
class Rival:
    """What the bot knows of another seat's tableau."""

    seat: int
    value: float
    weight: float
    toy_weight: float
    hidden_toys: int
    xxl: bool = False
    tableau: list[Laid] = field(default_factory=list)


@dataclass
class Board:
    """Everything a decision uses, read from one view (and nothing else)."""

    players: int
    seat: int
    kind: str | None
    hand: list[str]
    tableau: list[Laid]
    rivals: list[Rival]
    #: Black hole value plus the threshold cards lying at it.
    base_threshold: float
    #: Weight of the revealed black-hole card and its chance (the reveal's distribution).
    reveal: list[tuple[float, float]]
    #: Per-seat final thresholds once step F is done (None before).
    thresholds: list[int] | None
    points: tuple[int, ...]
    blanket_points: int
    tokens: dict[str, int]
    unseen: list[str]
    #: The bot's own cards in the black-hole pile (the only pile cards it knows).
    my_bh_cards: list[str]
    next_seat: int
    future: int
    phase: str
    step: str
    #: The game's card data (the configuration's data overrides applied).
    data: BuccaneersData = tb.DATA


def _laid(item: Mapping[str, Any]) -> Laid:
    return Laid(str(item["card"]), int(item.get("turns", 0)), bool(item.get("face_down", False)),
                int(item.get("group", 0)), str(item.get("source", "hand")), "", bool(item.get("suppressed", False)),
                bool(item.get("active", False)))


def read_board(view: Mapping[str, Any], config: Mapping[str, Any] | Any) -> Board:
    """The bot's picture of the table, from the seat's view only."""
    data = data_for(config) if isinstance(config, Config) else tb.DATA
    cards = data.cards_by_id
    n: int = view["players"]
    seat: int = view["seat"]
    hand = list(view["hand"] or [])
    tokens = {str(k): int(v) for k, v in (view.get("tokens") or {}).items()}
    seen: Counter[str] = Counter(hand)
    seen.update(view.get("discard") or [])
    seen.update(view.get("my_bh_cards") or [])
    seen.update(view.get("tentacle") or [])
    tableaux: list[list[Laid]] = []
    hidden: list[int] = []
    for items in view["tableaux"]:
        laid = [_laid(item) for item in items if item.get("card") is not None]
        tableaux.append(laid)
        hidden.append(sum(1 for item in items if item.get("card") is None))
        seen.update(item.card for item in laid)
    unseen = [cid for cid in tb.CARDS if seen[cid] == 0]
    unseen_toys = [cards[c].printed for c in unseen if tb.is_toy(c)] or [cards[c].printed for c in _TOY_IDS]
    toy_v = sum(s.value for s in unseen_toys) / len(unseen_toys)
    toy_w = sum(s.weight for s in unseen_toys) / len(unseen_toys)
    totals = view.get("totals") or [None] * n
    rivals = []
    for s in range(n):
        if s == seat:
            continue
        lay = tableaux[s]
        v, w = _totals(lay, data)
        v += hidden[s] * toy_v + _token_value(tokens, s)
        w += hidden[s] * toy_w + _token_weight(tokens, s)
        if totals[s] is not None:  # exact when nothing of it is hidden
            v, w = float(totals[s]["value"]), float(totals[s]["weight"])
        toy = sum(tb.printed_weight(x.card, data) for x in lay if tb.is_toy(x.card)) + hidden[s] * toy_w
        xxl = any(tb.effect_of(x.card) == "xxl_paperweight" for x in lay)
        rivals.append(Rival(s, v, w, toy, hidden[s], xxl, lay))
    hole = view["black_hole"]
    base = float(hole["threshold"]) + sum(tb.THRESHOLD_AMOUNTS.get(t, 0) for t in view.get("thresholds") or [])
    kind = (view.get("ask") or {}).get("kind")
    step = step_of_n(n, view.get("direction", "CW"))
    future = max(0, len(hand) - (2 if kind == "choose" else 1)) if view.get("phase") == "selection" else 0
    done_f = view.get("phase") == "scoring" and view.get("step", "") > "F"
    return Board(
        players=n,
        seat=seat,
        kind=kind,
        hand=hand,
        tableau=tableaux[seat],
        rivals=rivals,
        base_threshold=base,
        reveal=_reveal_spread(view, unseen, n, data),
        thresholds=list(view["threshold"]) if done_f and view.get("threshold") else None,
        points=data.scoring_card(n).points,
        blanket_points=int(_config_get(config, "blanket_points", 5)),
        tokens=tokens,
        unseen=unseen,
        my_bh_cards=list(view.get("my_bh_cards") or []),
        next_seat=(seat + step) % n,
        future=future,
        phase=str(view.get("phase")),
        step=str(view.get("step", "")),
        data=data,
    )


def step_of_n(n: int, direction: str) -> int:
    return 1 if direction == "CW" else n - 1


def _config_get(config: Any, key: str, default: Any) -> Any:
    try:
        return config[key]
    except (KeyError, TypeError):
        return default


def _reveal_spread(view: Mapping[str, Any], unseen: Sequence[str], n: int,
                   data: BuccaneersData = tb.DATA) -> list[tuple[float, float]]:
    """The revealed black-hole card's weight: the bot's own card one share, the others like unseen cards."""
    if view.get("bh_revealed"):
        return [(float(tb.printed_weight(view["bh_revealed"], data)), 1.0)]
    mine = list(view.get("my_bh_cards") or [])
    size = max(int(view.get("bh_pile_size") or 0), n)
    weights: dict[float, float] = {}
    pool = [float(tb.printed_weight(c, data)) for c in unseen] or [4.0]
    share_unseen = (size - len(mine)) / size
    for w in pool:
        weights[w] = weights.get(w, 0.0) + share_unseen / len(pool)
    for c in mine:
        key = float(tb.printed_weight(c, data))
        weights[key] = weights.get(key, 0.0) + 1.0 / size
    return sorted(weights.items())


def _totals(tableau: Sequence[Laid], data: BuccaneersData = tb.DATA) -> tuple[float, float]:
    v = w = 0
    for item in tableau:
        s = tb.stats(tableau, item, data)
        v += s.value
        w += s.weight
    return float(v), float(w)


def _token_value(tokens: Mapping[str, int], seat: int) -> float:
    return float(sum(tb.TOKEN_AMOUNTS[t] for t in tb.VALUE_TOKENS if tokens.get(t) == seat))


def _token_weight(tokens: Mapping[str, int], seat: int) -> float:
    return float(sum(tb.TOKEN_AMOUNTS[t] for t in tb.WEIGHT_TOKENS if tokens.get(t) == seat))


# ====================================================================== the estimate


@dataclass
class Plan:
    """A tableau the bot may end up with, and what comes with it."""

    tableau: list[Laid]
    extra_value: float = 0.0
    extra_weight: float = 0.0
    #: Cards still to lay out this round (besides those already in ``tableau``).
    future: int = 0
    rival_future: int = 0
    #: Threshold cards this plan adds at the black hole (they count for every seat).
    threshold_shift: float = 0.0


class Estimator:
    """Expected round points of plans, on one board."""

    def __init__(self, board: Board) -> None:
        self.b = board

    # ------------------------------------------------------------------ plans
    def value(self, plan: Plan) -> float:
        """Expected points of ``plan``, with the future weight steered to its best."""
        v, w = _totals(plan.tableau, self.b.data)
        v += plan.extra_value + _token_value(self.b.tokens, self.b.seat)
        w += plan.extra_weight + _token_weight(self.b.tokens, self.b.seat)
        f = plan.future
        if f <= 0:
            return self._points(plan, v, w, 0)
        best = -math.inf
        low, high = f * _LIGHT_PICK, f * _HEAVY_PICK
        steps = 8
        for i in range(steps + 1):
            add_w = low + (high - low) * i / steps
            add_v = f * _FUTURE_A + _FUTURE_B * add_w
            best = max(best, self._points(plan, v + add_v, w + add_w, f))
        return best

    def _points(self, plan: Plan, value: float, weight: float, future: int) -> float:
        b = self.b
        me = plan.tableau
        has = {tb.effect_of(x.card) for x in me if not x.suppressed} - {None}
        rival_f = plan.rival_future
        rivals = [
            (r, r.value + rival_f * _RIVAL_VALUE, r.weight + rival_f * _RIVAL_WEIGHT,
             math.sqrt(rival_f * _RIVAL_VALUE_VAR + r.hidden_toys * 1.5 + 1.0),
             math.sqrt(rival_f * _RIVAL_WEIGHT_VAR + r.hidden_toys * 1.5 + 0.25))
            for r in b.rivals
        ]
        my_sd = _MY_SPREAD * math.sqrt(future) + 0.3
        before_scoring = b.phase == "selection" or (b.phase == "scoring" and b.step <= "B")
        before_e = b.phase == "selection" or (b.phase == "scoring" and b.step <= "D")
        # Weight tokens still to be won: W-6 for the heaviest toys (step C), W-10 with the Exoskeleton.
        cases = [(1.0, value, weight)]
        if before_scoring and tb.W6 not in b.tokens:
            mine = sum(tb.printed_weight(x.card, b.data) for x in me if tb.is_toy(x.card))
            if mine > 0:
                p = 1.0
                for r, *_ in rivals:
                    # A rival may still lay toys: one card in _TOY_SHARE is a toy.
                    mean = r.toy_weight + rival_f * _TOY_SHARE * _TOY_WEIGHT
                    spread = math.sqrt(1.0 + r.hidden_toys + rival_f * _TOY_SHARE * 16.0)
                    p *= _phi((mine - mean - 0.5) / spread)
                cases = _split(cases, p, 0.0, -6.0)
        if before_e and "exoskeleton" in has:
            p = math.prod(_phi((weight - mu_w - 0.5) / sd_w) for _r, _mv, mu_w, _sv, sd_w in rivals)
            cases = _split(cases, p, 0.0, -10.0)
        if before_e and "anti_grav_carpet" in has:
            p = math.prod(_phi((mu_w - weight - 0.5) / sd_w) for _r, _mv, mu_w, _sv, sd_w in rivals)
            cases = [(q, v + 10.0 * p, w) for q, v, w in cases]
        blanket = b.blanket_points if "space_blanket" in has else 0
        xxl = 2.0 if "xxl_paperweight" in has else 1.0
        total = 0.0
        for q_w, reveal in self._reveals():
            for q_case, v, w in cases:
                if b.thresholds is not None:
                    my_thr = float(b.thresholds[b.seat])
                else:
                    my_thr = b.base_threshold + plan.threshold_shift + xxl * reveal
                safe = _phi((my_thr - w + 0.5) / my_sd)
                ranked = self._rank_points(v, rivals, reveal, plan)
                total += q_w * q_case * (safe * ranked + (1.0 - safe) * blanket)
        return total

    def _reveals(self) -> list[tuple[float, float]]:
        return [(p, w) for w, p in self.b.reveal]

    def _rank_points(self, value: float, rivals: Sequence[tuple[Rival, float, float, float, float]],
                     reveal: float, plan: Plan) -> float:
        """Expected step-H points of value ``value``, given the revealed weight."""
        b = self.b
        ahead = [1.0]  # distribution of the number of rivals that survive with more value
        for r, mu_v, mu_w, sd_v, sd_w in rivals:
            if b.thresholds is not None:
                thr = float(b.thresholds[r.seat])
            else:
                thr = b.base_threshold + plan.threshold_shift
                thr += (2.0 if r.xxl else 1.0) * reveal
            q = _phi((thr - mu_w + 0.5) / sd_w) * _phi((mu_v - value) / sd_v)
            nxt = [0.0] * (len(ahead) + 1)
            for k, pk in enumerate(ahead):
                nxt[k] += pk * (1.0 - q)
                nxt[k + 1] += pk * q
            ahead = nxt
        pts = b.points
        return sum(pk * pts[min(k, len(pts) - 1)] for k, pk in enumerate(ahead))

    # ------------------------------------------------------------------ cards
    def plan_with(self, card: str, future: int, *, source: str = "hand") -> Plan:
        """The plan after laying ``card`` out now (its best placement and likely effects)."""
        b = self.b
        tableau = [x.copy() for x in b.tableau]
        plan = Plan(tableau, future=future, rival_future=future)
        info = b.data.cards_by_id[card]
        laid = Laid(card, face_down=info.kind is JunkType.TOY and source == "hand", source=source)
        if info.kind is JunkType.TIME_MACHINE:
            _best_group(tableau, laid)
            plan.extra_value += self._growth(tableau, laid, future)
            return plan
        tableau.append(laid)
        if info.kind is JunkType.ROBOT and source != "egg":
            p = self._robot_clash()
            turned = info.at(1)
            plan.extra_value += p * (turned.value - info.printed.value)
            plan.extra_weight += p * (turned.weight - info.printed_weight)
        elif info.kind is JunkType.SHAPESHIFTER:
            plan.extra_value += self._shape_growth(tableau, future)
        elif isinstance(info, Artifact) and source in ("hand", "tentacle"):
            self._artifact(plan, laid, info, future, on_reveal=source == "hand")
        return plan

    def _artifact(self, plan: Plan, laid: Laid, info: Artifact, future: int, *, on_reveal: bool) -> None:
        effect = info.effect
        rivals = len(self.b.rivals)
        if not on_reveal and info.timing == "on_reveal":
            return  # via the Tentacle an on-reveal effect is ignored
        if effect == "gps":
            plan.extra_value -= _GPS_COST if future > 0 else 0.0
        elif effect == "tiit":
            plan.future += 1
            plan.rival_future += 1
            plan.threshold_shift += 3.0
        elif effect == "tentacle":
            plan.future += 1
        elif effect == "laser":
            _, amount = max(self._laser_options(plan))
            plan.threshold_shift += amount
            if amount > 0:  # a raising card sends the Laser to the discards
                plan.tableau.remove(laid)
        elif effect == "morphosucker":
            laid.turns = min(3, round(future * rivals * _P_SHAPE))
        elif effect == "cubus_librae":
            laid.turns = min(3, round(future * rivals * _P_HEAVY7))
        elif effect == "lootbox":
            laid.turns = round(future * _P_HEAVY6)

    def _laser_options(self, plan: Plan) -> list[tuple[float, float]]:
        out = []
        for amount in (-4, -2, 2, 4):
            trial = Plan([x.copy() for x in plan.tableau], plan.extra_value, plan.extra_weight, plan.future,
                         plan.rival_future, plan.threshold_shift + amount)
            if amount > 0:
                trial.tableau = [x for x in trial.tableau if tb.effect_of(x.card) != "laser"]
            out.append((self.value(trial), float(amount)))
        return out

    def _robot_clash(self) -> float:
        """Chance that another seat reveals a robot this turn (then ours turns over)."""
        unseen = self.b.unseen
        if not unseen:
            return 0.0
        share = sum(1 for c in unseen if c in _ROBOT_IDS) / len(unseen)
        return 1.0 - (1.0 - share) ** len(self.b.rivals)

    def _growth(self, tableau: list[Laid], laid: Laid, future: int) -> float:
        """A little value for a time-machine group that can still grow with parts still unseen."""
        if future <= 0 or not laid.group:
            return 0.0
        members = [x for x in tableau if x.group == laid.group]
        size = len(members)
        if size >= 4:
            return 0.0
        names = {tb.part_of(x.card) for x in members}
        unseen = self.b.unseen
        wanted = sum(1 for c in unseen if tb.kind(c) is JunkType.TIME_MACHINE and tb.part_of(c) not in names)
        share = wanted / max(1, len(unseen))
        seen_later = future * max(1, len(self.b.hand) - 1) * 0.5
        chance = 1.0 - float((1.0 - share) ** seen_later)
        before = _TM_TOTALS[size]
        after = _TM_TOTALS[size + 1]
        gain = (after[0] - before[0]) - (after[1] - before[1])
        return _GROWTH_SHARE * chance * max(0.0, gain)

    def _shape_growth(self, tableau: list[Laid], future: int) -> float:
        """A heavy shapeshifter stack may later be lightened by a light shapeshifter on top."""
        if future <= 0:
            return 0.0
        stack = [x for x in tableau if tb.kind(x.card) is JunkType.SHAPESHIFTER]
        top = tb.printed_weight(stack[-1].card, self.b.data)
        light = [tb.printed_weight(c, self.b.data) for c in self.b.unseen if tb.kind(c) is JunkType.SHAPESHIFTER]
        light = [w for w in light if w < top]
        if not light:
            return 0.0
        share = len(light) / max(1, len(self.b.unseen))
        chance = 1.0 - float((1.0 - share) ** (future * max(1, len(self.b.hand) - 1) * 0.5))
        saving = len(stack) * (top - sum(light) / len(light))
        return _GROWTH_SHARE * chance * saving

    def blocking(self, card: str) -> float:
        """Points of denying ``card`` to the next player (who gets the rest of this hand)."""
        rival = next((r for r in self.b.rivals if r.seat == self.b.next_seat), None)
        if rival is None:
            return 0.0
        tableau = [x.copy() for x in rival.tableau]
        before_v, before_w = _totals(tableau, self.b.data)
        info = self.b.data.cards_by_id[card]
        laid = Laid(card)
        if info.kind is JunkType.TIME_MACHINE:
            _best_group(tableau, laid)
        else:
            tableau.append(laid)
        after_v, after_w = _totals(tableau, self.b.data)
        gain = (after_v - before_v) - (after_w - before_w)
        return _BLOCK_WEIGHT * max(0.0, gain - _BLOCK_FLOOR)


#: Value and weight of a whole time-machine group by its size (from the data: 4 parts at their orientation).
_TM_TOTALS: tuple[tuple[int, int], ...] = tuple(
    (size * next(c for c in tb.CARDS.values() if isinstance(c, TimeMachinePart)).at(max(0, size - 1)).value,
     size * next(c for c in tb.CARDS.values() if isinstance(c, TimeMachinePart)).at(max(0, size - 1)).weight)
    for size in range(5)
)


def _split(cases: list[tuple[float, float, float]], p: float, dv: float, dw: float) -> list[tuple[float, float, float]]:
    if p < 0.02:
        return cases
    if p > 0.98:
        return [(q, v + dv, w + dw) for q, v, w in cases]
    out = []
    for q, v, w in cases:
        out.append((q * p, v + dv, w + dw))
        out.append((q * (1.0 - p), v, w))
    return out


def _best_group(tableau: list[Laid], laid: Laid) -> int:
    """Place a time-machine part where the tableau gains most value less weight; return the group (0 = new)."""
    best_group, best_gain = 0, -math.inf
    for g in [0, *tb.open_groups(tableau, laid.card)]:
        trial = [x.copy() for x in tableau]
        part = laid.copy()
        trial.append(part)
        tb.place_part(trial, part, g)
        v, w = _totals(trial)
        if v - w > best_gain + 1e-9:
            best_group, best_gain = g, v - w
    tableau.append(laid)
    tb.place_part(tableau, laid, best_group)
    return best_group


# ====================================================================== the agent


class BuccaneersHeuristic(Agent):
    """Scores every choice by the expected points of this round (see the module docstring)."""

    name = "heuristic"

    def __init__(self, game: Game[Any, Any], seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)

    def act(self, obs: Observation) -> Any:
        legal: Sequence[Action] = obs.legal
        if len(legal) == 1:
            return legal[0]
        board = read_board(obs.view, obs.config)
        return choose(board, legal)


def choose(board: Board, legal: Sequence[Action]) -> Action:
    """The best of ``legal`` on ``board`` (ties keep the first listed)."""
    est = Estimator(board)
    scored = [(score(est, board, action), i) for i, action in enumerate(legal)]
    best = max(scored, key=lambda t: (t[0], -t[1]))
    return legal[best[1]]


def score(est: Estimator, board: Board, action: Action) -> float:
    """The estimated points of one legal action."""
    if isinstance(action, Play):
        plan = est.plan_with(action.card, board.future)
        return est.value(plan) + est.blocking(action.card)
    if isinstance(action, Take):
        return est.value(est.plan_with(action.card, board.future, source="tentacle"))
    if isinstance(action, Group):
        return _group_score(est, board, action.group)
    if isinstance(action, Laser):
        return _laser_score(est, board, action.amount)
    return _relic_score(est, board, action)


def _waiting_part(board: Board) -> str | None:
    """The time-machine part waiting for its group (the last one laid without a group)."""
    for item in reversed(board.tableau):
        if tb.kind(item.card) is JunkType.TIME_MACHINE and item.group == 0:
            return item.card
    return None


def _group_score(est: Estimator, board: Board, group: int) -> float:
    card = _waiting_part(board)
    if card is None:
        return 0.0
    tableau = [x.copy() for x in board.tableau]
    part = next(x for x in reversed(tableau) if x.card == card)
    tb.place_part(tableau, part, group)
    return est.value(Plan(tableau, future=board.future, rival_future=board.future)) + est._growth(
        tableau, part, board.future)


def _laser_score(est: Estimator, board: Board, amount: int) -> float:
    tableau = [x.copy() for x in board.tableau]
    if amount > 0:
        tableau = [x for x in tableau if tb.effect_of(x.card) != "laser"]
    return est.value(Plan(tableau, future=board.future, rival_future=board.future, threshold_shift=amount))


def _relic_score(est: Estimator, board: Board, action: Relic) -> float:
    effect = {"egg": "surprise_egg", "pool": "wading_pool", "ring": "one_ring"}[action.relic]
    base = [x.copy() for x in board.tableau]
    if not action.use:
        return est.value(Plan(base))
    without = [x for x in base if tb.effect_of(x.card) != effect]
    if action.relic == "ring":
        return est.value(Plan(without))
    # The Egg lays out the top card of the draw pile, the Pool a random black-hole card:
    # average over what that card may be (the bot's own black-hole card is one of the pile's).
    options = [(c, 1.0) for c in board.unseen]
    if action.relic == "pool" and board.unseen:
        # One share per pile card: the bot's own cards are as likely as each of the others.
        others = max(1, board.players - len(board.my_bh_cards))
        options += [(c, len(board.unseen) / others) for c in board.my_bh_cards]
    if not options:
        return est.value(Plan(without))
    kept = Board(**{**board.__dict__, "tableau": without})
    inner = Estimator(kept)
    total = weight = 0.0
    for card, share in _sample(options, 12):
        total += share * inner.value(inner.plan_with(card, 0, source=action.relic))
        weight += share
    return total / weight


def _sample(options: Sequence[tuple[str, float]], most: int) -> list[tuple[str, float]]:
    """Up to ``most`` options spread evenly over a canonical order (deterministic)."""
    ordered = sorted(options, key=lambda t: tb.ORDER[t[0]])
    if len(ordered) <= most:
        return ordered
    stride = len(ordered) / most
    return [ordered[int(i * stride)] for i in range(most)]


# ====================================================================== rollouts for search


def rollout_move(st: State[BHBData, Action], seat: int, rng: Rng) -> Action:
    """A fast, plausible move for simulated play inside a search (not for real play).

    It reads the (determinised) state directly: inside a search that state is a sample.
    Cards are chosen by value less weight at a price that rises as the weight nears the
    black hole's value; groups take the largest group; the Laser raises the threshold
    when the seat is heavy; relics are used while there is room under the threshold.
    """
    legal = st.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    d = st.data
    first = legal[0]
    if isinstance(first, Play | Take):
        if rng.random() < 0.1:
            return legal[rng.randrange(len(legal))]
        room = _room(d, seat)
        left = max(1, len(d.hands[seat]) - (1 if isinstance(first, Play) else 0))
        price = 0.4 if room > 4.5 * left else (1.0 if room > 3.0 * left else 1.8)
        cards = [a.card for a in legal]  # type: ignore[union-attr]
        best = max(range(len(cards)), key=lambda i: _quick_worth(d, seat, cards[i], price))
        return legal[best]
    if isinstance(first, Group):
        sizes = tb.groups(d.tableaux[seat])
        return max(legal, key=lambda a: len(sizes.get(a.group, ())) if isinstance(a, Group) else -1)
    if isinstance(first, Laser):
        amount = 4 if _room(d, seat) < 3 else -4
        return next(a for a in legal if isinstance(a, Laser) and a.amount == amount)
    room = _room(d, seat)
    use = room < 0 if first.relic == "ring" else room > 6
    return next(a for a in legal if isinstance(a, Relic) and a.use == use)


def _room(d: BHBData, seat: int) -> float:
    """Weight still free under the black hole's value, threshold cards and an average reveal."""
    base = tb.hole(d).threshold + sum(tb.THRESHOLD_AMOUNTS[t] for t in d.thresholds) + 4
    return base - tb.weight(d, seat)


def _quick_worth(d: BHBData, seat: int, card: str, price: float) -> float:
    info = tb.data_of(d).cards_by_id[card]
    value, weight = info.printed.value, info.printed_weight
    if info.kind is JunkType.TIME_MACHINE:
        sizes = [len(m) for g, m in tb.groups(d.tableaux[seat]).items() if g in tb.open_groups(d.tableaux[seat], card)]
        size = max(sizes, default=0)
        value = _TM_TOTALS[size + 1][0] - _TM_TOTALS[size][0]
        weight = _TM_TOTALS[size + 1][1] - _TM_TOTALS[size][1]
    elif info.kind is JunkType.SHAPESHIFTER:
        stack = sum(1 for x in d.tableaux[seat] if tb.kind(x.card) is JunkType.SHAPESHIFTER)
        top = tb.top_shapeshifter(d.tableaux[seat])
        before = stack * (tb.printed_weight(top, tb.data_of(d)) if top else 0)
        weight = (stack + 1) * weight - before
    return value - price * weight


def round_of(st: State[BHBData, Action]) -> int:
    """The rollout horizon: a rollout stops when the round it began in is over."""
    return st.data.round if st.data.phase != "over" else 4


def standing_value(st: State[BHBData, Action]) -> tuple[float, ...]:
    """Each seat's expected utility from the points so far and the rounds still to play.

    Utility runs from 1 (first) to 0 (last); its expectation is the average over the
    rivals of the chance of finishing ahead (ties count half). A round moves a pair's
    difference by about the spread of the scoring card's points.
    """
    d = st.data
    n = d.players
    points = tb.data_of(d).scoring_card(n).points
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / n
    # The horizon ends a rollout at the start of a round (or at the end of the game).
    rounds_left = 0 if d.phase == "over" else 3 - d.round + 1
    sd = math.sqrt(2.0 * var * rounds_left) if rounds_left else 0.0
    out = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i == j:
                continue
            lead = d.scores[i] - d.scores[j]
            if sd < 1e-9:
                total += 1.0 if lead > 0 else (0.5 if lead == 0 else 0.0)
            else:
                total += _phi(lead / sd)
        out.append(total / (n - 1))
    return tuple(out)


#: The ``rollout`` role of the manifest.
ROLLOUT = Rollout(rollout_move, horizon=round_of, evaluator=standing_value)
