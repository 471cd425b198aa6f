"""Black Hole Council's actions (spec §6.2, §6.4): one hashable type with a readable text form.

Every action is an :class:`Act` with a ``kind`` and up to three small integer arguments
(free chat carries its text). Text forms, all lower case:

=====================================  ===========================================================
``swap settle tax``                     the Leader swaps the planets above two outcomes (BHC-NEG-01)
``bribe 2 1``                           the Leader gives seat 2 one coin from the Bribe Space (BHC-BRIBE-03)
``accept 3``                            the Leader accepts seat 3's 1-coin offer (BHC-BRIBE-08)
``call vote``                           the Leader ends Negotiate (BHC-NEG-05)
``offer`` / ``withdraw``                a non-Leader offers the Leader 1 coin, or takes the offer back
``done``                                a non-Leader has nothing more to say this Proposal
``suggest swap mine conquer``           a suggestion; changes nothing (BHC-NEG-02)
``suggest table red-a blu-c ...``      a suggested whole arrangement: five planets, Settle to Black Hole
``support`` / ``oppose``                a non-binding pledge about the current arrangement (``pledge pass``)
``pledge pass if swap mine conquer``    a conditional pledge: "I vote Pass if Mine and Conquer are swapped"
``pledge fail if table red-a ...``      the same about a whole arrangement
``ask bribe 2``                         a request to the Leader for a bribe
``claim 3 settle red``                  a (possibly false) statement that seat 3 wants red at Settle
``say <text>``                          free public chat (no integer index; BHC-INFO-02)
``deadline``                            the table's clock ran out (sent by whoever runs the table)
``vote pass`` / ``vote fail``           a sealed vote (BHC-VOTE-01)
``natural`` / ``pay 3`` / ``get paid``  an Advance turn; `` +intrigue`` plays the seat's Intrigue card
``guess red left``                      a sealed Deduction guess (BHC-DED-02)
=====================================  ===========================================================

>>> parse("swap mine conquer")
Act(kind='swap', a=2, b=3, c=0, text='')
>>> str(parse("PAY 3 +intrigue"))
'pay 3 +intrigue'
>>> str(parse("say  hello   there"))
'say hello there'

Names are forgiving: ``black hole``, ``black_hole`` and ``blackhole`` are the same outcome, any
unambiguous prefix of an outcome or colour will do, and planet ids ignore case:

>>> str(parse("swap settle black hole")), str(parse("Suggest swap M BL"))
('swap settle black_hole', 'suggest swap mine black_hole')
>>> str(parse("pledge pass if table red-a grn-b yel-c blu-d blk-e"))
'pledge pass if table RED-A GRN-B YEL-C BLU-D BLK-E'
"""

from __future__ import annotations

import re
from typing import NamedTuple

from holotable.engine.errors import MalformedActionError

from .data import COLOURS, OUTCOMES

MAX_SEATS = 8
#: The most coins the Bribe Space can hold: 1 + 2 failed Proposals x the largest increment (2).
MAX_BRIBE = 5
#: The largest "pay c" with an integer index; ``check`` accepts any amount up to the Bank.
PAY_MAX = 60
#: The longest chat text the parser reads; the table's ``chat_max_chars`` is checked by the rules.
CHAT_PARSE_MAX = 1000

SWAP, BRIBE, ACCEPT, CALL, OFFER, WITHDRAW = "swap", "bribe", "accept", "call vote", "offer", "withdraw"
SUGGEST, SUPPORT, OPPOSE, ASK, CLAIM, CHAT, DEADLINE, DONE = (
    "suggest", "support", "oppose", "ask", "claim", "say", "deadline", "done"
)
#: A suggested whole arrangement (``text``: five planet ids, Settle first) and a conditional pledge
#: (``a``: 1 Pass / 0 Fail; ``b``: :data:`IF_SWAP` with ``c`` the pair index, or :data:`IF_TABLE` with ``text``).
SUGGEST_TABLE, PLEDGE = "suggest table", "pledge"
IF_SWAP, IF_TABLE = 1, 2
VOTE, NATURAL, PAY, PAID, GUESS = "vote", "natural", "pay", "get paid", "guess"

LEADER_KINDS = frozenset({SWAP, BRIBE, ACCEPT, CALL})
#: Non-binding table talk (BHC-NEG-02): suggestions, pledges, requests, claims and chat.
TALK_KINDS = frozenset({SUGGEST, SUGGEST_TABLE, SUPPORT, OPPOSE, PLEDGE, ASK, CLAIM, CHAT})
ADVANCE_KINDS = frozenset({NATURAL, PAY, PAID})
DIRECTIONS = ("left", "right")
PAIRS = tuple((i, j) for i in range(5) for j in range(i + 1, 5))


