"""Instruction counts of the hot paths, for comparing two trees on a busy machine.

Wall-clock figures on a shared 2-core machine swing by 10-30% between runs; the number of
instructions a workload executes does not. This script runs one workload; run it under valgrind
for each tree and subtract the count of a smaller run of the same workload, so start-up and imports
cancel out::

    PYTHONPATH=<tree>/src valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/instruction_counts.py kyrum 1 100 ismcts     # "Collected : N"

Workloads: ``play N`` (N seeded uniform-random games), ``ismcts N`` (one first decision with N
iterations), ``clone N`` (N clones of a fresh state). The figures are in docs/performance.md.
"""

from __future__ import annotations

import random
import sys

from holotable.agents import make_agent
from holotable.agents.base import observe
from holotable.engine import load


def main(argv: list[str]) -> None:
    name, players, n, what = argv[0], int(argv[1]), int(argv[2]), argv[3]
    game = load(name)
    if what == "play":
        for seed in range(n):
            st = game.new_state(players=players, seed=seed)
            rng = random.Random(seed)
            while not st.is_terminal():
                seat = st.to_move()[0]
                legal = st.legal_actions(seat)
                st.apply(legal[rng.randrange(len(legal))], seat)
    elif what == "ismcts":
        agent = make_agent("ismcts", game, seed=1, iterations=n)
        start = game.new_state(players=players, seed=3)
        agent.act(observe(start, start.to_move()[0]))
    elif what == "clone":
        st = game.new_state(players=players, seed=5)
        for _ in range(n):
            st.clone()
    else:
        raise SystemExit(f"unknown workload {what!r}: play, ismcts or clone")


if __name__ == "__main__":
    main(sys.argv[1:])
