"""The shape of the house: one public home per name, private names stay home, the rule in the core.

The layers themselves are import-linter's contracts in pyproject.toml (``make lint``).
"""

import ast
import functools
import importlib
import re
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


# ---------------------------------------------------------------- where the rule is written
# The rule is found by its shape, whatever the names: in one function (or a module's top level), an
# addition of a product to a stored value (``w += …``, ``w = w + …``, a comprehension over ``w``,
# ``np.add``) in a branch of a comparison of a product (``y·s <= ρ₀``, ``<``, ``not … >``, ``>=``
# reversed, ``sign(⟨w,x⟩) != y``, a mask of such comparisons), compiled, NumPy or plain Python.
# A loop that calls the helpers of core/rule.py writes no such branch. The places that may, and why
# (docs/architecture.md, "Where the rule lives", explains each):
RULE_ALLOW_LIST = {
    ("core/online.py", "learn"): "one online round over dict weights keyed by feature name "
    "(they cannot enter compiled code)",
}

# calls that multiply (a product, a dot product), that sum, and that add into an array
_PRODUCT_CALLS = {"dot", "vdot", "inner", "matmul", "multiply", "einsum", "outer", "tensordot"}
_SUM_CALLS = {"sum", "fsum", "nansum"}
_ADD_CALLS = {"add", "subtract", "__iadd__", "__isub__", "axpy", "at"}
_SIGN_CALLS = {"sign", "sgn", "signum", "copysign", "heaviside"}
_ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_LEAVES = (ast.Continue, ast.Break, ast.Return, ast.Raise)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _call_name(node):
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def _own_nodes(node):
    """The nodes inside ``node``, without those of the functions and classes defined in it."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        yield child
        if not isinstance(child, _SCOPES):
            stack.extend(ast.iter_child_nodes(child))


def _is_infinite(node):
    """math.inf, np.inf, float("inf"): a finiteness check (abs(s) < inf), not a threshold."""
    if isinstance(node, ast.Attribute | ast.Name):
        return (node.attr if isinstance(node, ast.Attribute) else node.id) in {
            "inf",
            "Inf",
            "infty",
        }
    return (
        isinstance(node, ast.Call)
        and _call_name(node) == "float"
        and any(
            isinstance(a, ast.Constant)
            and str(a.value).lower().lstrip("+-") in {"inf", "infinity", "nan"}
            for a in node.args
        )
    )


def _base(node):
    """w for w, w[j], self.w, self.w[j]."""
    while isinstance(node, ast.Subscript | ast.Starred):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def _assigned(statements):
    """The targets assigned anywhere in ``statements``."""
    return [
        target
        for statement in statements
        for n in ast.walk(statement)
        if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign)
        for target in (n.targets if isinstance(n, ast.Assign) else [n.target])
    ]


def _plain_names(targets):
    """The plain names assigned (``s``, ``a, b``), not the arrays written into (``w[j]``)."""
    found = set()
    for t in targets:
        if isinstance(t, ast.Name):
            found.add(t.id)
        elif isinstance(t, ast.Tuple | ast.List):
            found |= _plain_names(t.elts)
    return found


def _names(node):
    """The names and attribute names in ``node`` (w, self.w: both ``w``)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


