"""Black Hole Council's bargaining bots, measured (issue 17): offers, the Proposal 3 exploit, pledges, strength.

``python -m benchmarks.council_bargaining [--fast] [--games N] [--json FILE]``

Every figure comes from the real engine with the registered ``heuristic`` bot, in ticked
(simulation) mode; ``v1`` is the bot before issue 17, frozen in
:mod:`benchmarks.baselines.council_heuristic_v1`.

(a) **Offers to a Leader bot.** For each seed the bot leads Proposal 1 alone until it would call the
    Vote (table ``T0``). A scripted seat then suggests ``T0`` with one swap, pledges Pass on it and
    offers a coin. The swap is *profitable* when the coin outweighs what it costs the Leader under
    its own Agenda by at least half a coin, *unprofitable* when it costs at least half a coin more
    than the coin. Reported: the share of profitable offers accepted (with the swap made) and of
    unprofitable ones refused, and whether each answer came with a chat line.
    Also: the share of seeds in which a suggestion and pledge from seat 1 change the Leader's final
    table or bribes at all (the issue found 0 of 60 before).
(b) **The exploit.** A scripted Leader (seat 0) that knows every Agenda arranges the table to give
    the bots the fewest points (its own most on a tie) and calls the Vote once the bots have had a
    tick to speak: on Proposal 3 (Proposals 1 and 2 failed by script first) and on Proposal 1.
    Reported: the share of such tables approved, for the new bot and v1.
(c) **Pledges.** In all-bot games, for every vote: the voter's last pledge on the arrangement voted
    on (``support``/``oppose`` on it, or ``pledge ... if`` it), and whether it matches the vote;
    also the last pledge of any kind.
(d) **Strength.** Win shares (ties split) with 95% intervals: one bot against four others, its seat
    rotated: new vs random, new vs v1 (one new, four v1) and v1 vs new (one v1, four new).
(e) **Talk.** How often bots offer, ask, claim, chat, suggest and pledge (per seat per game).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import holotable
from benchmarks.baselines.council_heuristic_v1 import CouncilHeuristic as HeuristicV1
from holotable.agents import make_agent, observe
from holotable.agents.base import Agent
from holotable.engine import State, derive_seed
from holotable.games.council import actions as A
from holotable.games.council.bots import CouncilHeuristic
from holotable.games.council.data import load_default
from holotable.games.council.scoring import round_points

GAME = holotable.load("council")
DATA = load_default()
PLAYERS = 5
Factory = Callable[[int], Agent]


def new_bot(seed: int) -> Agent:
    return make_agent("heuristic", GAME, seed=seed)


def old_bot(seed: int) -> Agent:
    return HeuristicV1(GAME, seed=seed)


def random_bot(seed: int) -> Agent:
    return make_agent("random", GAME, seed=seed)


def interval(values: Sequence[float]) -> dict[str, float]:
    """Mean and a normal 95% interval."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return {"mean": round(mean, 3), "lo": round(mean - half, 3), "hi": round(mean + half, 3), "n": n}


def share(hits: int, n: int) -> dict[str, float]:
    """A proportion with a Wilson 95% interval."""
    if not n:
        return {"share": 0.0, "lo": 0.0, "hi": 0.0, "n": 0}
    p, z = hits / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {"share": round(p, 3), "lo": round(centre - half, 3), "hi": round(centre + half, 3), "n": n}


# ---------------------------------------------------------------------- playing
def play(agents: Sequence[Agent], seed: int, *, watch: Callable[[State[Any, Any], int, Any], None] | None = None,
         **params: Any) -> State[Any, Any]:
    """One game, as the simulation runner plays it (every asked seat in turn), calling ``watch`` before
    each action is applied."""
    st = GAME.new_state(players=len(agents), seed=seed, **params)
    for agent in agents:
        agent.reset()
    limit = GAME.spec.max_game_length
    while not st.is_terminal():
        for seat in st.to_move():
            act = agents[seat].act(observe(st, seat))
            if watch is not None:
                watch(st, seat, act)
            st.apply(act, seat)
        if st.ply > limit:
            raise RuntimeError(f"game {seed} ran past {limit} decisions")
    return st


