"""Captain Black's rules (spec ``CB``): set-up, the draw, round-end scoring, the winner.

Rule IDs in comments refer to the implementation spec; rejections name them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb
from typing import Any, ClassVar

from holotable.engine import (
    Chance,
    Config,
    ConfigError,
    Dynamics,
    Game,
    GameSpec,
    IllegalActionError,
    Information,
    MalformedActionError,
    Outcome,
    Param,
    Rng,
    ScenarioError,
    State,
)
from holotable.engine import chance as chances
from holotable.engine.words import plural, seat_list, seat_name

from . import actions as act
from . import scenario as scenarios
from . import view as views
from .actions import DRAWS, MAX_COINS, Draw
from .data import CATALOG, GameData, data_for, load_default
from .state import EMPTY, FILLED, CBData, LastDraw

DATA: GameData = load_default()
CB = State[CBData, Draw]


def _param(name: str, kind: str, doc: str, **kw: Any) -> Param:
    value, record, choices = DATA.assumed[name]
    if kind == "list" and value is not None:
        value = tuple(value)
    return Param(name, value, kind, doc, choices=choices, assumed=record, **kw)


SPEC = GameSpec(
    name="captain-black",
    title="Captain Black",
    min_players=DATA.default("min_players"),
    max_players=DATA.default("max_players"),
    default_players=4,
    data=CATALOG,
    dynamics=Dynamics.SEQUENTIAL,
    chance=Chance.SAMPLED,
    information=Information.IMPERFECT,
    rule_prefix="CB",
    description="Push-your-luck coin drawing: grab gold from the bag, but one black coin spoils the handful.",
    max_game_length=DATA.default("max_players") * 400,
    params=(
        _param("start_seat", "int", "first start player; empty = seeded random seat", optional=True, minimum=0,
               label="First start player"),
        _param("max_handful", "int", "largest draw allowed; empty = no cap", optional=True, minimum=1,
               label="Most coins in one draw"),
        _param("min_draw", "int", "smallest draw allowed", minimum=1, label="Fewest coins in one draw"),
        _param("parrot_values", "list", "coin values of the 13 parrot cards", label="Parrot card values"),
        _param("island_fields", "int", "black coins on the island that end a round", minimum=1,
               label="Black coins that end a round"),
        _param("max_chests_per_round", "int", "most chest cards one player gets in a round", minimum=1,
               label="Most chest cards per round"),
        _param("final_tie", "str", "who wins a tie on filled chests and chest cards",
               label="Who wins a final tie", choice_labels=("All tied players win", "The last start player")),
        _param("parrot_exhaustion", "str", "what happens when the parrot deck runs out",
               label="When the parrot deck runs out",
               choice_labels=("Reshuffle the set-aside parrots", "Hand out what is left",
                              "Only a full share, or none")),
        _param("public_tally", "bool", "whether running totals and draws are shown to all",
               label="Show totals and draws to all"),
        _param("timeout_draw", "int", "coins drawn for a player whose house timer runs out", minimum=1,
               label="Coins drawn when time runs out"),
    ),
)


def _scripted_draw(st: CB, k: int) -> int | None:
    """A scenario's scripted black count for a draw of ``k`` (``None``: roll), checked against the bag."""
    black = chances.take(st, "draw")
    d = st.data
    if black is not None and not (max(0, k - d.bag_gold) <= black <= min(k, d.bag_black)):
        raise ScenarioError(f"chance.draw: {black} black coin(s) in a draw of {k} from a bag of {d.bag_gold} "
                            f"gold and {d.bag_black} black is impossible")
    return black  # type: ignore[no-any-return]


def draw_black(rng: Rng, gold: int, black: int, k: int) -> int:
    """How many black coins a blind draw of ``k`` from the bag brings (CB-DRAW-01).

    Coins of one colour are interchangeable, so a uniform sample of ``k`` without
    replacement is exactly a hypergeometric count. It is drawn with exact integer
    arithmetic (one random integer), so results are identical on every platform.
    """
    if black == 0:
        return 0
    total = comb(gold + black, k)
    u = rng.randrange(total)
    x = max(0, k - gold)
    top = min(k, black)
    while x < top:
        u -= comb(black, x) * comb(gold, k - x)
        if u < 0:
            return x
        x += 1
    return top


