"""Kyrum's cards in plain words: what a player reads on a planet, encounter, discovery or Thoth item.

Everything here is built from the pack's data alone (the same records the engine and the bots read),
so what the human is shown is exactly what the rules apply: a planet's white and black arrows, its
danger level and which script a double reads; a danger card's checks and what failing costs; the
trader's trades; a discovery's study cost, knowledge and notoriety; an item's price, effect and when
it can be used. :func:`describe_ops` turns an effect program (``gain``/``lose``/``draw_discovery``/
``choice``/``if``/``roll``...) into the sentence a player reads ("+2 fuel, +1 uncommon element").

Secrets stay secret: no deck order is involved, and a script is only ever named by its code (the code
is printed on the card; the booklet's text is read when the game says so, never here).

:func:`find_card` resolves a forgiving name (a planet's number or name in any case or a prefix of it,
``d3``/``D03``/a discovery's name, ``t1``/``T01``/an item's name, an encounter's name or id, ``n1`` or a
narrative discovery's name) and :func:`cards_on_table` gives the descriptions a view's table shows.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from holotable.engine.errors import HolotableError
from holotable.engine.words import plural

from .pack import MAIN_SUMS, Discovery, Encounter, Item, Pack, Planet

#: What each resource is called on the cards and in the rulebook.
RESOURCE_NAMES = {
    "fuel": "fuel", "knowledge": "knowledge", "health": "health", "suit": "spacesuit integrity",
    "ship": "ship integrity", "firepower": "firepower", "common": "common element", "uncommon": "uncommon element",
    "rare": "rare element", "any": "element of any type",
}
_STUDIED = {True: "studied ", False: "unstudied "}
_CMP_WORDS = {"==": "exactly", "!=": "not", "<": "less than", "<=": "at most", ">": "more than", ">=": "at least"}
_ITEM_KINDS = {
    "permanent": "permanent: yours for the rest of the campaign",
    "per_game": "per game: its uses come back at the start of every game",
    "consumable": "consumable: used up when it is used",
}
_ITEM_WHEN = {
    "tldp": "at any free moment (when no decision is waiting)",
    "declare_exploration": "when you declare an exploration, before paying its fuel",
    "after_exploration_roll": "right after an exploration roll",
    "after_distance_roll": "right after the distance roll, while the distance window is open",
}
_DICE_MODS = {
    "white_equals_black": "set the white die equal to the black die",
    "choose_double_value": "turn both dice to any other common value (you choose which main script is read)",
    "die_minus_1": "lower one exploration die by 1 (never below 1)",
}
_DICE = {"d6": "roll one die", "2d6": "roll two dice", "exploration": "roll the exploration dice"}


class CardNotFoundError(HolotableError, LookupError):
    """No card (or several different cards) answer to a name; the message says which were meant."""


@dataclass(frozen=True)
class CardText:
    """One card as a player reads it: a title, labelled lines, and the card's own prose (if any)."""

    kind: str  # planet, encounter, discovery, narrative, item
    key: str  # unique in a pack: "planet:10", "encounter:ENC-01", "discovery:D01", "item:T01", "narrative:ND1"
    title: str
    lines: tuple[tuple[str, str], ...]
    text: str = ""
    #: The title as the card prints it, for the table page: without the id that tells two cards of one
    #: name apart where a name is typed (the terminal's ``card asteroids`` lists both, by ``title``).
    printed_title: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key, "title": self.printed_title or self.title,
                "lines": [list(line) for line in self.lines], "text": self.text}


# ---------------------------------------------------------------------------------------------- amounts
def amount(res: str, n: int) -> str:
    """``2 common elements``, ``1 health``, ``3 fuel``: an amount of one resource."""
    name = RESOURCE_NAMES.get(res, res)
    if name.endswith("element") or name.endswith("any type"):
        plural = name.replace("element", "elements", 1) if n != 1 else name
        return f"{n} {plural}"
    return f"{n} {name}"


