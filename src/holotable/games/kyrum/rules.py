"""Black Hole: Kyrum's rules as an engine game (spec ``KYR``): one game of the solo campaign.

The game is data-driven: the content pack (parameter ``pack``) gives every card and script, and the
campaign so far (parameter ``campaign``, JSON; empty = a fresh campaign) gives game number, items,
narratives and flags. Mechanics live in the area modules around :mod:`.mechanics`; this module lists,
checks and carries out actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from holotable.engine import (
    Chance,
    Config,
    ConfigError,
    DataError,
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
from . import discoveries, encounters, ending, exploration, gauges, predicates, script, story
from . import scenario as scenarios
from . import view as views
from .actions import KAction
from .campaign import CampaignState, buy_refusal, new_campaign
from .decisions import Choice, Discard, ItemTiming, Partner
from .mechanics import Table
from .pack import (
    CATALOG,
    DEFAULT_PACK,
    ELEMENTS,
    MAX_NARRATIVES,
    Pack,
    load_pack,
    pack_with_overrides,
    recipe_name,
    shipped_packs,
)
from .state import KyrumData

KS = State[KyrumData, KAction]

SPEC = GameSpec(
    name="kyrum",
    title="Black Hole: Kyrum",
    min_players=1,
    max_players=1,
    default_players=1,
    data=CATALOG,
    dynamics=Dynamics.SEQUENTIAL,
    chance=Chance.SAMPLED,
    information=Information.IMPERFECT,
    rule_prefix="KYR",
    description="Solo exploration campaign: travel Kyrum's planets, read scripts, study discoveries, "
    "validate the game's objectives before the fourth journey ends.",
    max_game_length=6000,
    params=(
        Param("pack", DEFAULT_PACK, "str", "content pack: a pack id under games/kyrum/packs or a directory",
              assumed="KYR-AMB-51", remote_choices=shipped_packs, label="Content pack"),
        Param("campaign", "", "str", "the campaign so far as JSON (empty = a fresh campaign, game 1)",
              label="Campaign so far"),
        Param("partner", False, "bool", "Black Hole partner mode of a fresh campaign", assumed="KYR-AMB-19",
              label="Black Hole partner mode"),
        Param("resort_after_reroll", False, "bool", "re-sort the distance dice after a re-roll or set-to-1",
              assumed="KYR-AMB-03", label="Re-sort distance dice after re-rolls"),
        Param("discovery_np_on_defeat", False, "bool", "count discovery NP (halved) on a defeat",
              assumed="KYR-AMB-11", label="Half discovery points on a defeat"),
        Param("craft_before_encounter_roll", False, "bool",
              "allow crafting after a danger card is drawn and before its dice are rolled", assumed="KYR-AMB-07",
              label="Craft before the danger dice roll"),
        Param("private", False, "bool", "a campaign's own game: spectators see neither the board nor the log "
              "(the player sees everything as usual)", label="Hide the game from spectators"),
    ),
)


_PACKS: dict[str, Pack] = {}


def pack_of(config: Config) -> Pack:
    """The config's pack; looked up once per parameter text (hooks run on every step). With data
    overrides: the shipped pack with them applied (built once per set of overrides)."""
    if config.data:
        try:
            return pack_with_overrides(config["pack"], config.data)
        except DataError as exc:
            raise ConfigError(str(exc)) from None
    key = config["pack"]
    pack = _PACKS.get(key)
    if pack is None:
        try:
            pack = _PACKS[key] = load_pack(key)
        except DataError as exc:
            raise ConfigError(str(exc)) from None
    return pack


def table(st: KS) -> Table:
    return Table(st.data, pack_of(st.config), st.rng, st.config, _private_emit(st) if st.config["private"] else st.emit,
                 st.reveal, st)


def _private_emit(st: KS) -> Any:
    """Log events for the player only (a private game: a campaign's journal and scripts are its own)."""

    def emit(kind: str, text: str, to: frozenset[int] | None = None, **data: Any) -> None:
        st.emit(kind, text, PLAYER_ONLY if to is None else to, **data)

    return emit


PLAYER_ONLY = frozenset({0})


def new_data(config: Config, rng: Rng, pack: Pack) -> KyrumData:
    """Set-up of one game (KYR-SETUP-01..08)."""
    text = config["campaign"]
    try:
        camp = CampaignState.from_json(text) if text else new_campaign(pack, partner=bool(config["partner"]))
    except DataError as exc:
        raise ConfigError(str(exc)) from None
    if camp.pack_id != pack.pack_id:
        raise ConfigError(f"the campaign is for pack {camp.pack_id!r}, not {pack.pack_id!r}")
    number = camp.next_game
    if number > pack.schedule["length"]:
        raise ConfigError("the campaign is complete: every scheduled game has been played")
    entry = pack.game_entry(number)
    campd = camp.to_dict()
    campd["flags"] = {k: v for k, v in campd["flags"].items() if not k.startswith("game.")}
    data = KyrumData(game=number, objectives=list(entry["objectives"]), camp=campd)
    data.planet_deck = rng.shuffled(sorted(pack.planets))  # KYR-SETUP-03, order of spec §4.4
    encounters = [e for e, rec in pack.encounters.items() if rec.kind != "black_hole" or campd["partner"]["enabled"]]
    data.encounter_deck = rng.shuffled(encounters)  # KYR-SETUP-04
    data.discovery_deck = rng.shuffled(list(pack.discoveries))
    data.gauges = {g: int(b["start"]) for g, b in pack.rules["gauges"].items()}
    data.elements = dict.fromkeys(ELEMENTS, 0)
    data.peaks = dict(data.gauges)
    tab = Table(data, pack, rng, config, _no_emit)
    for iid, item in pack.items.items():  # KYR-SETUP-06: permanent items after the base values
        if item.kind == "permanent" and gauges.owned(tab, iid) > 0:
            script.push_ops(tab, list(item.on_game_start), iid)
    script.run(tab)
    exploration.reveal_area(tab)  # KYR-SETUP-08
    script.run(tab)
    return data


def _no_emit(*args: Any, **kw: Any) -> None:
    return None


class Kyrum(Game[KyrumData, KAction]):
    spec: ClassVar[GameSpec] = SPEC

    def setup(self, config: Config, rng: Rng) -> KyrumData:
        return new_data(config, rng, pack_of(config))

    def copy_data(self, data: KyrumData) -> KyrumData:
        return data.copy()

    def arrange(self, st: KS, arrangement: Mapping[str, Any]) -> None:
        scenarios.arrange(st, arrangement)

    def chance_events(self, st: KS) -> Mapping[str, Any]:
        return scenarios.chance_events(st)

    def to_move(self, st: KS) -> tuple[int, ...]:
        return () if st.data.finished else (0,)

    def is_terminal(self, st: KS) -> bool:
        return st.data.finished

    def outcome(self, st: KS) -> Outcome:
        res = st.data.result
        assert res is not None
        won = res["outcome"] == "victory"
        return Outcome(scores=(float(res["np"]["total"]),), ranks=(1 if won else 2,),
                       reason=f"{'Victory' if won else 'Defeat'}: {story.reason_words(res['reason'])}",
                       details={"np": dict(res["np"]), "journey": res["journey_at_end"], "game": st.data.game})

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, st: KS, seat: int) -> Sequence[KAction]:
        if st.data.finished:
            return []
        return legal(table(st))

    def check(self, st: KS, seat: int, action: KAction) -> None:
        tab = table(st)
        if action.verb == "send":
            if not isinstance(st.data.decision, Partner):
                raise IllegalActionError("no partner message is asked for now", rule="KYR-ENC-09")
            problem = act.message_problem(action)
            if problem is not None:  # an action object is held to the rule its text form is
                raise IllegalActionError(problem, rule="KYR-AMB-19")
            return
        if action in legal(tab):
            return
        raise IllegalActionError(f"{action} is not legal now: {why_illegal(tab, action)}",
                                 rule=rule_of(tab, action))

    def apply(self, st: KS, seat: int, action: KAction) -> None:
        perform(table(st), action)

    # ------------------------------------------------------------------ information
    def view(self, st: KS, seat: int | None) -> dict[str, Any]:
        return views.view(st, seat)

    def determinize(self, st: KS, seat: int, rng: Rng) -> None:
        views.determinize(st, seat, rng)

    def full(self, st: KS) -> dict[str, Any]:
        return st.data.to_dict()

    # ------------------------------------------------------------------ action forms
    def action_to_str(self, action: KAction) -> str:
        return str(action)

    def parse_action(self, text: str) -> KAction:
        return act.parse(text)

    def is_action(self, action: object) -> bool:
        return act.is_action(action)

    def num_actions(self, config: Config) -> int:
        return len(act.UNIVERSE)

    def action_index(self, action: KAction) -> int:
        return act.action_index(action)

    def index_action(self, index: int) -> KAction:
        return act.index_action(index)


