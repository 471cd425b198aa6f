"""The terminal picture of a Kyrum game and campaign (spec §9.1-9.2).

:func:`render` draws one view at a glance: the three boards, the journey and area with the
distance dice, the top planet back, the objectives with live ✓/✗, the inventory, the pages being read
(each new one in full, with what it did) and what the game waits for. ``TERMINAL_COMMANDS`` adds
``card``, ``story`` and ``partner`` to ``holotable play``. The campaign pieces (scoreboard, tracking list, Thoth
market, questionnaire) have their own functions for the ``holotable kyrum`` commands.

Every rulebook symbol has one short label (spec §9.1): FUEL, KNOW, HP, SUIT, SHIP, FIRE, C, U, R,
DISC, NP.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from holotable.engine import DataError, State

from . import card_text
from .campaign import buy_refusal
from .pack import LINK_RE, Pack, load_pack, recipe_name
from .story import check_line

LABELS = {"fuel": "FUEL", "knowledge": "KNOW", "health": "HP", "suit": "SUIT", "ship": "SHIP",
          "firepower": "FIRE", "common": "C", "uncommon": "U", "rare": "R", "any": "any"}
GAUGE_MAX = {"fuel": 16, "knowledge": 16, "health": 6, "suit": 6, "ship": 6, "firepower": 6}


def _pack(view: Mapping[str, Any]) -> Pack | None:
    """The view's pack when it can be found by id (names of encounters); ``None`` otherwise."""
    with contextlib.suppress(DataError, OSError):
        return load_pack(str(view.get("pack", "")))
    return None


def bar(value: int, maximum: int) -> Text:
    """``███░░░ 3/6``: a gauge track."""
    filled = max(0, min(value, maximum))
    return Text.assemble(("█" * filled, "bold"), ("░" * (maximum - filled), "dim"), f" {value}/{maximum}")


def script_text(text: str) -> Text:
    """Script prose with glossary links (``[[term|label]]``) shown in bold italics, as in the booklet."""
    out = Text()
    last = 0
    for m in LINK_RE.finditer(text):
        out.append(text[last:m.start()])
        raw = m.group(0)[2:-2]
        label = raw.split("|", 1)[1] if "|" in raw else raw
        out.append(label, style="bold italic")
        last = m.end()
    out.append(text[last:])
    return out


def boards(view: Mapping[str, Any]) -> Table:
    """Fuel and knowledge board, dashboard and elements board side by side."""
    g = view.get("gauges") or {}
    el = view.get("elements") or {}
    supply = view.get("supply") or {}
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("Fuel & knowledge")
    table.add_column("Dashboard")
    table.add_column("Elements")
    left = [Text.assemble((f"{LABELS[k]:<5}", "bold"), bar(int(g.get(k, 0)), GAUGE_MAX[k])) for k in ("fuel",
                                                                                                       "knowledge")]
    mid = [Text.assemble((f"{LABELS[k]:<5}", "bold"), bar(int(g.get(k, 0)), GAUGE_MAX[k]))
           for k in ("health", "suit", "ship", "firepower")]
    # an element's cap is the pack's cube count: what the player holds plus what is left in the supply
    held = {k: int(el.get(k, 0)) for k in ("common", "uncommon", "rare")}
    right = [Text.assemble((f"{LABELS[k]:<2}", "bold"), bar(n, n + int(supply.get(k, 0))),
                           f"  supply {supply.get(k, '?')}") for k, n in held.items()]
    for i in range(4):
        table.add_row(left[i] if i < len(left) else "", mid[i], right[i] if i < len(right) else "")
    return table


def headline(view: Mapping[str, Any]) -> Text:
    alert = view.get("top_planet_back_alert")
    back = "journey card (deck empty)" if alert is None else ("! ALERT" if alert else "no alert")
    return Text.assemble(
        (f"Game {view.get('game_number')}", "bold"),
        f" · journey {view.get('journey')}/4 (worth {view.get('journey_np')} NP)",
        f" · area {view.get('area')}/5 · {view.get('phase')}",
        "\nTop planet back: ", (back, "bold red" if alert else ""),
        f" · decks: planets {view.get('planet_deck_size')}, encounters {view.get('encounter_deck_size')}, "
        f"discoveries {view.get('discovery_deck_size')}",
        f" · NP bank {view.get('np_bank')}, script NP this game {view.get('script_np')}",
    )