def cost_text(cost: Mapping[str, int]) -> str:
    """``2 common + 1 uncommon elements``; ``nothing`` for an empty cost."""
    parts = [(k, int(v)) for k, v in cost.items() if int(v) > 0]
    if not parts:
        return "nothing"
    return " + ".join(amount(k, n) for k, n in parts)


def _cards(n: int, what: str = "discovery card") -> str:
    """``1 discovery card``, ``2 studied discovery cards``."""
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


# ---------------------------------------------------------------------------------------------- predicates
def describe_condition(p: Mapping[str, Any], pack: Pack | None = None) -> str:
    """A predicate (spec §6.6) as a clause: ``your fuel is at least 3``."""
    if "res" in p:
        cmp = _CMP_WORDS.get(str(p.get("cmp")), str(p.get("cmp")))
        what = RESOURCE_NAMES.get(p["res"], p["res"])
        what = f"{what}s held" if what.endswith("element") else what
        if p.get("check") == "peak":
            return f"your {what} has been {cmp} {p['value']} at some point this game"
        return f"your {what} is {cmp} {p['value']}"
    if "flag" in p:
        return f"the story mark “{p['flag']}” is {_CMP_WORDS.get(str(p['cmp']), p['cmp'])} {p['value']}"
    if "discoveries" in p:
        flt = p["discoveries"] or {}
        kind = _STUDIED.get(flt["studied"], "") if isinstance(flt.get("studied"), bool) else ""
        typ = f"{flt['type']} " if flt.get("type") else ""
        return f"you hold {_CMP_WORDS.get(str(p['cmp']), p['cmp'])} {p['value']} {kind}{typ}discovery cards"
    if "distinct_studied_types" in p:
        q = p["distinct_studied_types"]
        return f"your studied discoveries are of {_CMP_WORDS.get(str(q['cmp']), q['cmp'])} {q['value']} types"
    if "game" in p or "journey" in p:
        key = "game" if "game" in p else "journey"
        q = p[key]
        return f"this is {key} {_CMP_WORDS.get(str(q['cmp']), q['cmp'])} {q['value']}"
    if "script_seen" in p:
        return f"you have read script {p['script_seen']}"
    if "narrative" in p:
        state = "in your inventory" if p.get("state") == "active" else "fully studied"
        return f"the narrative discovery {p['narrative']} is {state}"
    if "item" in p:
        name = pack.items[p["item"]].name if pack is not None and p["item"] in pack.items else p["item"]
        return f"you own the Thoth item {name}"
    if "partner" in p:
        return "you play with a Black Hole partner" if p["partner"] else "you play without a Black Hole partner"
    if "true" in p:
        return "always" if p["true"] else "never"
    if "all" in p:
        return " and ".join(describe_condition(q, pack) for q in p["all"])
    if "any" in p:
        return " or ".join(describe_condition(q, pack) for q in p["any"])
    if "not" in p:
        return f"not ({describe_condition(p['not'], pack)})"
    if "roll" in p:
        return f"the roll totals {_CMP_WORDS.get(str(p['roll'].get('cmp')), p['roll'].get('cmp'))} {p['roll']['value']}"
    if "roll_double" in p:
        return "the roll is a double" if p["roll_double"] else "the roll is not a double"
    if "roll_black_gt_white" in p:
        return "the black die is higher" if p["roll_black_gt_white"] else "the black die is not higher"
    return "a condition of the story"


