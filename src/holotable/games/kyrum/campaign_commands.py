"""``holotable kyrum`` campaign commands: create, continue and inspect Kyrum campaigns.

Campaigns live in one SQLite file (``--database``, default ``$XDG_DATA_HOME/holotable/kyrum.sqlite3``).
``continue`` is the terminal game (spec §9.2): it shows the boards, the area and the script being read,
takes an action by its text or its number in the listed legal actions, and saves every action before
showing its result, so quitting (or a crash) never loses a move. Between two games it is also where
the last game gets its comment and the Thoth market is visited.

:func:`register` adds the commands to a typer app (the ``kyrum`` sub-app of the ``holotable`` command).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.text import Text

from holotable.cli.common import LineReader, fail, out_console, parse_params, stdin_is_interactive, user_errors
from holotable.cli.render import render_log, render_view
from holotable.engine import ActionError, HolotableError

DatabaseOption = Annotated[
    Path | None,
    typer.Option("--database", "--db", help="The campaign database (default: $XDG_DATA_HOME/holotable/kyrum.sqlite3)."),
]
NameArgument = Annotated[
    str | None, typer.Argument(metavar="[NAME]", help="The campaign (default: the one played most recently).")
]
CampaignOption = Annotated[
    str | None, typer.Option("--campaign", "-c", help="The campaign (default: the one played most recently).")
]

SESSION_COMMANDS = (
    ("ACTION or N", "play an action by its text (e.g. 'explore 2', 'craft common fuel') or its number in the list"),
    ("? / help", "list the legal actions and these commands"),
    ("view", "show the table again"),
    ("log", "the log of this game"),
    ("story", "every page read in this game so far, with what each did"),
    ("partner", "the Black Hole transmissions sent and heard"),
    ("scoreboard", "the game scoreboard"),
    ("tracking", "the main-scripts tracking list"),
    ("glossary [TERM]", "the unlocked glossary terms, or one term"),
    ("card NAME", "read a card: a planet (number or name), an encounter, d1.. or a discovery's name, t1.. or an "
                  "item's name, n1.. a narrative"),
    ("journal [TEXT]", "show the journal, or add a note to it"),
    ("market", "the Thoth market's items"),
    ("crafting", "what each element can be crafted into"),
    ("quit", "stop; every action is already saved ('holotable kyrum continue' resumes)"),
)
BETWEEN_COMMANDS = (
    ("next", "start the next game of the schedule"),
    ("comment TEXT", "the scoreboard comment of the game just finished"),
    ("buy ITEM", "buy a Thoth item (t1, T01 or its name) with notoriety points"),
    ("market", "the Thoth market's items"),
    ("scoreboard", "the game scoreboard"),
    ("tracking", "the main-scripts tracking list"),
    ("card NAME", "read a card of the pack (a planet, an encounter, a discovery, a Thoth item, a narrative)"),
    ("journal [TEXT]", "show the journal, or add a note to it"),
    ("status", "the campaign at a glance"),
    ("quit", "stop"),
)


@contextmanager
def opened(database: Path | None) -> Iterator[Any]:
    """The campaign database, with every holotable error turned into a one-line failure."""
    from holotable.cli.seal import local_seal
    from holotable.games.kyrum.store import KyrumStore, default_database_path

    with user_errors():
        # The book's seeds are sealed with this user's key: whoever knows a running campaign's seed can
        # compute every deck of every game to come.
        store = KyrumStore(database or default_database_path(), seal=local_seal())
        try:
            yield store
        finally:
            store.close()


def campaign_of(store: Any, name: str | None) -> Any:
    return store.open(name or store.latest())


# ---------------------------------------------------------------------------------------------- the session
class CampaignSession:
    """The terminal game over one stored campaign: games in order, each action saved as it is played."""

    def __init__(self, campaign: Any, console: Console, reader: LineReader) -> None:
        self.campaign = campaign
        self.console = console
        self.reader = reader
        self.listed: list[Any] = []

    # ------------------------------------------------------------------ flow
    def run(self) -> None:
        camp = self.campaign
        if camp.match is None and camp.state.next_game == 1:
            self._start()
        elif camp.match is not None:
            self.console.print(Text(f"Resuming game {camp.game_number} of campaign {camp.name!r} "
                                    f"({len(camp.match.actions)} actions so far).", style="bold"))
            self._show()
        else:
            self._between_intro()
        try:
            self._loop()
        except KeyboardInterrupt:  # Ctrl-C: every accepted action is already in the database
            self.console.print("\ninterrupted; everything played so far is saved")

    def _loop(self) -> None:
        camp = self.campaign
        while True:
            if camp.match is None and camp.complete:
                self.console.print(Text(f"The campaign is complete. Answer the end-of-campaign questionnaire with "
                                        f"'holotable kyrum questionnaire {camp.name}'.", style="bold"))
                return
            prompt = f"game {camp.game_number}> " if camp.match is not None else "between games> "
            line = self.reader.ask(prompt)
            if line is None:
                self.console.print("end of input: stopping (everything is saved)")
                return
            text = line.strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            word = word.lower()
            if word in ("quit", "exit", "q"):
                self.console.print(f"Saved. Resume with: holotable kyrum continue {escape(camp.name)}", soft_wrap=True)
                return
            try:
                if camp.match is None:
                    self._between(word, rest.strip())
                else:
                    self._in_game(word, rest.strip(), text)
            except HolotableError as exc:
                self.console.print(f"[red]✗ {escape(str(exc))}[/]")

    def _start(self) -> None:
        from holotable.games.kyrum.terminal import crafting_text

        match = self.campaign.start_game()
        number = self.campaign.game_number
        row = next(r for r in self.campaign.state.scoreboard if r["game"] == number)
        self.console.print(Text(f"Game {number} of {self.campaign.length}: objectives {' '.join(row['objectives'])}",
                                style="bold"))
        self.console.print(crafting_text(self.campaign.pack))
        log = render_log(match.state.events or [], title="Set-up")
        if log is not None:
            self.console.print(log)
        self._show()

    def _show(self) -> None:
        from holotable.games.kyrum.terminal import market_table

        st = self.campaign.match.state
        title = f"{self.campaign.name} · game {st.data.game} · ply {st.ply}"
        view = st.view(0)
        self.console.print(render_view(view, title=title))
        if view["decision"] is not None and view["decision"]["kind"] == "market":  # KYR-END-04 step 4
            now = self._camp_now()
            self.console.print(market_table(self.campaign.pack, now.items, now.np_bank))
        self._list_actions(brief=True)

    def _list_actions(self, brief: bool = False) -> None:
        st = self.campaign.match.state
        self.listed = list(st.legal_actions(0))
        texts = [str(a) for a in self.listed]
        if brief and len(texts) > 24:
            self.console.print(Text(f"{len(texts)} legal actions: type ? to list them with their numbers", style="dim"))
            return
        cells = [Text(f"{i:>3}. {t}") for i, t in enumerate(texts, start=1)]
        self.console.print(Text("Actions:", style="bold"), Columns(cells, padding=(0, 3)))

    # ------------------------------------------------------------------ in a game
    def _in_game(self, word: str, rest: str, text: str) -> None:
        camp = self.campaign
        if word in ("?", "help"):
            self._list_actions()
            self._commands(SESSION_COMMANDS)
        elif word in ("view", "show", "status", "area", "inv", "objectives"):
            self._show()
        elif word == "log":
            log = render_log(camp.match.state.log_for(0), title=f"Game {camp.game_number} log")
            self.console.print(log if log is not None else "(nothing has happened yet)")
        elif word == "crafting":
            from holotable.games.kyrum.terminal import crafting_text

            self.console.print(crafting_text(camp.pack))
        elif word in ("story", "partner") and not rest:  # this game's pages; the Black Hole transmissions
            from holotable.games.kyrum.terminal import partner_log_text, story_text

            view = camp.match.state.view(0)
            self.console.print(story_text(view) if word == "story" else partner_log_text(view))
        elif self._common(word, rest):
            pass
        else:
            action = self._action_text(word, rest, text)
            if action is not None and self._confirmed(action):
                self._play(action)

    def _action_text(self, word: str, rest: str, text: str) -> str | None:
        if word.isdigit():
            k = int(word)
            if not self.listed:
                self.listed = list(self.campaign.match.state.legal_actions(0))
            if not 1 <= k <= len(self.listed):
                self.console.print(f"[red]✗ there is no action {k}; type ? for the list[/]")
                return None
            return str(self.listed[k - 1])
        if word == "choose" and rest.isdigit():
            return f"option {rest}"  # spec §9.2's word for a script option
        return text

    def _confirmed(self, action: str) -> bool:
        """Ask before the two actions that end a game (spec §9.1, KYR-AMB-14)."""
        st = self.campaign.match.state
        verb = action.split()[0].lower() if action.split() else ""
        view = st.view(0)
        journeys = int(self.campaign.pack.rules["journeys"])
        last_area = view["journey"] >= journeys and view["planet_deck_size"] == 0 and view["decision"] is None
        if verb == "leave" and last_area:
            met = all(o["satisfied"] for o in view["objectives"])
            warn = " Your objectives ARE met but not validated: 'validate' first to win!" if met else ""
            question = f"This ends the game (journey {journeys} is over).{warn} Leave anyway? [y/N] "
        elif verb == "concede" and view["decision"] is None:
            question = "Conceding ends this game as a defeat. Concede? [y/N] "
        else:
            return True
        answer = self.reader.ask(question)
        if answer is not None and answer.strip().lower() in ("y", "yes"):
            return True
        self.console.print("not done")
        return False

    def _play(self, action: str) -> None:
        camp = self.campaign
        state = camp.match.state
        try:
            events = camp.play(action)
        except ActionError as exc:
            self.console.print(f"[red]✗ {escape(str(exc))}[/] (type ? for the legal actions)")
            return
        log = render_log(events, title="Result")
        if log is not None:
            self.console.print(log)
        if camp.match is None:
            self._game_over(state)
        else:
            self._show()

    def _game_over(self, state: Any) -> None:
        from holotable.games.kyrum.terminal import result_text, scoreboard_table

        camp = self.campaign
        view = state.view(0)
        res = result_text(view)
        finished = state.data.game
        if res is not None:
            self.console.print(res)
        rows = [r for r in camp.state.scoreboard if r["game"] in (finished, finished + 1)]
        self.console.print(scoreboard_table(rows))
        self.console.print(Text(f"Game {finished} is over and saved. NP bank: {camp.state.np_bank}.", style="bold"))
        self._between_intro()

    # ------------------------------------------------------------------ between games
    def _between_intro(self) -> None:
        camp = self.campaign
        if camp.complete:
            return
        self.console.print(Text(f"Between games: next is game {camp.state.next_game} of {camp.length}. "
                                "Type 'next' to start it, 'comment TEXT', 'buy ITEM', 'market', or 'help'.",
                                style="dim"))

    def _between(self, word: str, rest: str) -> None:
        camp = self.campaign
        if word in ("?", "help"):
            self._commands(BETWEEN_COMMANDS)
        elif word in ("next", "start", "play"):
            self._start()
        elif word == "comment":
            camp.set_comment(rest)
            self.console.print(f"comment of game {camp.state.next_game - 1} saved")
        elif word == "buy":
            iid = camp.buy(rest)
            self.console.print(f"bought {escape(camp.pack.items[iid].name)}; NP bank now {camp.state.np_bank}")
        elif word == "status":
            self.console.print(status_renderable(camp))
        elif not self._common(word, rest):
            self.console.print(f"[red]✗ no game is being played; {escape(word)!r} is not a between-games command[/] "
                               "(type help)")

    # ------------------------------------------------------------------ both
    def _common(self, word: str, rest: str) -> bool:
        from holotable.games.kyrum.campaign import tracking_list
        from holotable.games.kyrum.terminal import market_table, scoreboard_table, tracking_table

        camp = self.campaign
        if word == "scoreboard":
            self.console.print(scoreboard_table(self._scoreboard(), current=camp.game_number))
        elif word == "tracking":
            self.console.print(tracking_table(tracking_list(self._camp_now(), camp.pack), camp.pack))
        elif word == "market":
            now = self._camp_now()
            self.console.print(market_table(camp.pack, now.items, now.np_bank))
        elif word == "glossary":
            self._glossary(rest)
        elif word == "card":
            self._card(rest)
        elif word == "journal":
            if rest:
                camp.add_note(rest)
                when = "now" if camp.match is None else "at the end of this game"
                self.console.print(f"note saved (it joins the journal {when})")
            else:
                self._journal()
        else:
            return False
        return True

    def _card(self, name: str) -> None:
        """``card NAME``: a card of the pack as the player reads it, with what this game shows of it."""
        from holotable.games.kyrum.rules import pack_of
        from holotable.games.kyrum.terminal import card_renderable

        camp = self.campaign
        if camp.match is not None:
            st = camp.match.state
            self.console.print(card_renderable(pack_of(st.config), name, st.view(0)))
            return
        active = [n for n in camp.state.narratives if n["state"] == "active"]
        shown = {"main_scripts_seen": list(camp.state.main_seen),
                 "narratives": [{**n, "ref": f"n{k}"} for k, n in enumerate(active, start=1)]}
        self.console.print(card_renderable(camp.pack, name, shown))

    def _camp_now(self) -> Any:
        """The campaign as it stands, with what the running game has changed so far."""
        from holotable.games.kyrum.campaign import CampaignState

        camp = self.campaign
        if camp.match is None:
            return camp.state
        return CampaignState.from_dict(camp.match.state.data.camp)

    def _scoreboard(self) -> list[dict[str, Any]]:
        return list(self._camp_now().scoreboard)

    def _glossary(self, term: str) -> None:
        pack = self.campaign.pack
        unlocked = sorted(self._camp_now().glossary)
        if not term:
            names = [pack.glossary[t]["title"] if t in pack.glossary else t for t in unlocked]
            self.console.print(Text("Glossary: " + (", ".join(f"{t} ({n})" for t, n in zip(unlocked, names,
                                                                                            strict=True))
                                                    or "nothing unlocked yet")))
            return
        key = term.lower()
        match = next((t for t in unlocked if key in (t.lower(), pack.glossary.get(t, {}).get("title", "").lower())),
                     None)
        if match is None:
            self.console.print(f"[red]✗ {escape(term)!r} is not an unlocked glossary term[/]")
            return
        entry = pack.glossary[match]
        self.console.print(Group(Text(entry.get("title", match), style="bold"), Text(entry.get("text", ""))))

    def _journal(self) -> None:
        entries = list(self._camp_now().journal)
        pending = self.campaign.notes_pending()
        lines = [Text(f"game {e.get('game')}: {e.get('text')}") for e in entries]
        lines += [Text(f"(this game) {t}", style="dim") for t in pending]
        self.console.print(Group(Text("Journal", style="bold"), *(lines or [Text("(empty)", style="dim")])))

    def _commands(self, commands: Sequence[tuple[str, str]]) -> None:
        for name, doc in commands:
            self.console.print(Text.assemble(("  " + name.ljust(16), "bold"), doc))


# ---------------------------------------------------------------------------------------------- summaries
def status_renderable(camp: Any) -> RenderableType:
    from holotable.games.kyrum.campaign import tracking_list
    from holotable.games.kyrum.service import questionnaire_max
    from holotable.games.kyrum.terminal import questionnaire_result, scoreboard_table

    state = camp.state
    lines: list[RenderableType] = []
    partner = "no Black Hole partner (the Black Hole card is out of the game)"
    if state.partner.get("enabled"):
        partner = f"Black Hole partner: {camp.partner_name or 'not linked yet (exchange codes)'}"
    finished = sum(1 for r in state.scoreboard if r["result"] is not None)
    wins = sum(1 for r in state.scoreboard if r["result"] == "victory")
    lines.append(Text(f"Campaign {camp.name!r} · pack {state.pack_id} · {partner}", style="bold"))
    playing = f"game {camp.game_number} in progress" if camp.match is not None else (
        "complete" if camp.complete else f"next game {state.next_game}")
    read = sum(sum(c.values()) for c in tracking_list(state, camp.pack).values())
    lines.append(Text(f"{finished}/{camp.length} games finished ({wins} won) · {playing} · NP bank {state.np_bank} "
                      f"· main scripts read {read}/{len(camp.pack.main_codes())}"))
    owned = [f"{camp.pack.items[i].name} ×{r['owned'] - r['consumed']}" for i, r in state.items.items()
             if r["owned"] - r["consumed"] > 0 and i in camp.pack.items]
    lines.append(Text("Thoth items: " + (", ".join(owned) or "none")))
    active = [n for n in state.narratives if n["state"] == "active"]
    if active:
        lines.append(Text("Narrative discoveries in progress: " + ", ".join(n["name"] for n in active)))
    inbox = [m for m in camp.messages("in") if m.kind == "message"]
    if state.partner.get("enabled"):
        waiting = sum(1 for m in inbox if m.used_in_game is None)
        lines.append(Text(f"Partner transmissions: {len(camp.messages('out'))} sent, {len(inbox)} received "
                          f"({waiting} not yet heard)"))
    if state.questionnaire:
        lines.append(questionnaire_result(state.questionnaire))
    elif camp.answers is not None:
        top = questionnaire_max(camp.pack)
        lines.append(Text(f"Questionnaire answered ({camp.own_score()}/{top}); waiting for the partner's score."))
    if camp.match is not None:
        st = camp.match.state
        lines.append(Text(f"Game {st.data.game}: journey {st.data.journey}, area {st.data.area}, "
                          f"{len(camp.match.actions)} actions played"))
    lines.append(scoreboard_table(state.scoreboard, current=camp.game_number))
    return Group(*lines)


# ---------------------------------------------------------------------------------------------- commands
def register(app: typer.Typer) -> None:
    """Add the campaign commands to ``app`` (the ``holotable kyrum`` sub-app)."""

    @app.command("new")
    def new_command(
        name: Annotated[str, typer.Argument(help="A name for the campaign (unique in the database).")],
        pack: Annotated[str, typer.Option("--pack", help="Content pack id or directory.")] = "kyrum-demo",
        seed: Annotated[int | None, typer.Option("--seed", help="Campaign seed (default: random).")] = None,
        partner: Annotated[bool, typer.Option(
            "--partner/--solo", help="Play with a Black Hole partner (chosen once, for the whole campaign)."
        )] = False,
        partner_name: Annotated[str | None, typer.Option("--partner-name", help="Your partner's name.")] = None,
        param: Annotated[list[str] | None, typer.Option(
            "--param", "-p", help="A rules option as key=value, e.g. resort_after_reroll=true (repeatable)."
        )] = None,
        database: DatabaseOption = None,
    ) -> None:
        """Create a campaign (it is played with 'holotable kyrum continue')."""
        with opened(database) as store, user_errors():
            camp = store.create(name, pack, seed=seed, partner=partner, partner_name=partner_name,
                                options=parse_params(param))
            console = out_console()
            console.print(status_renderable(camp))
            console.print(f"Created in {escape(str(store.path))}.")
            console.print(f"Play it with: holotable kyrum continue {escape(camp.name)}", soft_wrap=True)

    @app.command("list")
    def list_command(database: DatabaseOption = None) -> None:
        """List the campaigns of the database."""
        from rich import box
        from rich.table import Table

        with opened(database) as store:
            infos = store.campaigns()
            console = out_console()
            if not infos:
                console.print(f"No campaign in {escape(str(store.path))} yet; create one with "
                              "'holotable kyrum new NAME'.")
                return
            table = Table(title=f"Kyrum campaigns in {store.path}", box=box.SIMPLE_HEAVY)
            for col in ("Name", "Pack", "Partner", "Games", "NP bank", "Now", "Questionnaire"):
                table.add_column(col)
            for i in infos:
                partner = (i.partner_name or "(not linked)") if i.partner else "-"
                now = f"playing game {i.playing}" if i.playing else ("complete" if i.finished_games >= i.length
                                                                      else f"next game {i.finished_games + 1}")
                table.add_row(escape(i.name), i.pack_id, escape(partner), f"{i.finished_games}/{i.length}",
                              str(i.np_bank), now, i.questionnaire or "-")
            console.print(table)

    @app.command("status")
    def status_command(name: NameArgument = None, database: DatabaseOption = None) -> None:
        """The campaign at a glance: scoreboard, NP bank, items, partner, current game."""
        with opened(database) as store:
            camp = campaign_of(store, name)
            console = out_console()
            console.print(status_renderable(camp))
            if camp.match is not None:
                st = camp.match.state
                console.print(render_view(st.view(0), title=f"{camp.name} · game {st.data.game} · ply {st.ply}"))

    @app.command("continue")
    def continue_command(name: NameArgument = None, database: DatabaseOption = None) -> None:
        """Play: resume the game in progress, or go on to the next game of the campaign."""
        with opened(database) as store:
            camp = campaign_of(store, name)
            console = out_console()
            CampaignSession(camp, console, LineReader(console, stdin_is_interactive())).run()

    @app.command("scoreboard")
    def scoreboard_command(name: NameArgument = None, database: DatabaseOption = None) -> None:
        """The game scoreboard: game, objectives, result, NP, comment, end-of-game script."""
        from holotable.games.kyrum.terminal import scoreboard_table

        with opened(database) as store:
            camp = campaign_of(store, name)
            out_console().print(scoreboard_table(camp.state.scoreboard, current=camp.game_number))

    @app.command("tracking")
    def tracking_command(name: NameArgument = None, database: DatabaseOption = None) -> None:
        """The main-scripts tracking list (read as of the last finished game)."""
        from holotable.games.kyrum.campaign import tracking_list
        from holotable.games.kyrum.terminal import tracking_table

        with opened(database) as store:
            camp = campaign_of(store, name)
            out_console().print(tracking_table(tracking_list(camp.state, camp.pack), camp.pack))

    @app.command("comment")
    def comment_command(
        text: Annotated[str, typer.Argument(help="The comment (one line).")],
        game: Annotated[int | None, typer.Option("--game", help="Game number (default: the last finished).")] = None,
        campaign: CampaignOption = None,
        database: DatabaseOption = None,
    ) -> None:
        """Write the scoreboard comment of the last finished game (until the next game starts)."""
        with opened(database) as store:
            camp = campaign_of(store, campaign)
            camp.set_comment(text, game)
            out_console().print(f"comment of game {game or camp.state.next_game - 1} saved")

    @app.command("journal")
    def journal_command(
        text: Annotated[str, typer.Argument(help="The note.")],
        campaign: CampaignOption = None,
        database: DatabaseOption = None,
    ) -> None:
        """Add a note to the campaign journal."""
        with opened(database) as store:
            campaign_of(store, campaign).add_note(text)
            out_console().print("note saved")

    @app.command("market")
    def market_command(name: NameArgument = None, database: DatabaseOption = None) -> None:
        """The Thoth market's items, prices and what you own."""
        from holotable.games.kyrum.terminal import market_table

        with opened(database) as store:
            camp = campaign_of(store, name)
            out_console().print(market_table(camp.pack, camp.state.items, camp.state.np_bank))

    @app.command("buy")
    def buy_command(
        item: Annotated[str, typer.Argument(help="The item: t1, T01 or its name.")],
        campaign: CampaignOption = None,
        database: DatabaseOption = None,
    ) -> None:
        """Buy a Thoth item between games, paying notoriety points from the bank."""
        with opened(database) as store:
            camp = campaign_of(store, campaign)
            iid = camp.buy(item)
            out_console().print(f"bought {escape(camp.pack.items[iid].name)}; NP bank now {camp.state.np_bank}")

    @app.command("questionnaire")
    def questionnaire_command(
        name: NameArgument = None,
        answers: Annotated[str | None, typer.Option(
            "--answers", help="All answers at once, as choice numbers in question order, e.g. 1,2,3,0,2,1,0,0,1,2."
        )] = None,
        partner_score: Annotated[int | None, typer.Option(
            "--partner-score",
            help="Your Black Hole partner's questionnaire score (0 to the pack's maximum, 50 in the shipped pack).",
        )] = None,
        database: DatabaseOption = None,
    ) -> None:
        """The end-of-campaign questionnaire (after the last game): scored out of 50, shared out of 100."""
        from holotable.games.kyrum.service import questionnaire_max
        from holotable.games.kyrum.terminal import questionnaire_result, questionnaire_text

        with opened(database) as store:
            camp = campaign_of(store, name)
            console = out_console()
            if camp.state.questionnaire is not None:
                console.print(questionnaire_result(camp.state.questionnaire))
                return
            if not camp.complete:
                fail(f"the questionnaire opens after the last game ({camp.length}); "
                     f"{camp.state.next_game - 1} finished so far [KYR-CAMPAIGN-05]")
            chosen = camp.answers
            if chosen is None:
                questions = camp.pack.questionnaire["questions"]
                if answers is not None:
                    chosen = _parse_answers(answers, questions)
                else:
                    console.print(questionnaire_text(camp.pack))
                    chosen = _ask_answers(LineReader(console, stdin_is_interactive()), questions)
            result = camp.answer_questionnaire(chosen, partner_score)
            if result.questionnaire is not None:
                console.print(questionnaire_result(result.questionnaire))
            else:
                console.print(f"Answers saved: {camp.own_score()}/{questionnaire_max(camp.pack)}. Waiting for your "
                              "partner's score: "
                              "import their score code, or give --partner-score N.")
                console.print(f"Your score code for your partner: {camp.export_score_code()}")

    @app.command("link")
    def link_command(
        first: Annotated[str, typer.Argument(help="A partner-mode campaign.")],
        second: Annotated[str, typer.Argument(help="Another partner-mode campaign of the same database.")],
        database: DatabaseOption = None,
    ) -> None:
        """Link two partner campaigns of one database: Black Hole messages go straight to the other."""
        with opened(database) as store:
            store.link(first, second)
            out_console().print(f"{escape(first)} and {escape(second)} are now Black Hole partners")

    @app.command("partner")
    def partner_command(name: NameArgument = None, database: DatabaseOption = None) -> None:
        """The Black Hole partner link and every transmission sent and received."""
        with opened(database) as store:
            camp = campaign_of(store, name)
            console = out_console()
            if not camp.state.partner.get("enabled"):
                console.print("This campaign has no Black Hole partner; the Black Hole card is out of its games.")
                return
            console.print(Text(f"Partner: {camp.partner_name or '(not linked in this database)'}", style="bold"))
            for m in camp.messages():
                what = m.text if m.kind == "message" else f"questionnaire score {m.score}"
                arrow = "sent" if m.direction == "out" else f"from {m.sender}"
                heard = "" if m.direction == "out" else (
                    f" (heard from game {m.used_in_game})" if m.used_in_game else " (waiting for your next game)")
                console.print(Text(f"game {m.game} {arrow}: {what}{heard}"))

    @app.command("export-code")
    def export_command(
        name: NameArgument = None,
        score: Annotated[bool, typer.Option("--score", help="Export the questionnaire score instead.")] = False,
        every: Annotated[bool, typer.Option("--all", help="Every message sent, one code per line.")] = False,
        database: DatabaseOption = None,
    ) -> None:
        """A code for your partner: your latest Black Hole message (or --score, --all)."""
        with opened(database) as store:
            camp = campaign_of(store, name)
            if score:
                typer.echo(camp.export_score_code())
            elif every:
                for m in camp.messages("out"):
                    typer.echo(camp.export_code(m))
            else:
                typer.echo(camp.export_code())

    @app.command("import-code")
    def import_command(
        code: Annotated[str, typer.Argument(help="The code your partner gave you.")],
        campaign: CampaignOption = None,
        database: DatabaseOption = None,
    ) -> None:
        """Receive your partner's code (a Black Hole message, or their questionnaire score)."""
        with opened(database) as store:
            camp = campaign_of(store, campaign)
            msg = camp.import_code(code)
            what = f"message from {msg.sender} (their game {msg.game}): {msg.text}" if msg.kind == "message" else \
                f"questionnaire score {msg.score} from {msg.sender}"
            out_console().print(f"received {escape(what)}")


def _parse_answers(text: str, questions: Sequence[dict[str, Any]]) -> dict[str, int]:
    parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
    if len(parts) != len(questions) or not all(p.isdigit() for p in parts):
        fail(f"--answers needs {len(questions)} choice numbers separated by commas")
    return {q["id"]: int(p) for q, p in zip(questions, parts, strict=True)}


def _ask_answers(reader: LineReader, questions: Sequence[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for q in questions:
        top = len(q["choices"]) - 1
        while True:
            line = reader.ask(f"{q['id']} answer (0-{top})> ")
            if line is None:
                fail("end of input before every question was answered; nothing was recorded")
            if line.strip().isdigit() and 0 <= int(line.strip()) <= top:
                out[q["id"]] = int(line.strip())
                break
            reader.console.print(f"answer with a number from 0 to {top}")
    return out