class Act(NamedTuple):
    """One action. ``a``, ``b``, ``c`` are seats, outcomes, colours or coins by kind; ``text`` is chat."""

    kind: str
    a: int = 0
    b: int = 0
    c: int = 0
    text: str = ""

    def __str__(self) -> str:
        k = self.kind
        if k in (SWAP, SUGGEST):
            swap = f"{OUTCOMES[self.a]} {OUTCOMES[self.b]}"
            return f"swap {swap}" if k == SWAP else f"suggest swap {swap}"
        if k == BRIBE:
            return f"bribe {self.a} {self.b}"
        if k == ACCEPT:
            return f"accept {self.a}"
        if k == ASK:
            return f"ask bribe {self.b}"
        if k == CLAIM:
            return f"claim {self.a} {OUTCOMES[self.b]} {COLOURS[self.c]}"
        if k == CHAT:
            return f"say {self.text}"
        if k == SUGGEST_TABLE:
            return f"suggest table {self.text}"
        if k == PLEDGE:
            vote = "pass" if self.a else "fail"
            if self.b == IF_SWAP:
                i, j = PAIRS[self.c]
                return f"pledge {vote} if swap {OUTCOMES[i]} {OUTCOMES[j]}"
            return f"pledge {vote} if table {self.text}"
        if k == VOTE:
            return "vote pass" if self.a else "vote fail"
        if k in ADVANCE_KINDS:
            base = f"pay {self.a}" if k == PAY else k
            return base + (" +intrigue" if self.b else "")
        if k == GUESS:
            return f"guess {COLOURS[self.a]} {DIRECTIONS[self.b]}"
        return k  # call vote, offer, withdraw, support, oppose, deadline, done


# ---------------------------------------------------------------------- constructors (interned)
def swap(o1: int, o2: int) -> Act:
    lo, hi = min(o1, o2), max(o1, o2)
    return Act(SWAP, lo, hi)


def suggest(o1: int, o2: int) -> Act:
    lo, hi = min(o1, o2), max(o1, o2)
    return Act(SUGGEST, lo, hi)


def suggest_table(planets: list[str] | tuple[str, ...]) -> Act:
    """A suggested arrangement: the planet ids above Settle, Tax, Mine, Conquer and Black Hole."""
    return Act(SUGGEST_TABLE, text=" ".join(p.upper() for p in planets))


def pledge(passes: bool, *, swap_of: tuple[int, int] | None = None,
           table: list[str] | tuple[str, ...] | None = None) -> Act:
    """A pledge: unconditional (``support``/``oppose``), or on a swap, or on a whole arrangement."""
    if swap_of is not None:
        return Act(PLEDGE, int(passes), IF_SWAP, PAIRS.index((min(swap_of), max(swap_of))))
    if table is not None:
        return Act(PLEDGE, int(passes), IF_TABLE, 0, " ".join(p.upper() for p in table))
    return SUPPORT_ACT if passes else OPPOSE_ACT


def planets_of(action: Act) -> list[str]:
    """The planet ids a whole-arrangement suggestion or pledge names (empty for other actions)."""
    return action.text.split() if action.kind == SUGGEST_TABLE or (action.kind == PLEDGE and action.b == IF_TABLE) \
        else []


def bribe(seat: int, coins: int) -> Act:
    return Act(BRIBE, seat, coins)


def accept(seat: int) -> Act:
    return Act(ACCEPT, seat)


def ask(coins: int) -> Act:
    return Act(ASK, 0, coins)


def claim(seat: int, outcome: int, colour: int) -> Act:
    return Act(CLAIM, seat, outcome, colour)


def vote(passes: bool) -> Act:
    return VOTE_PASS if passes else VOTE_FAIL


def advance(kind: str, coins: int = 0, intrigue: bool = False) -> Act:
    return Act(kind, coins if kind == PAY else 0, int(intrigue))


def guess(colour: int, direction: int) -> Act:
    return Act(GUESS, colour, direction)


def chat(text: str) -> Act:
    """A chat action; ``text`` is sanitised (see :func:`sanitise`)."""
    clean = sanitise(text)
    if not clean:
        raise MalformedActionError("a chat message needs some text")
    if len(clean) > CHAT_PARSE_MAX:
        raise MalformedActionError(f"a chat message is at most {CHAT_PARSE_MAX} characters")
    return Act(CHAT, text=clean)


def sanitise(text: str) -> str:
    """Chat text made safe to show: control and other unprintable characters become spaces,
    runs of whitespace one space, no leading or trailing space.

    >>> sanitise("  hi\\x00there\\n\\tall ")
    'hi there all'
    """
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