# ---------------------------------------------------------------------------------------------- effects
def describe_op(op: Mapping[str, Any], pack: Pack | None = None) -> str:
    """One op of an effect program in a player's words."""
    name = op.get("op")
    if name == "gain":
        return f"+{amount(op['res'], int(op['n']))}"
    if name == "lose":
        return f"lose {amount(op['res'], int(op['n']))}"
    if name == "set":
        return f"your {RESOURCE_NAMES.get(op['res'], op['res'])} becomes {op['value']}"
    if name == "draw_discovery":
        return f"draw {_cards(int(op.get('n', 1)))}"
    if name == "discard_discovery":
        kind = _STUDIED.get(op["studied"], "") if isinstance(op.get("studied"), bool) else ""
        how = "of your choice" if op.get("which") == "choice" else "at random"
        return f"discard {_cards(int(op.get('n', 1)), f'{kind}discovery card')} {how}"
    if name == "add_narrative":
        keep = ", kept after its study" if op.get("keep_after_study") else ""
        return (f"add the narrative discovery “{op['name']}” to your inventory (study: {cost_text(op['cost'])}; "
                f"once studied, read script {op['on_complete']}{keep})")
    if name == "choice":
        options = []
        for i, o in enumerate(op.get("options") or [], start=1):
            extra = []
            if o.get("if"):
                extra.append(f"only if {describe_condition(o['if'], pack)}")
            if o.get("cost"):
                extra.append(f"costs {cost_text(o['cost'])}")
            head = f"{i}. {o['label']}" + (f" ({'; '.join(extra)})" if extra else "")
            options.append(f"{head}: {describe_ops(o['do'], pack)}")
        return f"choose — {op['prompt']}: " + " / ".join(options)
    if name == "if":
        then = f"if {describe_condition(op['cond'], pack)}: {describe_ops(op['then'], pack)}"
        return then + (f"; otherwise: {describe_ops(op['else'], pack)}" if op.get("else") else "")
    if name == "roll":
        branches = [f"if {describe_condition(b['when'], pack)}: {describe_ops(b['do'], pack)}"
                    for b in op.get("branches") or []]
        return f"{_DICE.get(str(op.get('dice')), 'roll')}: " + "; ".join(branches)
    if name == "read":
        return f"read script {op['code']}"
    if name == "flag":
        return f"the story remembers “{op['name']}”"
    if name == "say":
        return f"“{op['text']}”"
    if name == "journal":
        return f"write in your journal: “{op['text']}”"
    if name == "glossary":
        term = str(op["term"])
        title = pack.glossary[term]["title"] if pack is not None and term in pack.glossary else term
        return f"unlock the glossary entry “{title}”"
    if name == "travel_discount":
        uses = int(op.get("uses", 1))
        which = "your next exploration costs" if uses == 1 else f"your next {uses} explorations cost"
        return f"{which} {op['amount']} fuel less (never below 0)"
    if name == "encounter":
        return "draw and resolve an encounter card"
    if name == "notoriety":
        return f"+{op['n']} notoriety point{'s' if int(op['n']) != 1 else ''} (NP)"
    if name == "gain_item":
        iid = str(op["item"])
        item = pack.items[iid].name if pack is not None and iid in pack.items else iid
        return f"receive the Thoth item {item}"
    if name == "partner_exchange":
        return f"contact your Black Hole partner: {op['prompt']}"
    if name == "end_game":
        reason = f" ({op['reason']})" if op.get("reason") else ""
        return f"the game ends in {op['outcome']}{reason}"
    return "an effect of the story"


def describe_ops(ops: Iterable[Mapping[str, Any]], pack: Pack | None = None) -> str:
    """An effect program as one sentence: ``+2 fuel, +1 uncommon element``; ``nothing`` when empty."""
    parts = [describe_op(op, pack) for op in ops]
    return ", ".join(parts) if parts else "nothing"


# ---------------------------------------------------------------------------------------------- cards
def planet_card(pack: Pack, planet: Planet, seen: Sequence[str] = ()) -> CardText:
    """A planet card: danger level, both arrows, which script a double reads, the back, the description.

    ``seen``: the script codes this campaign has read (the tracking list), to say which of the planet's
    main scripts are already known."""
    lines = [
        ("Danger", f"level {planet.danger}: explore only with spacesuit integrity {planet.danger} or more"
         if planet.danger else "none (any spacesuit integrity may explore it)"),
        ("White arrow", f"white die higher: {describe_ops(planet.white, pack)}"),
        ("Black arrow", f"black die higher: {describe_ops(planet.black, pack)}"),
    ]
    if planet.double_script is not None:
        double = f"read script {planet.double_script}, whatever the double"
    else:
        first, last = MAIN_SUMS[0], MAIN_SUMS[-1]
        double = (f"read script A.{planet.number:02d}.XX, XX the dice total "
                  f"(A.{planet.number:02d}.{first:02d} to A.{planet.number:02d}.{last:02d})")
    lines.append(("Double", double + "; you may refuse it and re-roll the exploration dice"))
    lines.append(("Back", "alert (!): an encounter when it is the next card of the deck as an area is revealed"
                  if planet.back_alert else "no alert"))
    codes = planet.main_codes()
    read = [c for c in codes if c in seen]
    if seen:
        lines.append(("Main scripts read", f"{len(read)} of {len(codes)}" + (f": {', '.join(read)}" if read else "")))
    return CardText("planet", f"planet:{planet.number}", f"{planet.number} {planet.name}", tuple(lines),
                    planet.description)


