"""scikit-learn's own ``test_sgd.py`` tests, run on perceptronlab's Perceptron with only the estimator swapped.

The module ``sklearn/linear_model/tests/test_sgd.py`` is loaded from the installed scikit-learn (not
copied here), twice: once with its classifier (``SGDClassifier``, ``SparseSGDClassifier`` and the
``klass``/``Estimator`` parameters) bound to scikit-learn's own ``Perceptron``, once to
perceptronlab's. Its wrappers stay as they are (their defaults ``tol=None, max_iter=5,
random_state=42`` unless a test passes others). The tests below are the cases scikit-learn's own
Perceptron passes (the others test SGDClassifier's losses, learning rates or averaging, which a
perceptron has not); each case first runs on scikit-learn's Perceptron (the oracle: it must pass
there), then on perceptronlab's.
"""

from __future__ import annotations

import importlib.util
import inspect
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from sklearn import linear_model

import perceptronlab

SOURCE = Path(sklearn.__file__).parent / "linear_model" / "tests" / "test_sgd.py"

#: scikit-learn's tests of the claimed features that its own Perceptron passes (1.9): (test, klass,
#: other parameters) with klass "dense" (SGDClassifier's place: the module's wrapper with its
#: defaults), "sparse" (SparseSGDClassifier's), "class" (linear_model.SGDClassifier's: the class
#: itself, with its own defaults), or None for a test that calls the module's SGDClassifier itself.
_BOTH = (
    "test_clone",
    "test_early_stopping",
    "test_fit_then_partial_fit",
    "test_input_format",
    "test_multiple_fit",
    "test_n_iter_no_change",
    "test_not_enough_sample_for_early_stopping",
    "test_partial_fit_binary",
    "test_partial_fit_exception",
    "test_partial_fit_multiclass",
    "test_partial_fit_weight_class_balanced",
    "test_provide_coef",
    "test_set_coef_multiclass",
    "test_set_intercept_to_intercept",
    "test_sgd_at_least_two_labels",
    "test_sgd_early_stopping_with_partial_fit",
    "test_sgd_multiclass",
    "test_sgd_multiclass_njobs",
    "test_sgd_multiclass_with_init_coef",
    "test_sgd_numerical_consistency",
    "test_weights_multiplied",
    "test_wrong_class_weight_label",
    "test_wrong_sample_weights",
)
CASES: list[tuple[str, str | None, dict[str, Any]]] = [
    *[(name, kind, {}) for name in _BOTH for kind in ("dense", "sparse")],
    *[
        ("test_set_intercept_offset", kind, {"fit_params": {"intercept_init": np.zeros((3,))}})
        for kind in ("dense", "sparse")
    ],
    *[
        ("test_set_intercept_offset_binary", kind, {"fit_params": {"intercept_init": 0}})
        for kind in ("dense", "sparse")
    ],
    *[
        ("test_sgd_dtype_match", kind, {"data_type": dtype})
        for kind in ("dense", "sparse")
        for dtype in (np.float32, np.float64)
    ],
    ("test_sgd_l1", "dense", {}),  # sparsify and densify
    ("test_sgd_random_state", "class", {"global_random_seed": 0}),  # failed with the old defaults
    ("test_sgd_verbose", "dense", {}),
    ("test_tol_parameter", None, {}),  # failed with the old defaults
    ("test_l1_ratio", None, {}),
]


def _load(perceptron: type) -> tuple[ModuleType, dict[str, Any]]:
    """test_sgd.py as a module of its own, its classifier swapped for ``perceptron``."""
    spec = importlib.util.spec_from_file_location(
        f"sklearn_test_sgd_{perceptron.__module__}", SOURCE
    )
    assert spec is not None and spec.loader is not None, f"scikit-learn's tests are not at {SOURCE}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def dense(**kwargs: Any) -> Any:
        module._update_kwargs(kwargs)  # the module's own defaults for its classifier
        return perceptron(**kwargs)

    class Sparse(perceptron):  # type: ignore[misc, valid-type]
        """As the module's _SparseSGDClassifier: X as a CSR array in every call."""

        def fit(self, X, y, *args, **kwargs):
            return super().fit(sp.csr_array(X), y, *args, **kwargs)

        def partial_fit(self, X, y, *args, **kwargs):
            return super().partial_fit(sp.csr_array(X), y, *args, **kwargs)

        def decision_function(self, X):
            return super().decision_function(sp.csr_array(X))

    def sparse(**kwargs: Any) -> Any:
        module._update_kwargs(kwargs)
        return Sparse(**kwargs)

    module.SGDClassifier, module.SparseSGDClassifier = dense, sparse
    return module, {"dense": dense, "sparse": sparse, "class": perceptron}


def _run(perceptron: type, name: str, kind: str | None, others: dict[str, Any]) -> None:
    module, klasses = _load(perceptron)
    test = getattr(module, name)
    arguments: dict[str, Any] = {}
    for parameter in inspect.signature(test).parameters:
        if parameter in ("klass", "Estimator", "SGDEstimator"):
            arguments[parameter] = klasses[kind or "dense"]
        else:
            arguments[parameter] = others[parameter]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tests' own pytest.warns still see theirs
        test(**arguments)


@pytest.mark.parametrize(
    ("name", "kind", "others"), CASES, ids=[f"{n}-{k}-{i}" for i, (n, k, _) in enumerate(CASES)]
)
def test_scikit_learns_test_passes_with_the_estimator_swapped(name, kind, others):
    _run(linear_model.Perceptron, name, kind, others)  # the oracle: scikit-learn's own passes
    _run(perceptronlab.Perceptron, name, kind, others)


def test_the_defaults_are_scikit_learns():
    """No arguments: scikit-learn's Perceptron() (shuffle=True, tol=1e-3, random_state=0), bit for bit."""
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    ours, theirs = perceptronlab.Perceptron(), linear_model.Perceptron()
    shared = set(ours.get_params()) & set(theirs.get_params())
    assert {"shuffle", "tol", "random_state", "max_iter", "eta0", "fit_intercept"} <= shared
    assert {k: ours.get_params()[k] for k in shared} == {k: theirs.get_params()[k] for k in shared}
    ours.fit(X, y)
    theirs.fit(X, y)
    assert ours.coef_.tobytes() == theirs.coef_.tobytes()
    assert ours.intercept_.tobytes() == theirs.intercept_.tobytes()
    assert ours.n_iter_ == theirs.n_iter_ and ours.t_ == theirs.t_
