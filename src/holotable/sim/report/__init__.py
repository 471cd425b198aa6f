"""Balance reports: many games of one game (or one per value of a swept setting), written as a
self-contained HTML page with matplotlib figures and the figures' numbers as CSV files.

What a game measures comes from its ``simulation`` module (:mod:`holotable.sim.hooks`). Names follow
one convention so that reports can group them: ``name`` is a number, ``family:category`` one category of
a group (``pulled_in:BH-M2``, ``agenda:tax``), drawn as one chart; a family whose values are all 0/1 is an
indicator family and also gets the win rate by category. See :mod:`holotable.sim.report.tables`.

>>> run = run_balance("captain-black", 4, ["heuristic", "random"], seed=1, players=2, workers=1)
>>> [(value, rep.games) for value, rep in run.entries]
[('', 4)]
"""

from .balance import BalanceRun, parse_settings, parse_sweep, run_balance, split_settings
from .output import write_csv, write_report

__all__ = ["BalanceRun", "parse_settings", "parse_sweep", "run_balance", "split_settings", "write_csv",
           "write_report"]
