"""The lab page's ES modules as one module, for the Jupyter widget (anywidget loads one ES module).

>>> from perceptronlab.web.bundle import STATIC, bundle
>>> source = bundle(STATIC / "lab.js")
>>> "export default" in source and 'from "./' not in source
True

No Node and no build step: the page's modules keep to a small form that this module rewrites.
Each module becomes a function scope whose exports are the fields of one object, in an order
where every module comes after those it imports:

- imports: ``import { a, b as c } from "./x.js";`` (one line, a sibling file);
- exports: ``export function|async function|const|let|class name``, ``export { a, b as c } from
  "./x.js";`` and, in the entry only, ``export default value;``.

Anything else that starts a line with ``import`` or ``export`` is refused with the file and line,
as is a cycle of imports.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["STATIC", "BundleError", "bundle", "module_order"]

#: The lab page's files (the served page's /static/).
STATIC = Path(__file__).resolve().parent / "static"

_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w.-]+\.js)";\s*$')
_REEXPORT = re.compile(r'^export\s*\{([^}]*)\}\s*from\s*"\./([\w.-]+\.js)";\s*$')
_DECLARATION = re.compile(
    r"^export\s+((?:async\s+)?function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)"
)
_DEFAULT = re.compile(r"^export\s+default\s+")


class BundleError(ValueError):
    """A module outside the form the bundler reads (the message names the file and the line)."""


def _names(listing: str) -> list[tuple[str, str]]:
    """``a, b as c`` as [(a, a), (b, c)]: (the name exported, the name bound)."""
    pairs = []
    for item in listing.split(","):
        parts = item.split()
        if not parts:
            continue
        if len(parts) == 1:
            pairs.append((parts[0], parts[0]))
        elif len(parts) == 3 and parts[1] == "as":
            pairs.append((parts[0], parts[2]))
        else:
            raise BundleError(f"cannot read the names {listing.strip()!r}")
    return pairs


def _scope(name: str) -> str:
    return "__plab_" + re.sub(r"\W", "_", name.removesuffix(".js"))


def _imports(path: Path) -> list[str]:
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _IMPORT.match(line) or _REEXPORT.match(line)
        if match:
            found.append(match.group(2))
    return found


def module_order(entry: Path) -> list[Path]:
    """The modules ``entry`` needs, each after those it imports (``entry`` last)."""
    order: list[Path] = []
    visiting: list[Path] = []

    def visit(path: Path) -> None:
        if path in order:
            return
        if path in visiting:
            cycle = " → ".join(p.name for p in [*visiting[visiting.index(path) :], path])
            raise BundleError(
                f"{path.name}: expected modules without a cycle of imports, got {cycle}"
            )
        if not path.is_file():
            raise BundleError(
                f"{path.name}: imported by {visiting[-1].name if visiting else 'nobody'} but missing"
            )
        visiting.append(path)
        for name in _imports(path):
            visit(path.parent / name)
        visiting.pop()
        order.append(path)

    visit(entry)
    return order


def _rewrite(path: Path, is_entry: bool) -> tuple[str, list[str]]:
    """The body of ``path`` as a function scope, and the fields of its exports object."""
    lines: list[str] = []
    fields: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        where = f"{path.name}, line {number}"
        if match := _IMPORT.match(line):
            bindings = ", ".join(
                name if name == local else f"{name}: {local}" for name, local in _names(match[1])
            )
            lines.append(f"const {{ {bindings} }} = {_scope(match[2])};")
        elif match := _REEXPORT.match(line):
            fields.extend(f"{local}: {_scope(match[2])}.{name}" for name, local in _names(match[1]))
            lines.append("")
        elif match := _DECLARATION.match(line):
            fields.append(match[2])
            lines.append(line[len("export") :].lstrip())
        elif _DEFAULT.match(line):
            if not is_entry:
                raise BundleError(f"{where}: expected export default only in the entry module")
            fields.append("default: __default")
            lines.append(_DEFAULT.sub("const __default = ", line))
        elif re.match(r"^\s*(import|export)\b", line):
            raise BundleError(
                f"{where}: expected an import or export the bundler reads "
                f"(see perceptronlab/web/bundle.py), got {line.strip()[:60]!r}"
            )
        else:
            lines.append(line)
    return "\n".join(lines), fields


def bundle(entry: Path) -> str:
    """One ES module with the exports of ``entry`` (and its default export), from its modules."""
    order = module_order(entry)
    parts = [
        f"// The lab page's ES modules in one ({', '.join(p.name for p in order)}),\n"
        "// joined by perceptronlab/web/bundle.py: each module is a function scope, its exports an object."
    ]
    entry_fields: list[str] = []
    for path in order:
        body, fields = _rewrite(path, is_entry=path == entry)
        exported = ", ".join(fields)
        parts.append(
            f"// ---- {path.name}\nconst {_scope(path.name)} = (() => {{\n{body}\nreturn {{ {exported} }};\n}})();"
        )
        if path == entry:
            entry_fields = [field.split(":")[0] for field in fields]
    names = [name for name in entry_fields if name != "default"]
    scope = _scope(entry.name)
    if names:
        parts.append(f"export const {{ {', '.join(names)} }} = {scope};")
    if "default" in entry_fields:
        parts.append(f"export default {scope}.default;")
    return "\n\n".join(parts) + "\n"