class CaptainBlack(Game[CBData, Draw]):
    spec: ClassVar[GameSpec] = SPEC
    components = DATA.components

    # ------------------------------------------------------------------ set-up (CB-SETUP)
    def setup(self, config: Config, rng: Rng) -> CBData:
        n = config.players
        comp = data_for(config).components  # the shipped counts with this configuration's overrides
        parrot_values = config["parrot_values"]
        if len(parrot_values) != comp.parrot_cards:
            raise ConfigError(
                f"parrot_values must list {comp.parrot_cards} cards, got {len(parrot_values)}"
            )
        if not all(isinstance(v, int) and v >= 0 for v in parrot_values):
            raise ConfigError(f"parrot_values must be whole numbers of coins >= 0, got {list(parrot_values)}")
        cap = config["max_handful"]
        if cap is not None and cap < config["min_draw"]:
            # Otherwise no draw would ever be legal and the game could not start.
            raise ConfigError(f"max_handful {cap} is smaller than min_draw {config['min_draw']}")
        if config["island_fields"] > comp.black_coins:
            raise ConfigError(f"island_fields cannot exceed {comp.black_coins} black coins")
        start = config["start_seat"]
        if start is None:
            start = rng.randrange(n)  # CB-SETUP-05 / CB-AMB-14
        elif start >= n:
            raise ConfigError(f"start_seat {start} is not a seat of a {n}-player game")
        chest_deck = [FILLED] * comp.chest_filled + [EMPTY] * comp.chest_empty
        rng.shuffle(chest_deck)  # CB-SETUP-02
        parrot_deck = list(parrot_values)
        rng.shuffle(parrot_deck)  # CB-SETUP-03
        return CBData(
            players=n,
            first_start=start,
            rounds_total=n,  # CB-FLOW-01
            round=1,
            start=start,  # CB-SETUP-06: the start player takes ship and bag
            mover=start,
            bag_gold=comp.gold_coins,  # CB-SETUP-04
            bag_black=comp.black_coins,
            island=0,
            boxes=[0] * n,
            chests=[[] for _ in range(n)],
            chest_deck=chest_deck,
            parrot_deck=parrot_deck,
            parrot_aside=[],
            parrots=[[] for _ in range(n)],
        )

    def copy_data(self, data: CBData) -> CBData:
        return data.copy()

    def arrange(self, st: CB, arrangement: Mapping[str, Any]) -> None:
        """Scenario starts: override data keys, checked for conservation (see scenario.py)."""
        scenarios.arrange(st, arrangement)

    def chance_events(self, st: CB) -> Mapping[str, Any]:
        return scenarios.chance_events(st)

    # ------------------------------------------------------------------ flow
    def to_move(self, st: CB) -> tuple[int, ...]:
        d = st.data
        return () if d.over else _SEATS[d.mover]

    def sealed(self, st: CB) -> bool:
        return False

    def max_draw(self, st: CB) -> int:
        d = st.data
        cap = st.config["max_handful"]
        bag = d.bag_gold + d.bag_black
        return bag if cap is None else min(bag, cap)

    def min_draw(self, st: CB) -> int:
        # A house minimum above 1 is clipped to the bag: late in a round the bag may hold
        # fewer coins than the minimum, and the mover must still be able to draw (CB-AMB-06).
        d = st.data
        low: int = st.config["min_draw"]
        return min(low, d.bag_gold + d.bag_black)

    def legal_actions(self, st: CB, seat: int) -> Sequence[Draw]:
        d = st.data
        if d.over or seat != d.mover:
            return ()
        return DRAWS[self.min_draw(st) : self.max_draw(st) + 1]

    def check(self, st: CB, seat: int, action: Draw) -> None:
        d = st.data
        if seat != d.mover:  # pragma: no cover - the engine checks to_move first
            raise IllegalActionError(f"seat {seat} does not hold the bag", rule="CB-PASS-01")
        k = action.k
        low = self.min_draw(st)
        if k < low:
            raise IllegalActionError(f"you must draw at least {low} coin(s), not {k}", rule="CB-DRAW-02")
        bag = d.bag_gold + d.bag_black
        if k > bag:
            raise IllegalActionError(f"the bag holds only {bag} coins, you cannot draw {k}", rule="CB-DRAW-02")
        cap = st.config["max_handful"]
        if cap is not None and k > cap:
            raise IllegalActionError(f"a handful is at most {cap} coins (house rule)", rule="CB-DRAW-02")

    def is_action(self, action: object) -> bool:
        # Draw(2.5) or Draw("3") would pass the range checks and then fail half-way through apply.
        return isinstance(action, Draw) and type(action.k) is int

    # ------------------------------------------------------------------ a move (CB-MOVE)
    def apply(self, st: CB, seat: int, action: Draw) -> None:
        d = st.data
        k = action.k
        black = _scripted_draw(st, k) if st.script else None
        if black is None:
            black = draw_black(st.rng, d.bag_gold, d.bag_black, k)  # CB-DRAW-01
        gold = k - black
        d.last_draw = LastDraw(seat, k, gold, black)  # CB-DRAW-03: public
        d.moves_in_round += 1
        if black == 0:
            d.bag_gold -= k  # CB-EVAL-01: all gold goes into the box
            d.boxes[seat] += k
        else:
            # CB-EVAL-02..05: one black coin to the island, the rest back into the bag.
            d.bag_black -= 1
            d.island += 1
        if st.events is not None:  # the log text is built only when a log is kept
            self._log_draw(st, seat, k, gold, black)
        if d.island >= st.config["island_fields"]:
            self._end_round(st)  # CB-ROUND-END-01
        else:
            d.mover = (seat + 1) % d.players  # CB-PASS-01

    def _log_draw(self, st: CB, seat: int, k: int, gold: int, black: int) -> None:
        d = st.data
        if black == 0:
            text = f"{_name(seat)} draws {k}: all gold, +{k} (box {d.boxes[seat]})"
        else:
            text = (f"{_name(seat)} draws {k}: {gold} gold and {black} black, nothing gained "
                    f"(island {d.island}/{st.config['island_fields']})")
        if st.config["public_tally"]:  # CB-DRAW-03 / CB-AMB-16
            st.emit("draw", text, seat=seat, k=k, gold=gold, black=black)
        else:
            # Hidden-tally variant: the log must not tell others what the view hides.
            st.emit("draw", text, to=frozenset((seat,)), seat=seat, k=k, gold=gold, black=black)
            outcome = "only gold" if black == 0 else f"a black coin (island {d.island})"
            st.emit("draw_public", f"{_name(seat)} draws {outcome}", seat=seat, success=black == 0)

    # ------------------------------------------------------------------ end of round
    def _end_round(self, st: CB) -> None:
        d = st.data
        n = d.players
        # CB-ROUND-END-02/03: black coins back; round totals are the gold in each box.
        gold = list(d.boxes)
        order = [(d.start + i) % n for i in range(n)]  # clockwise from the start player (CB-DIG-02)
        # CB-PARROT-01..03: the fewest, decided once from totals before parrots.
        fewest = min(gold)
        totals = list(gold)
        parrot_draws: dict[int, list[int]] = {}
        for seat in order:
            if gold[seat] != fewest:
                continue
            cards = self._draw_parrots(st, 2)
            d.parrots[seat].extend(cards)
            parrot_draws[seat] = cards
            totals[seat] += sum(cards)  # CB-PARROT-04
        # CB-CHEST-02/03: dense ranking of the totals after parrots, capped (CB-CHEST-04).
        distinct = sorted(set(totals))
        counts = chest_counts(totals, st.config["max_chests_per_round"])
        dealt: dict[int, list[bool]] = {}
        for rank_value in distinct:  # rank 1 upward, clockwise within a rank
            for seat in order:
                if totals[seat] != rank_value:
                    continue
                hand: list[bool] = []
                for _ in range(counts[seat]):
                    if not d.chest_deck:  # cannot happen with 2-4 players (CB-AMB-09)
                        break
                    hand.append(d.chest_deck.pop())
                d.chests[seat].extend(hand)
                dealt[seat] = hand
        d.rounds.append(
            {
                "round": d.round,
                "start": d.start,
                "gold": gold,
                "parrots": {str(s): c for s, c in parrot_draws.items()},
                "totals": totals,
                "chests": counts,
            }
        )
        if st.events is not None:
            boxes = ", ".join(f"{_name(seat)} {g}" for seat, g in enumerate(gold))
            st.emit("round_end", f"Round {d.round} ends; gold in the boxes: {boxes}", round=d.round, gold=gold)
            for seat, cards in parrot_draws.items():
                worth = " and ".join(str(c) for c in cards)
                st.emit("parrots", f"{_name(seat)} has the fewest coins and takes parrot "
                        f"{'card' if len(cards) == 1 else 'cards'} {worth} (now counts {totals[seat]})",
                        seat=seat, cards=cards, total=totals[seat])
            for seat in order:
                st.emit("chests", f"{_name(seat)} receives {plural(counts[seat], 'chest card')}",
                        seat=seat, count=counts[seat])
                filled = sum(dealt.get(seat, []))
                st.emit("chests_private",
                        f"Your new chest cards: {filled} filled, {len(dealt.get(seat, [])) - filled} empty",
                        to=frozenset((seat,)), seat=seat, filled=filled)
        if d.round >= d.rounds_total:  # CB-END-01
            d.over = True
            d.bag_black += d.island  # CB-ROUND-END-02: the black coins go back into the bag
            d.island = 0
            if st.events is not None:
                st.emit("game_end", "The ship has sailed round the island: the game is over")
            return
        self._next_round(st)

    def _draw_parrots(self, st: CB, count: int) -> list[int]:
        d = st.data
        rule = st.config["parrot_exhaustion"]
        if rule == "skip" and len(d.parrot_deck) < count:
            return []  # "skip": only whole pairs; a player the deck cannot serve in full gets none
        cards: list[int] = []
        for _ in range(count):
            if not d.parrot_deck:
                if rule == "reshuffle" and d.parrot_aside:  # CB-AMB-10
                    d.parrot_deck = d.parrot_aside
                    d.parrot_aside = []
                    chances.shuffle(st, "shuffle", d.parrot_deck, top_last=True)
                    if st.events is not None:
                        st.emit("parrots_reshuffled", "The parrot deck ran out: set-aside parrots reshuffled")
                else:  # "partial": what is left, the rest get nothing
                    break
            cards.append(d.parrot_deck.pop())
        return cards

    def _next_round(self, st: CB) -> None:
        d = st.data
        n = d.players
        # CB-NEXT-01: this round's parrots are set aside.
        for hand in d.parrots:
            d.parrot_aside.extend(hand)
            hand.clear()
        # CB-NEXT-02: every coin back into the bag, totals from zero.
        comp = data_for(st.config).components
        d.bag_gold = comp.gold_coins
        d.bag_black = comp.black_coins
        d.island = 0
        d.boxes = [0] * n
        # CB-NEXT-03: the ship moves one seat clockwise; its holder starts with the bag.
        d.round += 1
        d.start = (d.start + 1) % n
        d.mover = d.start
        d.moves_in_round = 0
        if st.events is not None:
            st.emit("round_start", f"Round {d.round}: {_name(d.start)} takes the ship and the bag",
                    round=d.round, start=d.start)

    # ------------------------------------------------------------------ end (CB-END / CB-WIN)
    def is_terminal(self, st: CB) -> bool:
        return st.data.over

    def outcome(self, st: CB) -> Outcome:
        d = st.data
        filled = [sum(hand) for hand in d.chests]  # CB-END-02
        cards = [len(hand) for hand in d.chests]
        keys: list[tuple[int, ...]] = [(f, c) for f, c in zip(filled, cards, strict=True)]  # CB-WIN-01/02
        if st.config["final_tie"] == "last_start_player":
            keys = [(f, c, 1 if s == d.start else 0) for s, (f, c) in enumerate(keys)]
        ranks = Outcome.ranks_from_keys(keys)
        winners = [s for s, r in enumerate(ranks) if r == 1]
        if len(winners) > 1:
            reason = f"{seat_list(winners)} share the win with {filled[winners[0]]} filled chests"  # CB-WIN-03
        else:
            reason = f"{seat_name(winners[0])} wins with {filled[winners[0]]} filled chests"
        return Outcome(
            scores=tuple(float(f) for f in filled),
            ranks=ranks,
            reason=reason,
            details={"filled": filled, "cards": cards},
        )

    # ------------------------------------------------------------------ information
    def view(self, st: CB, seat: int | None) -> dict[str, Any]:
        return views.view(st, seat)

    def full(self, st: CB) -> dict[str, Any]:
        return st.data.to_dict()

    def determinize(self, st: CB, seat: int, rng: Rng) -> None:
        views.determinize(st, seat, rng)

    # ------------------------------------------------------------------ actions
    def parse_action(self, text: str) -> Draw:
        return act.parse(text)

    def num_actions(self, config: Config) -> int:
        return data_for(config).components.coins

    def action_index(self, action: Draw) -> int:
        return action.k - 1

    def index_action(self, index: int) -> Draw:
        # The state checks an index against its config's space first; this bound holds for every config.
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < MAX_COINS:
            raise MalformedActionError(f"action index must be 0..{MAX_COINS - 1}, got {index!r}")
        return DRAWS[index + 1]

    def timeout_action(self, st: CB, seat: int) -> Draw:
        """The house-timeout default (CB-DIG-03): draw ``timeout_draw`` coins, clipped to the bag."""
        k: int = max(self.min_draw(st), min(st.config["timeout_draw"], self.max_draw(st)))
        return DRAWS[k]


_SEATS = tuple((s,) for s in range(64))


def _name(seat: int) -> str:
    return f"{seat_name(seat)}"


def chest_counts(totals: Sequence[int], cap: int = 4) -> list[int]:
    """Chest cards per player from round totals after parrots (dense ranks, capped).

    >>> chest_counts([10, 13, 10, 11])
    [1, 3, 1, 2]
    """
    distinct = sorted(set(totals))
    return [min(distinct.index(t) + 1, cap) for t in totals]
