"""The terminal picture of a Black Hole Council view.

The picture shows, from the top: the Round Track and the Leader Token (Proposal Track), the
planets placed *above* their outcomes, the Bribe Space and the seats (track, Bank, pending
bribes, offers, moves left), this Proposal's talk, the last vote, this round's Advance
announcements, the Planet History, the Deduction results, the seat's own Agenda, Intrigue card
and points, and what is asked now. It is drawn from the seat's view only, so it cannot show
anything the seat may not know (BHC-INFO-01, BHC-INFO-06).

The timed Negotiate phase is part of the rules (``BlackHoleCouncil.period``), so terminal and
server play run the same clock; this module only draws the timer the view shows. For the live
negotiation of ``holotable play`` (:mod:`holotable.cli.live`) it also gives the compact picture of
the table in the status bar (:func:`status_lines`), each change as one plain line
(:func:`change_line`), the short grouped ``help`` (:func:`help_lines`) and the action words a
unique prefix may stand for (:data:`COMMAND_WORDS`).
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from holotable.engine import ActionError, Event
from holotable.engine.words import plural, seat_list, seat_name

from .actions import outcome_named
from .data import COLOURS, OUTCOMES
from .words import OUTCOME_TITLES, talk_line

GAME_NAME = "council"
COLOUR_STYLES = {
    "red": "bold red",
    "green": "bold green",
    "yellow": "bold yellow",
    "blue": "bold blue",
    "black": "bold bright_black",
    "rainbow": "bold magenta",
}
ROUND_NAMES = {"N": "Negotiation", "D": "Deduction", "P": "Pay-Out"}
#: What each Deduction Round guesses (BHC-DED-1-02, 2-02, 3-02).
DEDUCTION_TEXT = (
    "the Settle or Tax colour of your LEFT neighbour: guess COLOUR left",
    "the Mine or Conquer colour of your RIGHT neighbour: guess COLOUR right",
    "the Black Hole colour of either neighbour (2 coins): guess COLOUR left|right",
)


def _named(seat: Any) -> str:
    """A seat index from a view as the players call it ("Seat 1" for seat 0; ``?`` when it is missing)."""
    return "?" if seat is None else seat_name(int(seat))


def _who(seat: int, viewer: int | None) -> str:
    return f"{seat_name(seat)} (you)" if seat == viewer else seat_name(seat)


def _planet_cell(planet: dict[str, Any] | None, goal_colour: str | None, outcome: str) -> Text:
    """One planet as three short lines: id, colour and points, coin; ``✔`` when it matches the viewer."""
    if planet is None:
        return Text("▮ face down", style="dim")
    colour = str(planet["colour"])
    text = Text(str(planet["id"]), style=COLOUR_STYLES.get(colour, ""))
    text.append(f"\n{colour} {planet['points']:+d} pt")
    text.append(f"\ncoin {planet['coin']}" if planet["coin"] else "\nno coin", style="dim")
    if goal_colour is not None and (colour == "rainbow" or goal_colour == colour):
        text.append(f"\n✔ your {OUTCOME_TITLES[outcome]} goal", style="bold")
    return text


def _goals(view: dict[str, Any]) -> dict[str, str] | None:
    you = view.get("you")
    if not isinstance(you, dict):
        return None
    goals = you["agenda"]["goals"]
    return {str(o): str(c) for o, c in goals.items()}


def _header(view: dict[str, Any]) -> Text:
    order = str(view.get("round_order", ""))
    now = int(view.get("round", 1)) - 1
    counts = {"N": 0, "D": 0, "P": 0}
    track = Text("Round Track: ")
    for i, kind in enumerate(order):
        counts[kind] += 1
        label = "PAY" if kind == "P" else f"{kind}{counts[kind]}"
        track.append(f"[{label}]" if i == now else label, style="bold reverse" if i == now else "dim")
        track.append(" ")
    kind = str(view.get("round_kind", "N"))
    name = ROUND_NAMES.get(kind, kind)
    number = {"N": view.get("negotiation_round"), "D": view.get("deduction_round")}.get(kind)
    title = Text(f"Black Hole Council · {name} Round" + (f" {number}" if number else ""), style="bold")
    if view.get("terminal"):
        title.append(" · game over")
    return Text.assemble(title, "\n", track)


def _leader_line(view: dict[str, Any]) -> Text:
    viewer = view.get("seat")
    proposal = int(view.get("proposal", 1))
    marks = " ".join(f"[{k}]" if k == proposal else str(k) for k in (1, 2, 3))
    line = Text(f"Leader: {_who(int(view['leader']), viewer)} · Proposal Track {marks}", style="bold")
    failed = int(view.get("failed", 0))
    line.append(f" · failed Proposals this round: {failed}")
    seconds = view.get("negotiation_seconds")
    line.append(f" · timer: {seconds} s per Proposal" if seconds else " · timer: off", style="dim")
    return line


def _table(view: dict[str, Any]) -> RenderableType:
    """The planets above their outcomes (BHC-NEG-PREP-02, BHC-NEG-03)."""
    table_view = view.get("table") or {}
    if not table_view:
        return Text("No planets on the table.", style="dim")
    goals = _goals(view)
    grid = Table(
        title="The Proposal: planets above the outcomes",
        title_justify="left",
        box=box.SQUARE,
        show_header=False,
        pad_edge=True,
    )
    for _ in OUTCOMES:
        grid.add_column(justify="center", min_width=12)
    grid.add_row(
        *[_planet_cell(table_view.get(o), None if goals is None else goals[o], o) for o in OUTCOMES], end_section=True
    )
    grid.add_row(*[Text(OUTCOME_TITLES[o].upper(), style="bold reverse") for o in OUTCOMES])
    return grid


def _seats(view: dict[str, Any]) -> Table:
    viewer = view.get("seat")
    n = int(view.get("players", len(view.get("banks", []))))
    costs = view.get("track_costs") or []
    end = len(costs) + 1
    asked = set(view.get("to_move") or [])
    committed = set(view.get("committed") or [])
    played = {int(r["seat"]): str(r["kind"]) for r in view.get("intrigue_discards") or []}
    grid = Table(
        title=f"Bribe Space: {plural(view.get('bribe_space', 0), 'coin')}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for name in ("Seat", "Track", "Next costs", "Bank", "Pending", "Offer", "Moves left", "Intrigue", ""):
        grid.add_column(name, justify="right" if name in ("Track", "Bank", "Pending", "Moves left") else "left")
    accepted = view.get("accepted_from")
    offers = set(view.get("offers") or [])
    moves = view.get("moves_left") or []
    for seat in range(n):
        pos = int(view["positions"][seat])
        marks = []
        if seat == view.get("leader"):
            marks.append("Leader")
        if seat in committed:
            marks.append("has chosen")
        elif seat in asked and not view.get("terminal"):
            marks.append("◀ asked")
        pending = int(view["pending"][seat])
        if seat == view.get("leader") and view.get("leader_pending"):
            pending += int(view["leader_pending"])
        offer = "accepted" if seat == accepted else ("open" if seat in offers else "")
        grid.add_row(
            _who(seat, viewer),
            f"{pos}/{end}",
            str(costs[pos - 1]) if pos < end else "end",
            str(view["banks"][seat]),
            str(pending) if pending else "",
            offer,
            # A live table has no move budget (its entries are None): nothing to show.
            str(moves[seat]) if view.get("phase") == "negotiate" and seat < len(moves)
            and moves[seat] is not None else "",
            f"played {played[seat]}" if seat in played else "hidden",
            " ".join(marks),
            style="bold" if seat == viewer else None,
        )
    return grid


def _talk(view: dict[str, Any], limit: int = 12) -> RenderableType | None:
    talk = view.get("talk") or []
    if not talk:
        return None
    # a claim's text names the seat by its index, as typed: the line says which seat that is
    lines = [Text(f"  {seat_name(t['seat'])}: {t['text']}"
                  + (f" (about {_named(t['about'])})" if t.get("kind") == "claim" and "about" in t else ""))
             for t in talk[-limit:]]
    more = len(talk) - limit
    head = "Table talk this Proposal" + (f" (last {limit} of {len(talk)})" if more > 0 else "")
    return Group(Text(head, style="bold underline"), *lines)


def _last_vote(view: dict[str, Any]) -> Text | None:
    votes = view.get("votes") or []
    if not votes:
        return None
    last = votes[-1]
    ballots = ", ".join(f"{seat_name(s)}: {b}" for s, b in enumerate(last["votes"]) if b is not None)
    result = "Approved" if last["approved"] else "Failed"
    return Text(
        f"Last vote (Negotiation Round {last['round']}, Proposal {last['proposal']}, "
        f"Leader {seat_name(last['leader'])}): {ballots} → {result}"
    )


def _advances(view: dict[str, Any]) -> RenderableType | None:
    rnd = view.get("negotiation_round")
    mine = [r for r in view.get("advances") or [] if r["round"] == rnd]
    if not mine:
        return None
    lines = []
    for r in mine:
        if r["choice"] == "natural":
            what = "advanced naturally"
        elif r["choice"] == "pay":
            what = f"advanced paying {plural(r['coins'], 'coin')}"
        else:
            what = f"got paid ({plural(r['collected'], 'coin')})"
        card = f", played the {r['intrigue']} Intrigue" if r.get("intrigue") else ""
        lines.append(Text(f"  {seat_name(r['seat'])} {what}{card} (space {r['from']}, cost {r['cost']})"))
    return Group(Text(f"Advance announcements, Negotiation Round {rnd}", style="bold underline"), *lines)


def _history(view: dict[str, Any]) -> RenderableType | None:
    sets = view.get("history") or []
    discards = view.get("discards") or []
    if not sets and not discards:
        return None
    goals = _goals(view)
    grid = Table(title="Planet History", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    grid.add_column("Round")
    for o in OUTCOMES:
        grid.add_column(OUTCOME_TITLES[o])
    for s in sets:
        if s["written_off"]:
            grid.add_row(f"N{s['round']}", *[Text("▮ written off", style="dim") for _ in OUTCOMES])
            continue
        cells = []
        for o in OUTCOMES:
            p = s["planets"][o]
            cell = Text(f"{p['id']} {p['points']:+d}", style=COLOUR_STYLES.get(str(p["colour"]), ""))
            if p["coin"]:
                cell.append(f" ¢{p['coin']}")
            if goals is not None and (p["colour"] == "rainbow" or goals[o] == p["colour"]):
                cell.append(" ✔", style="bold")
            cells.append(cell)
        grid.add_row(f"N{s['round']}", *cells)
    parts: list[RenderableType] = [grid]
    if discards:
        gone = ", ".join(f"{d['planet']} (N{d['round']} P{d['proposal']})" for d in discards)
        parts.append(
            Text(f"Sent from Black Hole to the bottom of the deck: {gone} · deck: {view.get('deck_size')}", style="dim")
        )
    return Group(*parts)


def _deductions(view: dict[str, Any]) -> RenderableType | None:
    rounds = view.get("deductions") or []
    if not rounds:
        return None
    viewer = view.get("seat")
    lines: list[RenderableType] = [Text("Deductions", style="bold underline")]
    for rnd in rounds:
        parts = []
        for r in rnd:
            colour = f" {r['colour']}" if "colour" in r else ""
            verdict = "right" if r["correct"] else "wrong"
            who = f"{seat_name(r['guesser'])}→{seat_name(r['target'])}"
            parts.append(f"{who}{colour} {verdict} (+{r['coins']} to {seat_name(r['paid'])})")
        number = rnd[0]["deduction"] if rnd else "?"
        lines.append(Text(f"  D{number}: " + "; ".join(parts)))
    if viewer is not None:
        lines.append(Text("  (you see the colour of cards you played or were shown)", style="dim"))
    return Group(*lines)


def _own(view: dict[str, Any]) -> RenderableType | None:
    you = view.get("you")
    if not isinstance(you, dict):
        return None
    agenda = you["agenda"]
    goals = Text(f"Your Agenda {agenda['id']}: ")
    for i, o in enumerate(OUTCOMES):
        colour = str(agenda["goals"][o])
        goals.append(f"{OUTCOME_TITLES[o]} ", style="bold")
        goals.append(colour, style=COLOUR_STYLES.get(colour, ""))
        if i < len(OUTCOMES) - 1:
            goals.append(" · ")
    state = "played" if you["intrigue_played"] else "unplayed, once per game: add +intrigue to an Advance"
    card = Text(f"Your Intrigue card: {you['intrigue']} ({state})")
    lines: list[RenderableType] = [goals, card]
    if you.get("points") is not None:
        pts = Text(f"Your points for this table: {you['points']}")
        if you.get("points_with_intrigue") is not None:
            pts.append(f" (with your Intrigue card: {you['points_with_intrigue']})")
        pts.append(" · secret (BHC-INFO-03)", style="dim")
        lines.append(pts)
    return Group(*lines)


def _asked(view: dict[str, Any]) -> Text:
    """What the table asks now, and of whom, in the viewer's words."""
    if view.get("terminal"):
        return Text("The game is over.", style="bold")
    viewer = view.get("seat")
    asked = list(view.get("to_move") or [])
    phase = view.get("phase")
    leader = view.get("leader")
    me = viewer is not None and viewer in asked
    if phase == "negotiate" and view.get("live"):  # no turns: everyone acts at any time until the Vote
        if me and viewer == leader:
            text = ("You are the Leader: swap OUTCOME OUTCOME · bribe SEAT COINS · accept SEAT · call vote"
                    " · suggest … · claim … · say TEXT — the timer runs, act at any time · help")
        elif me:
            text = ("Negotiate: suggest swap A B · suggest table … · support · oppose · pledge pass|fail [if …]"
                    " · offer · withdraw · ask bribe N · claim … · say TEXT — the timer runs, act at any time · help")
        else:
            text = f"Negotiation: {_named(leader)} leads; every seat may act until the Vote"
    elif phase == "negotiate":
        if me and viewer == leader:
            text = (
                "You are the Leader: swap OUTCOME OUTCOME · bribe SEAT COINS · accept SEAT · call vote"
                " · suggest swap A B · claim SEAT OUTCOME COLOUR · say TEXT · wait"
            )
        elif me:
            text = (
                "Negotiate: suggest swap A B · support · oppose · offer · withdraw · ask bribe N"
                " · claim SEAT OUTCOME COLOUR · say TEXT · done (no more to say) · wait (let the others act first)"
            )
        else:
            text = f"Negotiation: {_named(leader)} leads; {seat_list(asked)} may still act"
    elif phase == "vote":
        if me:
            text = "Vote on the Proposal: vote pass · vote fail (sealed until everyone has voted)"
        else:
            text = f"The Vote: waiting for {seat_list(asked)}"
    elif phase == "advance":
        turn = view.get("turn")
        if me and turn == viewer:
            pos = int(view["positions"][viewer])
            costs = view.get("track_costs") or []
            cost = costs[pos - 1] if pos <= len(costs) else None
            need = f"you need {plural(cost, 'point')} to move on" if cost is not None else "you are on the last space"
            you = view.get("you") or {}
            card = "" if you.get("intrigue_played", True) else " · add +intrigue to play your card"
            text = f"Your Advance turn ({need}): natural · pay N · get paid{card}"
        else:
            text = f"Advance: {_named(turn)}'s turn"
    elif phase == "deduce":
        number = int(view.get("deduction_round") or 1)
        if me:
            text = f"Deduction Round {number}: guess {DEDUCTION_TEXT[min(number, 3) - 1]}"
        else:
            text = f"Deduction Round {number}: waiting for {seat_list(asked)}"
    else:
        text = f"Waiting for {seat_list(asked)}"
    return Text("Asked now: " + text, style="bold cyan")