def strength(focal: Factory, field: Factory, games: int, tag: str) -> dict[str, Any]:
    """``focal`` in one seat (rotated), ``field`` in the others: the focal seat's win share."""
    wins = []
    for i in range(games):
        seat = i % PLAYERS
        agents = [(focal if s == seat else field)(derive_seed(tag, i, s)) for s in range(PLAYERS)]
        st = play(agents, derive_seed(tag, "game", i))
        winners = st.outcome().winners
        wins.append(1 / len(winners) if seat in winners else 0.0)
    return {"win_share": interval(wins), "fair_share": round(1 / PLAYERS, 3)}


# ---------------------------------------------------------------------- (c) pledges and (e) talk
def pledges_and_talk(games: int, factory: Factory) -> dict[str, Any]:
    matched = mismatched = without = 0
    last_matched = last_total = 0
    kinds: Counter[str] = Counter()
    for i in range(games):
        agents = [factory(derive_seed("pledge", i, s)) for s in range(PLAYERS)]
        st = GAME.new_state(players=PLAYERS, seed=derive_seed("pledge-game", i))
        for agent in agents:
            agent.reset()
        before = 0
        talk: list[dict[str, Any]] | None = None
        while not st.is_terminal():
            for seat in st.to_move():
                act = agents[seat].act(observe(st, seat))
                if st.data.phase == "negotiate":
                    kinds[act.kind] += 1
                st.apply(act, seat)
                if st.data.phase == "vote" and talk is None:
                    talk = list(st.data.talk)  # this Proposal's talk, as the vote is called
                if len(st.data.votes) == before:
                    continue
                before = len(st.data.votes)
                vote = st.data.votes[-1]
                for s, ballot in enumerate(vote["votes"]):
                    if ballot is None:
                        continue
                    mine = [r for r in talk or [] if r["seat"] == s and "vote" in r]
                    on_final = [r for r in mine if r["wants"] == vote["table"]]
                    if on_final:
                        matched += on_final[-1]["vote"] == ballot
                        mismatched += on_final[-1]["vote"] != ballot
                    else:
                        without += 1
                    if mine:
                        last_total += 1
                        last_matched += mine[-1]["vote"] == ballot
                talk = None
    seats = games * PLAYERS
    return {
        "pledge_on_voted_table_matches_vote": share(matched, matched + mismatched),
        "votes_with_a_pledge_on_the_voted_table": share(matched + mismatched, matched + mismatched + without),
        "last_pledge_of_any_kind_matches_vote": share(last_matched, last_total),
        "negotiate_actions_per_seat_per_game": {k: round(v / seats, 2) for k, v in sorted(kinds.items())},
    }


# ---------------------------------------------------------------------- (a) offers to a Leader bot
def offers(seeds: int) -> dict[str, Any]:
    took = refused = good = bad = 0
    said_good = said_bad = 0
    lines: list[str] = []
    for i in range(seeds):
        for profitable in (True, False):
            result = _one_offer(derive_seed("offer", i), profitable)
            if result is None:
                continue
            accepted, chat = result
            if profitable:
                good += 1
                took += accepted
                said_good += bool(chat)
            else:
                bad += 1
                refused += not accepted
                said_bad += bool(chat)
            if chat and len(lines) < 6:
                lines.append(chat)
    return {"profitable_accepted": share(took, good), "unprofitable_refused": share(refused, bad),
            "answered_in_chat": share(said_good + said_bad, good + bad), "sample_lines": lines}


def _leader_alone(st: State[Any, Any], bot: Agent) -> None:
    """Let the Leader bot arrange and bribe until it would do anything else (it is not applied)."""
    for _ in range(30):
        act = bot.act(observe(st, 0))
        if act.kind not in (A.SWAP, A.BRIBE):
            return
        st.apply(act, 0)