# ---------------------------------------------------------------------------------------------- listing
def _a(verb: str, *args: object) -> KAction:
    return act.UNIVERSE[act.INDEX[KAction(verb, tuple(str(x) for x in args))]]


def ref_of(tab: Table, card: Mapping[str, Any]) -> str:
    return f"d{tab.pack.discovery_order.index(card['id']) + 1}"


def craft_actions(tab: Table, *, fuel_only: bool = False, distance: bool = True) -> list[KAction]:
    out = []
    d = tab.d
    for el in ELEMENTS:
        if d.elements[el] < 1:
            continue
        for r in tab.pack.rules["crafting"].get(el, []):
            name = recipe_name(r)
            if name is None or (fuel_only and name != "fuel"):
                continue
            if name in ("reroll", "set1"):
                if distance and d.window_open:
                    out += [_a("craft", el, name, s) for s in range(4) if not d.slot_explored[s]]
            else:
                out.append(_a("craft", el, name))
    return out


def study_actions(tab: Table) -> list[KAction]:
    out = []
    d = tab.d
    for card in d.inventory:
        if card["studied"]:
            continue
        cost = tab.pack.discoveries[card["id"]].cost
        for el in ELEMENTS:
            top = min(d.elements[el], discoveries.payable(card, cost, el), act.MAX_STUDY)
            out += [_a("study", ref_of(tab, card), el, n) for n in range(1, top + 1)]
    for k, nd in enumerate(discoveries.active_narratives(tab)[: MAX_NARRATIVES], start=1):
        for el in ELEMENTS:
            top = min(d.elements[el], discoveries.payable(nd, nd["cost"], el), act.MAX_STUDY)
            out += [_a("study", f"n{k}", el, n) for n in range(1, top + 1)]
    return out


