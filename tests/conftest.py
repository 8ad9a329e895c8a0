"""Shared fixtures and settings. Tests mirror the package: tests/test_<module>.py."""

import os
from datetime import timedelta

from hypothesis import HealthCheck, settings

# Plots render headless everywhere.
os.environ.setdefault("MPLBACKEND", "Agg")

# Hypothesis profiles, chosen with HYPOTHESIS_PROFILE: "test" (the default, `make test`: the fuzz
# suite in about a minute) and "fuzz" (`make fuzz`: a long run, 20 times the examples). Tests that
# set max_examples themselves keep theirs; the fuzz suite (tests/test_fuzz.py) scales its own
# from the profile's.
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("test", max_examples=100, suppress_health_check=_SLOW_OK)
settings.register_profile("fuzz", max_examples=2000, suppress_health_check=_SLOW_OK,
                          deadline=timedelta(seconds=30), print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "test"))
