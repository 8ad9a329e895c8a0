"""Examples for the API reference where a public docstring has none yet (api_examples.md).

Each section of api_examples.md is headed by a public name (``## perceptronlab.Run``) and holds
one self-contained doctest; conf.py appends it as the Examples section of that name's page, and
tests/test_docs.py runs every one and fails when a name has examples in both places.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "api_examples.md"


@cache
def sections() -> dict[str, str]:
    """Public name -> the text of its example (a doctest, with prose lines allowed)."""
    text = SOURCE.read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for match in re.finditer(r"^## (\S+)\n(.*?)(?=^## |\Z)", text, flags=re.S | re.M):
        name, body = match.group(1), match.group(2)
        if name in found:
            raise ValueError(f"{SOURCE.name}: {name} has two sections")
        code = re.search(r"^```pycon\n(.*?)^```", body, flags=re.S | re.M)
        if code is None:
            raise ValueError(f"{SOURCE.name}: the section {name} has no ```pycon block")
        found[name] = code.group(1).rstrip("\n")
    return found


def examples_for(name: str) -> str | None:
    return sections().get(name)
