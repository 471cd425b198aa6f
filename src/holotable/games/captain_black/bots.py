"""Captain Black's heuristic bot: push your luck as far as your standing calls for.

The bot reads only its seat's view. For every draw size ``k`` it weighs the chance
of an all-gold handful, ``P(k) = C(G, k) / C(G + B, k)``, against the gain, by
asking what each outcome does to its chance of winning the game:

1. *The round.* Every player's round total is projected as a normal variable: the
   gold in their box plus the gold their expected remaining turns bring. Turns left
   follow from the black coins still to come and how often each player draws black
   (the others' rate is learnt from what the view shows between the bot's turns).
   The fewest get parrots, and the projected totals give each player's expected
   chest cards (dense ranks, capped).
2. *The game.* Filled chests so far (its own exactly, the others' by the share of
   filled cards among the cards it has not seen), plus this round's cards, plus the
   spread of the rounds still to play, give a chance of beating each rival.

So a bot far ahead prefers small safe draws (it only needs the lead to hold), a
bot far behind gambles, and near the end of a round, when few black coins are
left, it counts how many turns it can still expect. With a hidden tally
(``public_tally`` false) the others' boxes are unknown: it splits the gold missing
from the bag evenly between them and widens their spread.

For search agents it has ``ROLLOUT``, a fast rollout (:func:`rollout_draw`
for the moves, and rollouts that stop at the end of their round, valued by
:func:`round_start_value`); see :mod:`holotable.agents.rollout`.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any

from holotable.agents.base import Agent, Observation
from holotable.agents.rollout import Rollout
from holotable.engine import Game, Rng, State

from .actions import DRAWS, Draw
from .data import Components, data_for
from .rules import CaptainBlack
from .state import CBData

#: Until it has watched the others, the bot assumes they draw as many coins as give the
#: most expected gold (and so fail about as often); the prior counts as this many turns.
_PRIOR_TURNS = 4.0
_NORMAL = math.sqrt(2.0)


def p_all_gold(gold: int, black: int, k: int) -> float:
    """The chance that ``k`` coins drawn blind from the bag are all gold.

    >>> p_all_gold(42, 8, 1)
    0.84
    >>> round(p_all_gold(42, 8, 5), 3)
    0.401
    >>> p_all_gold(3, 1, 4)
    0.0
    """
    if k > gold:
        return 0.0
    return comb(gold, k) / comb(gold + black, k)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / _NORMAL))


def _more(mean_diff: float, var: float) -> float:
    """P(X - Y >= 1) for integer totals whose difference has this mean and variance."""
    if var < 1e-9:
        return 1.0 if mean_diff > 0.5 else 0.0
    return _phi((mean_diff - 0.5) / math.sqrt(var))


@dataclass
class _Table:
    """Everything the decision uses, read from one view."""

    players: int
    seat: int
    gold: int  # in the bag
    black: int  # in the bag
    fails_left: int  # black draws still to come before the round ends
    boxes: list[float]  # expected gold in each box
    box_var: list[float]  # uncertainty about it (0 with a public tally)
    chest_counts: list[int]
    my_filled: int
    filled_rate: float  # share of filled cards among the cards this seat has not seen
    rounds_after: int  # rounds still to play after this one
    parrot_mean: float  # expected coins from a pair of parrot cards
    parrot_var: float
    chest_cap: int


@dataclass
class _Seen:
    """What the bot saw when it last decided, to learn how the others play."""

    round: int
    ply: int
    island: int
    gold: int
    box: int
    k: int


class CaptainBlackHeuristic(Agent):
    """Chooses the draw size with the best estimated chance of winning the game."""

    name = "heuristic"

    def __init__(self, game: Game[Any, Any], seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        self.components: Components = getattr(game, "components", CaptainBlack.components)
        self.reset()

    def reset(self) -> None:
        self._seen: _Seen | None = None
        # The others' turns watched this game, and how many of them drew black.
        self._turns = 0
        self._fails = 0

    # ------------------------------------------------------------------ decision
    def act(self, obs: Observation) -> Any:
        view = obs.view
        t = self._read(view, obs.config)
        self._learn(view, t)
        # The rest of the round after a black draw (one black coin fewer) and after gold.
        after_black = self._plan_future(t, t.fails_left - 1, t.black - 1)
        after_gold = self._plan_future(t, t.fails_left, t.black)
        fail_score = _outcome_score(t, 0, after_black)
        best: Draw = obs.legal[0]
        best_score = -math.inf
        for action in obs.legal:  # ascending k: ties keep the smaller, safer draw
            k = action.k
            p = p_all_gold(t.gold, t.black, k)
            score = (1 - p) * fail_score
            if p > 1e-4:
                score += p * _outcome_score(t, k, after_gold)
            if score > best_score + 1e-12:
                best, best_score = action, score
            if p <= 1e-4:
                break  # every larger draw is as good as a sure black coin
        self._seen = _Seen(view["round"], view["ply"], view["island"], t.gold, view["boxes"][t.seat], best.k)
        return best

    # ------------------------------------------------------------------ reading the view
    def _read(self, view: dict[str, Any], config: Any) -> _Table:
        comp = data_for(config).components  # the counts this game was set up with (data overrides)
        n, seat = view["players"], view["seat"]
        bag = view["bag"]
        black = bag.get("black", comp.black_coins - view["island"])
        gold = bag.get("gold", bag.get("coins", 0) - black)
        boxes_seen: list[int | None] = view["boxes"]
        hidden = [s for s, b in enumerate(boxes_seen) if b is None]
        boxes = [float(b or 0) for b in boxes_seen]
        box_var = [0.0] * n
        if hidden:
            # Gold out of the bag sits in the boxes; split the others' share evenly.
            others = max(0, comp.gold_coins - gold - sum(b for b in boxes_seen if b is not None))
            share = 1.0 / len(hidden)
            chunk = float(_greedy_draw(comp.gold_coins, comp.black_coins)[0])  # gold comes in handfuls
            for s in hidden:
                boxes[s] = others * share
                box_var[s] = others * chunk * share * (1 - share)
        mine_cards = view["chests"][seat] or []
        my_filled = sum(1 for c in mine_cards if c == "filled")
        unseen = comp.chest_cards - len(mine_cards)
        rate = (comp.chest_filled - my_filled) / unseen if unseen > 0 else 0.0
        parrot_mean, parrot_var = _parrot_pair(view, config)
        return _Table(
            players=n,
            seat=seat,
            gold=gold,
            black=black,
            fails_left=max(1, view["island_fields"] - view["island"]),
            boxes=boxes,
            box_var=box_var,
            chest_counts=list(view["chest_counts"]),
            my_filled=my_filled,
            filled_rate=rate,
            rounds_after=view["rounds_total"] - view["round"],
            parrot_mean=parrot_mean,
            parrot_var=parrot_var,
            chest_cap=config["max_chests_per_round"],
        )

    def _learn(self, view: dict[str, Any], table: _Table) -> None:
        """Count the others' turns since this bot's last move, and how many drew black."""
        seen, self._seen = self._seen, None
        if seen is None or seen.round != view["round"]:
            return  # a new round (or game): the coins were reset in between
        others_turns = view["ply"] - seen.ply - 1
        won = view["boxes"][table.seat] - seen.box
        mine_failed = won != seen.k
        fails = view["island"] - seen.island - (1 if mine_failed else 0)
        if others_turns <= 0 or not 0 <= fails <= others_turns:
            return  # not the plain sequence of turns this bookkeeping understands
        self._turns += others_turns
        self._fails += fails

    def _plan_future(self, t: _Table, fails_left: int, black: int) -> _Future | None:
        """The rest of the round after this draw; ``None`` when this draw ends it.

        Everyone is assumed to draw the handful with the most expected gold for the
        current bag (it grows as the black coins run out); the others draw black as
        often as the bot has seen them do, starting from that draw's own rate.
        """
        if fails_left <= 0:
            return None
        k, p = _greedy_draw(t.gold, max(black, 0))
        others = (self._fails + (1 - p) * _PRIOR_TURNS) / (self._turns + _PRIOR_TURNS)
        fails = [1 - p if s == t.seat else min(max(others, 0.02), 0.999) for s in range(t.players)]
        turns = _expected_turns(t.players, (t.seat + 1) % t.players, fails_left, fails)
        return _Future(turns, float(k), fails)


@dataclass
class _Future:
    """How the rest of the round is expected to go: turns left per seat and the handful drawn."""

    turns: list[float]
    handful: float
    fail: list[float]  # per seat, the chance that one turn draws black


def _outcome_score(t: _Table, k: int, future: _Future | None) -> float:
    """Estimated chance to win (plus a little expected rank) once this draw has gained ``k``."""
    me = t.seat
    means = t.boxes[:]
    vars_ = t.box_var[:]
    means[me] += k
    if future is not None:
        k_next = future.handful
        expected = [n * k_next * (1 - q) for n, q in zip(future.turns, future.fail, strict=True)]
        total = sum(expected)
        scale = min(1.0, (t.gold - k) / total) if total > 0 else 0.0  # the bag may run dry first
        for s, (turns, q) in enumerate(zip(future.turns, future.fail, strict=True)):
            means[s] += expected[s] * scale
            # Each turn wins k_next coins with chance 1 - q, or nothing.
            vars_[s] += turns * (k_next * scale) ** 2 * q * (1 - q)
    cards, cards_var = _round_cards(means, vars_, t.parrot_mean, t.parrot_var, t.chest_cap)
    return _win_chance(t, cards, cards_var)


def _greedy_draw(gold: int, black: int) -> tuple[int, float]:
    """The draw with the most expected gold, and its chance of being all gold."""
    best_k, best_p, best = 1, 0.0, -1.0
    p = 1.0
    for k in range(1, gold + 1):
        p *= (gold - k + 1) / (gold + black - k + 1)
        if k * p > best:
            best_k, best_p, best = k, p, k * p
        elif k * p < best * 0.5:
            break
    return best_k, best_p


def _expected_turns(n: int, first: int, fails_left: int, fail_rates: list[float]) -> list[float]:
    """Expected turns each seat still gets before ``fails_left`` black draws end the round."""
    alive = [0.0] * fails_left  # probability of having seen f black draws so far
    alive[0] = 1.0
    turns = [0.0] * n
    seat = first
    for _ in range(2000):
        mass = sum(alive)
        if mass < 1e-4:
            break
        turns[seat] += mass
        q = fail_rates[seat]
        for f in range(fails_left - 1, -1, -1):
            moved = alive[f] * q
            alive[f] -= moved
            if f + 1 < fails_left:
                alive[f + 1] += moved
        seat = (seat + 1) % n
    return turns


def _round_cards(means: list[float], vars_: list[float], parrot_mean: float, parrot_var: float,
                 cap: int) -> tuple[list[float], list[float]]:
    """Each seat's expected chest cards this round (and their variance) from projected totals."""
    n = len(means)
    # Parrots go to whoever has the fewest before parrots.
    fewest = [1.0] * n
    for i in range(n):
        for j in range(n):
            if i != j:
                fewest[i] *= 1.0 - _more(means[i] - means[j], vars_[i] + vars_[j])
    means = [m + f * parrot_mean for m, f in zip(means, fewest, strict=True)]
    vars_ = [v + f * parrot_var + f * (1 - f) * parrot_mean**2 for v, f in zip(vars_, fewest, strict=True)]
    cards = [1.0] * n
    cards_var = [0.0] * n
    for i in range(n):
        for j in range(n):
            if i != j:
                above = _more(means[i] - means[j], vars_[i] + vars_[j])
                cards[i] += above
                cards_var[i] += above * (1 - above)
        cards[i] = min(cards[i], float(cap))
    return cards, cards_var