CALL_VOTE, OFFER_ACT, WITHDRAW_ACT = Act(CALL), Act(OFFER), Act(WITHDRAW)
SUPPORT_ACT, OPPOSE_ACT, DEADLINE_ACT, DONE_ACT = Act(SUPPORT), Act(OPPOSE), Act(DEADLINE), Act(DONE)
VOTE_PASS, VOTE_FAIL = Act(VOTE, 1), Act(VOTE, 0)


# ---------------------------------------------------------------------- the integer action space
_SIMPLE = {CALL: CALL_VOTE, OFFER: OFFER_ACT, WITHDRAW: WITHDRAW_ACT, SUPPORT: SUPPORT_ACT, OPPOSE: OPPOSE_ACT,
           DONE: DONE_ACT}


def _build_space() -> tuple[Act, ...]:
    space: list[Act] = [swap(i, j) for i, j in PAIRS]
    space += [bribe(s, k) for s in range(MAX_SEATS) for k in range(1, MAX_BRIBE + 1)]
    space += [accept(s) for s in range(MAX_SEATS)]
    space += [CALL_VOTE, OFFER_ACT, WITHDRAW_ACT]
    space += [suggest(i, j) for i, j in PAIRS]
    space += [SUPPORT_ACT, OPPOSE_ACT]
    space += [ask(k) for k in range(1, MAX_BRIBE + 1)]
    space += [claim(s, o, c) for s in range(MAX_SEATS) for o in range(5) for c in range(5)]
    space += [VOTE_PASS, VOTE_FAIL]
    for intrigue in (False, True):
        space += [advance(NATURAL, 0, intrigue), advance(PAID, 0, intrigue)]
        space += [advance(PAY, c, intrigue) for c in range(1, PAY_MAX + 1)]
    space += [guess(c, d) for c in range(5) for d in range(2)]
    space.append(DONE_ACT)  # added last so that the earlier indices stay stable
    space += [pledge(passes, swap_of=pair) for passes in (True, False) for pair in PAIRS]  # likewise
    return tuple(space)


SPACE: tuple[Act, ...] = _build_space()
INDEX: dict[Act, int] = {a: i for i, a in enumerate(SPACE)}


def index_of(action: Act) -> int:
    """The integer index of ``action``; chat, whole-arrangement suggestions and pledges, the deadline
    and pays above :data:`PAY_MAX` have none."""
    try:
        return INDEX[action]
    except KeyError:
        raise MalformedActionError(f"{str(action)!r} has no integer index") from None


# ---------------------------------------------------------------------- parsing
_NUM = r"([0-9]{1,3})"
_OUT = r"([a-z_]+)"  # any word: resolved (with prefixes) by :func:`outcome_named`
_COL = r"([a-z]+)"  # resolved by :func:`colour_named`
_PLANETS = r"((?:[a-z0-9_-]+\s+){4}[a-z0-9_-]+)"
_INTRIGUE = r"(\s+\+intrigue)?"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE | re.ASCII), kind)
    for p, kind in (
        (rf"swap\s+{_OUT}\s+{_OUT}", SWAP),
        (rf"bribe\s+{_NUM}\s+{_NUM}", BRIBE),
        (rf"accept\s+{_NUM}", ACCEPT),
        (r"call\s+vote", CALL),
        (r"offer", OFFER),
        (r"withdraw", WITHDRAW),
        (rf"suggest\s+swap\s+{_OUT}\s+{_OUT}", SUGGEST),
        (rf"suggest\s+table\s+{_PLANETS}", SUGGEST_TABLE),
        (r"pledge\s+(pass|fail)", PLEDGE),
        (rf"pledge\s+(pass|fail)\s+if\s+swap\s+{_OUT}\s+{_OUT}", PLEDGE),
        (rf"pledge\s+(pass|fail)\s+if\s+table\s+{_PLANETS}", PLEDGE),
        (r"support", SUPPORT),
        (r"oppose", OPPOSE),
        (rf"ask\s+bribe\s+{_NUM}", ASK),
        (rf"claim\s+{_NUM}\s+{_OUT}\s+{_COL}", CLAIM),
        (r"deadline", DEADLINE),
        (r"done", DONE),
        (r"vote\s+(pass|fail)", VOTE),
        (rf"natural{_INTRIGUE}", NATURAL),
        (rf"pay\s+{_NUM}{_INTRIGUE}", PAY),
        (rf"get\s+paid{_INTRIGUE}", PAID),
        (rf"guess\s+{_COL}\s+(left|right)", GUESS),
    )
)


