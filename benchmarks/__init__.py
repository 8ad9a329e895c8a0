"""perceptronlab's benchmarks: ``make bench`` (``python -m benchmarks``; ``--quick`` for a smoke run).

Every ``benchmarks/bench_*.py`` module exposes functions ``bench_<name>(scale=1.0)`` returning a row
(or a list of them) made by :func:`benchmarks._timing.result_row`: ``case``, ``target`` and its
``bound``, ``ratio`` (the median of interleaved rounds against a baseline timed beside it),
``spread`` (the smallest and largest round), ``rounds``, ``checks`` and ``met``, which follows from
those numbers (:func:`benchmarks._timing.check_row` verifies it). ``scale`` shrinks the data for the
smoke test in the test suite. The measured code and its baselines are in ``_runs.py`` and
``baselines.py``, the data in ``_data.py``, what the machine reports in ``_machine.py``.
"""
