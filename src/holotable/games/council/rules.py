"""Black Hole Council's rules (spec ``BHC``): set-up, live negotiation, votes, Advance, deduction, Pay-Out.

Rule IDs in comments refer to the implementation spec; rejections name them.

The Negotiate phase is an *unsealed* multi-seat decision, applied action by action as it comes
(the Leader's swaps and bribes, offers, suggestions, pledges, claims and chat). It runs one of two
ways (``live_negotiation``):

* **live**, at a table with people (the default there): every seat is asked the whole time and
  may act at any moment, with no move budget, as at the physical table; it ends when the Leader
  calls the Vote or the table's clock runs out (the ``deadline`` action, sent by whoever runs the
  table: the engine has no clock);
* **ticked**, where every seat is a bot (simulations, tests; BHC-DIG-02, spec 6.5): each
  non-Leader has ``negotiation_ticks`` moves per Proposal and the Leader ``ticks x
  leader_actions_per_tick``; the Leader's last move starts the Vote, so a game is bounded.

Votes and Deduction guesses are sealed decisions resolved together.
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
    MalformedActionError,
    Outcome,
    Param,
    Period,
    Rng,
    State,
    derive_seed,
)
from holotable.engine.words import plural, seat_list, seat_name

from . import actions as A
from . import scenario as scenarios
from . import view as views
from . import words
from .actions import Act
from .data import (
    BLACK_HOLE,
    CATALOG,
    COLOURS,
    DEDUCTION_GOALS,
    OUTCOMES,
    RAINBOW,
    TAX,
    CouncilData,
    check_round_order,
    data_for,
    load_default,
)
from .scoring import payout_coins, round_points, tax_coins
from .state import ADVANCE, DEDUCE, NEGOTIATE, OVER, VOTE, BHCData

DATA: CouncilData = load_default()
BHC = State[BHCData, Act]
#: Coins per collection in Deduction Rounds 1, 2, 3 (BHC-DED-07, BHC-DED-3-02).
DEDUCTION_COINS = (1, 1, 2)


def _param(name: str, kind: str, doc: str, **kw: Any) -> Param:
    value, record, choices = DATA.assumed[name]
    if kind == "list" and value is not None:
        value = tuple(value)
    return Param(name, value, kind, doc, choices=choices, assumed=record, **kw)


def _max_length() -> int:
    """Most decisions in a game with the default parameters (BHC-DIG-02: negotiation is bounded).

    Per Proposal: every non-Leader's negotiation moves, the Leader's, the call (or deadline)
    and the votes; at most 18 Proposals; then one Advance turn per seat in six rounds and one
    guess per seat in three Deduction Rounds.
    """
    n: int = DATA.default("max_players")
    ticks: int = DATA.default("negotiation_ticks")
    per_tick: int = DATA.default("leader_actions_per_tick")
    per_proposal = (n - 1) * ticks + ticks * per_tick + 1 + (n - 1)
    return 18 * per_proposal + 6 * n + 3 * n


SPEC = GameSpec(
    name="council",
    title="Black Hole Council",
    min_players=DATA.default("min_players"),
    max_players=DATA.default("max_players"),
    default_players=5,
    data=CATALOG,
    dynamics=Dynamics.SIMULTANEOUS,
    chance=Chance.SAMPLED,
    information=Information.IMPERFECT,
    rule_prefix="BHC",
    description="Negotiate the fate of planets, vote, bribe and deduce your neighbours' secret agendas.",
    max_game_length=_max_length(),
    params=(
        _param("first_leader", "int", "the first Leader; empty = seeded random seat", optional=True, minimum=0,
               label="First Leader"),
        _param("track_costs", "list", "points to move from each Influence Track space to the next",
               label="Influence Track step costs"),
        _param("round_order", "str", "the Round Track: N = Negotiation, D = Deduction, P = Pay-Out",
               label="Order of the rounds",
               choice_labels=("Deduction after every two Negotiations", "Six Negotiations, then three Deductions",
                              "Alternating, then three Negotiations")),
        _param("bribe_increment", "int", "coins added to the Bribe Space per failed Proposal",
               label="Bribe added per failed Proposal", choice_labels=("1 coin", "2 coins")),
        _param("negotiation_seconds", "int", "the negotiation timer of human tables; 0 = no clock (bots only)",
               minimum=0, maximum=3600, label="Negotiation timer in seconds"),
        _param("negotiation_ticks", "int", "negotiation moves per non-Leader per Proposal", minimum=1, maximum=1000,
               label="Negotiation moves per Proposal"),
        _param("leader_actions_per_tick", "int", "in bot-only play, the Leader's moves for each move of the others "
               "(so the Leader has this many times the others' moves in each Proposal)",
               minimum=1, maximum=1000, label="Leader's move multiplier"),
        _param("chat_max_chars", "int", "longest chat message", minimum=1, maximum=A.CHAT_PARSE_MAX,
               label="Longest chat message (letters)"),
        Param("live_negotiation", False, "bool", "everyone negotiates whenever they like, with no limit on "
              "moves (tables with people); off: turns in small steps with a few moves each (bot-only tables)",
              table_default=True,
              label="Negotiate freely at any moment"),
        _param("house_timeouts", "bool", "a seat that runs out of time gets the house's default move: "
               "votes Fail, gets paid without Intrigue, guesses a colour at random; the Leader calls the Vote",
               label="Use house timeouts"),
    ),
)


def talk_record(d: BHCData, seat: int, action: Act) -> dict[str, Any]:
    """The public record of one piece of table talk: ``seat``, ``text`` (the action's text), ``kind``,
    ``table`` (the arrangement it was said on) and, where they apply, ``wants`` (the arrangement a
    suggestion or conditional pledge asks for), ``vote`` (a pledge's "pass" or "fail"), ``coins``
    (a request) and ``about``/``outcome``/``colour`` (a claim).

    >>> d = BHCData(3, "NNDNNDNNDP", (2,), 0, 0, table=["A", "B", "C", "D", "E"])
    >>> talk_record(d, 1, A.pledge(True, swap_of=(0, 1)))["wants"]
    ['B', 'A', 'C', 'D', 'E']
    """
    kind = action.kind
    out: dict[str, Any] = {"seat": seat, "text": "done" if kind == A.DONE else str(action), "kind": kind,
                           "table": list(d.table)}
    if kind == A.SUGGEST or (kind == A.PLEDGE and action.b == A.IF_SWAP):
        i, j = (action.a, action.b) if kind == A.SUGGEST else A.PAIRS[action.c]
        wants = list(d.table)
        wants[i], wants[j] = wants[j], wants[i]
        out["wants"] = wants
    elif kind in (A.SUGGEST_TABLE, A.PLEDGE):
        out["wants"] = A.planets_of(action)
    if kind in (A.SUPPORT, A.OPPOSE, A.PLEDGE):
        out["vote"] = "fail" if kind == A.OPPOSE or (kind == A.PLEDGE and not action.a) else "pass"
        out.setdefault("wants", list(d.table))
    elif kind == A.ASK:
        out["coins"] = action.b
    elif kind == A.CLAIM:
        out.update(about=action.a, outcome=OUTCOMES[action.b], colour=COLOURS[action.c])
    return out


def left(seat: int, n: int) -> int:
    """The next seat clockwise (BHC-PLAYERS-02, BHC-AMB-09)."""
    return (seat + 1) % n


def right(seat: int, n: int) -> int:
    return (seat - 1) % n


def clockwise_from(seat: int, n: int) -> list[int]:
    return [(seat + i) % n for i in range(n)]


_TALK: dict[int, tuple[Act, ...]] = {}
#: Conditional pledges on one swap (the ones with an integer index); on a whole table they are typed.
_PLEDGES = tuple(A.pledge(passes, swap_of=pair) for passes in (True, False) for pair in A.PAIRS)


def _talk_actions(n: int) -> tuple[Act, ...]:
    """Suggestions and claims open to everyone in Negotiate (built once per table size)."""
    if n not in _TALK:
        claims = [A.claim(s, o, c) for s in range(n) for o in range(5) for c in range(5)]
        _TALK[n] = (*[A.suggest(i, j) for i, j in A.PAIRS], *claims)
    return _TALK[n]


class BlackHoleCouncil(Game[BHCData, Act]):
    spec: ClassVar[GameSpec] = SPEC
    data = DATA

    # ------------------------------------------------------------------ set-up (BHC-SETUP)
    def setup(self, config: Config, rng: Rng) -> BHCData:
        n = config.players
        costs = tuple(config["track_costs"])
        if not costs or not all(isinstance(c, int) and c >= 1 for c in costs):
            raise ConfigError(f"track_costs must be whole numbers >= 1, got {list(costs)}")
        try:
            order = check_round_order(config["round_order"])
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        if config["bribe_increment"] < 1 or 1 + 2 * config["bribe_increment"] > A.MAX_BRIBE:
            raise ConfigError(f"bribe_increment must be 1..{(A.MAX_BRIBE - 1) // 2}")
        first = config["first_leader"]
        if first is not None and first >= n:
            raise ConfigError(f"first_leader {first} is not a seat of a {n}-player game")
        data = data_for(config)  # the shipped data with this configuration's overrides
        deck = [p.id for p in data.planets]
        rng.shuffle(deck)  # BHC-SETUP-03
        agendas = list(range(len(data.agendas)))
        rng.shuffle(agendas)  # BHC-SETUP-04: the undealt ones are simply never stored
        pool = [kind for kind, count in enumerate(data.intrigue_counts) for _ in range(count)]
        rng.shuffle(pool)  # BHC-SETUP-05
        leader = rng.randrange(n) if first is None else first  # BHC-SETUP-08 / BHC-AMB-10
        d = BHCData(
            players=n,
            order=order,
            costs=costs,
            first_leader=leader,
            leader=leader,
            positions=[1] * n,  # BHC-SETUP-01
            banks=[1] * n,  # BHC-SETUP-07
            stock=-n,  # the ledger issued the n starting coins (BHC-INV-01)
            pending=[0] * n,
            deck=deck,
            agendas=agendas[:n],
            intrigue=pool[:n],
            intrigue_played=[-1] * n,
            talk_used=[0] * n,
        )
        self._start_round(d, None)
        return d

    def copy_data(self, data: BHCData) -> BHCData:
        return data.copy()

    def arrange(self, st: BHC, arrangement: Mapping[str, Any]) -> None:
        """Scenario starts (see scenario.py): positions, banks, cards, deck and history."""
        scenarios.arrange(st, arrangement)

    # ------------------------------------------------------------------ flow
    def to_move(self, st: BHC) -> tuple[int, ...]:
        d = st.data
        n = d.players
        if d.phase == NEGOTIATE:
            if st.config["live_negotiation"]:
                return tuple(range(n))  # everyone may speak at any moment (BHC-NEG-02)
            cap = st.config["negotiation_ticks"]
            return tuple(s for s in range(n) if s == d.leader or d.talk_used[s] < cap)
        if d.phase == VOTE:
            return tuple(s for s in range(n) if s != d.leader)  # BHC-VOTE-01
        if d.phase == ADVANCE:
            return (d.turn_order[d.turn_index],)
        if d.phase == DEDUCE:
            return tuple(range(n))  # BHC-DED-01
        return ()

    def sealed(self, st: BHC) -> bool:
        return st.data.phase in (VOTE, DEDUCE)

    def is_action(self, action: object) -> bool:
        return A.is_act(action)

    def leader_cap(self, config: Config) -> int:
        return int(config["negotiation_ticks"] * config["leader_actions_per_tick"])

    def decision_key(self, st: BHC, seat: int) -> Any:
        """What a seat's Negotiate decision rests on: the Proposal and the arrangement. Talk, offers and
        bribes of other seats leave it as it was, so an action chosen before them still counts (a
        suggestion made on an arrangement the Leader has since changed does not). Elsewhere the engine's
        default: the ply the decision opened at (a sealed vote or guess of another seat leaves it)."""
        d = st.data
        if d.phase == NEGOTIATE and st.config["live_negotiation"]:
            return (d.proposals_made, tuple(d.table))
        return super().decision_key(st, seat)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, st: BHC, seat: int) -> Sequence[Act]:
        d = st.data
        if d.phase == NEGOTIATE:
            return self._negotiation_actions(st, seat)
        if d.phase == VOTE:
            return (A.VOTE_PASS, A.VOTE_FAIL) if seat != d.leader else ()
        if d.phase == ADVANCE:
            return self._advance_actions(st, seat) if seat == d.turn_order[d.turn_index] else ()
        if d.phase == DEDUCE:
            dirs = {1: (0,), 2: (1,)}.get(d.deduction_round, (0, 1))  # BHC-DED-1-01, 2-01, 3-01
            return tuple(A.guess(c, r) for c in range(5) for r in dirs)
        return ()

    def _negotiation_actions(self, st: BHC, seat: int) -> list[Act]:
        d = st.data
        n = d.players
        out: list[Act] = []
        if seat == d.leader:
            out.append(A.CALL_VOTE)
            out += [A.swap(i, j) for i, j in A.PAIRS]
            for target in range(n):
                if target != seat and target != d.accepted_from:
                    out += [A.bribe(target, k) for k in range(1, min(d.bribe_space, A.MAX_BRIBE) + 1)]
            if d.accepted_from < 0:
                out += [A.accept(s) for s in d.offers if s not in d.bribed and d.banks[s] >= 1]
        else:
            if seat in d.offers:
                out.append(A.WITHDRAW_ACT)
            elif d.accepted_from < 0 and d.banks[seat] >= 1:
                out.append(A.OFFER_ACT)
            out += [A.DONE_ACT, A.SUPPORT_ACT, A.OPPOSE_ACT]
            out += [A.ask(k) for k in range(1, A.MAX_BRIBE + 1)]
            out += _PLEDGES
        out += _talk_actions(n)
        return out

    def points(self, d: BHCData, seat: int, intrigue: bool = False, data: CouncilData = DATA) -> int:
        """``seat``'s points for the table now, with its Intrigue card if ``intrigue`` (BHC-ADV-14);
        ``data`` is the game's data with its configuration's overrides (``data_for(st.config)``)."""
        kind = d.intrigue[seat] if intrigue else None
        return round_points(data, data.agendas[d.agendas[seat]], d.table, kind, d.failed)

    def _advance_actions(self, st: BHC, seat: int) -> list[Act]:
        d = st.data
        out: list[Act] = []
        options = (False, True) if d.intrigue_played[seat] < 0 else (False,)
        at_end = d.positions[seat] >= d.track_end
        cost = d.cost(seat)
        bank = d.banks[seat]
        for play in options:
            out.append(A.advance(A.PAID, 0, play))
            if at_end:
                continue  # BHC-ADV-11
            pts = self.points(d, seat, play, data_for(st.config))
            if pts >= cost:
                out.append(A.advance(A.NATURAL, 0, play))
            low = max(1, cost - pts)
            out += [A.advance(A.PAY, c, play) for c in range(low, min(bank, A.PAY_MAX) + 1)]
        return out

    # ------------------------------------------------------------------ checks
    def check(self, st: BHC, seat: int, action: Act) -> None:
        d = st.data
        kind = action.kind
        if d.phase == NEGOTIATE:
            self._check_negotiation(st, seat, action)
        elif d.phase == VOTE:
            if kind != A.VOTE:
                rule = "BHC-BRIBE-01" if kind in (A.BRIBE, A.ACCEPT, A.OFFER, A.WITHDRAW) else "BHC-NEG-06"
                raise IllegalActionError("the Vote has been called: only votes now", rule=rule)
        elif d.phase == ADVANCE:
            self._check_advance(st, seat, action)
        elif d.phase == DEDUCE:
            self._check_guess(d, action)
        else:  # pragma: no cover - the engine refuses moves after the end
            raise IllegalActionError("the game is over")

    def _check_negotiation(self, st: BHC, seat: int, action: Act) -> None:
        d = st.data
        n = d.players
        kind = action.kind
        leader = seat == d.leader
        if kind == A.DEADLINE:
            if not st.config["negotiation_seconds"]:
                raise IllegalActionError("this table has no negotiation clock (bot-only play)", rule="BHC-DIG-02")
            return
        if kind in A.LEADER_KINDS and not leader:
            rule = {A.SWAP: "BHC-NEG-01", A.CALL: "BHC-NEG-05"}.get(kind, "BHC-BRIBE-02")
            raise IllegalActionError("only the Leader may do that", rule=rule)
        if kind == A.BRIBE:
            target, coins = action.a, action.b
            if target >= n or target == seat:
                raise IllegalActionError("the Leader bribes another player, never themself", rule="BHC-BRIBE-03")
            if target == d.accepted_from:
                raise IllegalActionError("the Leader accepted this player's bribe", rule="BHC-BRIBE-10")
            if not 1 <= coins <= d.bribe_space:
                raise IllegalActionError(f"the Bribe Space holds {plural(d.bribe_space, 'coin')}", rule="BHC-BRIBE-04")
        elif kind == A.ACCEPT:
            giver = action.a
            if giver >= n or giver not in d.offers:
                raise IllegalActionError(f"seat {giver} has no open offer", rule="BHC-BRIBE-07")
            if d.accepted_from >= 0:
                raise IllegalActionError("the Leader accepts one bribe per Proposal", rule="BHC-BRIBE-08")
            if giver in d.bribed:
                raise IllegalActionError("the Leader bribed this player this Proposal", rule="BHC-BRIBE-10")
            if d.banks[giver] < 1:
                raise IllegalActionError("that player's Bank is empty", rule="BHC-BRIBE-09")
        elif kind == A.OFFER:
            if leader:
                raise IllegalActionError("the Leader cannot offer a bribe to themself", rule="BHC-BRIBE-07")
            if d.accepted_from >= 0:
                raise IllegalActionError("the Leader has already accepted a bribe", rule="BHC-BRIBE-08")
            if seat in d.offers:
                raise IllegalActionError("you already have an open offer", rule="BHC-BRIBE-07")
            if d.banks[seat] < 1:  # pending coins cannot be offered (BHC-BRIBE-11)
                raise IllegalActionError("an offer needs a coin on your Bank", rule="BHC-BRIBE-11")
        elif kind == A.WITHDRAW:
            if seat not in d.offers:
                raise IllegalActionError("you have no open offer", rule="BHC-BRIBE-07")
        elif kind in (A.SUGGEST_TABLE, A.PLEDGE):
            if kind == A.PLEDGE and leader:
                raise IllegalActionError("the Leader does not vote", rule="BHC-VOTE-02")
            named = A.planets_of(action)
            if named and sorted(named) != sorted(d.table):
                raise IllegalActionError("an arrangement uses the five planets on the table: "
                                         + ", ".join(d.table), rule="BHC-NEG-04")
            if kind == A.PLEDGE and action.b == A.IF_SWAP and not 0 <= action.c < len(A.PAIRS):
                raise IllegalActionError("no such swap", rule="BHC-NEG-02")
        elif kind in (A.SUPPORT, A.OPPOSE, A.ASK, A.DONE):
            if leader and kind == A.DONE:
                raise IllegalActionError("the Leader ends Negotiate by calling the Vote", rule="BHC-NEG-05")
            if leader:
                raise IllegalActionError("the Leader does not vote", rule="BHC-VOTE-02")
            if kind == A.ASK and not 1 <= action.b <= A.MAX_BRIBE:
                raise IllegalActionError(f"ask for 1..{A.MAX_BRIBE} coins", rule="BHC-NEG-02")
        elif kind == A.CLAIM:
            if action.a >= n:
                raise IllegalActionError(f"there is no seat {action.a}", rule="BHC-INFO-02")
        elif kind == A.CHAT:
            limit = st.config["chat_max_chars"]
            if len(action.text) > limit:
                raise IllegalActionError(f"a chat message is at most {limit} characters", rule="BHC-INFO-02")
        elif kind not in (A.SWAP, A.CALL, A.SUGGEST):
            rule = "BHC-INTRIGUE-02" if kind in A.ADVANCE_KINDS else "BHC-INV-23"
            raise IllegalActionError(f"{kind!r} is not a negotiation action", rule=rule)
        if st.config["live_negotiation"]:
            return  # no move budget at a live table
        cap = self.leader_cap(st.config) if leader else st.config["negotiation_ticks"]
        if kind != A.CALL and d.talk_used[seat] >= cap:  # pragma: no cover - such a seat is not asked
            raise IllegalActionError("no negotiation moves left this Proposal", rule="BHC-DIG-02")

    def _check_advance(self, st: BHC, seat: int, action: Act) -> None:
        d = st.data
        kind = action.kind
        if kind not in A.ADVANCE_KINDS:
            raise IllegalActionError("it is the Advance phase: natural, pay N or get paid", rule="BHC-ADV-01")
        play = bool(action.b)
        if play and d.intrigue_played[seat] >= 0:
            raise IllegalActionError("you have already used your Intrigue card", rule="BHC-INTRIGUE-01")
        if kind == A.PAID:
            return  # BHC-ADV-06
        if d.positions[seat] >= d.track_end:
            raise IllegalActionError("you are on the last space: you can only get paid", rule="BHC-ADV-11")
        cost = d.cost(seat)
        pts = self.points(d, seat, play, data_for(st.config))
        if kind == A.NATURAL and pts < cost:
            raise IllegalActionError(f"you need {cost} points to advance naturally", rule="BHC-ADV-03")
        if kind == A.PAY:
            coins = action.a
            if coins > d.banks[seat]:
                raise IllegalActionError(f"your Bank holds {d.banks[seat]} coins", rule="BHC-ADV-04")
            if pts + coins < cost:
                raise IllegalActionError(f"points and coins must reach {cost}", rule="BHC-ADV-08")

    def _check_guess(self, d: BHCData, action: Act) -> None:
        if action.kind != A.GUESS:
            rule = "BHC-INTRIGUE-06" if action.kind in A.ADVANCE_KINDS else "BHC-DED-02"
            raise IllegalActionError("it is a Deduction Round: guess a colour", rule=rule)
        number = d.deduction_round
        if number == 1 and action.b != 0:
            raise IllegalActionError("the 1st Deduction guesses the left neighbour", rule="BHC-DED-1-01")
        if number == 2 and action.b != 1:
            raise IllegalActionError("the 2nd Deduction guesses the right neighbour", rule="BHC-DED-2-01")

    # ------------------------------------------------------------------ negotiation (BHC-NEG, BHC-BRIBE)
    def apply(self, st: BHC, seat: int, action: Act) -> None:
        d = st.data
        if d.phase == ADVANCE:
            self._advance_turn(st, seat, action)
            return
        kind = action.kind
        if kind == A.DEADLINE:
            self._emit(st, "deadline", "The negotiation timer has run out")
            self._end_negotiation(st)
            return
        if kind == A.CALL:
            self._emit(st, "call_vote", f"{seat_name(seat)} calls for the Vote")
            self._end_negotiation(st)
            return
        live = st.config["live_negotiation"]
        if not live:
            d.talk_used[seat] += 1
        if kind == A.SWAP:
            d.table[action.a], d.table[action.b] = d.table[action.b], d.table[action.a]  # BHC-NEG-03
            d.swaps = [*d.swaps, [action.a, action.b]]
            titles = words.OUTCOME_TITLES
            self._emit(st, "arrangement", f"The Leader swaps {titles[OUTCOMES[action.a]]} and "
                       f"{titles[OUTCOMES[action.b]]}", table=list(d.table), outcomes=[action.a, action.b])
        elif kind == A.BRIBE:
            d.bribe_space -= action.b  # BHC-BRIBE-02/03
            d.pending[action.a] += action.b
            if action.a not in d.bribed:
                d.bribed = sorted([*d.bribed, action.a])
            self._emit(st, "bribe", f"The Leader bribes {seat_name(action.a)} with {plural(action.b, 'coin')}")
        elif kind == A.ACCEPT:
            giver = action.a
            d.banks[giver] -= 1  # BHC-BRIBE-09
            d.accepted_from = giver
            d.offers = []  # BHC-AMB-16d
            self._emit(st, "accept", f"The Leader accepts {seat_name(giver)}'s 1-coin bribe")
        elif kind == A.OFFER:
            d.offers = sorted([*d.offers, seat])
            self._emit(st, "offer", f"{seat_name(seat)} offers the Leader a 1-coin bribe")
        elif kind == A.WITHDRAW:
            d.offers = [s for s in d.offers if s != seat]
            self._emit(st, "withdraw", f"{seat_name(seat)} withdraws their offer")
        elif kind == A.DONE:  # ticked: the seat gives up its remaining moves; live: it says so, and may speak again
            if not live:
                d.talk_used[seat] = st.config["negotiation_ticks"]
            d.talk = [*d.talk, talk_record(d, seat, action)]
            self._emit(st, "talk", f"{seat_name(seat)} has nothing more to say", seat=seat)
        else:  # table talk: recorded for everyone, changes nothing (BHC-NEG-02, BHC-INFO-02)
            entry = talk_record(d, seat, action)
            d.talk = [*d.talk, entry]
            self._emit(st, "talk", words.talk_line(entry, planet=lambda pid: _planet_words(st, pid)), seat=seat,
                       talk=entry)
        if not live and seat == d.leader and d.talk_used[seat] >= self.leader_cap(st.config):
            self._emit(st, "negotiation_over", "The Leader has no negotiation moves left")
            self._end_negotiation(st)

    def _end_negotiation(self, st: BHC) -> None:
        d = st.data
        d.phase = VOTE  # BHC-NEG-05/06: the arrangement and bribes are frozen
        d.offers = []  # BHC-AMB-16f: open offers lapse

    # ------------------------------------------------------------------ the Vote (BHC-VOTE, BHC-FAIL, BHC-FAIL3)
    def resolve(self, st: BHC, actions: Mapping[int, Act]) -> None:
        if st.data.phase == DEDUCE:
            self._resolve_deduction(st, actions)
        else:
            self._resolve_vote(st, actions)

    def _resolve_vote(self, st: BHC, actions: Mapping[int, Act]) -> None:
        d = st.data
        n = d.players
        ballots: list[str | None] = [None] * n
        for s, act in actions.items():
            ballots[s] = "pass" if act.a else "fail"
        passes = sum(1 for b in ballots if b == "pass")
        approved = 2 * passes > n - 1  # BHC-VOTE-04/05: a tie fails
        d.votes = [*d.votes, {"round": d.negotiation_round, "proposal": d.proposal, "leader": d.leader,
                              "table": list(d.table), "votes": ballots, "approved": approved}]
        self._emit(st, "vote", f"Proposal {d.proposal}: {passes} Pass, {n - 1 - passes} Fail: "
                   + ("Approved" if approved else "Failed"), votes=ballots, approved=approved)
        if approved:
            for s in range(n):  # BHC-BRIBE-12
                d.banks[s] += d.pending[s]
                d.pending[s] = 0
            if d.accepted_from >= 0:
                d.banks[d.leader] += 1
                d.accepted_from = -1
            d.phase = ADVANCE  # BHC-ADV-01
            d.turn_order = clockwise_from(d.leader, n)
            d.turn_index = 0
            return
        self._return_bribes(d)  # BHC-BRIBE-13 / BHC-FAIL-02 / BHC-FAIL3-04
        if d.proposal < 3:
            self._failed_vote(st)
            return
        for s, ballot in enumerate(ballots):  # BHC-FAIL3-03
            if ballot == "pass":
                d.banks[s] += 1
                d.stock -= 1
        # BHC-FAIL3-01/05, BHC-CHRON-02: five face-down cards (the ids stay in the full state only).
        d.history = [*d.history, {"round": d.negotiation_round, "written_off": True, "planets": list(d.table),
                                  "proposal": 3, "failed": d.failed}]
        d.table = []
        self._emit(st, "written_off", "The third vote failed: the planets are written off")
        self._chronicle_end(st)

    @staticmethod
    def _return_bribes(d: BHCData) -> None:
        d.bribe_space += sum(d.pending)
        d.pending = [0] * d.players
        if d.accepted_from >= 0:
            d.banks[d.accepted_from] += 1
            d.accepted_from = -1

    def _failed_vote(self, st: BHC) -> None:
        d = st.data
        inc = st.config["bribe_increment"]
        d.bribe_space += inc  # BHC-FAIL-03
        d.stock -= inc
        d.failed += 1
        d.proposal += 1  # BHC-FAIL-04
        d.leader = left(d.leader, d.players)  # BHC-FAIL-05
        gone = d.table[BLACK_HOLE]  # BHC-FAIL-06: to the bottom of the deck; its identity is public
        d.deck.append(gone)
        d.deck_known += 1
        d.discards = [*d.discards, {"round": d.negotiation_round, "proposal": d.proposal - 1, "planet": gone}]
        d.table[BLACK_HOLE] = self._draw(d)  # BHC-FAIL-07
        st.reveal()
        self._emit(st, "replace", f"The {_planet_words(st, gone)} leaves Black Hole; the "
                   f"{_planet_words(st, d.table[BLACK_HOLE])} takes its place",
                   table=list(d.table))
        self._new_proposal(d)  # BHC-FAIL-08

    @staticmethod
    def _draw(d: BHCData) -> str:
        if d.deck_known >= len(d.deck):  # only public cards are left: the next one drawn is known
            d.deck_known -= 1
        return d.deck.pop(0)

    # ------------------------------------------------------------------ Advance (BHC-ADV, BHC-INTRIGUE)
    def _advance_turn(self, st: BHC, seat: int, action: Act) -> None:
        d = st.data
        play = bool(action.b)
        kind_played = d.intrigue[seat] if play else None
        cost = d.cost(seat)
        start = d.positions[seat]
        coins = 0
        if action.kind == A.PAID:
            coins = 1  # BHC-ADV-06
            if kind_played == TAX:
                coins += tax_coins(data_for(st.config), d.table)  # BHC-INTRIGUE-TAX-01
            d.banks[seat] += coins
            d.stock -= coins
        else:
            if action.kind == A.PAY:  # BHC-ADV-04/05
                d.banks[seat] -= action.a
                d.stock += action.a
            d.positions[seat] += 1  # BHC-ADV-07: one space at most
        if play:
            d.intrigue_played[seat] = d.negotiation_round  # BHC-INTRIGUE-03
        if play or action.kind != A.PAID:
            # An Intrigue card is shown; advancing tells the table the seat's points (with coins) reach the cost.
            st.reveal()
        record: dict[str, Any] = {"round": d.negotiation_round, "seat": seat, "choice": action.kind,
                  "coins": action.a if action.kind == A.PAY else 0, "collected": coins,
                  "intrigue": None if kind_played is None else OUTCOMES[kind_played], "cost": cost, "from": start}
        d.advances = [*d.advances, record]
        self._emit(st, "advance", self._advance_text(seat, action, kind_played), **record)
        d.turn_index += 1
        if d.turn_index >= len(d.turn_order):
            d.history = [*d.history, {"round": d.negotiation_round, "written_off": False, "planets": list(d.table),
                                      "proposal": d.proposal, "failed": d.failed}]  # BHC-CHRON-01
            d.table = []
            d.turn_order = []
            d.turn_index = 0
            self._chronicle_end(st)

    @staticmethod
    def _advance_text(seat: int, action: Act, kind: int | None) -> str:
        card = "" if kind is None else f", playing the {OUTCOMES[kind]} Intrigue card"
        if action.kind == A.NATURAL:
            return f"{seat_name(seat)} advances naturally{card}"
        if action.kind == A.PAY:
            return f"{seat_name(seat)} advances, paying {plural(action.a, 'coin')}{card}"
        return f"{seat_name(seat)} gets paid{card}"

    # ------------------------------------------------------------------ rounds (BHC-FLOW, BHC-LEADER)
    def _chronicle_end(self, st: BHC) -> None:
        d = st.data
        d.leader = left(d.leader, d.players)  # BHC-LEADER-01
        d.proposal = 1
        d.failed = 0
        d.round += 1  # BHC-FLOW-03
        self._start_round(d, st)

    def _start_round(self, d: BHCData, st: BHC | None) -> None:
        kind = d.round_kind
        if kind == "N":
            d.negotiation_round += 1
            d.stock += d.bribe_space - 1  # BHC-NEG-PREP-01: exactly 1 coin on the Bribe Space
            d.bribe_space = 1
            d.table = [self._draw(d) for _ in range(5)]  # BHC-NEG-PREP-02
            self._new_proposal(d)
            if st is not None:
                st.reveal()  # five planets turned up from the deck
                planets = ", ".join(_planet_words(st, pid) for pid in d.table)
                self._emit(st, "prepare", f"Negotiation Round {d.negotiation_round}: {planets}",
                           table=list(d.table))
        elif kind == "D":
            d.deduction_round += 1
            d.phase = DEDUCE
        else:
            self._payout(d, st)

    @staticmethod
    def _new_proposal(d: BHCData) -> None:
        d.proposals_made += 1
        d.phase = NEGOTIATE
        d.offers = []
        d.bribed = []
        d.accepted_from = -1
        d.talk_used = [0] * d.players
        d.talk = []
        d.swaps = []

    # ------------------------------------------------------------------ Deduction (BHC-DED)
    def _resolve_deduction(self, st: BHC, actions: Mapping[int, Act]) -> None:
        d = st.data
        n = d.players
        number = d.deduction_round
        pay = DEDUCTION_COINS[min(number, 3) - 1]
        records: list[dict[str, Any]] = []
        for guesser in clockwise_from(d.leader, n):  # BHC-DED-05
            act = actions[guesser]
            target = left(guesser, n) if act.b == 0 else right(guesser, n)
            goals = data_for(st.config).agendas[d.agendas[target]]
            correct = goals[act.a] in DEDUCTION_GOALS[min(number, 3) - 1]  # BHC-DED-1-02, 2-02, 3-02
            winner = guesser if correct else target  # BHC-DED-07
            d.banks[winner] += pay
            d.stock -= pay
            records.append({"deduction": number, "guesser": guesser, "target": target, "colour": COLOURS[act.a],
                            "correct": correct, "coins": pay, "paid": winner})
            self._emit(st, "deduction", f"{seat_name(guesser)} guessed {seat_name(target)}: "
                       + ("right" if correct else "wrong"), guesser=guesser, target=target, correct=correct)
            self._emit(st, "deduction_card",
                       f"{seat_name(guesser)}'s card for {seat_name(target)} shows {COLOURS[act.a]}",
                       to=frozenset((guesser, target)))
        d.deductions = [*d.deductions, records]
        d.round += 1
        self._start_round(d, st)

    # ------------------------------------------------------------------ Pay-Out (BHC-PAYOUT, BHC-FINAL)
    def _payout(self, d: BHCData, st: BHC | None) -> None:
        n = d.players
        d.stock += d.bribe_space  # BHC-AMB-15: leftovers go back to the Stock
        d.bribe_space = 0
        sets = [None if s["written_off"] else s["planets"] for s in d.history]
        d.payout = [0] * n
        d.final_moves = [0] * n
        data = DATA if st is None else data_for(st.config)
        for seat in clockwise_from(d.leader, n):  # BHC-PAYOUT-01, BHC-AMB-37
            coins = payout_coins(data, data.agendas[d.agendas[seat]], sets)
            d.payout[seat] = coins
            d.banks[seat] += coins
            d.stock -= coins
        for seat in clockwise_from(d.leader, n):  # BHC-FINAL-01..04: compulsory and greedy
            while d.positions[seat] < d.track_end and d.banks[seat] >= d.cost(seat):
                cost = d.cost(seat)
                d.banks[seat] -= cost
                d.stock += cost
                d.positions[seat] += 1
                d.final_moves[seat] += 1
        d.phase = OVER
        d.over = True
        if st is not None:
            st.reveal()  # every Agenda is shown
            self._emit(st, "payout", f"Pay-Out {d.payout}; final positions {d.positions}, coins {d.banks}")

    # ------------------------------------------------------------------ end (BHC-WIN)
    def is_terminal(self, st: BHC) -> bool:
        return st.data.over

    def outcome(self, st: BHC) -> Outcome:
        d = st.data
        keys = [(d.positions[s], d.banks[s]) for s in range(d.players)]  # BHC-WIN-01/02
        ranks = Outcome.ranks_from_keys(keys)
        winners = [s for s, r in enumerate(ranks) if r == 1]
        best = keys[winners[0]]
        # BHC-WIN-03
        who = f"{seat_list(winners)} share the win" if len(winners) > 1 else f"{seat_name(winners[0])} wins"
        return Outcome(
            scores=tuple(float(p) for p in d.positions),
            ranks=ranks,
            reason=f"{who} on space {best[0]} with {plural(best[1], 'coin')}",
            details={"positions": list(d.positions), "banks": list(d.banks), "payout": list(d.payout),
                     "agendas": [data_for(st.config).agenda_ids[a] for a in d.agendas]},
        )

    # ------------------------------------------------------------------ information
    def view(self, st: BHC, seat: int | None) -> dict[str, Any]:
        return views.view(st, seat)

    def full(self, st: BHC) -> dict[str, Any]:
        """Everything, with each seat's points for the table (scenarios check them)."""
        d = st.data
        out = d.to_dict()
        live = len(d.table) == 5
        data = data_for(st.config)
        out["points"] = [self.points(d, s, False, data) for s in range(d.players)] if live else None
        out["points_with_intrigue"] = [self.points(d, s, True, data) for s in range(d.players)] if live else None
        return out

    def determinize(self, st: BHC, seat: int, rng: Rng) -> None:
        views.determinize(st, seat, rng)

    # ------------------------------------------------------------------ actions
    def action_to_str(self, action: Act) -> str:
        return str(action)

    def parse_action(self, text: str) -> Act:
        return A.parse(text)

    def num_actions(self, config: Config) -> int:
        return len(A.SPACE)

    def action_index(self, action: Act) -> int:
        return A.index_of(action)

    def index_action(self, index: int) -> Act:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(A.SPACE):
            raise MalformedActionError(f"action index must be 0..{len(A.SPACE) - 1}, got {index!r}")
        return A.SPACE[index]

    # ------------------------------------------------------------------ timed play
    def period(self, st: BHC) -> Period | None:
        """The timed Negotiate phase (BHC-DIG-01): one period per Proposal, named by the game-wide
        Proposal count, so the timer restarts in full for each (BHC-FAIL-08); once it is over the
        table sends ``deadline`` (BHC-NEG-05). ``None`` outside Negotiate and on a table without a
        clock (``negotiation_seconds=0``, bot-only play, BHC-DIG-02)."""
        d = st.data
        seconds = st.config["negotiation_seconds"]
        if d.phase != NEGOTIATE or not seconds or d.over:
            return None
        return Period(("proposal", d.proposals_made), float(seconds), str(A.DEADLINE_ACT))

    def timeout_action(self, st: BHC, seat: int) -> Act:
        """The house default for a seat that ran out of time (BHC-DIG-03 / BHC-AMB-34), when the table
        enables ``house_timeouts``: vote Fail; Get Paid without Intrigue; a seeded random colour (left in
        D3); in Negotiate the Leader's call for the Vote (the table's clock itself sends ``deadline``).
        """
        d = st.data
        if not st.config["house_timeouts"]:
            raise IllegalActionError("this table has no house timeouts", rule="BHC-DIG-03")
        if seat not in self.to_move(st):
            raise IllegalActionError(f"seat {seat} owes no decision now", rule="BHC-DIG-03")
        if d.phase == VOTE:
            return A.VOTE_FAIL
        if d.phase == ADVANCE:
            return A.advance(A.PAID)
        if d.phase == DEDUCE:
            colour = Rng(derive_seed(st.seed, st.ply, seat, "timeout")).randrange(5)  # BHC-DIG-04
            return A.guess(colour, 1 if d.deduction_round == 2 else 0)
        if seat != d.leader:
            raise IllegalActionError("only the Leader owes the call for the Vote", rule="BHC-DIG-03")
        return A.CALL_VOTE

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _emit(st: BHC | None, kind: str, text: str, to: frozenset[int] | None = None, **data: Any) -> None:
        if st is not None and st.events is not None:
            st.emit(kind, text, to, **data)



def _planet_words(st: State[BHCData, Any], planet_id: str) -> str:
    """A planet as the players see it ("red planet of 3 points"), never its card id."""
    planet = data_for(st.config).planet(planet_id)
    colour = "rainbow" if planet.colour == RAINBOW else COLOURS[planet.colour]
    coin = " and a coin" if planet.coin else ""
    return f"{colour} planet of {plural(planet.points, 'point')}{coin}"
