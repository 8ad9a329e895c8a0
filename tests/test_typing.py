"""The public API stays typed: every public function and method has annotated parameters and return.

The public names are those of ``perceptronlab.__all__`` and of the public submodules' ``__all__``.
A class is checked through its own methods and those of the perceptronlab classes it inherits
(public ones, ``__init__`` and ``__call__``); scikit-learn's, NumPy's and Python's are theirs.
mypy checks the annotations themselves (``make lint``, configuration in pyproject.toml).
"""

from __future__ import annotations

import importlib
import inspect
import typing
from typing import Any

import pytest

import perceptronlab
from perceptronlab._ground import validation as v

SUBMODULES = (
    "bounds",
    "datasets",
    "adversary",
    "plots",
    "studies.experiments",
    "studies.report",
    "io",
    "distributed",
    "estimators",
    "river_classifiers",
    "web.widget",
)


def public_names() -> dict[str, Any]:
    names = {
        f"perceptronlab.{n}": getattr(perceptronlab, n)
        for n in perceptronlab.__all__
        if not inspect.ismodule(getattr(perceptronlab, n))
    }
    for sub in SUBMODULES:
        module = importlib.import_module(f"perceptronlab.{sub}")
        names.update({f"perceptronlab.{sub}.{n}": getattr(module, n) for n in module.__all__})
    return {
        name: obj for name, obj in names.items() if inspect.isfunction(obj) or inspect.isclass(obj)
    }


def ours(obj: Any) -> bool:
    return (getattr(obj, "__module__", None) or "").startswith("perceptronlab")


def unannotated(func: Any, where: str) -> list[str]:
    """The parameters (and the return) of ``func`` without an annotation."""
    signature = inspect.signature(func)
    params = list(signature.parameters.values())
    if params and params[0].name in ("self", "cls"):
        params = params[1:]
    gaps = [f"{where}({p.name})" for p in params if p.annotation is inspect.Parameter.empty]
    if signature.return_annotation is inspect.Signature.empty:
        gaps.append(f"{where} -> ?")
    return gaps


def methods(cls: type) -> dict[str, Any]:
    """The public methods, properties, ``__init__`` and ``__call__`` of ``cls`` and of its
    perceptronlab bases (the nearest definition of each name)."""
    found: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        if not ours(base):
            continue
        for name, value in vars(base).items():
            if name.startswith("_") and name not in ("__init__", "__call__"):
                continue
            if isinstance(value, property) and value.fget is not None:
                found[name] = value.fget
            elif isinstance(value, staticmethod | classmethod):
                found[name] = value.__func__
            elif inspect.isfunction(value) and ours(value):
                found[name] = value
    return found


def gaps_of(name: str, obj: Any) -> list[str]:
    if inspect.isfunction(obj):
        return unannotated(obj, name)
    return [
        gap
        for method, func in methods(obj).items()
        for gap in unannotated(func, f"{name}.{method}")
    ]


def test_the_public_api_is_annotated():
    missing = {name: gaps for name, obj in public_names().items() if (gaps := gaps_of(name, obj))}
    assert missing == {}, "public names without annotations (annotate them): " + repr(missing)


def test_the_check_sees_a_missing_annotation():
    def half(X: Any, y):  # noqa: ANN001 -- unannotated on purpose
        return X

    assert unannotated(half, "half") == ["half(y)", "half -> ?"]


@pytest.mark.parametrize(
    "name",
    [
        "perceptron",
        "pocket",
        "averaged_perceptron",
        "voted_perceptron",
        "kernel_perceptron",
        "multiclass_perceptron",
        "separable",
        "max_margin",
        "loo_error",
        "analyze",
        "radius",
        "margin",
    ],
)
def test_data_parameters_are_array_likes(name):
    """X is a matrix-like (arrays, rows of exact numbers, sparse), y an ArrayLike: never a bare Any."""
    parameters = inspect.signature(getattr(perceptronlab, name)).parameters
    assert parameters["X"].annotation == "MatrixLike"
    if "y" in parameters:
        assert parameters["y"].annotation == "ArrayLike"


@pytest.mark.parametrize(
    "name",
    [
        "Perceptron",
        "PocketPerceptron",
        "OnlinePerceptron",
        "AveragedPerceptron",
        "VotedPerceptron",
        "KernelPerceptron",
        "MulticlassPerceptron",
    ],
)
def test_fit_returns_self(name):
    estimator = getattr(perceptronlab, name)
    assert inspect.signature(estimator.fit).return_annotation == "Self"
    assert inspect.signature(estimator.fit).parameters["X"].annotation == "MatrixLike"


def test_the_choice_tables_are_the_literal_types():
    """One rule: each table the checks use is the arguments of the Literal the signatures use."""
    from perceptronlab.core import run
    from perceptronlab.distributed import mixing
    from perceptronlab.family import kernel
    from perceptronlab.teach import exams
    from perceptronlab.theory import geometry, loo

    pairs = [
        (v.ORDERS, v.Order),
        (v.FAMILY_ORDERS, v.FamilyOrder),
        (v.POCKET_CHECKS, v.PocketCheck),
        (v.BACKENDS, v.Backend),
        (run.TABLE_FORMATS, run.TableFormat),
        (kernel.KERNELS, kernel.Kernel),
        (kernel.VARIANTS, kernel.Variant),
        (kernel.CACHE_MODES, kernel.CacheMode),
        (geometry.METHODS, geometry.Method),
        (geometry.SOLVERS, geometry.Solver),
        (mixing.MIXINGS, mixing.Mixing),
        (exams.KINDS, exams.Kind),
    ]
    for table, literal in pairs:
        assert table == typing.get_args(literal)
    # loo_error's option names are its TypedDict's keys, read from it (no second table to drift)
    with pytest.raises(v.InputError) as refused:
        loo.loo_error([[1, 0]], [1], trace=True)
    assert f"one of {', '.join(loo.LooOptions.__annotations__)}, got 'trace'" in str(refused.value)
