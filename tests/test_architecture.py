"""The shape of the house: one public home per name, private names stay home, the rule in the core.

The layers themselves are import-linter's contracts in pyproject.toml (``make lint``).
"""

import ast
import importlib
import io
import re
import tokenize
from pathlib import Path

import pytest

import perceptronlab

PACKAGE = Path(perceptronlab.__file__).parent
# the command line and the lab server are faces: their public API is the commands and the endpoints
FACES = ("perceptronlab.cli", "perceptronlab.web")
# 0.2.0's names, deprecated aliases that re-export the new modules (tests/test_aliases.py)
ALIASES = ("perceptronlab.scale", "perceptronlab.river")


def module_names() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def is_public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


def is_package(name: str) -> bool:
    return (PACKAGE.parent / name.replace(".", "/") / "__init__.py").exists()


def public_modules() -> list[str]:
    return [
        m
        for m in module_names()
        if is_public(m)
        and not m.startswith(FACES)
        and not any(m == a or m.startswith(a + ".") for a in ALIASES)
    ]


def exported(module) -> dict[str, object]:
    """What a module offers: its ``__all__``, or else the public names it defines itself."""
    if hasattr(module, "__all__"):
        return {name: getattr(module, name) for name in module.__all__}
    return {
        name: value
        for name, value in vars(module).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__
    }


def test_every_public_name_imports():
    for name in perceptronlab.__all__:
        assert getattr(perceptronlab, name) is not None, name


def test_no_public_top_level_module_repeats_a_subpackage_module():
    top = {m.split(".")[1] for m in public_modules() if m.count(".") == 1 and not is_package(m)}
    repeats = [m for m in public_modules() if m.count(".") >= 2 and m.rsplit(".", 1)[1] in top]
    assert repeats == []
    for gone in (
        "perceptronlab.theory.bounds",
        "perceptronlab.teach.datasets",
        "perceptronlab.teach.adversary",
        "perceptronlab.family.estimators",
        "perceptronlab.family.experiment",
    ):
        with pytest.raises(ImportError):
            importlib.import_module(gone)


def test_one_public_home_per_name():
    """A name is offered by one public module; only the package faces (``perceptronlab`` and a
    subpackage's ``__init__`` for its own modules) repeat it."""
    homes: dict[int, list[str]] = {}
    for name in public_modules():
        module = importlib.import_module(name)
        for attr, value in exported(module).items():
            if isinstance(value, type(module)):
                continue  # a submodule, not a name
            if isinstance(value, int | float | str | bytes):
                continue  # a constant: equal ones may be one object (two 256 MiB budgets), not one name
            homes.setdefault(id(value), []).append(f"{name}.{attr}")
    doubled = []
    for paths in homes.values():
        modules = [path.rsplit(".", 1)[0] for path in paths]
        real = [m for m in modules if m != "perceptronlab"]
        faces = [m for m in real if is_package(m)]
        plain = [m for m in real if not is_package(m)]
        home = (
            plain[0] if len(plain) == 1 else (faces[0] if not plain and len(faces) == 1 else None)
        )
        if home is None or any(not home.startswith(face + ".") and face != home for face in faces):
            doubled.append(paths)
    assert doubled == []


def test_the_public_faces_of_private_implementations():
    for face, private in (
        ("bounds", "perceptronlab.theory._bounds"),
        ("datasets", "perceptronlab.teach._datasets"),
        ("adversary", "perceptronlab.teach._adversary"),
    ):
        module = getattr(perceptronlab, face)
        assert module.__name__ == f"perceptronlab.{face}"
        for name in module.__all__:
            assert getattr(module, name).__module__ == private, name
    theory, teach = (
        importlib.import_module("perceptronlab.theory"),
        importlib.import_module("perceptronlab.teach"),
    )
    assert not {"novikoff", "test_error", "sample_size"} & set(theory.__all__)
    assert not hasattr(teach, "__all__")


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                yield node.module, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                module, _, name = alias.name.rpartition(".")
                yield module, name


def test_no_private_name_is_imported_across_packages():
    """``from a.b import _c`` only from inside package ``a.b`` (or, for a module ``a.b``, inside ``a``)."""
    crossing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        importer = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for module, name in _imports(path):
            if (
                not module.startswith("perceptronlab")
                or not name.startswith("_")
                or name.startswith("__")
            ):
                continue
            home = module if is_package(module) else module.rpartition(".")[0]
            if not (importer == home or importer.startswith(home + ".")):
                crossing.append(f"{importer}: from {module} import {name}")
    assert crossing == []


def _code_only(path: Path) -> str:
    """The source without its strings and comments (messages may quote the rule)."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return " ".join(t.string for t in tokens if t.type not in (tokenize.STRING, tokenize.COMMENT))


def test_the_rule_is_written_in_the_core():
    """Outside ``core/`` no code adds η·y·x to a weight vector or tests y⟨w,x⟩ against ρ₀ itself,
    except the engines of the family's own updates (dual, multiclass) and their twins."""
    allowed = {"core", "family/_kernels.py", "family/_reference.py"}
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.split("/")[0] in allowed or relative in allowed:
            continue
        text = _code_only(path)
        for pattern in (
            r"\beta \* (y|label|signs?)\b",
            r"\bself \. eta \*",
            r"<= (self \. )?margin\b",
        ):
            if re.search(pattern, text):
                offenders.append(f"{relative}: {pattern}")
    assert offenders == []