def _check_text(arrow: Mapping[str, Any], pack: Pack) -> str:
    check = arrow.get("check")
    effects = describe_ops(arrow.get("effects") or [], pack)
    if check is None:
        return effects
    what = RESOURCE_NAMES.get(check["res"], check["res"])
    return f"check your {what}: if it is less than {check['lt']}, {effects}; otherwise nothing happens"


def encounter_card(pack: Pack, enc: Encounter) -> CardText:
    """An encounter card: a danger's two checks, the trader's trades, or the Black Hole."""
    title = f"{enc.name} ({enc.id})"
    if enc.kind == "danger":
        lines = [
            ("Danger", "roll the exploration dice: the higher die says which arrow applies; "
                       "a double cancels the encounter"),
            ("White arrow", f"white die higher: {_check_text(enc.white or {}, pack)}"),
            ("Black arrow", f"black die higher: {_check_text(enc.black or {}, pack)}"),
        ]
    elif enc.kind == "trader":
        lines = [("Trader", "one trade at most, or none: move on")]
        for t in pack.rules["trader"]:
            ((what, n),) = t["give"].items()
            give = _cards(int(n), f"{what} discovery card")
            lines.append((f"Trade {t['id']}", f"give {give} → get {cost_text(t['get'])}"))
    else:
        lines = [("Black Hole", f"read script {pack.rules['black_hole_script']}: a message reaches the Jaakub of "
                                "your Black Hole partner (the card is out of games without a partner)")]
    lines.append(("After", "the card is removed from the game"))
    return CardText("encounter", f"encounter:{enc.id}", title, tuple(lines), enc.text, printed_title=enc.name)


def discovery_card(pack: Pack, disc: Discovery, held: Mapping[str, Any] | None = None) -> CardText:
    """A discovery card; ``held``: its inventory entry of a view (progress of the study)."""
    ref = f"d{pack.discovery_order.index(disc.id) + 1}" if disc.id in pack.discovery_order else disc.id
    lines = [
        ("Type", disc.type),
        ("Study cost", cost_text(disc.cost)),
        ("Knowledge", f"+{disc.knowledge} once studied"),
        ("Notoriety", f"+{disc.notoriety} NP once studied, if you win the game" if disc.notoriety else "none"),
    ]
    if held is not None:
        lines.append(("Study", "studied" if held.get("studied") else _progress(held, disc.cost)))
    return CardText("discovery", f"discovery:{disc.id}", f"{ref.upper()} {disc.name}", tuple(lines), disc.text)


def _progress(held: Mapping[str, Any], cost: Mapping[str, int]) -> str:
    paid, waived = held.get("paid") or {}, held.get("waived") or {}
    parts = [f"{int(paid.get(k, 0)) + int(waived.get(k, 0))}/{n} {k}" for k, n in cost.items() if n]
    return "paid so far " + (", ".join(parts) or "nothing")


def narrative_card(nd: Mapping[str, Any]) -> CardText:
    """A narrative discovery held in the campaign (a view's ``narratives`` entry)."""
    cost = nd.get("cost") or {}
    lines = [("Study cost", cost_text(cost)),
             ("Study", "fully studied" if nd.get("state") == "done" else _progress(nd, cost)),
             ("Once studied", f"read script {nd.get('on_complete')}"),
             ("Kept", "from game to game until it is fully studied" + (
                 "; it stays after its study" if nd.get("keep_after_study") else ""))]
    if nd.get("repeatable"):
        lines.append(("Repeatable", "it can be studied again"))
    ref = f"{str(nd['ref']).upper()} " if nd.get("ref") else ""
    return CardText("narrative", f"narrative:{nd.get('nd_id')}", f"{ref}{nd.get('name', 'narrative discovery')}",
                    tuple(lines), str(nd.get("text") or ""))


