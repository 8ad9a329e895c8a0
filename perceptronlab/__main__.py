"""``python -m perceptronlab`` and the ``perceptronlab`` console script: the command line.

The entry point imports the command line inside a guard, so that Ctrl-C while it starts (Typer
and the command modules take a tenth of a second to import) ends like Ctrl-C anywhere else: the
line ``Interrupted.`` and exit code 130, no traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None, prog_name: str = "perceptronlab") -> None:
    """Run the ``perceptronlab`` command line (:func:`perceptronlab.cli.main`)."""
    try:
        from perceptronlab.cli import main as cli_main
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        sys.exit(130)
    cli_main(argv, prog_name=prog_name)


if __name__ == "__main__":
    main(prog_name="python -m perceptronlab")