def parse(text: str) -> Act:
    """Read an action's text form; raise :class:`MalformedActionError` for anything else."""
    if not isinstance(text, str):
        raise MalformedActionError(f"an action text must be a string, got {type(text).__name__}")
    stripped = text.strip()
    if stripped[:3].lower() == "say" and (len(stripped) == 3 or stripped[3].isspace()):
        if len(stripped) > CHAT_PARSE_MAX * 4:
            raise MalformedActionError(f"a chat message is at most {CHAT_PARSE_MAX} characters")
        return chat(stripped[3:])
    words = _BLACK_HOLE.sub("black_hole", stripped)
    for pattern, kind in _PATTERNS:
        m = pattern.fullmatch(words)
        if m:
            return _build(kind, m.groups())
    raise MalformedActionError(f"cannot read {text[:40]!r} as a Black Hole Council action (try 'call vote')")


_BLACK_HOLE = re.compile(r"\bblack[\s_-]*hole\b", re.IGNORECASE)


def _named(word: str, names: tuple[str, ...], what: str) -> int:
    word = word.lower()
    if word in names:
        return names.index(word)
    found = [i for i, name in enumerate(names) if name.startswith(word)]
    if len(found) == 1:
        return found[0]
    shown = ", ".join(n.replace("_", " ") for n in names)
    raise MalformedActionError(f"{word!r} is not {what} ({shown})")


def outcome_named(word: str) -> int:
    """The outcome a word names: its name, ``blackhole``, or a prefix (``m`` is Mine).

    >>> outcome_named("blackhole"), outcome_named("Con")
    (4, 3)
    """
    return _named("black_hole" if word.lower() in ("blackhole", "black-hole") else word, OUTCOMES, "an outcome")


def colour_named(word: str) -> int:
    return _named(word, COLOURS, "a colour")


def _planet_list(text: str) -> list[str]:
    ids = [w.upper() for w in text.split()]
    if len(set(ids)) != 5:
        raise MalformedActionError("an arrangement names five different planets, Settle to Black Hole")
    return ids


def _num(text: str, high: int, what: str) -> int:
    value = int(text)
    if value > high:
        raise MalformedActionError(f"{what} {value} is out of range (at most {high})")
    return value


def _build(kind: str, groups: tuple[str | None, ...]) -> Act:
    g = [x.lower() if x is not None else None for x in groups]
    if kind in (SWAP, SUGGEST):
        o1, o2 = outcome_named(str(g[0])), outcome_named(str(g[1]))
        if o1 == o2:
            raise MalformedActionError("a swap needs two different outcomes")
        return swap(o1, o2) if kind == SWAP else suggest(o1, o2)
    if kind == SUGGEST_TABLE:
        return suggest_table(_planet_list(str(g[0])))
    if kind == PLEDGE:
        passes = g[0] == "pass"
        if len(g) == 1:
            return pledge(passes)
        if len(g) == 2:
            return pledge(passes, table=_planet_list(str(g[1])))
        o1, o2 = outcome_named(str(g[1])), outcome_named(str(g[2]))
        if o1 == o2:
            raise MalformedActionError("a swap needs two different outcomes")
        return pledge(passes, swap_of=(o1, o2))
    if kind == BRIBE:
        seat = _num(str(g[0]), MAX_SEATS - 1, "seat")
        coins = _num(str(g[1]), 99, "coins")
        if coins < 1:
            raise MalformedActionError("a bribe is at least 1 coin")
        return bribe(seat, coins)
    if kind == ACCEPT:
        return accept(_num(str(g[0]), MAX_SEATS - 1, "seat"))
    if kind == ASK:
        coins = _num(str(g[0]), 99, "coins")
        if coins < 1:
            raise MalformedActionError("ask for at least 1 coin")
        return ask(coins)
    if kind == CLAIM:
        return claim(_num(str(g[0]), MAX_SEATS - 1, "seat"), outcome_named(str(g[1])), colour_named(str(g[2])))
    if kind == VOTE:
        return vote(g[0] == "pass")
    if kind == PAY:
        coins = _num(str(g[0]), 999, "coins")
        if coins < 1:  # BHC-EX-02 l: with c = 0 it would be Advance Naturally
            raise MalformedActionError("'pay' needs at least 1 coin; without coins say 'natural'")
        return advance(PAY, coins, g[1] is not None)
    if kind in (NATURAL, PAID):
        return advance(kind, 0, g[0] is not None)
    if kind == GUESS:
        return guess(colour_named(str(g[0])), DIRECTIONS.index(str(g[1])))
    return _SIMPLE.get(kind, DEADLINE_ACT)


def is_act(action: object) -> bool:
    """Whether ``action`` is a well-formed :class:`Act` (the type and field types; not legality)."""
    if not isinstance(action, Act):
        return False
    if not all(type(x) is int for x in (action.a, action.b, action.c)) or type(action.text) is not str:
        return False
    try:
        text = str(action)
        return parse(text) == action
    except (MalformedActionError, IndexError):
        return False