def _win_chance(t: _Table, cards: list[float], cards_var: list[float]) -> float:
    """Chance to end the game with more filled chests than every rival (rivals taken as independent)."""
    n, me, f = t.players, t.seat, t.filled_rate
    per_round_var = 2 * f * f * (n * n - 1) / 12 + 2 * f * (1 - f) * (n + 1) / 2
    win = 1.0
    rank = 0.0
    for j in range(n):
        if j == me:
            continue
        lead = t.my_filled + f * cards[me] - f * (t.chest_counts[j] + cards[j])
        var = (
            f * (1 - f) * (t.chest_counts[j] + cards[j] + cards[me])
            + f * f * (cards_var[me] + cards_var[j])
            + t.rounds_after * per_round_var
            + 0.05
        )
        beat = _phi(lead / math.sqrt(var))
        win *= beat
        rank += beat
    # The small rank term still orders the draws when the win is (nearly) certain or lost.
    return win + 0.05 * rank / max(1, n - 1)


def _parrot_pair(view: dict[str, Any], config: Any) -> tuple[float, float]:
    """Mean and variance of the coins on the next two parrot cards."""
    values = list(config["parrot_values"])
    deck = Counter(values)
    deck.subtract(Counter(view["parrot_aside"]))
    for hand in view["parrots"]:
        deck.subtract(Counter(hand))
    left = [v for v, c in deck.items() for _ in range(max(c, 0))]
    if len(left) < 2:
        rule = config["parrot_exhaustion"]
        if rule == "partial":
            return float(sum(left)), 0.0  # what is left
        if rule != "reshuffle" or not values:
            return 0.0, 0.0  # "skip": no pair, no parrots
        left = values  # the set-aside cards come back
    mean = sum(left) / len(left)
    var = sum((v - mean) ** 2 for v in left) / len(left)
    return 2 * mean, 2 * var