def arrow_summary(ops: Sequence[Mapping[str, Any]]) -> str:
    """An arrow's outcomes in the short labels of the boards: ``+1 U −1 SUIT``, ``+1 DISC``."""
    parts = []
    for op in ops:
        if op.get("op") in ("gain", "lose"):
            parts.append(f"{'+' if op['op'] == 'gain' else '−'}{op['n']} {LABELS.get(op['res'], op['res'])}")
        elif op.get("op") == "draw_discovery":
            parts.append(f"+{op.get('n', 1)} DISC")
        else:
            parts.append(card_text.describe_op(op))
    return " ".join(parts) or "-"


def area_table(view: Mapping[str, Any]) -> RenderableType:
    """The area's planets: slot, danger, distance die, both arrows in short; an explored planet's
    description under its name (the booklet asks to read it when the planet is explored)."""
    slots = view.get("slots") or []
    if not slots:
        return Text("No area on the table.", style="dim")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("Slot", "Planet", "Danger", "Die", "White ▷ / black ▶ arrow", ""):
        # a planet's description wraps under its name instead of pushing the arrows off the screen
        table.add_column(name, justify="right" if name in ("Slot", "Danger", "Die") else "left",
                         max_width=40 if name == "Planet" else None)
    exploring = view.get("exploring")
    for s in slots:
        mark = "explored" if s["explored"] else ""
        if exploring == s["slot"]:
            mark = "exploring"
        danger = f"SUIT {s['danger']}" if s["danger"] else "-"
        cell = Text(f"{s['planet']} {s['name']}")
        if (s["explored"] or exploring == s["slot"]) and s.get("description"):
            cell.append(f"\n{s['description']}", style="italic")
        arrows = "-"
        if "white" in s:  # the view's own card (data overrides included)
            arrows = f"▷ {arrow_summary(s['white'])}\n▶ {arrow_summary(s['black'])}"
            if s.get("double_script") is not None:
                arrows += f"\ndouble: {s['double_script']}"
        table.add_row(str(s["slot"]), cell, danger, f"[{s['die']}]" if s["die"] else "-", Text(arrows), mark,
                      style="dim" if s["explored"] and exploring != s["slot"] else None)
    head = Text("Area", style="bold")
    head.append("  ('card N' reads a planet's whole card)", style="dim")
    if view.get("distance_window"):
        head.append(" · distance window open: re-roll a die with 1 C, set one to 1 with 1 U", style="")
    parts: list[RenderableType] = [head, table]
    dice = view.get("dice") or []
    if len(dice) == 2:
        parts.append(Text(f"Exploration dice: white {dice[0]} · black {dice[1]}", style="bold"))
    return Group(*parts)


def objectives_text(view: Mapping[str, Any]) -> Text:
    """Each objective with its live status (KYR-OBJ-17)."""
    out = Text("Objectives", style="bold")
    for o in view.get("objectives") or []:
        ok = bool(o.get("satisfied"))
        out.append(f"\n  {'✓' if ok else '✗'} {o['letter']}", style="bold green" if ok else "bold red")
        if o.get("text"):
            out.append(f"  {o['text']}")
    return out


def _progress(card: Mapping[str, Any], keys: Sequence[str]) -> str:
    cost = card.get("cost") or {}
    parts = []
    for k in keys:
        if cost.get(k):
            done = int(card["paid"].get(k, 0)) + int(card["waived"].get(k, 0))
            parts.append(f"{done}/{cost[k]} {LABELS.get(k, k)}")
    return ", ".join(parts) or "free"


