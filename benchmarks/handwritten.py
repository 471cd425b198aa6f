"""The practical ceiling: Captain Black's draw rules as one hand-written Python loop.

No engine, no objects, no checks: the state is a handful of local ints and lists.
It plays the same game as the engine with the same random policy, so the ratio
engine/hand-written says what the engine's generality costs:

* the mover picks ``k`` uniformly in ``1..bag`` (what a random agent does with the
  legal list ``draw 1 .. draw bag``);
* one random integer per draw decides whether the handful is all gold: a uniform
  ``k``-subset of the bag has no black coin with probability ``C(gold, k) / C(bag, k)``,
  drawn exactly as ``randrange(C(bag, k)) < C(gold, k)``;
* all gold goes to the mover's box; otherwise one black coin goes to the island;
* the 8th black coin on the island ends the round: the fewest take two parrots
  (reshuffling set-aside parrots when the deck runs out), totals are dense-ranked
  and each seat takes ``min(rank, 4)`` chest cards; the ship moves on;
* after ``players`` rounds the winner has the most filled chests, then most cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import comb

from .timing import Work

GOLD, BLACK, ISLAND_FIELDS = 42, 8, 8
PARROTS = (1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3)
CHESTS = (True,) * 35 + (False,) * 5
MAX_CHESTS = 4


def play_random(players: int, rng: random.Random) -> tuple[int, list[int]]:
    """Play one complete game; return (draws made, winning seats)."""
    randrange = rng.randrange
    chest_deck = list(CHESTS)
    rng.shuffle(chest_deck)
    parrot_deck = list(PARROTS)
    rng.shuffle(parrot_deck)
    parrot_aside: list[int] = []
    filled = [0] * players
    cards = [0] * players
    start = randrange(players)
    steps = 0
    for _ in range(players):
        gold, black, island = GOLD, BLACK, 0
        boxes = [0] * players
        mover = start
        while True:
            bag = gold + black
            k = randrange(bag) + 1
            steps += 1
            if randrange(comb(bag, k)) < comb(gold, k):
                gold -= k
                boxes[mover] += k
            else:
                black -= 1
                island += 1
                if island == ISLAND_FIELDS:
                    break
            mover = (mover + 1) % players
        # Round end: parrots for the fewest (decided before parrots), then dense-ranked chests.
        fewest = min(boxes)
        totals = boxes[:]
        used: list[int] = []
        for i in range(players):
            seat = (start + i) % players
            if boxes[seat] == fewest:
                for _ in range(2):
                    if not parrot_deck:
                        parrot_deck, parrot_aside = parrot_aside, []
                        rng.shuffle(parrot_deck)
                    card = parrot_deck.pop()
                    used.append(card)
                    totals[seat] += card
        parrot_aside.extend(used)
        ranks = sorted(set(totals))
        for rank, value in enumerate(ranks, 1):
            for i in range(players):
                seat = (start + i) % players
                if totals[seat] == value:
                    for _ in range(min(rank, MAX_CHESTS)):
                        filled[seat] += chest_deck.pop()
                        cards[seat] += 1
        start = (start + 1) % players
    best = max(zip(filled, cards, strict=True))
    winners = [s for s in range(players) if (filled[s], cards[s]) == best]
    return steps, winners


def random_play_batch(players: int = 4, seed: int = 0) -> Callable[[], Work]:
    """A workload for :func:`benchmarks.timing.measure`: one hand-written game per call."""
    rng = random.Random(seed)

    def batch() -> Work:
        steps, _ = play_random(players, rng)
        return Work(games=1, steps=steps)

    return batch