# ---------------------------------------------------------------------------- rollouts for search
#: Share of rollout draws that are a wild guess (any size up to twice the greedy one),
#: so the search also sees what bolder and more timid players do to a round.
_WILD = 0.1


@lru_cache(maxsize=4096)
def _greedy_k(gold: int, black: int) -> int:
    """The greedy handful for a bag, computed once per bag (rollouts meet the same bags often)."""
    return _greedy_draw(gold, black)[0]


def rollout_draw(st: State[CBData, Draw], seat: int, rng: Rng) -> Draw:
    """A fast, plausible draw for simulated play inside a search (not for real play).

    It reads the bag of the (determinised) state directly: inside a search that state
    is a sample, not the truth. Mostly the handful with the most expected gold, give or
    take a coin; sometimes a wild guess. Always within the legal range.
    """
    d = st.data
    k = _greedy_k(d.bag_gold, d.bag_black)
    r = rng.random()
    if r < _WILD:
        k = 1 + rng.randrange(2 * k)
    elif r < 0.4:
        k += 1 if r < 0.25 else -1  # 15% one coin more, 15% one fewer
    bag = d.bag_gold + d.bag_black
    cap: int | None = st.config["max_handful"]
    high = bag if cap is None else min(bag, cap)
    low = min(int(st.config["min_draw"]), bag)
    return DRAWS[min(max(k, low), high)]