def inventory(view: Mapping[str, Any]) -> RenderableType | None:
    cards = view.get("inventory") or []
    narratives = [n for n in view.get("narratives") or [] if n.get("state") == "active"]
    if not cards and not narratives:
        return None
    table = Table(title="Inventory", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("Ref", "DISC", "Type", "Study (paid/cost)", "KNOW", "NP", ""):
        table.add_column(name)
    for c in cards:
        table.add_row(c["ref"], escape(c["name"]), c["type"], _progress(c, ("common", "uncommon", "rare")),
                      str(c["knowledge"]), str(c["notoriety"]), "studied ✓" if c["studied"] else "")
    for n in narratives:
        table.add_row(str(n.get("ref")), escape(str(n["name"])), "narrative",
                      _progress(n, ("common", "uncommon", "rare", "any")), "-", "-",
                      f"completes with {n['on_complete']}")
    return table


def items_text(view: Mapping[str, Any]) -> Text | None:
    items = view.get("items") or {}
    discounts = view.get("travel_discounts") or []
    if not items and not discounts:
        return None
    out = Text("Thoth items: ", style="bold")
    out.append(", ".join(f"{i['name']} ×{i['owned']} (used {i['used_this_game']} this game)"
                         for i in items.values()) or "none")
    if discounts:
        out.append("   travel discounts: " + ", ".join(f"-{a} FUEL ({u} left)" for a, u in discounts))
    return out


def encounter_text(view: Mapping[str, Any], pack: Pack | None) -> Text | None:
    def name(eid: str) -> str:
        return pack.encounters[eid].name if pack is not None and eid in pack.encounters else eid

    removed = view.get("encounter_removed") or []
    now = view.get("encounter_in_play")
    if not removed and now is None:
        return None
    out = Text()
    if now is not None:
        out.append(f"Encounter: {name(now)}   ", style="bold red")
    if removed:
        out.append("removed encounters: " + ", ".join(name(e) for e in removed), style="dim")
    return out


KIND_NAMES = {"secondary": "secondary script", "narrative": "narrative discovery", "end_of_game": "end of the game",
              "black_hole": "the Black Hole"}


def page_title(page: Mapping[str, Any]) -> str:
    """``Script A.10.04 · Boot Prints`` (the kind after it when not a main script), ``Encounter · Pirates``."""
    if page.get("kind") == "encounter":
        return f"Encounter · {page.get('title', '')}"
    kind = KIND_NAMES.get(str(page.get("kind")))
    return f"Script {page.get('code')} · {page.get('title', '')}" + (f" ({kind})" if kind else "")


def page_body(page: Mapping[str, Any]) -> Group:
    """A page as the booklet prints it, then what it did: the ``say`` lines, a danger card's check
    and the effects, each on its own line."""
    parts: list[RenderableType] = []
    if page.get("text"):
        parts.append(script_text(str(page["text"])))
    for said in page.get("says") or []:
        parts.append(Text.assemble(("» ", "bold"), script_text(str(said))))
    if page.get("check"):
        parts.append(Text.assemble(("⚄ ", "bold"), check_line(page["check"])))
    for line in page.get("effects") or []:
        parts.append(Text.assemble(("→ ", "bold green"), str(line)))
    return Group(*parts)


def page_panel(page: Mapping[str, Any]) -> Panel:
    colour = "red" if page.get("kind") == "encounter" else "magenta" if page.get("kind") == "end_of_game" else "cyan"
    return Panel(page_body(page), title=escape(page_title(page)), title_align="left", border_style=colour)


def reading_panel(view: Mapping[str, Any]) -> RenderableType | None:
    """What is being read now, in reading order: every page written since the last action in full, the
    pages of this reading shown before as one line each ('story' prints them again)."""
    pages = view.get("pages") or []
    if not pages:
        return None
    parts: list[RenderableType] = []
    for page in pages:
        if page.get("new"):
            parts.append(page_panel(page))
        else:
            parts.append(Text(f"(read above: {page_title(page)} · 'story' shows it again)", style="dim"))
    return Group(*parts)


def story_text(view: Mapping[str, Any]) -> RenderableType:
    """Every page read in this game so far, in reading order (the terminal's ``story`` command)."""
    pages = view.get("story") or []
    if not pages:
        return Text("Nothing has been read in this game yet.", style="dim")
    count = f"{len(pages)} page{'' if len(pages) == 1 else 's'}"
    return Group(Text(f"The story of game {view.get('game_number')} so far ({count})", style="bold"),
                 *(page_panel(p) for p in pages))


def partner_lines(view: Mapping[str, Any]) -> list[Text]:
    """The Black Hole transmissions heard and sent, oldest first; those heard in this game marked new."""
    out = []
    for m in view.get("partner_log") or []:
        if m.get("direction") == "received":
            who = m.get("from") or "your partner"
            mark = ("NEW ", "bold yellow") if m.get("new") else ("", "")
            out.append(Text.assemble(mark, (f"from {who} (their game {m.get('game')}): ", "bold"), str(m["text"])))
        else:
            out.append(Text.assemble((f"you sent (game {m.get('game')}): ", "dim"), str(m.get("text") or "(nothing)")))
    return out


def partner_log_text(view: Mapping[str, Any]) -> RenderableType:
    """The campaign's partner log (the terminal's ``partner`` command)."""
    if not view.get("partner"):
        return Text("This campaign has no Black Hole partner.", style="dim")
    lines = partner_lines(view)
    return Group(Text("Black Hole transmissions", style="bold"),
                 *(lines or [Text("Nothing sent or heard yet.", style="dim")]))


def story_command(state: State[Any, Any], seat: int, rest: str) -> RenderableType:
    """The ``story`` command of ``holotable play kyrum``: every page read in this game so far."""
    return story_text(state.view(seat))


def partner_command(state: State[Any, Any], seat: int, rest: str) -> RenderableType:
    """The ``partner`` command of ``holotable play kyrum``: the Black Hole transmissions sent and heard."""
    return partner_log_text(state.view(seat))


def decision_panel(view: Mapping[str, Any]) -> RenderableType | None:
    """What the game is waiting for, with the choices written out (KYR-TLDP-02)."""
    dec = view.get("decision")
    if not dec:
        return None
    kind = dec.get("kind")
    lines: list[RenderableType] = []
    if kind == "offer":
        lines.append(Text(f"A double! 'read' script {dec['code']}, or 'refuse' and re-roll the exploration dice."))
    elif kind == "choice":
        lines.append(Text(str(dec.get("prompt", "")), style="bold"))
        enabled = dec.get("enabled") or []
        for i, label in enumerate(dec.get("labels") or [], start=1):
            ok = enabled[i - 1] if i - 1 < len(enabled) else True
            lines.append(Text(f"  option {i}: {label}" + ("" if ok else "  (cannot be paid now)"),
                              style="" if ok else "dim"))
        if not dec.get("eog"):
            lines.append(Text("  (fuel may still be crafted before choosing)", style="dim"))
    elif kind == "partner":
        lines.append(Text(str(dec.get("prompt", "")), style="bold"))
        heard = [ln for ln, m in zip(partner_lines(view), view.get("partner_log") or [], strict=True)
                 if m.get("direction") == "received"]
        if heard:
            lines.append(Text("  Your partner's transmissions, oldest first:"))
            lines += [Text.assemble("    ", ln) for ln in heard]
        else:
            lines.append(Text("  No transmission from your partner has reached you yet."))
        lines.append(Text("  Answer with: send YOUR MESSAGE (one line, at most 500 characters), or 'send' alone."))
    elif kind == "trader":
        lines.append(Text("The Itinerant Trader: one trade at most — 'trade a dN' (1 unstudied → 2 C), 'trade b dN' "
                          "(1 studied → 3 C), 'trade c dN dM' (2 studied → 1 R), or 'pass'."))
    elif kind == "discard":
        which = {True: "studied ", False: "unstudied "}.get(dec.get("studied"), "")
        lines.append(Text(f"Discard {dec.get('left', 1)} {which}discovery card(s): 'discard dN'."))
    elif kind == "item_timing":
        lines.append(Text("An item can change these dice: 'use tN ...' or 'skip'."))
    elif kind == "encounter_roll":
        lines.append(Text("A danger card is drawn: craft now if you need to, then 'roll'."))
    elif kind == "market":
        lines.append(Text("The Thoth market is open: 'buy tN' (see 'market' for the items), 'close' when done."))
    else:
        lines.append(Text(f"Waiting for: {kind}"))
    return Panel(Group(*lines), title="Decision", title_align="left", border_style="yellow")


def result_text(view: Mapping[str, Any]) -> Text | None:
    res = view.get("result")
    if not res:
        return None
    np = res["np"]
    won = res["outcome"] == "victory"
    return Text.assemble(
        ("VICTORY" if won else "DEFEAT", "bold green" if won else "bold red"),
        f" ({res['reason']}) in journey {res['journey_at_end']} · NP {np['total']} = knowledge {np['knowledge']}"
        f" + discoveries {np['discovery']} + journey {np['journey']} + scripts {np['script']}"
        + ("" if won else " (halved on a defeat)"),
    )


def render(view: dict[str, Any]) -> RenderableType:
    """The whole table of one Kyrum view."""
    pack = _pack(view)
    parts: list[RenderableType] = [headline(view), boards(view), objectives_text(view), area_table(view)]
    for extra in (encounter_text(view, pack), inventory(view), items_text(view), result_text(view),
                  reading_panel(view), decision_panel(view)):
        if extra is not None:
            parts.append(extra)
    return Group(*parts)


def crafting_text(pack: Pack) -> Text:
    """The three crafting cards in one glance (KYR-CRAFT): what one element of each type can become."""
    out = Text("Crafting", style="bold")
    for el, recipes in pack.rules["crafting"].items():
        parts = []
        for r in recipes:
            name = recipe_name(r)
            if name == "reroll":
                parts.append("re-roll a distance die (window open)")
            elif name == "set1":
                parts.append("set a distance die to 1 (window open)")
            elif name is not None:
                parts.append(f"+{r['gain'][name]} {LABELS[name]}")
        out.append(f"\n  1 {LABELS[el]} → " + ", ".join(parts) + f"    e.g. 'craft {el} {recipe_name(recipes[0])}'")
    return out


# ---------------------------------------------------------------------------------------------- campaign
def scoreboard_table(rows: Sequence[Mapping[str, Any]], *, current: int | None = None) -> Table:
    """The six-column game scoreboard (KYR-CAMPAIGN-03)."""
    table = Table(title="Game scoreboard", box=box.SIMPLE_HEAVY)
    for name in ("Game", "Objectives", "Result", "NP", "Comment", "End script"):
        table.add_column(name, justify="right" if name in ("Game", "NP") else "left")
    for r in rows:
        result = r.get("result") or ("playing…" if r["game"] == current else "")
        style = {"victory": "green", "defeat": "red"}.get(str(r.get("result")))
        table.add_row(str(r["game"]), " ".join(r["objectives"]), result, "" if r.get("np") is None else str(r["np"]),
                      escape(r.get("comment") or ""), r.get("end_script") or "", style=style)
    return table


def tracking_table(tracking: Mapping[int, Mapping[str, bool]], pack: Pack) -> RenderableType:
    """The main-scripts tracking list: per planet, which main scripts were read (KYR-CAMPAIGN-10)."""
    table = Table(title="Main scripts tracking list", box=box.SIMPLE_HEAD)
    table.add_column("Planet")
    width = max((len(codes) for codes in tracking.values()), default=0)
    for i in range(width):
        table.add_column(f"#{i + 1}", justify="center")
    read = total = 0
    for number, codes in tracking.items():
        cells = [f"{code[-2:]} ✓" if seen else f"{code[-2:]} ·" for code, seen in codes.items()]
        read += sum(codes.values())
        total += len(codes)
        table.add_row(f"{number} {escape(pack.planets[number].name)}", *cells, *[""] * (width - len(cells)))
    return Group(table, Text(f"{read} of {total} main scripts read"))


def market_table(pack: Pack, items_owned: Mapping[str, Mapping[str, int]], bank: int) -> Table:
    """The Thoth market with prices and what is owned (KYR-THOTH-01..04)."""
    table = Table(title=f"Thoth market · NP bank {bank}", box=box.SIMPLE_HEAD)
    for name in ("Ref", "Item", "Cost", "Kind", "Owned", "Effect"):
        table.add_column(name, overflow="fold")
    for t, iid in enumerate(pack.item_order, start=1):
        item = pack.items[iid]
        rec = items_owned.get(iid, {"owned": 0, "consumed": 0})
        owned = int(rec["owned"]) - int(rec["consumed"])
        table.add_row(f"t{t}", f"{iid} {escape(item.name)}", f"{item.cost} NP", item.kind, f"{owned}/{item.max_owned}",
                      escape(item.text), style="dim" if buy_refusal(items_owned, bank, item) else None)
    return table


def questionnaire_text(pack: Pack) -> Group:
    """The end-of-campaign questions with numbered choices (never the answers)."""
    lines: list[RenderableType] = [Text(f"End-of-campaign questionnaire ({pack.questionnaire['max']} points)",
                                        style="bold")]
    for q in pack.questionnaire["questions"]:
        lines.append(Text(f"{q['id']} ({q['points']} pts). {q['text']}", style="bold"))
        lines += [Text(f"   {i}. {c}") for i, c in enumerate(q["choices"])]
    return Group(*lines)


def questionnaire_result(result: Mapping[str, Any]) -> Text:
    partner = result.get("partner_score")
    how = f"own {result['own_score']} + partner {partner}" if partner is not None else \
        f"own {result['own_score']} × 2 (no Black Hole partner)"
    won = result["status"] != "Campaign lost" and result["shared_score"] >= 60
    return Text.assemble(("Questionnaire: ", "bold"), f"{how} = {result['shared_score']}/100 → ",
                         (str(result["status"]), "bold green" if won else "bold red"))


# ---------------------------------------------------------------------------------------------- cards
CARD_KINDS = {"planet": "Planet", "encounter": "Encounter", "discovery": "Discovery",
              "narrative": "Narrative discovery", "item": "Thoth item"}


def card_panel(card: card_text.CardText) -> Panel:
    """One card as a panel: its prose (a planet's description), then each labelled line."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    for label, value in card.lines:
        grid.add_row(Text(label), Text(value))
    parts: list[RenderableType] = [Text(card.text, style="italic"), grid] if card.text else [grid]
    return Panel(Group(*parts), title=escape(f"{CARD_KINDS.get(card.kind, card.kind)} · {card.title}"),
                 title_align="left", border_style="magenta")


def card_renderable(pack: Pack, name: str, view: Mapping[str, Any] | None = None) -> RenderableType:
    """``card NAME``: the card(s) a forgiving name stands for, or why none does (in red)."""
    try:
        cards = card_text.find_card(pack, name, view)
    except card_text.CardNotFoundError as exc:
        return Text(f"✗ {exc}", style="red")
    return Group(*(card_panel(c) for c in cards))


def card_command(state: State[Any, Any], seat: int, rest: str) -> RenderableType:
    """The ``card`` command of ``holotable play kyrum``: the table's own pack (data overrides included)."""
    from .rules import pack_of  # rules imports this module's package

    return card_renderable(pack_of(state.config), rest, state.view(seat))


#: The game's own commands of the ``holotable play`` terminal (see :func:`holotable.cli.render.terminal_hook`).
TERMINAL_COMMANDS = (
    ("card", "card NAME", "read a card at any moment: a planet (number or name), an encounter (asteroids, "
     "trader...), a discovery (d1 or its name), a Thoth item (t1 or its name), a narrative (n1)", card_command),
    ("story", "story", "every page read in this game so far, with what each did", story_command),
    ("partner", "partner", "the Black Hole transmissions sent and heard", partner_command),
)
