"""Any number of classes on the command line: one binary run per class (one-vs-rest).

``train`` on k > 2 classes runs its algorithm once per class, that class (+1) against the rest
(−1), and predicts the class of the highest score ⟨w_c, x⟩ + b_c, as scikit-learn's one-vs-rest
does; ``--algorithm multiclass`` trains the multiclass perceptron instead (one weight row per class,
Collins' update). :class:`OneVsRest` holds the k runs and is saved like a fitted estimator (its
``coef_``, ``intercept_`` and ``classes_``), so ``predict`` reads it through the one model-file
contract.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


def one_vs_rest_signs(y: Any, label: Any) -> np.ndarray:
    """+1 where ``y`` is ``label``, −1 elsewhere (the binary task of one class)."""
    return np.where(np.asarray(y) == label, 1, -1)


@dataclass
class OneVsRest:
    """k binary runs, one per class (that class +1 against the rest), as one model.

    Attributes
    ----------
    runs : the runs, in the order of ``classes_``.
    classes_ : the labels.
    algorithm : the binary algorithm's name ("perceptron", "pocket", "averaged perceptron").
    params : the runs' parameters (the same for every class).
    """

    runs: list[Any]
    classes_: np.ndarray
    algorithm: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def exact(self) -> bool:
        return bool(self.runs[0].exact)

    @property
    def coef_(self) -> np.ndarray:
        return np.array(
            [list(run.w) for run in self.runs], dtype=object if self.exact else np.float64
        )

    @property
    def intercept_(self) -> np.ndarray:
        return np.array([run.b for run in self.runs], dtype=object if self.exact else np.float64)

    @property
    def n_mistakes_(self) -> list[int]:
        return [int(run.mistakes) for run in self.runs]

    @property
    def n_sweeps_(self) -> list[int]:
        return [int(run.sweeps) for run in self.runs]

    @property
    def converged_(self) -> list[bool]:
        return [bool(run.converged) for run in self.runs]

    def get_params(self, deep: bool = False) -> dict[str, Any]:
        return {**self.params, "multiclass": "one-vs-rest"}

    def predict(self, X: Any) -> np.ndarray:
        """The class of the highest score (ties: the first of ``classes_``), through the core's decision path."""
        from perceptronlab.core.scores import labels, score_matrix

        return labels(score_matrix(X, self.coef_, self.intercept_), self.classes_)
