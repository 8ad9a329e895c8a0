"""What the family's learners share: where an update fell in
its sweep, and their warning. The rule's control flow is the core's driver
(:func:`perceptronlab.core.driver.drive`); each member implements the Engine protocol for its
update and lets the driver run it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.core.run import Run
from perceptronlab.exceptions import warn as _warn

if TYPE_CHECKING:
    from numpy.typing import NDArray


def sweep_positions(order: NDArray[Any] | None, idx: NDArray[Any], n: int) -> NDArray[Any]:
    """Position (0-based) within the sweep of each updated example ``idx``."""
    if order is None:
        return idx
    inverse = np.empty(n, dtype=np.int64)
    inverse[np.asarray(order)] = np.arange(n)
    return inverse[idx]


def warn_not_converged(run: Run, warn: bool, max_sweeps: int, what: str) -> None:
    if warn and not run.converged and not run.stopped:
        _warn(
            "NotConvergedWarning",
            f"No clean sweep within max_sweeps={max_sweeps} ({run.mistakes} mistakes); "
            f"the {what} is taken over all {max_sweeps} sweeps. Raise max_sweeps for separable data, or "
            "pass warn=False when a fixed number of sweeps is meant.",
            stacklevel=3,
        )


def check_predict_X(X: Any, n_features: int, who: str) -> Any:
    """Validate prediction input against the fitted number of features."""
    Xc = v.check_matrix(X)
    v.check_n_features(Xc.shape[1], n_features, who)
    return Xc
