"""scikit-learn's own tests of its Perceptron, run on perceptronlab's with only the estimator swapped.

The module ``sklearn/linear_model/tests/test_perceptron.py`` is loaded from the installed
scikit-learn package (not copied here): its source runs as a fresh module, its name ``Perceptron``
is bound to :class:`perceptronlab.Perceptron` before any test runs, and its tests are collected
here as they are. A scikit-learn user's tests that swap one import line pass.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import sklearn

import perceptronlab

SOURCE = Path(sklearn.__file__).parent / "linear_model" / "tests" / "test_perceptron.py"


def _load_swapped(path: Path) -> ModuleType:
    """scikit-learn's test module, run as a module of its own with ``Perceptron`` swapped."""
    spec = importlib.util.spec_from_file_location("sklearn_test_perceptron_swapped", path)
    assert spec is not None and spec.loader is not None, (
        f"scikit-learn's tests are not installed at {path}"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.Perceptron is sklearn.linear_model.Perceptron  # what is swapped: the one import
    module.Perceptron = perceptronlab.Perceptron
    return module


_SWAPPED = _load_swapped(SOURCE)
SCIKIT_LEARN_TESTS = sorted(name for name in vars(_SWAPPED) if name.startswith("test_"))
globals().update({name: getattr(_SWAPPED, name) for name in SCIKIT_LEARN_TESTS})


def test_every_test_of_scikit_learns_module_is_collected_here():
    assert len(SCIKIT_LEARN_TESTS) >= 4  # 1.9: accuracy, correctness, undefined methods, l1_ratio
    assert _SWAPPED.Perceptron is perceptronlab.Perceptron
    assert "perceptronlab" not in SOURCE.read_text(
        encoding="utf-8"
    )  # scikit-learn's file, as installed