class _Scope:
    """One function (or a module's top level): which of its names hold a product or a test."""

    def __init__(self, node):
        self.node = node
        self.products: set[str] = set()
        self.tests: set[str] = set()
        own = list(_own_nodes(node))
        assigns = [
            (_plain_names(n.targets if isinstance(n, ast.Assign) else [n.target]), n.value)
            for n in own
            if isinstance(n, ast.Assign | ast.AnnAssign | ast.NamedExpr) and n.value is not None
        ]
        branches = [  # what a mistake sets (a step, a flag) marks the mistake
            (n.test, _plain_names(_assigned(n.body + n.orelse)))
            for n in own
            if isinstance(n, ast.If | ast.While)
        ]
        while True:  # chains of names: s = w @ x; m = y * s; wrong = m <= 0
            before = len(self.tests) + len(self.products)
            for names, value in assigns:
                if self.holds_test(value):
                    self.tests |= names
                elif self.is_product(value):
                    self.products |= names
            for test, names in branches:
                if not names <= self.tests and self.is_test(test):
                    self.tests |= names
            if len(self.tests) + len(self.products) == before:
                break

    def is_product(self, node, *, score=True):
        """A product, a dot product, a sum of products; with ``score``, also a product plus
        something (⟨w,x⟩ + b, y·s − ρ₀)."""
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Mult | ast.MatMult):
                return True
            if isinstance(node.op, ast.Div):
                return self.is_product(node.left, score=score)
            return (
                score
                and isinstance(node.op, ast.Add | ast.Sub)
                and (self.is_product(node.left) or self.is_product(node.right))
            )
        if isinstance(node, ast.UnaryOp):
            return self.is_product(node.operand, score=score)
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if name in _PRODUCT_CALLS:
                return True
            return name in _SUM_CALLS and any(self.is_product(a, score=False) for a in node.args)
        if isinstance(node, ast.GeneratorExp | ast.ListComp):
            return self.is_product(node.elt, score=False)
        if isinstance(node, ast.Subscript):
            return self.is_product(node.value, score=score)
        return isinstance(node, ast.Name) and node.id in self.products

    def is_test(self, node):
        """Holds a comparison of a product with anything (``<``, ``<=``, ``>``, ``>=``, and ``not``
        of one), or a name that holds one (a mask of the mistakes)."""
        for n in ast.walk(node):
            if isinstance(n, ast.Compare) and any(isinstance(op, _ORDERING) for op in n.ops):
                sides = [n.left, *n.comparators]
                if any(self.is_product(o) for o in sides) and not any(map(_is_infinite, sides)):
                    return True
            if isinstance(n, ast.Compare) and any(
                isinstance(op, ast.Eq | ast.NotEq) for op in n.ops
            ):
                if any(  # sign(⟨w,x⟩) != y
                    isinstance(o, ast.Call)
                    and _call_name(o) in _SIGN_CALLS
                    and self.is_product(o.args[0])
                    for o in [n.left, *n.comparators]
                    if isinstance(o, ast.Call) and o.args
                ):
                    return True
            if isinstance(n, ast.Name) and n.id in self.tests:
                return True
        return False

    def holds_test(self, node):
        """A value that is a mistake test's outcome: a comparison, ``not``/``and``/``or`` of one, a
        call over one (``np.flatnonzero(y * s <= 0)``), a name holding one; not arithmetic on it."""
        if isinstance(node, ast.Compare | ast.BoolOp) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
        ):
            return self.is_test(node)
        if isinstance(node, ast.Call):
            return any(self.holds_test(a) for a in node.args)
        return isinstance(node, ast.Name) and node.id in self.tests

    def is_update(self, node):
        """An addition of a product to a stored value: ``w += …``, ``w = w + …`` (also inside a
        comprehension over ``w``), ``np.add(w, …)``, ``np.add.at``; the product not a score."""
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add | ast.Sub):
            return self.is_product(node.value, score=False)
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            own = {_base(t) for t in targets}
            for n in ast.walk(node.value):  # names that stand for w's entries: for wj in w
                if isinstance(n, ast.comprehension) and own & _names(n.iter):
                    own |= _names(n.target)
            return any(
                isinstance(n, ast.BinOp)
                and isinstance(n.op, ast.Add | ast.Sub)
                and any(
                    self.is_product(a, score=False) and own & _names(other)
                    for a, other in ((n.left, n.right), (n.right, n.left))
                )
                for n in ast.walk(node.value)
            )
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            call = node.value
            return _call_name(call) in _ADD_CALLS and any(
                self.is_product(a, score=False) for a in call.args
            )
        return False

    def copies(self):
        """Lines of the updates in a branch of a mistake test (its body, its else, or what follows
        an ``if`` that ends in ``continue``/``return``/``break``), or that hold a test themselves."""
        lines: set[int] = set()
        self._block(getattr(self.node, "body", []), False, lines)
        return sorted(lines)

    def _block(self, statements, guarded, lines):
        for statement in statements:
            if isinstance(statement, _SCOPES):
                continue  # a function inside is a scope of its own
            for node in [statement, *self._expressions(statement)]:
                if self.is_update(node) and (guarded or self.is_test(node)):
                    lines.add(node.lineno)
            test = isinstance(statement, ast.If | ast.While) and self.is_test(statement.test)
            for field in ("body", "orelse", "handlers", "finalbody"):
                inner = getattr(statement, field, [])
                if field == "handlers":
                    inner = [s for h in inner for s in h.body]
                self._block(inner, guarded or (test and field in ("body", "orelse")), lines)
            if test and statement.body and isinstance(statement.body[-1], _LEAVES):
                guarded = True  # if y·s > 0: continue — what follows is the mistake's branch

    @staticmethod
    def _expressions(statement):
        """The expressions of one statement (not its inner blocks); comprehension updates."""
        for field, value in ast.iter_fields(statement):
            if field in ("body", "orelse", "handlers", "finalbody"):
                continue
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, ast.AST) and not isinstance(item, _SCOPES):
                    yield from (n for n in ast.walk(item) if isinstance(n, ast.Call))