def tldp_item_actions(tab: Table) -> list[KAction]:
    out = []
    for t, iid in enumerate(tab.pack.item_order, start=1):
        item = tab.pack.items[iid]
        if not gauges.item_usable(tab, item) or item.use is None:
            continue
        when = item.use["when"]
        if when == "after_exploration_roll" or (when == "after_distance_roll" and not tab.d.window_open):
            continue
        if when == "declare_exploration" and all(tab.d.slot_explored):
            continue
        if "waive" in item.use:
            for card in tab.d.inventory:
                if not card["studied"]:
                    cost = tab.pack.discoveries[card["id"]].cost
                    out += [_a("use", f"t{t}", ref_of(tab, card), el) for el in ELEMENTS
                            if discoveries.owed(card, cost, el) > 0]
            for k, nd in enumerate(discoveries.active_narratives(tab)[: MAX_NARRATIVES], start=1):
                out += [_a("use", f"t{t}", f"n{k}", el) for el in act.NARRATIVE_ELEMENTS
                        if discoveries.owed(nd, nd["cost"], el) > 0]
        else:
            out.append(_a("use", f"t{t}"))
    return out


def timing_item_actions(tab: Table) -> list[KAction]:
    out = []
    dice = tab.d.dice
    dec = tab.d.decision
    for iid in dec.items if isinstance(dec, ItemTiming) else ():
        t = tab.pack.item_order.index(iid) + 1
        use = tab.pack.items[iid].use or {}
        mod = use.get("dice")
        if mod == "choose_double_value":
            out += [_a("use", f"t{t}", v) for v in range(1, 7) if v != dice[0]]
        elif mod == "die_minus_1":
            out += [_a("use", f"t{t}", side) for i, side in enumerate(("white", "black")) if dice[i] > 1]
        else:
            out.append(_a("use", f"t{t}"))
    return out