def _one_offer(seed: int, profitable: bool) -> tuple[bool, str] | None:
    st = GAME.new_state(players=PLAYERS, seed=seed, first_leader=0)
    bot = new_bot(seed)
    assert isinstance(bot, CouncilHeuristic)
    _leader_alone(st, bot)
    table = list(st.data.table)
    view = st.view(0)
    base = bot._my_value(view, table)
    options = []
    for i, j in A.PAIRS:
        arr = list(table)
        arr[i], arr[j] = arr[j], arr[i]
        net = bot._my_value(view, arr) - base + 1.0  # what the swap and the coin leave the Leader with
        if (profitable and net >= 0.5 and net <= 1.0) or (not profitable and net <= -0.5):
            options.append((abs(net), arr))
    if not options:
        return None
    _, want = min(options)
    st.apply(str(A.suggest_table(want)), 1)
    st.apply(str(A.pledge(True, table=want)), 1)
    st.apply("offer", 1)
    accepted = False
    chat = ""
    for _ in range(30):
        if st.data.phase != "negotiate":
            break
        act = bot.act(observe(st, 0))
        if act.kind == A.ACCEPT and act.a == 1:
            accepted = True
        if act.kind == A.CHAT and not chat and "seat 1" in act.text:
            chat = act.text
        st.apply(act, 0)
    made = list(st.data.table) == want
    return accepted and made if profitable else accepted, chat


def listening(seeds: int, factory: Factory) -> dict[str, Any]:
    """Whether talk changes what a Leader bot does: Proposal 1 with the bot leading (seat 0) on its own,
    and again after seat 1 suggested the swap of the opening table that is best for seat 1's Agenda and
    pledged Pass on it. Reported: the share of seeds where the final table or the bribes differ."""
    changed = 0
    for i in range(seeds):
        seed = derive_seed("listen", i)
        finals = []
        for talk in (False, True):
            st = GAME.new_state(players=PLAYERS, seed=seed, first_leader=0)
            bot = factory(seed)
            if talk:
                d = st.data
                agenda = DATA.agendas[d.agendas[1]]
                best = max(A.PAIRS, key=lambda p: round_points(DATA, agenda, _swapped(d.table, p)))
                st.apply(A.suggest(*best), 1)
                st.apply(A.pledge(True, swap_of=best), 1)
            for _ in range(40):
                if st.data.phase != "negotiate":
                    break
                st.apply(bot.act(observe(st, 0)), 0)
            finals.append((tuple(st.data.table), tuple(st.data.pending)))
        changed += finals[0] != finals[1]
    return {"talk_changed_the_table_or_bribes": share(changed, seeds)}


def _swapped(table: Sequence[str], pair: tuple[int, int]) -> list[str]:
    out = list(table)
    out[pair[0]], out[pair[1]] = out[pair[1]], out[pair[0]]
    return out


# ---------------------------------------------------------------------- (b) the exploit
def exploit(seeds: int, field: Factory, proposal: int) -> dict[str, Any]:
    approved = 0
    leader_points: list[float] = []
    for i in range(seeds):
        seed = derive_seed("exploit", proposal, i)
        first = (0 - (proposal - 1)) % PLAYERS  # Leadership passes left on each failure
        st = GAME.new_state(players=PLAYERS, seed=seed, first_leader=first)
        bots = {s: field(derive_seed("exploit-bot", i, s)) for s in range(1, PLAYERS)}
        while st.data.proposal < proposal:  # scripted failures
            leader = st.data.leader
            st.apply("call vote", leader)
            for s in range(PLAYERS):
                if s != leader:
                    st.apply("vote fail", s)
        assert st.data.leader == 0 and st.data.proposal == proposal
        target = _worst_for_bots(st)
        for k in range(5):  # the scripted Leader arranges at once
            if st.data.table[k] != target[k]:
                st.apply(A.swap(k, st.data.table.index(target[k])), 0)
        spoke = False
        while st.data.phase == "negotiate":
            for seat in st.to_move():
                if st.data.phase != "negotiate":
                    break
                if seat == 0:
                    if spoke:
                        st.apply("call vote", 0)
                    else:
                        st.apply("say this is the table", 0)
                        spoke = True
                else:
                    st.apply(bots[seat].act(observe(st, seat)), seat)
        for s in range(1, PLAYERS):
            st.apply(bots[s].act(observe(st, s)), s)
        vote = st.data.votes[-1]
        approved += vote["approved"]
        leader_points.append(float(round_points(DATA, DATA.agendas[st.data.agendas[0]], vote["table"])))
    return {"approved": share(approved, seeds), "leader_points": interval(leader_points)}


def _worst_for_bots(st: State[Any, Any]) -> list[str]:
    from itertools import permutations

    d = st.data
    best: tuple[int, int, list[str]] | None = None
    for perm in permutations(d.table):
        arr = list(perm)
        theirs = sum(round_points(DATA, DATA.agendas[d.agendas[s]], arr) for s in range(1, PLAYERS))
        own = round_points(DATA, DATA.agendas[d.agendas[0]], arr)
        key = (theirs, -own, arr)
        if best is None or key[:2] < best[:2]:
            best = key
    assert best is not None
    return best[2]