def rollout_round(st: State[CBData, Draw]) -> int:
    """The rollout horizon: a rollout stops when the round it began in is over."""
    return st.data.round


def round_start_value(st: State[CBData, Draw]) -> tuple[float, ...]:
    """Each seat's expected utility at the start of a round, from the chests dealt so far.

    Utility is 1 for first place down to 0 for last, so its expectation is the average over
    the rivals of the chance that the rival does not finish ahead: pairwise chances suffice.
    Each rival pair's lead in filled chests drifts by a normal amount per round still to
    play: cards per round follow the (capped) ranks, each card filled at the deck's rate.
    A tie in filled chests goes to the seat with more cards.
    """
    d = st.data
    n = d.players
    filled = [sum(hand) for hand in d.chests]
    cards = [len(hand) for hand in d.chests]
    rounds = d.rounds_total - d.round + 1
    deck = d.chest_deck
    f = sum(deck) / len(deck) if deck else 0.0
    card_var, card_mean = _rank_cards(n, st.config["max_chests_per_round"])
    sd_filled = math.sqrt(rounds * (f * f * card_var + 2 * f * (1 - f) * card_mean))
    sd_cards = math.sqrt(rounds * card_var)
    out = []
    for i in range(n):
        not_behind = 0.0
        for j in range(n):
            if j == i:
                continue
            lead = filled[i] - filled[j]
            if sd_filled < 1e-9:
                ahead, tie = float(lead > 0), float(lead == 0)
            else:
                ahead = _phi((lead - 0.5) / sd_filled)
                tie = _phi((lead + 0.5) / sd_filled) - ahead
            more_cards = cards[i] - cards[j]
            tie_won = float(more_cards >= 0) if sd_cards < 1e-9 else _phi((more_cards + 0.5) / sd_cards)
            not_behind += ahead + tie * tie_won
        out.append(not_behind / (n - 1))
    return tuple(out)


@lru_cache(maxsize=64)
def _rank_cards(players: int, cap: int) -> tuple[float, float]:
    """Variance of the difference in two seats' cards in one round, and the mean cards per seat,
    when the totals are all different (ranks 1..players, capped)."""
    cards = [min(rank, cap) for rank in range(1, players + 1)]
    mean = sum(cards) / players
    # Two different seats of one random ranking: Var(a - b) = 2 Var * n / (n - 1).
    var = sum((c - mean) ** 2 for c in cards) / players
    return 2 * var * players / max(1, players - 1), mean


#: The ``rollout`` role of the manifest.
ROLLOUT = Rollout(rollout_draw, horizon=rollout_round, evaluator=round_start_value)