def item_effect(pack: Pack, item: Item) -> str:
    parts = []
    if item.on_game_start:
        parts.append(f"at the start of every game: {describe_ops(item.on_game_start, pack)}")
    use = item.use or {}
    if use.get("dice"):
        parts.append(_DICE_MODS.get(str(use["dice"]), "change the exploration dice"))
    if use.get("waive"):
        n = int(use["waive"])
        parts.append(f"one held discovery needs {n} element{'s' if n != 1 else ''} less to study "
                     "(you choose which still-owed element is waived)")
    if use.get("do"):
        parts.append(describe_ops(use["do"], pack))
    if item.fuel_source:
        parts.append("it counts as a way to get fuel when you run dry")
    return "; ".join(parts) or "none"


def item_card(pack: Pack, item: Item, owned: Mapping[str, Any] | None = None) -> CardText:
    """A Thoth item; ``owned``: its entry in a view's ``items`` (how many, uses this game)."""
    ref = f"t{pack.item_order.index(item.id) + 1}" if item.id in pack.item_order else item.id
    lines = [("Price", f"{item.cost} NP at the Thoth market (own at most {item.max_owned})"),
             ("Kind", _ITEM_KINDS.get(item.kind, item.kind) + (
                 f" ({item.uses_per_game} use{'s' if item.uses_per_game != 1 else ''} each game)"
                 if item.kind == "per_game" else "")),
             ("Effect", item_effect(pack, item))]
    use = item.use or {}
    if use:
        when = _ITEM_WHEN.get(str(use.get("when")), str(use.get("when")))
        req = use.get("requires") or {}
        if req.get("double"):
            when += " that is a double"
        elif req.get("not_double"):
            when += " that is not a double"
        lines.append(("When", when))
    else:
        lines.append(("When", "by itself, at the start of every game"))
    if owned is not None:
        used = plural(owned.get("used_this_game", 0), "time")
        lines.append(("Yours", f"×{owned.get('owned', 0)}, used {used} this game"))
    return CardText("item", f"item:{item.id}", f"{ref.upper()} {item.name}", tuple(lines), item.text)


def every_card(pack: Pack) -> list[CardText]:
    """Every printed card of the pack: planets, encounters, discoveries, Thoth items."""
    return [*(planet_card(pack, pack.planets[n]) for n in sorted(pack.planets)),
            *(encounter_card(pack, e) for e in pack.encounters.values()),
            *(discovery_card(pack, pack.discoveries[i]) for i in pack.discovery_order),
            *(item_card(pack, pack.items[i]) for i in pack.item_order)]


