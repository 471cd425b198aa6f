"""Kyrum's bots, measured (issue 18): the new ``planner`` against the previous one per scheduled game, and
how many main scripts each bot reads.

``python -m benchmarks.kyrum_planner [--fast] [--games N] [--schedule 1-30] [--campaigns N] [--seed S] [--json FILE]``

Every figure comes from the real engine and the demo pack; ``v1`` is the planner before issue 18, frozen
in :mod:`benchmarks.baselines.kyrum_planner_v1`.

(a) **Per scheduled game.** For each scheduled game ``k`` both planners start from the *same* campaign:
    the one the previous planner leaves after games ``1..k-1`` (played once from the campaign seed, like
    ``holotable simulate kyrum --schedule`` does with its ``played`` carry), so only the play of game
    ``k`` differs. Each plays ``--games`` games of it, game ``i`` with the same game seed for both;
    reported: wins and the win rate with its 95% Wilson interval for each, and the difference.
(b) **Main scripts read.** ``--campaigns`` whole 30-game campaigns, each from a fresh campaign, per bot
    (heuristic, planner, hunter, random): the new main scripts read per game (mean with a 95% interval)
    and the distinct main scripts read by the end of the campaign (mean, min, max), with the wins.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import holotable
from benchmarks.baselines.kyrum_planner_v1 import KyrumPlannerV1
from holotable.agents import make_agent
from holotable.agents.base import Agent
from holotable.engine import derive_seed
from holotable.games.kyrum.campaign import CampaignState, fold_game, game_seed, new_campaign
from holotable.games.kyrum.rules import pack_of
from holotable.sim.runner import play_game
from holotable.sim.stats import wilson_interval

GAME = holotable.load("kyrum")
CONFIG = GAME.spec.make_config(1)
PACK = pack_of(CONFIG)
Factory = Callable[[int], Agent]


def new_planner(seed: int) -> Agent:
    return make_agent("planner", GAME, seed=seed)


def old_planner(seed: int) -> Agent:
    return KyrumPlannerV1(GAME, seed=seed)


def named(name: str) -> Factory:
    return lambda seed: make_agent(name, GAME, seed=seed)


def won(state: Any) -> bool:
    return bool(state.outcome().reason.startswith("victory"))


def play(camp: CampaignState, number: int, seed: int, agent: Agent) -> Any:
    """Scheduled game ``number`` from campaign ``camp`` with game seed ``seed``; the finished state."""
    config = GAME.spec.make_config(1, campaign=camp.to_json())
    state, _ = play_game(GAME, config, seed, [agent])
    return state


def starting_campaigns(numbers: Sequence[int], seed: int, factory: Factory) -> dict[int, CampaignState]:
    """The campaign before each of ``numbers``, one history played by ``factory``'s bot from game 1."""
    camp = new_campaign(PACK, seed=seed, partner=False)
    out: dict[int, CampaignState] = {}
    for number in range(1, max(numbers) + 1):
        if number in numbers:
            out[number] = CampaignState.from_dict(camp.to_dict())
        if number == max(numbers):
            break
        agent = factory(derive_seed(seed, "campaign", number))
        state = play(camp, number, game_seed(camp.campaign_seed, number), agent)
        camp = fold_game(camp, state)
    return out


def rate(wins: int, n: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, n)
    return {"wins": wins, "games": n, "rate": wins / n if n else 0.0, "low": low, "high": high}


def per_scheduled_game(numbers: Sequence[int], games: int, seed: int) -> list[dict[str, Any]]:
    camps = starting_campaigns(numbers, seed, old_planner)
    rows = []
    for number in numbers:
        counts = {"new": 0, "old": 0}
        for i in range(games):
            game_s = derive_seed(seed, "bench", number, i)
            for tag, factory in (("new", new_planner), ("old", old_planner)):
                counts[tag] += won(play(camps[number], number, game_s, factory(derive_seed(seed, "agent", i))))
        rows.append({"game": number, "objectives": " ".join(PACK.game_entry(number)["objectives"]),
                     "new": rate(counts["new"], games), "old": rate(counts["old"], games)})
    return rows


