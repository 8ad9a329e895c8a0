"""Shared fixtures. Tests mirror the package: tests/test_<module>.py."""

import os

# Plots render headless everywhere.
os.environ.setdefault("MPLBACKEND", "Agg")