def legal(tab: Table) -> list[KAction]:
    d = tab.d
    dec = d.decision
    if dec is None:
        if d.result is not None:
            return []
        out = [_a("explore", s) for s in range(4) if explore_problem(tab, s) is None]
        out += craft_actions(tab)
        out += study_actions(tab)
        out += tldp_item_actions(tab)
        if validate_problem(tab) is None:
            out.append(_a("validate"))
        out += [_a("leave"), _a("concede")]
        return out
    kind = dec.kind
    if kind == "offer":
        return [_a("read"), _a("refuse")]
    if kind == "item_timing":
        return [*timing_item_actions(tab), _a("skip")]
    if kind == "choice":
        assert isinstance(dec, Choice)
        out = [_a("option", i + 1) for i, ok in enumerate(script.enabled_options(tab, dec.ops)) if ok]
        if not dec.eog:
            out += craft_actions(tab, fuel_only=True)  # KYR-TLDP-02, KYR-AMB-42
        return out
    if kind == "discard":
        assert isinstance(dec, Discard)
        return [_a("discard", ref_of(tab, c)) for c in predicates.discoveries_matching(tab, {"studied": dec.studied})]
    if kind == "trader":
        return [*(_a("trade", tid, *refs) for tid, refs in encounters.trades(tab)), _a("pass")]
    if kind == "partner":
        return [act.SEND]
    if kind == "encounter_roll":
        return [_a("roll"), *craft_actions(tab, distance=False)]
    if kind == "market":
        out = []
        for t, iid in enumerate(tab.pack.item_order, start=1):
            item = tab.pack.items[iid]
            if buy_refusal(d.camp["items"], d.camp["np_bank"], item) is None:  # the campaign's one "can buy"
                out.append(_a("buy", f"t{t}"))
        return [*out, _a("close")]
    return []  # pragma: no cover - every decision kind is listed above


def explore_problem(tab: Table, slot: int) -> tuple[str, str] | None:
    """Why exploring ``slot`` is illegal (reason, rule), checked in KYR-EXPLORE-01's order."""
    d = tab.d
    if slot >= len(d.slot_planets):
        return "there is no area on the table", "KYR-AREA-05"
    if d.slot_explored[slot]:
        return f"slot {slot} was already explored in this area", "KYR-AREA-06"
    planet = tab.pack.planets[d.slot_planets[slot]]
    if planet.danger > 0 and d.gauges["suit"] < planet.danger:
        return f"suit {d.gauges['suit']} < danger {planet.danger} of {planet.name}", "KYR-EXPLORE-01"
    cost = exploration.travel_cost(tab, slot)
    if d.gauges["fuel"] < cost:
        return f"travel costs {cost} fuel, you have {d.gauges['fuel']}", "KYR-GAUGE-07"
    return None


def validate_problem(tab: Table) -> tuple[str, str] | None:
    status = predicates.objective_status(tab)
    unmet = [k for k, ok in status.items() if not ok]
    if unmet:
        return f"objective(s) {' '.join(unmet)} not satisfied", "KYR-OBJ-15"
    cost = int(tab.pack.rules["validation_fuel_cost"])
    if tab.d.gauges["fuel"] < max(1, cost):
        return "validation costs 1 fuel and you have none", "KYR-OBJ-15"
    return None


def why_illegal(tab: Table, action: KAction) -> str:
    d = tab.d
    if d.result is not None and d.decision is None:
        return "the game is over"
    if d.decision is not None:
        waiting = decision_waiting(tab, action)
        if waiting is not None:
            return waiting
    if action.verb == "explore" and d.decision is None:
        problem = explore_problem(tab, int(action.args[0]))
        if problem:
            return problem[0]
    if action.verb == "validate":
        problem = validate_problem(tab)
        if problem:
            return problem[0]
    if action.verb == "craft" and len(action.args) == 3 and not d.window_open:
        return "the distance window is closed (it closes at the first exploration or when leaving)"
    if action.verb == "craft" and action.args and action.args[0] in ELEMENTS:
        el = action.args[0]
        if d.elements[el] < 1:
            return f"crafting takes 1 {el} element and you hold none"
        if len(action.args) > 1 and all(recipe_name(r) != action.args[1] for r in tab.pack.rules["crafting"][el]):
            return f"a {el} element cannot be crafted into {action.args[1]} (type 'crafting' for the recipes)"
    if action.verb == "study" and len(action.args) == 3 and action.args[1] in ELEMENTS:
        ref, el, n = action.args
        held = [ref_of(tab, c) for c in d.inventory]
        held += [f"n{k}" for k in range(1, len(discoveries.active_narratives(tab)) + 1)]
        if ref not in held:
            return f"you hold no card {ref}"
        if n.isdigit() and d.elements[el] < int(n):
            return f"paying {n} {el} takes {n} and you hold {d.elements[el]}"
        return f"that card owes less than {n} {el} (or is studied already)"
    return "that choice is not offered now"