# ---------------------------------------------------------------------------------------------- what a view shows
def cards_on_table(pack: Pack, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The description of every card a view shows, by key (``planet:10``...): the area's planets, the
    encounter in play and those removed, the inventory, the narratives, and every Thoth item (the market
    is public). A private view (a spectator of a campaign game) shows no card, so it gets none."""
    if view.get("private"):
        return {}
    seen = tuple(view.get("main_scripts_seen") or ())
    out: list[CardText] = []
    for s in view.get("slots") or []:
        if s.get("planet") in pack.planets:
            out.append(planet_card(pack, pack.planets[s["planet"]], seen))
    encounters = [view.get("encounter_in_play"), *(view.get("encounter_removed") or [])]
    out += [encounter_card(pack, pack.encounters[e]) for e in encounters if e in pack.encounters]
    out += [discovery_card(pack, pack.discoveries[c["id"]], c) for c in view.get("inventory") or []
            if c.get("id") in pack.discoveries]
    out += [narrative_card(nd) for nd in view.get("narratives") or [] if nd.get("state") == "active"]
    owned = view.get("items") or {}
    out += [item_card(pack, pack.items[i], owned.get(i)) for i in pack.item_order]
    return {c.key: c.to_dict() for c in out}


# ---------------------------------------------------------------------------------------------- finding a card
def _norm(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").split())


def _candidates(pack: Pack, view: Mapping[str, Any] | None) -> list[tuple[list[str], str, CardText]]:
    """Every card with the exact names it answers to, and the name a prefix may match."""
    seen = tuple((view or {}).get("main_scripts_seen") or ())
    held = {c.get("id"): c for c in (view or {}).get("inventory") or []}
    owned = (view or {}).get("items") or {}
    out: list[tuple[list[str], str, CardText]] = []
    for n in sorted(pack.planets):
        p = pack.planets[n]
        out.append(([str(n), f"p{n}", f"planet {n}", p.name], p.name, planet_card(pack, p, seen)))
    for e in pack.encounters.values():
        out.append(([e.id, e.name], e.name, encounter_card(pack, e)))
    for k, did in enumerate(pack.discovery_order, start=1):
        d = pack.discoveries[did]
        out.append(([f"d{k}", did, d.name], d.name, discovery_card(pack, d, held.get(did))))
    for t, iid in enumerate(pack.item_order, start=1):
        it = pack.items[iid]
        out.append(([f"t{t}", iid, it.name], it.name, item_card(pack, it, owned.get(iid))))
    for nd in (view or {}).get("narratives") or []:
        if nd.get("state") == "active" and nd.get("name"):
            names = [str(nd["name"]), *([str(nd["ref"])] if nd.get("ref") else [])]
            out.append((names, str(nd["name"]), narrative_card(nd)))
    return out


def find_card(pack: Pack, name: str, view: Mapping[str, Any] | None = None) -> list[CardText]:
    """The card(s) ``name`` stands for; several only for cards printed with one name (the two Asteroids).

    Exact names come first (a planet's number, ``d3``, ``T01``, ``ENC-02``, a full name, any case), then
    a prefix of a name or of one of its words. ``view`` adds the narrative discoveries it holds and the
    progress of held cards. Raises :class:`CardNotFoundError` naming close matches, or the choices when a
    prefix fits several cards."""
    wanted = _norm(name)
    if not wanted:
        raise CardNotFoundError("which card? e.g. 'card 10', 'card rymios', 'card d1', 'card t1', 'card asteroids'")
    found = _candidates(pack, view)
    exact = [c for names, _, c in found if wanted in (_norm(x) for x in names)]
    if exact:
        return _one_name(exact)
    prefix = [c for _, shown, c in found if _norm(shown).startswith(wanted)]
    if not prefix:
        prefix = [c for _, shown, c in found if any(w.startswith(wanted) for w in _norm(shown).split())]
    if prefix:
        titles = sorted({_shown_name(c) for c in prefix})
        cards = _one_name(prefix)
        if len({_shown_name(c) for c in cards}) == 1:
            return cards
        more = " ..." if len(titles) > 8 else ""
        raise CardNotFoundError(f"'{name}' could be several cards: {', '.join(titles[:8])}{more}; type more of it")
    names = sorted({shown for _, shown, _ in found} | {x for names, _, _ in found for x in names if not x.isdigit()})
    close = difflib.get_close_matches(name, names, n=4, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else (
        f"; try a planet's number or name, d1..d{len(pack.discovery_order)}, t1..t{len(pack.item_order)}, "
        "an encounter's name, or n1 for a narrative discovery")
    raise CardNotFoundError(f"no card called '{name}'{hint}")


def _shown_name(card: CardText) -> str:
    return card.title.split(" (")[0]


def _one_name(cards: list[CardText]) -> list[CardText]:
    """Cards de-duplicated by key, in order."""
    out: dict[str, CardText] = {}
    for c in cards:
        out.setdefault(c.key, c)
    return list(out.values())


__all__ = ["CardNotFoundError", "CardText", "cards_on_table", "describe_condition", "describe_op",
           "describe_ops", "discovery_card", "encounter_card", "every_card", "find_card", "item_card",
           "narrative_card", "planet_card"]
