"""The new member of docs/architecture.md (PA-I over the core's driver), run as the docs print it."""

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.linear_model import PassiveAggressiveClassifier

DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


@pytest.fixture(scope="module")
def member():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    code = next(block for block in blocks if block.startswith("# new_member.py"))
    assert len(code.splitlines()) < 100  # "a page": well under 100 lines
    namespace: dict = {"__name__": "new_member"}
    exec(compile(code, str(DOC), "exec"), namespace)
    return namespace


def data(seed, n=80, d=5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 3, size=d)
    y = np.where(X @ rng.normal(size=d) + 0.3 > 0, "yes", "no")
    return X, y


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("C", [1.0, 0.05])
def test_equals_scikit_learns_passive_aggressive_bit_for_bit(member, fit_intercept, C):
    X, y = data(0)
    run = member["passive_aggressive"](X, y, C=C, fit_intercept=fit_intercept, max_sweeps=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn's ConvergenceWarning for max_iter=4
        sk = PassiveAggressiveClassifier(
            C=C, fit_intercept=fit_intercept, max_iter=4, tol=None, shuffle=False
        ).fit(X, y)
    assert run.sweeps == 4 and not run.converged
    assert run.w.tobytes() == sk.coef_[0].tobytes()
    assert np.float64(run.b).tobytes() == np.float64(sk.intercept_[0]).tobytes()
    assert run.classes.tolist() == sk.classes_.tolist()


def test_the_driver_runs_it_like_any_member(member):
    X, y = data(1, n=40, d=3)
    calls = []
    run = member["passive_aggressive"](X, y, max_sweeps=6, on_sweep=calls.append)
    assert [c.sweep for c in calls] == list(range(1, run.sweeps + 1)) and run.sweeps == 6
    assert [c.total_updates for c in calls] == np.cumsum(run.updates_per_sweep).tolist()
    assert run.norms.shape[0] == run.mistakes == len(run.mistake_indices)
    signs = np.where(y == run.classes[1], 1.0, -1.0)
    last_errors = int(np.count_nonzero(signs * (X @ run.w + run.b) <= 0))
    assert run.errors_after_sweep.shape == (6,) and run.errors_after_sweep[-1] == last_errors
    stopped = member["passive_aggressive"](
        X, y, max_sweeps=6, on_sweep=lambda info: info.sweep == 2
    )
    assert stopped.stopped and stopped.sweeps == 2
    shuffled = member["passive_aggressive"](X, y, order="shuffle", seed=3, max_sweeps=6)
    again = member["passive_aggressive"](X, y, order="shuffle", seed=3, max_sweeps=6)
    assert shuffled.mistake_indices.tolist() == again.mistake_indices.tolist()
    assert shuffled.mistake_indices.tolist() != run.mistake_indices.tolist()


def test_a_sweep_without_loss_ends_the_run(member):
    # one step of τ = 1/4 puts both points on the margin exactly: y⟨w, x⟩ = 1, no loss left
    run = member["passive_aggressive"]([[2.0, 0.0], [-2.0, 0.0]], [1, -1], fit_intercept=False)
    assert run.converged and run.sweeps == 2 and run.mistakes == 1
    assert run.w.tolist() == [0.5, 0.0] and run.updates_per_sweep.tolist() == [1, 0]