# ---------------------------------------------------------------------- (f) a live table's clock
def live_pacing(games: int, seconds: float = 120.0) -> dict[str, Any]:
    """All-bot games at a live table with a simulated clock (no sleeping): bots are asked when the
    :class:`~holotable.agents.live.Pacer` says they are due, and a Wait is honoured. Reported: when in the
    timer the Leader called the Vote (share of the period), how many things each non-Leader said per
    Proposal, and the shortest gap between two actions of one non-Leader."""
    from holotable.agents.live import Pacer, PeriodTime, Wait

    call_shares: list[float] = []
    said: list[float] = []
    deadlines = 0
    gaps: list[float] = []
    for i in range(games):
        agents = [new_bot(derive_seed("live", i, s)) for s in range(PLAYERS)]
        st = GAME.new_state(players=PLAYERS, seed=derive_seed("live-game", i), live_negotiation=True)
        while not st.is_terminal():
            if st.data.phase != "negotiate":
                for seat in st.to_move():
                    st.apply(agents[seat].act(observe(st, seat)), seat)
                continue
            pacer, now, proposal, leader = Pacer(), 0.0, st.data.proposals_made, st.data.leader
            counts = [0] * PLAYERS
            last: dict[int, float] = {}
            while st.data.phase == "negotiate" and st.data.proposals_made == proposal:
                if now >= seconds:
                    st.apply("deadline", st.data.leader)
                    deadlines += 1
                    break
                for seat in pacer.due(range(PLAYERS), now):
                    if st.data.phase != "negotiate":
                        break
                    out = agents[seat].act(observe(st, seat, PeriodTime(seconds, now)))
                    if isinstance(out, Wait):
                        pacer.waits(seat, now, out.seconds)
                        continue
                    if out == A.CALL_VOTE:
                        call_shares.append(now / seconds)
                    if seat != leader:
                        counts[seat] += 1
                        if seat in last:
                            gaps.append(now - last[seat])
                        last[seat] = now
                    st.apply(out, seat)
                    pacer.acted(seat, now)
                    pacer.changed(now)
                nxt = pacer.next_time(range(PLAYERS))
                now = max(now + 0.05, nxt if nxt is not None else now + 1.0)
            said += [float(c) for s, c in enumerate(counts) if s != leader]
    return {"vote_called_at_share_of_timer": interval(call_shares), "proposals_to_the_deadline": deadlines,
            "things_said_per_non_leader_per_proposal": interval(said),
            "shortest_gap_between_two_actions_of_a_non_leader_s": round(min(gaps), 2) if gaps else None}


# ---------------------------------------------------------------------- main
def run(fast: bool, games: int) -> dict[str, Any]:
    seeds = 6 if fast else 60
    offer_seeds = 6 if fast else 200
    n = 10 if fast else games
    started = time.perf_counter()
    out: dict[str, Any] = {
        "offers": offers(offer_seeds),
        "listening": {"new": listening(seeds, new_bot), "v1": listening(seeds, old_bot)},
        "live": live_pacing(2 if fast else 20),
        "exploit": {
            "p3_new": exploit(seeds, new_bot, 3), "p3_v1": exploit(seeds, old_bot, 3),
            "p1_new": exploit(seeds, new_bot, 1), "p1_v1": exploit(seeds, old_bot, 1),
        },
        "pledges_and_talk": {"new": pledges_and_talk(4 if fast else 40, new_bot),
                             "v1": pledges_and_talk(4 if fast else 40, old_bot)},
        "strength": {
            "new_vs_random": strength(new_bot, random_bot, n, "s-random"),
            "new_vs_4_v1": strength(new_bot, old_bot, n, "s-new"),
            "v1_vs_4_new": strength(old_bot, new_bot, n, "s-old"),
            "v1_vs_random": strength(old_bot, random_bot, n, "s-random"),
        },
    }
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fast", action="store_true", help="a quick smoke run (few seeds and games)")
    parser.add_argument("--games", type=int, default=300, help="games per strength match (default 300)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    out = run(args.fast, args.games)
    text = json.dumps(out, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
