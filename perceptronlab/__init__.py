"""perceptronlab: the perceptron family, exactly as the textbooks define it, with its theory computed.

The public API is what this module re-exports (``__all__``). Names load on first use, so
``import perceptronlab`` stays fast and optional extras (plots, web, dask) are imported only when
asked for.
"""

from __future__ import annotations

import importlib
from typing import Any

from perceptronlab._version import __version__ as __version__  # the one place: _version.py

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    # engine
    "perceptron": "perceptronlab.core.perceptron",
    "pocket": "perceptronlab.core.perceptron",
    "Run": "perceptronlab.core.run",
    "Step": "perceptronlab.core.run",
    "show_config": "perceptronlab.core.config",
    # estimators (scikit-learn API), the family's included
    "Perceptron": "perceptronlab.estimators",
    "PocketPerceptron": "perceptronlab.estimators",
    "OnlinePerceptron": "perceptronlab.estimators",
    "AveragedPerceptron": "perceptronlab.estimators",
    "VotedPerceptron": "perceptronlab.estimators",
    "KernelPerceptron": "perceptronlab.estimators",
    "MulticlassPerceptron": "perceptronlab.estimators",
    # the family: averaged, voted, kernel, multiclass
    "averaged_perceptron": "perceptronlab.family.averaged",
    "voted_perceptron": "perceptronlab.family.voted",
    "kernel_perceptron": "perceptronlab.family.kernel",
    "multiclass_perceptron": "perceptronlab.family.multiclass",
    # theory: geometry, separability, leave-one-out, analysis (bounds: perceptronlab.bounds)
    "radius": "perceptronlab.theory.geometry",
    "radius_squared": "perceptronlab.theory.geometry",
    "distance": "perceptronlab.theory.geometry",
    "margin": "perceptronlab.theory.geometry",
    "max_margin": "perceptronlab.theory.geometry",
    "MaxMarginResult": "perceptronlab.theory.geometry",
    "separable": "perceptronlab.theory.separability",
    "SeparabilityResult": "perceptronlab.theory.separability",
    "loo_error": "perceptronlab.theory.loo",
    "LooResult": "perceptronlab.theory.loo",
    "analyze": "perceptronlab.theory.analysis",
    "Analysis": "perceptronlab.theory.analysis",
    # data and models
    "read_data": "perceptronlab.io",
    "save_model": "perceptronlab.io",
    "load_model": "perceptronlab.estimators",
    # errors and warnings
    "PerceptronLabError": "perceptronlab.exceptions",
    "InputError": "perceptronlab.exceptions",
    "NotSeparableError": "perceptronlab.exceptions",
    "WeightOverflowError": "perceptronlab.exceptions",
    "NotFittedError": "perceptronlab.exceptions",
    "PerceptronLabWarning": "perceptronlab.exceptions",
    "NotConvergedWarning": "perceptronlab.exceptions",
    "CycledWarning": "perceptronlab.exceptions",
}

_SUBMODULES = (
    "core",
    "estimators",
    "io",
    "exceptions",
    "adversary",
    "distributed",
    "datasets",
    "plots",
    "studies",
    "bounds",
    "river_classifiers",
    "online",
)

__all__ = sorted(_EXPORTS) + list(_SUBMODULES)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f"perceptronlab.{name}")
    raise AttributeError(f"module 'perceptronlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