# ---------------------------------------------------------------- where the rule is written
# Every place that writes the mistake test (a comparison with the margin ρ₀) or the update (a weight
# vector plus a product), and why it may: docs/architecture.md ("Where the rule lives") explains each
# entry. Anywhere else, call perceptronlab.core.rule (compiled) or an engine.
RULE_ALLOW_LIST = {
    (
        "core/rule.py",
        "is_mistake",
    ): "the mistake test, compiled: every sweep, the batch runner, the online rows, "
    "the ratchet and the dual sweep call it",
    ("core/rule.py", "add_row"): "the update of a dense row, compiled",
    ("core/rule.py", "add_csr_row"): "the update of a CSR row, compiled",
    (
        "core/reference.py",
        "sweep",
    ): "the NumPy twin, the oracle the kernels are held to (written apart on purpose)",
    ("core/reference.py", "walk"): "the NumPy twin's ratchet walk",
    (
        "core/driver.py",
        "_random_mistakes",
    ): "the driver's choice among the mistakes (random-mistake order), over the engine's margins",
    (
        "core/driver.py",
        "_pocket_by_steps",
    ): "Pocket's choice among the mistakes, over the engine's margins",
    (
        "core/online.py",
        "learn",
    ): "one online round in Python (dict weights by feature name cannot enter "
    "compiled code; a vector round is one NumPy line)",
    ("core/online.py", "_add_from"): "the dict round's update from a feature first seen",
    (
        "core/sgd.py",
        "*",
    ): "scikit-learn's SGD semantics (penalties, float32, per-row update scales, the hinge loss)",
    (
        "family/_kernels.py",
        "_multiclass_mistake",
    ): "the multiclass test (true class against the best rival)",
    (
        "family/_kernels.py",
        "_multiclass_add",
    ): "the multiclass update, one coordinate (dense, CSR, intercept)",
    ("family/_reference.py", "_multiclass_update"): "the multiclass twin",
    ("family/_reference.py", "_multiclass_sweep"): "the multiclass twin's test",
    ("family/_reference.py", "kernel_sweep"): "the dual sweep's twin",
}
# entries that need not be found (a whole module's rule, written by its own semantics)
RULE_MOVING = {("core/sgd.py", "*")}
_WEIGHT_NAMES = {"w", "W", "weights", "_w", "w_true", "w_rival"}


def _base_name(node):
    while isinstance(node, ast.Subscript | ast.Attribute):
        if isinstance(node, ast.Attribute):
            return node.attr
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _has_product(node) -> bool:
    return any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult) for n in ast.walk(node))


def _is_margin(node) -> bool:
    return (isinstance(node, ast.Name) and node.id == "margin") or (
        isinstance(node, ast.Attribute) and node.attr == "margin"
    )


def rule_sites(tree: ast.AST) -> list[tuple[str, str, int]]:
    """(kind, function, line) of every mistake test (``… <= margin``, ``… > margin``) and every update
    (``w += x * c``, ``w[j] = w[j] + x * c`` and the like, on a weight vector) in a module."""
    sites = []

    def visit(node, function):
        for child in ast.iter_child_nodes(node):
            inner = (
                child.name
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
                else function
            )
            if (
                isinstance(child, ast.Compare)
                and any(isinstance(op, ast.LtE | ast.Gt) for op in child.ops)
                and any(_is_margin(c) for c in child.comparators)
            ):
                sites.append(("mistake test", inner, child.lineno))
            if (
                isinstance(child, ast.AugAssign)
                and isinstance(child.op, ast.Add | ast.Sub)
                and _base_name(child.target) in _WEIGHT_NAMES
                and _has_product(child.value)
            ):
                sites.append(("update", inner, child.lineno))
            if (
                isinstance(child, ast.Assign)
                and any(_base_name(t) in _WEIGHT_NAMES for t in child.targets)
                and isinstance(child.value, ast.BinOp)
                and isinstance(child.value.op, ast.Add | ast.Sub)
                and _has_product(child.value)
            ):
                sites.append(("update", inner, child.lineno))
            visit(child, inner)

    visit(tree, "<module>")
    return sites


def test_the_rule_detector_sees_the_forms_it_must():
    code = (
        "def f(w, x, c, y, s, margin, self):\n    w += x * c\n    w[j] = w[j] + x[j] * c\n"
        "    if y * s <= margin: pass\n    if y * s > self.margin: pass\n    n += 1\n    u[j] += x * c\n"
    )
    kinds = [(kind, line) for kind, _, line in rule_sites(ast.parse(code))]
    assert kinds == [("update", 2), ("update", 3), ("mistake test", 4), ("mistake test", 5)]


def test_the_rule_is_written_only_where_the_allow_list_says():
    found = set()
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        for kind, function, line in rule_sites(ast.parse(path.read_text(encoding="utf-8"))):
            entry = (
                (relative, function) if (relative, function) in RULE_ALLOW_LIST else (relative, "*")
            )
            if entry in RULE_ALLOW_LIST:
                found.add(entry)
            else:
                offenders.append(f"{relative}:{line} {function}: {kind}")
    assert offenders == [], (
        "call perceptronlab.core.rule, or add an entry (and explain it in docs/architecture.md)"
    )
    stale = set(RULE_ALLOW_LIST) - found - RULE_MOVING
    assert stale == set(), "remove these entries from RULE_ALLOW_LIST and docs/architecture.md"


def test_the_docs_explain_every_allow_list_entry():
    docs = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Where the rule lives") :]
    section = section[: section.index("\n## ", 3)]
    missing = [
        f"{path} {function}"
        for path, function in RULE_ALLOW_LIST
        if f"`{path}`" not in section or (function != "*" and f"`{function}`" not in section)
    ]
    assert missing == []