#: What each decision is, in the words of a refusal ("... wait until <it> is settled").
DECISION_WORDS = {
    "offer": "the offered script is read or refused", "item_timing": "you use an item on these dice or skip",
    "choice": "the script's choice is made", "discard": "the discovery cards are discarded",
    "trader": "the trade is done or passed", "partner": "the message for your partner is sent",
    "encounter_roll": "the danger card's dice are rolled", "market": "the Thoth market is closed",
}


def decision_waiting(tab: Table, action: KAction) -> str | None:
    """Why a free action is refused while a decision waits (crafting included: only some crafts are
    allowed then); ``None`` when the decision is not the reason."""
    dec = tab.d.decision
    assert dec is not None
    kind = dec.kind
    until = DECISION_WORDS.get(kind, "the decision is taken")
    if action.verb == "craft":
        if kind == "choice" and not getattr(dec, "eog", False):
            if len(action.args) == 2 and action.args[1] == "fuel":
                return None  # a fuel craft: the elements are the reason, if any
            return f"during a script's choice only fuel can be crafted; other crafts wait until {until}"
        if kind == "encounter_roll":
            if len(action.args) == 3:
                return "the distance dice can be changed only while the distance window is open"
            return None
        return f"crafting waits until {until}"
    if action.verb in ("explore", "validate", "leave", "concede", "study", "use"):
        if action.verb == "use" and kind == "item_timing":
            return None
        return f"{action.verb} waits until {until}"
    return None


def rule_of(tab: Table, action: KAction) -> str:
    d = tab.d
    if d.decision is not None:
        return "KYR-TLDP-02"
    if action.verb == "explore":
        problem = explore_problem(tab, int(action.args[0]))
        return problem[1] if problem else "KYR-EXPLORE-01"
    if action.verb == "validate":
        return "KYR-OBJ-15"
    if action.verb == "craft":
        return "KYR-DIST-07" if len(action.args) == 3 else "KYR-GAUGE-07"
    if action.verb == "study":
        return "KYR-DISC-03"
    return "KYR-TLDP-01"


# ---------------------------------------------------------------------------------------------- performing
def perform(tab: Table, action: KAction) -> None:
    """Carry out a checked action (never raises)."""
    verb, args = action.verb, action.args
    d = tab.d
    story.action_taken(d, verb)  # what was read so far has been shown; a new reading may begin
    if verb == "explore":
        exploration.explore(tab, int(args[0]))
    elif verb == "craft":
        exploration.craft(tab, args[0], args[1], int(args[2]) if len(args) == 3 else None)
    elif verb == "study":
        discoveries.study(tab, args[0], args[1], int(args[2]))
    elif verb == "use":
        item = tab.pack.items[tab.pack.item_order[int(args[0][1:]) - 1]]
        if isinstance(d.decision, ItemTiming):
            exploration.use_dice_item(tab, item, args[1] if len(args) > 1 else None)
            return
        gauges.consume_item(tab, item)
        assert item.use is not None
        if "waive" in item.use:
            discoveries.waive(tab, args[1], args[2], int(item.use["waive"]))
        if item.use.get("do"):
            script.push_ops(tab, list(item.use["do"]), item.id)
        script.run(tab)
    elif verb == "validate":
        ending.validate(tab)
    elif verb == "leave":
        exploration.leave_area(tab)
    elif verb == "concede":
        ending.end_game(tab, "defeat", "conceded")  # KYR-END-06
        script.run(tab)
    elif verb == "read":
        exploration.read_offered(tab)
    elif verb == "refuse":
        exploration.refuse_offered(tab)
    elif verb == "skip":
        exploration.skip_items(tab)
    elif verb == "option":
        script.choose_option(tab, int(args[0]) - 1)
    elif verb == "discard":
        discoveries.pick_discard(tab, discoveries.card_of(tab, args[0])["id"])
    elif verb == "trade":
        encounters.trade(tab, args[0], args[1:])
    elif verb == "pass":
        encounters.pass_trade(tab)
    elif verb == "send":
        script.send_message(tab, args[0] if args else "")
    elif verb == "roll":
        encounters.roll_now(tab)
    elif verb == "buy":
        ending.buy(tab, tab.pack.items[tab.pack.item_order[int(args[0][1:]) - 1]])
    elif verb == "close":
        ending.close_market(tab)
