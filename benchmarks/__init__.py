"""perceptronlab's benchmarks: ``make bench`` (``python -m benchmarks``).

Every ``benchmarks/bench_*.py`` module exposes functions ``bench_<name>(scale=1.0)`` returning a row
dict (or a list of them): ``case``, ``target``, ``ratio`` (measured in the same process against a
baseline timed right beside it), ``met`` (bool, or None for series without a target) and ``detail``.
``scale`` shrinks the data for the smoke test in the test suite.
"""
