"""Engine commands: ``train``, ``predict``, ``trace`` and ``demo`` (issue 2, section 9)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the engine commands to ``app``."""
