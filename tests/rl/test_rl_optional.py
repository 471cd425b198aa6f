"""The core package works without the ``rl`` extra: only holotable.rl needs it.

(numpy is not blocked: shapely and matplotlib, core dependencies, need it.)
"""

from __future__ import annotations

import subprocess
import sys

_BLOCK_AND_PLAY = """
import sys
for name in ("gymnasium", "pettingzoo"):
    sys.modules[name] = None  # any import of them now raises ImportError
import holotable
from holotable.agents import make_agent, observe
game = holotable.load("captain-black")
state = game.new_state(players=3, seed=1)
bot = make_agent("random", game, seed=2)
while not state.is_terminal():
    seat = state.to_move()[0]
    state.apply(bot.act(observe(state, seat)), seat)
try:
    import holotable.rl.pettingzoo_env
except ImportError:
    print("ok")
"""


def test_core_package_imports_and_plays_without_the_rl_extra() -> None:
    result = subprocess.run([sys.executable, "-c", _BLOCK_AND_PLAY], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
