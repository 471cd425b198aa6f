"""Space Pirates' rules (spec ``SP``): the Game subclass and the set-up.

The decisions, each with its legal actions, check and effect, live in ``decisions.py``; the flow
itself (turns, adventures, moves, bases, damage, flicks, wind) in ``flow.py``; geometry in
``geometry.py``; the pymunk flick simulation in ``physics.py``.
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

from . import actions as act
from . import flow, skill
from . import geometry as geo
from . import scenario as scenarios
from . import view as views
from .actions import SPAction
from .data import CATALOG, Content, Preset, content_for, load_default
from .decisions import StartBase
from .flow import Ctx, SetupDraw
from .generator import random_preset
from .state import Ship, SPData
from .tasks import SPDecision

#: The shipped content. The rules read a configuration's own content (``content_for(config)``:
#: this one unless the configuration carries data overrides); module-level choices below take
#: from it only what overrides cannot change (preset and dexterity names, energy card ids).
CONTENT: Content = load_default()
SP = State[SPData, SPAction]
PRESETS = tuple(sorted(CONTENT.presets))
#: The lobby's words for each board preset and flick-noise level (a new one needs its words here).
_PRESET_WORDS = {"crossroads-60x60": "Crossroads, 60 × 60 cm", "lab-60": "Empty test board, 60 × 60 cm",
                 "rim-80x70": "Rim, 80 × 70 cm", "spiral-80x70": "Spiral, 80 × 70 cm"}
_DEXTERITY_WORDS = {"precise": "Precise (no wobble)", "casual": "Casual (a little wobble)",
                    "standard": "Standard", "shaky": "Shaky (twice the wobble)"}

SPEC = GameSpec(
    name="space-pirates",
    title="Space Pirates",
    min_players=2,
    max_players=4,
    default_players=3,
    dynamics=Dynamics.SEQUENTIAL,
    chance=Chance.SAMPLED,
    information=Information.IMPERFECT,
    rule_prefix="SP",
    description="Flick transports across a cardboard galaxy, chase them with rulers, sell the loot, buy a base.",
    max_game_length=40 * 400,
    data=CATALOG,
    params=(
        Param("preset", None, "str", "board layout; empty = crossroads-60x60 for 2, spiral-80x70 for 3-4",
              choices=(None, *PRESETS), optional=True, assumed="SP-AMB-01", label="Board layout",
              choice_labels=("By player count", *(_PRESET_WORDS[p] for p in PRESETS))),
        Param("layout_seed", None, "int", "if set, a random legal layout generated from this seed",
              optional=True, minimum=0, label="Random board from a number"),
        Param("first_seat", None, "int", "first player; empty = seeded random seat", optional=True, minimum=0,
              assumed="SP-AMB-40", label="First player"),
        Param("dexterity", "standard", "str", "flick noise level (spec §6.9)",
              choices=tuple(CONTENT.constants.dexterity), assumed="SP-AMB-55", label="Flick accuracy",
              choice_labels=tuple(_DEXTERITY_WORDS[d] for d in CONTENT.constants.dexterity)),
        # SP-AMB-55: a handicap per seat (humans and bots alike), read only through skill.flick_noise
        Param("seat_dexterity", "", "str",
              "a handicap: each seat's flick accuracy, seat 1 first, for "
              "example 'precise,shaky'; empty: every seat flicks with the accuracy above",
              optional=True, assumed="SP-AMB-55", label="Flick accuracy per seat"),
        Param("victory", "standard", "str", "20 MC, or the longer variant", choices=("standard", "long"),
              label="Money needed to win", choice_labels=("20 MC", "Longer game (30 to 50 MC)")),
        Param("bank", "finite", "str", "a finite 195 MC bank or an unlimited one", choices=("finite", "unlimited"),
              assumed="SP-AMB-29", label="Money in the bank", choice_labels=("195 MC", "Unlimited")),
        Param("setup_hit_always_damages", False, "bool", "set-up hits always damage (alternative reading)",
              assumed="SP-AMB-09", label="Set-up hits always damage"),
        Param("new_transport_clearance", "any", "str", "placement rule for new transports",
              choices=("any", "setup"), assumed="SP-AMB-42", label="Where new transports go",
              choice_labels=("Any free spot", "Same rules as at set-up")),
        Param("walled_border", False, "bool", "the game box as a bouncing border (no token leaves the table)",
              assumed="SP-AMB-15", label="Tokens bounce off the box"),
        Param("penalty_for_pushed_tokens", False, "bool", "pushed tokens' faults also penalise the flicker",
              assumed="SP-AMB-13", label="Pushed tokens' faults count too"),
        Param("bases_are_elements", False, "bool", "striking an inhabited base also penalises the flicker",
              assumed="SP-AMB-17", label="Hitting an inhabited base is a fault"),
        Param("docked_ships_immune_to_tokens", False, "bool", "tokens at an occupied gate hit no docked ship",
              assumed="SP-AMB-62", label="Docked ships safe from tokens"),
        Param("capture_geometry", "ruler", "str",
              "what a move captures: tokens under the ruler rectangle, or under the ship disc swept along the course",
              choices=("ruler", "swept_ship"), assumed="SP-AMB-03", label="What a move captures",
              choice_labels=("Tokens under the ruler", "Tokens the ship passes over")),
        Param("dock_geometry", "ruler", "str",
              "what docks a ruler move or drift: the ruler reaching the gate, or the ship disc swept along the course",
              choices=("ruler", "stand"), assumed="SP-AMB-23", label="What docks a ship",
              choice_labels=("The ruler reaching the gate", "The ship passing the gate")),
        # SP-AMB-04: the rulebook asks only that the first ruler touch the nose; the 90-degree limit it
        # states is between rulers. "within_90" is the spec's earlier, stricter reading.
        Param("first_ruler", "nose", "str",
              "the first ruler of a move: from the nose in any direction, or within 90 degrees of the heading",
              choices=("nose", "within_90"), assumed="SP-AMB-04", label="First ruler of a move",
              choice_labels=("From the nose, any direction", "Within 90° of the heading")),
        Param("actions_before_departure", False, "bool",
              "a docked ship may use the base actions and then depart in the same turn", assumed="SP-AMB-24",
              label="Use the base, then depart"),
        Param("multi_card", False, "bool",
              "several energy cards a turn: values added, every adventure resolved", assumed="SP-AMB-06",
              label="Several energy cards a turn"),
        # SP-AMB-59: no limit in play (the table default), a cap for simulations, tests and RL
        Param("turn_cap", CONTENT.constants.sim_turn_cap, "int",
              "turns after which a game ends without a winner; 0 or empty = no limit (the default at a table)",
              optional=True, minimum=0, assumed="SP-AMB-59", table_default=0, label="Turn limit"),
    ),
)


def preset_for(config: Config) -> Preset:
    seed = config["layout_seed"]
    if seed is not None:
        return random_preset(content_for(config), config.players, seed)
    name = config["preset"] or ("crossroads-60x60" if config.players == 2 else "spiral-80x70")
    return CONTENT.presets[name]


def new_data(config: Config, rng: Rng, preset: Preset) -> SPData:
    content = content_for(config)
    c = content.constants
    n = config.players
    skill.seat_levels(config)  # a bad seat_dexterity list is refused before anything is made
    key = geo.layout_key(preset, n, content)
    lay = geo.build_layout(key)
    tokens = list(content.tokens)
    first = config["first_seat"]
    if first is None:
        first = rng.randrange(n)  # SP-SETUP-08 / SP-AMB-40
    elif first >= n:
        raise ConfigError(f"first_seat {first} is not a seat of a {n}-player game")
    # SP-SETUP-05: each value shuffled separately (top of a stack = end of its list)
    draw = {v: sorted(card.id for card in content.energy if card.value == v) for v in range(1, 6)}
    for v in range(1, 6):
        rng.shuffle(draw[v])
    hands: list[list[str]] = [[] for _ in range(n)]
    for s in range(n):
        for v in range(1, 6):  # SP-SETUP-07: one card of each value, 15 points
            hands[s].append(draw[v].pop())
    markets = [m.id for m in content.markets]
    rng.shuffle(markets)  # SP-SETUP-04
    market: list[str | None] = [None] * len(lay.bases)
    for b in lay.bases:
        if b.inhabited:
            market[b.index] = markets.pop()
    bank = c.bank_total - n * c.start_mc  # SP-SETUP-06
    d = SPData(
        n=n, layout_key=key, layout=lay, ident=tokens, where=["bag"] * len(tokens), pos=[None] * len(tokens),
        open=[False] * len(tokens), known=[0] * len(tokens), holder=[None] * len(tokens),
        ships=[Ship() for _ in range(n)], mc=[c.start_mc] * n, hands=hands, holds=[[] for _ in range(n)],
        police=[None] * n, owned=[None] * n, seen_markets=[set() for _ in range(n)], draw=draw,
        discard={v: [] for v in range(1, 6)}, in_play=None, bank=bank, owner=[None] * len(lay.bases),
        market=market, market_up=[False] * len(lay.bases), docked=[[None, None] for _ in lay.bases],
        market_out=sorted(markets), active=first, first_seat=first, bought=[False] * n,
        dock_stand=config["dock_geometry"] == "stand",
        first_within_90=config["first_ruler"] == "within_90",
    )
    d.sort_bag()
    d.stack.push(SetupDraw())
    for i in reversed(range(n)):  # SP-SETUP-09: start bases in seat order from the first player
        d.stack.push(StartBase((first + i) % n))
    return d


class SpacePirates(Game[SPData, SPAction]):
    spec: ClassVar[GameSpec] = SPEC
    #: The shipped content; a configuration plays with ``content_for(config)``.
    content = CONTENT

    # ------------------------------------------------------------------ set-up
    def setup(self, config: Config, rng: Rng) -> SPData:
        return new_data(config, rng, preset_for(config))

    def copy_data(self, data: SPData) -> SPData:
        return data.copy()

    def arrange(self, st: SP, arrangement: Mapping[str, Any]) -> None:
        scenarios.arrange(st, arrangement)

    def chance_events(self, st: SP) -> Mapping[str, Any]:
        return scenarios.chance_events(st)

    # ------------------------------------------------------------------ flow
    def ctx(self, st: SP) -> Ctx:
        return Ctx(st, content_for(st.config))

    def decision(self, st: SP) -> SPDecision | None:
        """The decision the game waits for (the top of the stack), or ``None``."""
        d = st.data
        if d.over:
            return None
        top = d.stack.top
        return top if isinstance(top, SPDecision) else None

    def to_move(self, st: SP) -> tuple[int, ...]:
        dec = self.decision(st)
        return () if dec is None else (dec.seat,)

    def sealed(self, st: SP) -> bool:
        return False

    def legal_actions(self, st: SP, seat: int) -> Sequence[SPAction]:
        dec = self.decision(st)
        if dec is None or dec.seat != seat:
            return ()
        return tuple(dec.legal(st))

    def check(self, st: SP, seat: int, action: SPAction) -> None:
        dec = self.decision(st)
        if dec is None or dec.seat != seat:  # pragma: no cover - the engine checks to_move first
            raise IllegalActionError("it is not your decision", rule="SP-COMP-03")
        dec.check(st, action)

    def apply(self, st: SP, seat: int, action: SPAction) -> None:
        dec = st.data.stack.pop()
        assert isinstance(dec, SPDecision)
        ctx = self.ctx(st)
        dec.apply(ctx, action)
        flow.advance(ctx)

    def is_terminal(self, st: SP) -> bool:
        return st.data.over

    def outcome(self, st: SP) -> Outcome:
        d = st.data
        if d.winner is None:  # SP-AMB-59: the turn cap, no winner
            ranks = tuple(1 for _ in range(d.n))
        else:
            ranks = tuple(1 if s == d.winner else 2 for s in range(d.n))
        return Outcome(scores=tuple(float(m) for m in d.mc), ranks=ranks, reason=d.reason or "game over",
                       details={"mc": list(d.mc), "owned": list(d.owned)})

    # ------------------------------------------------------------------ information
    def view(self, st: SP, seat: int | None) -> dict[str, Any]:
        return views.view(st, seat)

    def full(self, st: SP) -> dict[str, Any]:
        return st.data.to_dict()

    def determinize(self, st: SP, seat: int, rng: Rng) -> None:
        views.determinize(st, seat, rng)

    # ------------------------------------------------------------------ actions
    def parse_action(self, text: str) -> SPAction:
        return act.parse(text)

    def is_action(self, action: object) -> bool:
        return act.is_action(action)

    def num_actions(self, config: Config) -> int:
        return INDEX_SPACE.size

    def action_index(self, action: SPAction) -> int:
        return INDEX_SPACE.index(action)

    def index_action(self, index: int) -> SPAction:
        return INDEX_SPACE.action(index)


#: The one index space of every configuration: the largest field of any layout (100 x 100) bounds
#: every grid, and card ids are names, never data overrides, so the shipped deck's ids serve all.
INDEX_SPACE = act.IndexSpace(100, 100, tuple(c.id for c in CONTENT.energy))
