"""Black Hole Buccaneers' rules (spec ``BHB``): set-up, decisions, and the game's end.

The course of a round lives in :mod:`.flow`; card arithmetic in :mod:`.cards`. Rejections name the
spec's rule IDs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    Outcome,
    Param,
    Rng,
    State,
)
from holotable.engine.words import seat_list, seat_name

from . import actions as act
from . import cards as tb
from . import flow
from . import scenario as scenarios
from . import view as views
from .actions import Action, Group, Laser, Play, Relic, Take
from .data import CATALOG, BuccaneersData, data_for
from .moves import card_name, scripted
from .state import OVER, BHBData

BHB = State[BHBData, Action]
MODES = ("standard", "first_game")


SPEC = GameSpec(
    name="buccaneers",
    title="Black Hole Buccaneers",
    min_players=3,  # BHB-COMP-06 / AMB-06: scoring cards exist for 3-6 players only
    max_players=6,
    default_players=4,
    data=CATALOG,
    dynamics=Dynamics.SIMULTANEOUS,
    chance=Chance.SAMPLED,
    information=Information.IMPERFECT,
    rule_prefix="BHB",
    description="Draft space junk round a black hole: collect value, but stay under the pull of its threshold.",
    max_game_length=1500,
    params=(
        Param("setup", "standard", "str", "which black holes: 3 of the 13 shuffled, or the three the rulebook names "
              "for a first game; your own three (below) override both", choices=MODES, assumed="AMB-03",
              label="Which black holes", choice_labels=("3 of 13, shuffled", "First game: the three named")),
        Param("black_holes", None, "str", "three black holes agreed at the table, round 1 first, by the "
              "code on their card: BH- then M (menacing), R (risky) or D (dangerous) and its number, for "
              "example 'BH-M1,BH-R3,BH-D2'; empty: as chosen above", optional=True, assumed="AMB-44",
              label="Your own three black holes"),
        Param("direction", None, "str", "the direction card's starting side; empty = random. Clockwise passes "
              "each hand to the next seat", choices=("CW", "CCW"), optional=True, assumed="AMB-12",
              label="Starting direction", choice_labels=("Clockwise", "Counter-clockwise")),
        Param("gps_via_tentacle", False, "bool", "whether an Analog GPS Tracker laid out by the Titan Tentacle "
              "still forces a random card", assumed="AMB-14",
              label="Tentacle's GPS Tracker forces a card"),
        Param("egg_pool_ignore", "all", "str", "which effects of an artifact from the Surprise Egg or Alien "
              "Wading Pool are ignored: all of them, or only its reveal effect", choices=("all", "on_reveal"),
              assumed="AMB-18", label="Egg and Pool artifacts ignore",
              choice_labels=("All their effects", "Only their reveal effect")),
        Param("scoring_triggers", True, "bool", "whether cards from the Egg or the Pool trigger Morphosucker, "
              "Cubus Librae and Lootbox", assumed="AMB-19",
              label="Egg and Pool cards trigger scorers"),
        Param("step_c_lootbox", True, "bool", "whether toys turned up in step C trigger their owner's Lootbox",
              assumed="AMB-20", label="Step C toys trigger Lootbox"),
        Param("ship_compare", "best", "str", "spaceship tie-break: the best single spaceship, or the total of all "
              "of them", choices=("best", "total"), assumed="AMB-28",
              label="Spaceship tie-break", choice_labels=("Best single spaceship", "Total of all spaceships")),
        Param("tie_rule", "ships_first", "str", "ties in the points ranking: spaceship owners rank ahead and only "
              "the rest share the worse place, or everyone in a tie with a player without a spaceship gets "
              "the worst place", choices=("ships_first", "worst_for_all"), assumed="AMB-29",
              label="Ties with a ship-less player",
              choice_labels=("Spaceship owners rank first", "All tied take the worst place")),
        Param("ongoing_last_turn", True, "bool", "whether Morphosucker, Cubus Librae and Lootbox laid out on "
              "the last turn act in the scoring phase", assumed="AMB-40",
              label="Last-turn cards act at scoring"),
        Param("blanket_points", 5, "int", "points of the Space Blanket for a pulled-in owner", minimum=0,
              label="Space Blanket points when pulled in"),
    ),
)


def _stack(config: Config, rng: Rng, data: BuccaneersData) -> tuple[list[str], list[str]]:
    """The three black holes, top first, and the rest in the box (BHB-SETUP-02..05)."""
    ids = [hole.id for hole in data.black_holes]
    chosen = config["black_holes"]
    if chosen is None and config["setup"] == "first_game":
        stack = list(data.first_game_stack)
    elif chosen is not None:
        stack = [part.strip() for part in chosen.replace(" ", ",").split(",") if part.strip()]
        unknown = [h for h in stack if h not in tb.HOLES]
        if len(stack) != 3 or len(set(stack)) != 3 or unknown:
            raise ConfigError(f"black_holes must name 3 distinct black holes of {', '.join(ids)}; got {chosen!r}")
    else:
        shuffled = rng.shuffled(ids)
        stack = shuffled[:3]
    return stack, [h for h in ids if h not in stack]


class Buccaneers(Game[BHBData, Action]):
    spec: ClassVar[GameSpec] = SPEC

    # ------------------------------------------------------------------ set-up (BHB-SETUP)
    def setup(self, config: Config, rng: Rng) -> BHBData:
        n = config.players
        data = data_for(config)  # the shipped card data with this configuration's overrides
        data.scoring_card(n)  # BHB-SETUP-01
        stack, box = _stack(config, rng, data)
        direction = config["direction"] or rng.choice(list(tb.DATA.direction_card.sides))  # BHB-SETUP-08
        cards = [card.id for card in tb.DATA.junk]
        rng.shuffle(cards)  # BHB-SETUP-06
        h = data.holes_by_id[stack[0]].cards
        mode = "custom" if config["black_holes"] is not None else config["setup"]
        d = BHBData(players=n, mode=mode, stack=stack, box=box, direction=direction,
                    hands=[cards[i * h:(i + 1) * h] for i in range(n)], draw=cards[n * h:],
                    tableaux=[[] for _ in range(n)], scores=[0] * n,
                    game_data=None if data is tb.DATA else data)
        d.gps_now, d.gps_next = [False] * n, [False] * n
        return d

    def copy_data(self, data: BHBData) -> BHBData:
        return data.copy()

    def arrange(self, st: BHB, arrangement: Mapping[str, Any]) -> None:
        scenarios.arrange(st, arrangement)

    def chance_events(self, st: BHB) -> Mapping[str, Any]:
        return scenarios.chance_events(st)

    # ------------------------------------------------------------------ flow
    def to_move(self, st: BHB) -> tuple[int, ...]:
        d = st.data
        if d.phase == OVER:
            return ()
        decision = d.asked
        if decision is None:
            return tuple(s for s in range(d.players) if not d.gps_now[s])
        return (decision.seat,)

    def sealed(self, st: BHB) -> bool:
        d = st.data
        return d.asked is None and d.phase != OVER  # the simultaneous pick (ask CHOOSE)

    def legal_actions(self, st: BHB, seat: int) -> Sequence[Action]:
        d = st.data
        if seat not in self.to_move(st):
            return ()
        decision = d.asked
        if decision is None:  # BHB-DEC-01
            return [Play(c) for c in tb.sort_cards(d.hands[seat])]
        return decision.legal(st)  # BHB-DEC-02..05

    def check(self, st: BHB, seat: int, action: Action) -> None:
        d = st.data
        if isinstance(action, Play):
            if d.asked is not None or d.phase == OVER:  # not the simultaneous pick (ask CHOOSE)
                raise IllegalActionError("cards are chosen only in step 1 of a turn", rule="BHB-SEL-02")
            if action.card not in d.hands[seat]:
                raise IllegalActionError(f"{action.card} is not in your hand", rule="BHB-DEC-01")
            return
        decision = d.asked
        if decision is None or not decision.answers(action):
            raise _not_asked(action)
        decision.check(st, action)

    def is_action(self, action: object) -> bool:
        return act.is_action(action)

    def apply(self, st: BHB, seat: int, action: Action) -> None:
        d = st.data
        if isinstance(action, Play):
            # A sealed step with only one seat asked (the others are under the GPS) comes here.
            self.resolve(st, {seat: action})
            return
        decision = d.asked
        assert decision is not None  # check() let an answer through: a decision is on top
        d.tasks.pop()
        decision.answer(st, action)
        flow.run(st)

    def resolve(self, st: BHB, actions: Mapping[int, Action]) -> None:
        """Step 1 is complete: GPS seats get a random card, then step 2 (BHB-SEL-01..05)."""
        d = st.data
        picks: dict[int, str] = {}
        for seat, action in actions.items():
            assert isinstance(action, Play)
            picks[seat] = action.card
        for seat in range(d.players):
            if seat not in picks:  # BHB-ART-GPS-01: uniformly random from the current hand
                card = scripted(st, "gps", tb.sort_cards(d.hands[seat]))
                picks[seat] = card
                st.emit("gps_pick_private", f"Analog GPS Tracker: {card_name(card)} is your random card",
                        to=frozenset((seat,)),
                        seat=seat, card=card)
        flow.reveal(st, picks)

    def is_terminal(self, st: BHB) -> bool:
        return st.data.phase == OVER

    def outcome(self, st: BHB) -> Outcome:
        """Most points wins; ties go to the best spaceship in play, else shared (BHB-FINAL-01..06)."""
        d = st.data
        compare = st.config["ship_compare"]
        keys = [(d.scores[s], *tb.ship_key(d, s, compare)) for s in range(d.players)]
        ranks = Outcome.ranks_from_keys(keys)
        winners = [s for s, r in enumerate(ranks) if r == 1]
        if len(winners) > 1:
            reason = f"{seat_list(winners)} share the win with {d.scores[winners[0]]} points"
        else:
            reason = f"{seat_name(winners[0])} wins with {d.scores[winners[0]]} points"
        return Outcome(scores=tuple(float(s) for s in d.scores), ranks=ranks, reason=reason,
                       details={"points": list(d.scores), "pad": [dict(r) for r in d.pad],
                                "ships": [tb.ships(d, s) for s in range(d.players)]})

    # ------------------------------------------------------------------ information
    def view(self, st: BHB, seat: int | None) -> dict[str, Any]:
        return views.view(st, seat)

    def full(self, st: BHB) -> dict[str, Any]:
        return st.data.to_dict()

    def determinize(self, st: BHB, seat: int, rng: Rng) -> None:
        views.determinize(st, seat, rng)

    # ------------------------------------------------------------------ actions
    def action_to_str(self, action: Action) -> str:
        return str(action)

    def parse_action(self, text: str) -> Action:
        return act.parse(text)

    def num_actions(self, config: Config) -> int:
        return act.NUM_ACTIONS

    def action_index(self, action: Action) -> int:
        return act.index(action)

    def index_action(self, index: int) -> Action:
        return act.from_index(index)


def _not_asked(action: Action) -> IllegalActionError:
    """The refusal of an answer to a decision nobody is asked now."""
    if isinstance(action, Group):
        return IllegalActionError("no time-machine part is waiting for its group", rule="BHB-DEC-02")
    if isinstance(action, Laser):
        return IllegalActionError("no Swiss Pocket Laser is waiting for its card", rule="BHB-DEC-03")
    if isinstance(action, Take):
        return IllegalActionError("no Titan Tentacle is waiting for its pick", rule="BHB-DEC-04")
    if isinstance(action, Relic):
        return IllegalActionError(f"you are not asked about the {action.relic} now", rule="BHB-DEC-05")
    return IllegalActionError(  # pragma: no cover - coerce_action checks the type
        f"{action!r} is not a Black Hole Buccaneers action", rule="BHB-DEC-06")