def _end(view: dict[str, Any]) -> RenderableType | None:
    agendas = view.get("agendas")
    if not agendas:
        return None
    grid = Table(title="Pay-Out: the Agendas revealed", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    grid.add_column("Seat")
    grid.add_column("Agenda")
    for o in OUTCOMES:
        grid.add_column(OUTCOME_TITLES[o])
    grid.add_column("Pay-Out", justify="right")
    grid.add_column("Final climb", justify="right")
    payout = view.get("payout") or []
    moves = view.get("final_moves") or []
    for seat, agenda in enumerate(agendas):
        cells = [Text(str(agenda["goals"][o]), style=COLOUR_STYLES.get(str(agenda["goals"][o]), "")) for o in OUTCOMES]
        grid.add_row(
            str(seat + 1),  # numbered from 1, as the players call the seats
            str(agenda["id"]),
            *cells,
            str(payout[seat]) if seat < len(payout) else "",
            f"+{moves[seat]}" if seat < len(moves) else "",
        )
    return grid


def render(view: dict[str, Any]) -> RenderableType:
    parts: list[RenderableType] = [_header(view), _leader_line(view), _table(view), _seats(view)]
    for extra in (
        _talk(view),
        _last_vote(view),
        _advances(view),
        _history(view),
        _deductions(view),
        _end(view),
        _own(view),
    ):
        if extra is not None:
            parts.append(extra)
    parts.append(_asked(view))
    return Group(*parts)


# ---------------------------------------------------------------------------- the live terminal

#: The first words of the actions; ``holotable play`` writes out a unique prefix (``sug``, ``op``).
COMMAND_WORDS = ("swap", "bribe", "accept", "call", "offer", "withdraw", "suggest", "pledge", "support",
                 "oppose", "ask", "claim", "done", "vote", "natural", "pay", "get", "guess", "say")

PHASE_TITLES = {"negotiate": "Negotiate", "vote": "Vote", "advance": "Advance", "deduce": "Deduction"}


def _title(word: str) -> str:
    """An outcome word as written in an action (``black_hole``, a prefix) -> its title."""
    try:
        return OUTCOME_TITLES[OUTCOMES[outcome_named(word)]]
    except ActionError:  # an unreadable word is shown as typed
        return word


def _seat_name(seat: int, viewer: int | None) -> str:
    return f"{seat_name(seat)} (you)" if seat == viewer else seat_name(seat)


def _stances(view: dict[str, Any]) -> dict[int, str]:
    """Each seat's latest word on the vote this Proposal (support, oppose, pledge), in short."""
    out: dict[int, str] = {}
    for record in view.get("talk") or []:
        kind, text = record.get("kind"), str(record.get("text", ""))
        if kind in ("support", "oppose"):
            out[int(record["seat"])] = "pass" if kind == "support" else "fail"
        elif kind == "pledge":
            words = text.split()[1:]  # "pass if swap mine conquer"
            if len(words) >= 5 and words[2] == "swap":
                out[int(record["seat"])] = f"{words[0]} if {_title(words[3])}⇄{_title(words[4])}"
            elif len(words) >= 3 and words[2] == "table":
                out[int(record["seat"])] = f"{words[0]} if their table"
            elif words:
                out[int(record["seat"])] = words[0]
    return out


def status_lines(view: dict[str, Any]) -> list[str]:
    """The table in three short lines, for the status bar of a live negotiation: who leads, the
    five planets above their outcomes (⇄ moved this Proposal, ✔ your goal), offers, pledges and
    the Bribe Space."""
    viewer = view.get("seat")
    phase = PHASE_TITLES.get(str(view.get("phase")), str(view.get("phase")))
    leader = int(view.get("leader", 0))
    head = (f"{phase} · Leader {_seat_name(leader, viewer).lower()} · Proposal {view.get('proposal', 1)} of 3"
            f" · Bribe Space {view.get('bribe_space', 0)}")
    if isinstance(viewer, int) and view.get("banks"):
        head += f" · your Bank {view['banks'][viewer]}"
    goals = _goals(view)
    moved = {o for pair in view.get("swaps") or [] for o in pair}
    cells = []
    for i, o in enumerate(OUTCOMES):
        planet = (view.get("table") or {}).get(o)
        if planet is None:
            cells.append(f"{OUTCOME_TITLES[o]} —")
            continue
        mark = "⇄" if i in moved else ""
        goal = goals is not None and (planet["colour"] == "rainbow" or goals[o] == planet["colour"])
        cells.append(f"{OUTCOME_TITLES[o]} {mark}{planet['id']} {int(planet['points']):+d}{' ✔' if goal else ''}")
    offers = [f"{seat_name(s)} open" for s in view.get("offers") or []]
    if view.get("accepted_from") is not None:
        offers.append(f"{seat_name(view['accepted_from'])} accepted")
    stances = _stances(view)
    third = "Offers: " + (", ".join(offers) or "none") + " · Pledges: " + (
        ", ".join(f"{seat_name(s)} {w}" for s, w in sorted(stances.items())) or "none")
    return [head, " · ".join(cells), third]


def change_line(event: Event, viewer: int | None) -> str | None:
    """One event of a live negotiation as one plain-language line (``None``: nothing to say)."""
    record = event.data.get("talk") if event.kind == "talk" else None
    if event.kind == "arrangement" and event.data.get("outcomes"):
        table = event.data.get("table") or []
        i, j = (int(x) for x in event.data["outcomes"])
        if len(table) == len(OUTCOMES):
            return (f"{event.text}: {OUTCOME_TITLES[OUTCOMES[i]]} is now {table[i]}, "
                    f"{OUTCOME_TITLES[OUTCOMES[j]]} {table[j]}")
        return event.text
    if not isinstance(record, dict):
        return event.text
    return talk_line(record, name=lambda seat: _seat_name(seat, viewer))


def help_lines(view: dict[str, Any]) -> list[str]:
    """``help``: the commands of this phase, one line per form, grouped by who may use them."""
    phase = view.get("phase")
    viewer = view.get("seat")
    leader = view.get("leader")
    lines: list[str] = []
    if phase == "negotiate":
        you = " (you)" if viewer == leader else ""
        lines += [
            f"Leader{you}:",
            "  swap OUTCOME OUTCOME            move two planets, e.g. swap settle black hole",
            "  bribe SEAT COINS · accept SEAT  pay from the Bribe Space · take a seat's offered coin",
            "  call vote                       end the talk: the Vote starts",
            "Everyone:",
            "  suggest swap OUTCOME OUTCOME    ask the Leader for a swap",
            "  suggest table ID ID ID ID ID    a whole table, Settle to Black Hole",
            "  support · oppose                say you will vote pass · fail (not the Leader)",
            "  pledge pass|fail [if swap OUTCOME OUTCOME | if table ID ID ID ID ID]",
            "  offer · withdraw                offer the Leader 1 coin · take it back",
            "  ask bribe COINS                 ask the Leader for coins",
            "  claim SEAT OUTCOME COLOUR       say what a seat's Agenda wants (true or not)",
            "  say TEXT · done                 talk · nothing more to say",
        ]
    if phase in ("negotiate", "vote"):
        lines.append("Vote (sealed, not the Leader): vote pass · vote fail")
    elif phase == "advance":
        lines.append("Advance (your turn): natural · pay COINS · get paid   (add +intrigue to play your card)")
    elif phase == "deduce":
        number = int(view.get("deduction_round") or 1)
        lines.append(f"Deduction: guess {DEDUCTION_TEXT[min(number, 3) - 1]}")
    if phase == "negotiate":  # a typed SEAT is the seat's index: the table names the seats from 1
        lines.append("SEAT: a seat's number from 0 (0 is Seat 1, 1 is Seat 2, …): bribe 1 2 gives Seat 2 two coins")
    lines.append("Names: OUTCOME settle, tax, mine, conquer, black hole (or a prefix: s, t, m, c, b); COLOUR "
                 + ", ".join(COLOURS) + "; words may be cut short: sug, sup, op, of, wi.")
    return lines


__all__ = ["COMMAND_WORDS", "change_line", "help_lines", "render", "status_lines"]
