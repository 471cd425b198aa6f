"""holotable's performance benchmarks (run with ``make bench``; see docs/performance.md).

Each module exposes small workload functions that play a batch of games or
steps and return how much work they did; :mod:`benchmarks.timing` turns them
into rates and :mod:`benchmarks.run_all` prints the table and checks the goals.
Nothing here is run by the test suite except a smoke test of the workloads.
"""