def mean_interval(values: Sequence[float]) -> dict[str, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return {"mean": mean, "half_width": 1.96 * sd / math.sqrt(n) if n else 0.0}


def scripts_read(names: Sequence[str], campaigns: int, seed: int) -> dict[str, Any]:
    """Main scripts read per game and per whole campaign, per bot (fresh campaigns, all 30 games)."""
    length = int(PACK.schedule["length"])
    out: dict[str, Any] = {}
    for name in names:
        factory = named(name)
        per_game: list[float] = []
        per_campaign: list[int] = []
        wins = 0
        for c in range(campaigns):
            camp = new_campaign(PACK, seed=derive_seed(seed, "scripts", c), partner=False)
            for number in range(1, length + 1):
                before = len(camp.to_dict()["main_seen"])
                state = play(camp, number, game_seed(camp.campaign_seed, number),
                             factory(derive_seed(seed, "scripts", c, number)))
                wins += won(state)
                camp = fold_game(camp, state)
                per_game.append(len(camp.to_dict()["main_seen"]) - before)
            per_campaign.append(len(camp.to_dict()["main_seen"]))
        out[name] = {"per_game": mean_interval(per_game), "per_campaign_mean": sum(per_campaign) / campaigns,
                     "per_campaign_min": min(per_campaign), "per_campaign_max": max(per_campaign),
                     "wins": wins, "games": len(per_game)}
    out["main_scripts_total"] = len(PACK.main_codes())
    return out


def parse_numbers(text: str) -> list[int]:
    numbers: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        numbers += list(range(int(lo), int(hi or lo) + 1))
    return numbers


def report(figures: dict[str, Any]) -> str:
    """The figures as the Markdown tables docs/games/kyrum.md shows."""
    lines = [f"Per scheduled game: {figures['games']} games each, seed {figures['seed']}, "
             "both planners from the campaign the previous planner leaves.", "",
             "| # | Objectives | New planner | Previous planner | Difference |", "|---|---|---|---|---|"]

    def cell(r: dict[str, Any]) -> str:
        return f"{r['wins']}/{r['games']} = {100 * r['rate']:.0f}% [{100 * r['low']:.0f}, {100 * r['high']:.0f}]"

    for row in figures["per_game"]:
        diff = 100 * (row["new"]["rate"] - row["old"]["rate"])
        lines.append(f"| {row['game']} | {row['objectives']} | {cell(row['new'])} | {cell(row['old'])} | {diff:+.0f} |")
    tot_new = sum(r["new"]["wins"] for r in figures["per_game"])
    tot_old = sum(r["old"]["wins"] for r in figures["per_game"])
    n = sum(r["new"]["games"] for r in figures["per_game"])
    diff = 100 * (tot_new - tot_old) / n
    lines.append(f"| all | | {cell(rate(tot_new, n))} | {cell(rate(tot_old, n))} | {diff:+.0f} |")
    s = figures["scripts"]
    lines += ["", f"Main scripts read ({figures['campaigns']} fresh campaigns of 30 games per bot; "
              f"the pack has {s['main_scripts_total']}):", "",
              "| Bot | New main scripts per game | Read by the end of a campaign (mean, min-max) | Games won |",
              "|---|---|---|---|"]
    for name, f in s.items():
        if name == "main_scripts_total":
            continue
        pg = f["per_game"]
        lines.append(f"| {name} | {pg['mean']:.2f} ± {pg['half_width']:.2f} | {f['per_campaign_mean']:.1f} "
                     f"({f['per_campaign_min']}-{f['per_campaign_max']}) | {f['wins']}/{f['games']} |")
    return "\n".join(lines)


def run(fast: bool, games: int, numbers: Sequence[int], campaigns: int, seed: int) -> dict[str, Any]:
    if fast:
        games, numbers, campaigns = 3, [1, 12], 1
    start = time.perf_counter()
    figures: dict[str, Any] = {"games": games, "seed": seed, "campaigns": campaigns}
    figures["per_game"] = per_scheduled_game(numbers, games, seed)
    figures["scripts"] = scripts_read(("heuristic", "planner", "hunter", "random"), campaigns, seed)
    figures["seconds"] = time.perf_counter() - start
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fast", action="store_true", help="a quick smoke run (3 games of games 1 and 12)")
    parser.add_argument("--games", type=int, default=50, help="games per scheduled game and planner (default 50)")
    parser.add_argument("--schedule", default="1-30", help="scheduled games, e.g. 1-30 or 12,16,22")
    parser.add_argument("--campaigns", type=int, default=5, help="whole campaigns per bot for the script counts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    figures = run(args.fast, args.games, parse_numbers(args.schedule), args.campaigns, args.seed)
    print(report(figures))
    print(f"\n({figures['seconds']:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
