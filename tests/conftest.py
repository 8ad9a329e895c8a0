"""Shared fixtures. Tests mirror the package: tests/test_<module>.py."""

import os

from hypothesis import settings

# Plots render headless everywhere.
os.environ.setdefault("MPLBACKEND", "Agg")

# Fuzz tests (marked `fuzz`) take their number of examples from the Hypothesis profile:
# the default in `make test`, many more with HYPOTHESIS_PROFILE=fuzz (`make fuzz`).
settings.register_profile("fuzz", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
