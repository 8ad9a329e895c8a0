"""Shared fixtures and settings. Tests mirror the package: tests/test_<module>.py."""

import os

from hypothesis import HealthCheck, settings

# Plots render headless everywhere.
os.environ.setdefault("MPLBACKEND", "Agg")

# Hypothesis profiles, chosen with HYPOTHESIS_PROFILE: "test" (the default, `make test`: Hypothesis's
# 100 examples, the fuzz suites in about a minute) and "fuzz" (`make fuzz`, the tests marked `fuzz`:
# 20 times the examples). Tests that set max_examples themselves keep theirs; the fuzz tests
# (tests/test_fuzz.py, tests/test_web_fuzz.py) take multiples of the profile's.
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("test", max_examples=100, suppress_health_check=_SLOW_OK)
settings.register_profile("fuzz", max_examples=2000, deadline=None, suppress_health_check=_SLOW_OK,
                          print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "test"))