def rule_copies(tree):
    """(function, line) of every place that writes the rule, whatever its names: an addition of a
    product in a branch of a comparison of a product (the update under the mistake test)."""
    scopes = [("<module>", tree)] + [
        (n.name, n) for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    return [(name, line) for name, node in scopes for line in _Scope(node).copies()]


@functools.cache
def _file_copies(text: str) -> list[tuple[str, int]]:
    return rule_copies(ast.parse(text))


def rule_offenders(sources: dict[str, str]) -> tuple[list[str], set[tuple[str, str]]]:
    """The rule's copies outside the allow-list (``path:line function``), and the entries found."""
    offenders, found = [], set()
    for relative, text in sorted(sources.items()):
        for function, line in _file_copies(text):
            if (relative, function) in RULE_ALLOW_LIST:
                found.add((relative, function))
            else:
                offenders.append(f"{relative}:{line} {function}")
    return offenders, found


def package_sources() -> dict[str, str]:
    return {
        path.relative_to(PACKAGE).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_the_rule_is_written_only_where_the_allow_list_says():
    offenders, found = rule_offenders(package_sources())
    assert offenders == [], (
        "call perceptronlab.core.rule (or an engine); a new place needs an entry in "
        "RULE_ALLOW_LIST and its reason in docs/architecture.md"
    )
    assert set(RULE_ALLOW_LIST) - found == set(), "stale: remove from RULE_ALLOW_LIST and the docs"


# copies of the rule in other spellings, planted into a copy of a module (compiled, NumPy, Python)
PLANTED = {
    "core/kernels.py": [
        """
@njit(cache=True)
def _planted(X, y, theta, eta, rho):
    for i in range(X.shape[0]):
        s = 0.0
        for j in range(X.shape[1]):
            s += theta[j] * X[i, j]
        if y[i] * s <= rho:
            for j in range(X.shape[1]):
                theta[j] += eta * y[i] * X[i, j]
""",
        """
@njit(cache=True)
def _planted(X, labels, coef, lr, threshold, intercept):
    for i in range(X.shape[0]):
        if threshold >= labels[i] * (_dot(coef, X, i) + intercept):
            g = lr * labels[i]
            for j in range(X.shape[1]):
                coef[j] = coef[j] + g * X[i, j]
            intercept += g
    return intercept
""",
        """
@njit(cache=True)
def _planted(X, y, w):
    for i in range(X.shape[0]):
        m = y[i] * np.dot(w, X[i])
        if m > 0.0:
            continue
        w += X[i] * y[i]
""",
    ],
    "family/averaged.py": [
        """
def _planted(X, y, coef, eta):
    for xi, yi in zip(X, y):
        if not yi * np.dot(coef, xi) > 0:
            coef += np.multiply(eta * yi, xi)
    return coef
""",
        """
def _planted(X, y, w, eta):
    for x, label in zip(X, y):
        if label * (x @ w) < 0.0:
            w = w + eta * label * x
    return w
""",
        """
def _planted(X, y, w, eta):
    wrong = y * (X @ w) <= 0
    w += eta * (y[wrong] @ X[wrong])
    return w
""",
        """
def _planted(X, y, w, eta):
    for x, t in zip(X, y):
        if np.sign(x @ w) != t:
            np.add(w, eta * t * x, out=w)
    return w
""",
    ],
    "studies/worst_case.py": [
        """
def _planted(rows, labels, weights, rate):
    for row, label in zip(rows, labels):
        score = sum(a * b for a, b in zip(weights, row))
        if label * score <= 0:
            weights = [a + rate * label * b for a, b in zip(weights, row)]
    return weights
""",
        """
class _Planted:
    def fit(self, rows, labels):
        for row, label in zip(rows, labels):
            mistake = label * sum(v * r for v, r in zip(self.v, row)) <= self.rho
            if mistake:
                for k in range(len(row)):
                    self.v[k] += self.step * label * row[k]
""",
    ],
}


@pytest.mark.parametrize(
    ("module", "planted"),
    [(module, code) for module, codes in PLANTED.items() for code in codes],
    ids=[f"{m}-{k}" for m, codes in PLANTED.items() for k in range(len(codes))],
)
def test_the_guard_catches_a_planted_copy(module, planted):
    sources = package_sources()
    assert module in sources
    sources[module] = sources[module] + "\n" + planted
    compile(sources[module], module, "exec")  # the plant is real code
    offenders, _ = rule_offenders(sources)
    assert [o for o in offenders if o.startswith(module + ":")], planted


def test_the_guard_passes_what_is_not_the_rule():
    """Scores, margins, finiteness checks, loss sums and the helpers' calls are not the rule."""
    code = """
def fine(X, y, w, b, margin, eta):
    scores = y * (X @ w + b)
    near = np.flatnonzero(scores <= scores.min() * (1 + 1e-9) + 1e-15)
    loss = 0.0
    for i in range(X.shape[0]):
        s = y[i] * (X[i] @ w + b)
        if not abs(s) < math.inf:
            return None
        if s <= margin:
            loss += margin - s
        if is_mistake(y[i], s, margin):
            add_row(X, i, w, eta * y[i])
    return near, loss
"""
    assert rule_copies(ast.parse(code)) == []


def test_the_docs_explain_every_allow_list_entry():
    docs = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Where the rule lives") :]
    section = section[: section.index("\n## ", 3)]
    missing = [
        f"{path} {function}"
        for path, function in RULE_ALLOW_LIST
        if f"`{path}`" not in section or f"`{function}`" not in section
    ]
    assert missing == []


# ---------------------------------------------------------------- the docs name what exists
ROOT = PACKAGE.parent
_DOCS = ("README.md", "CONTRIBUTING.md", "docs/architecture.md")


def _named_paths(text: str) -> set[str]:
    """``perceptronlab/…`` paths anywhere, and backticked paths of the package's folders
    (``core/rule.py``, ``family/``) or of the repository (``tests/family_twins.py``)."""
    paths = {m.rstrip(".,:;)") for m in re.findall(r"perceptronlab/[\w./-]*", text)}
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir()} | {"tests", "docs", "benchmarks"}
    for token in re.findall(r"`([\w./-]+)`", text):
        head = token.split("/")[0]
        if "/" in token and head in folders and "*" not in token:
            paths.add(token)
    return paths


@pytest.mark.parametrize("doc", _DOCS)
def test_every_path_the_docs_name_exists(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    missing = sorted(
        path
        for path in _named_paths(text)
        if not (ROOT / path).exists() and not (PACKAGE / path).exists()
    )
    assert missing == [], f"{doc} names paths that do not exist"
    generated = sorted(path for path in _named_paths(text) if "__pycache__" in path)
    assert generated == [], f"{doc} names a machine's generated file (a cache), not the tree"
