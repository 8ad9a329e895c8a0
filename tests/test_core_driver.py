"""The core's driver: one control flow for every learner, its per-sweep hook, replay and resume."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab import (
    averaged_perceptron,
    kernel_perceptron,
    multiclass_perceptron,
    perceptron,
    pocket,
    voted_perceptron,
)
from perceptronlab.core.driver import Engine, SteppingEngine, SweepInfo, drive
from perceptronlab.core.engines import CompiledEngine, make_engine
from perceptronlab.core.exact import ExactEngine
from perceptronlab.core.reference import ReferenceEngine
from perceptronlab.family.averaged import AveragedEngine
from perceptronlab.family.kernel import KernelEngine, KernelSpec
from perceptronlab.family.multiclass import MulticlassEngine
from perceptronlab.family.voted import VotedEngine

EXAM_X, EXAM_Y = [[1, 0], [1, 1], [0, 1]], [1, -1, -1]


def noisy(seed=0, n=80, d=3):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)) * 4) / 4
    y = np.where(X @ np.array([1.0, -1.0, 0.5][:d]) > 0, 1, -1)
    y[:5] = -y[:5]  # not separable: the runs go to their sweep limit
    return X, y


RUNNERS = {
    "perceptron cyclic": lambda X, y, **kw: perceptron(X, y, warn=False, **kw),
    "perceptron shuffle": lambda X, y, **kw: perceptron(
        X, y, order="shuffle", seed=1, warn=False, **kw
    ),
    "perceptron random-mistake": lambda X, y, **kw: perceptron(
        X, y, order="random-mistake", seed=1, warn=False, **kw
    ),
    "perceptron exact": lambda X, y, **kw: perceptron(X, y, exact=True, warn=False, **kw),
    "pocket by updates": lambda X, y, **kw: pocket(X, y, seed=1, **kw),
    "pocket by sweeps": lambda X, y, **kw: pocket(X, y, order="cyclic", check="sweep", **kw),
    "pocket by ratchet": lambda X, y, **kw: pocket(X, y, check="ratchet", seed=1, **kw),
    "averaged": lambda X, y, **kw: averaged_perceptron(X, y, warn=False, **kw),
    "voted": lambda X, y, **kw: voted_perceptron(X, y, warn=False, **kw),
    "kernel": lambda X, y, **kw: kernel_perceptron(X, y, kernel="rbf", warn=False, **kw),
    "multiclass": lambda X, y, **kw: multiclass_perceptron(X, y, warn=False, **kw),
}


@pytest.mark.parametrize("name", RUNNERS)
def test_the_hook_sees_every_sweep(name):
    X, y = noisy()
    calls = []
    run = RUNNERS[name](X, y, max_sweeps=6, on_sweep=calls.append)
    assert [c.sweep for c in calls] == list(range(1, run.sweeps + 1))
    assert [c.updates for c in calls] == run.updates_per_sweep.tolist()
    assert [c.total_updates for c in calls] == np.cumsum(run.updates_per_sweep).tolist()
    assert all(isinstance(c, SweepInfo) for c in calls) and not run.stopped
    plain = RUNNERS[name](X, y, max_sweeps=6)
    assert (
        plain.mistake_indices.tolist() == run.mistake_indices.tolist()
    )  # the hook changes nothing


@pytest.mark.parametrize("name", RUNNERS)
def test_the_hook_stops_the_run_cleanly(name):
    X, y = noisy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a run its caller stopped does not warn
        run = RUNNERS[name](X, y, max_sweeps=50, on_sweep=lambda info: info.sweep == 2)
    assert run.stopped and not run.converged and run.sweeps == 2
    full = RUNNERS[name](X, y, max_sweeps=2)
    assert run.mistake_indices.tolist() == full.mistake_indices.tolist()
    assert "stopped early" in run.summary() or name in ("kernel", "multiclass")


def test_an_exception_in_the_hook_ends_the_run():
    X, y = noisy()

    def deadline(info):
        if info.total_updates > 10:
            raise TimeoutError("the lab's deadline")

    with pytest.raises(TimeoutError, match="deadline"):
        perceptron(X, y, on_sweep=deadline)


def test_a_converged_run_is_not_stopped_by_a_late_true():
    run = perceptron(EXAM_X, EXAM_Y, on_sweep=lambda info: True)  # asks to stop after sweep 1
    assert run.stopped and run.sweeps == 1
    run = perceptron(
        EXAM_X, EXAM_Y, on_sweep=lambda info: info.updates == 0
    )  # true on the clean sweep
    assert run.converged and not run.stopped and run.sweeps == 4


def test_every_engine_implements_the_protocol():
    X, y = np.array(EXAM_X, dtype=float), np.array(EXAM_Y, dtype=float)
    kwargs = dict(eta=1.0, margin=0.0, fit_intercept=False)
    stepping = [
        CompiledEngine(X, y, **kwargs),
        ReferenceEngine(X, y, **kwargs),
        ExactEngine([[1, 0], [1, 1], [0, 1]], EXAM_Y, **kwargs),
        AveragedEngine(X, y, **kwargs),
        VotedEngine(X, y, **kwargs),
    ]
    for engine in stepping:
        assert isinstance(engine, SteppingEngine), type(engine).__name__
    spec = KernelSpec("linear", 1, 1.0, 0.0)
    for engine in (
        KernelEngine(X, y, spec, budget=None, **kwargs),
        MulticlassEngine(X, (y > 0).astype(np.int64), 2, **kwargs),
    ):
        assert isinstance(engine, Engine) and not isinstance(engine, SteppingEngine)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [False, True])
def test_replay_rebuilds_a_run_bit_for_bit(sparse, fit_intercept):
    X, y = noisy(3, n=200, d=3)
    X = sp.csr_matrix(X) if sparse else X
    run = perceptron(X, y, eta=0.1, fit_intercept=fit_intercept, max_sweeps=20, warn=False)
    engine = CompiledEngine(
        X, np.where(y > 0, 1.0, -1.0), eta=0.1, margin=0.0, fit_intercept=fit_intercept
    )
    keep = np.zeros(run.mistakes, dtype=bool)
    keep[[0, run.mistakes // 2, -1]] = True
    vectors, intercepts = engine.replay(run.mistake_indices, keep)
    assert (
        engine.w.tobytes() == run.w.tobytes()
        and np.float64(engine.b).tobytes() == np.float64(run.b).tobytes()
    )
    assert vectors[-1].tobytes() == run.w.tobytes() and intercepts[-1] == run.b
    assert engine.indices.shape[0] == 0  # replayed updates are not this engine's mistakes


def test_resume_inside_a_sweep_continues_the_run():
    """Stopping after k updates and resuming at the next position gives the same run."""
    X, y = noisy(4, n=60, d=3)
    signs = np.where(y > 0, 1.0, -1.0)
    full = make_engine(X, signs, exact=False, eta=1.0, margin=0.0, fit_intercept=True, trace=False)
    whole = drive(full, max_sweeps=30)
    # the state at the 5th update of the full run, and the position after it in its sweep
    sequence = full.indices
    sweep_of = np.repeat(
        np.arange(1, len(whole.log.updates_per_sweep) + 1), whole.log.updates_per_sweep
    )
    resumed = CompiledEngine(X, signs, eta=1.0, margin=0.0, fit_intercept=True)
    resumed.replay(sequence[:5])
    outcome = drive(
        resumed,
        max_sweeps=30,
        first_sweep=int(sweep_of[4]),
        rest_of_sweep=np.arange(sequence[4] + 1, X.shape[0]),
    )
    assert outcome.converged == whole.converged and outcome.cycled == whole.cycled
    assert resumed.w.tobytes() == full.w.tobytes()
    assert resumed.indices.tolist() == sequence[5:].tolist()
