"""The online rounds with the running average: one pass of vector rounds is the batch averaged
perceptron's single sweep, bit for bit; dict rounds average over the rounds too."""

from __future__ import annotations

import numpy as np
import pytest

from perceptronlab import averaged_perceptron
from perceptronlab.core.online_average import AveragedOnlineState


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_vector_rounds_are_one_sweep_of_the_averaged_perceptron(fit_intercept):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6))
    y = np.where(X @ rng.normal(size=6) + rng.normal(size=200) > 0, 1, -1)
    state = AveragedOnlineState(eta=0.5, margin=0.2, fit_intercept=fit_intercept)
    for x, label in zip(X, y, strict=True):
        state.learn(x, int(label))
    run = averaged_perceptron(
        X, y, eta=0.5, margin=0.2, fit_intercept=fit_intercept, max_sweeps=1, warn=False
    )
    assert state.rounds == run.n_steps == 200 and state.mistakes == run.mistakes
    assert state.w.tobytes() == run.last_w.tobytes()
    assert state.average_weights().tobytes() == run.w.tobytes()
    assert state.average_intercept() == run.b


def test_dict_rounds_average_every_round():
    state = AveragedOnlineState(fit_intercept=True)
    seen = []
    for x, label in [
        ({"a": 1.0}, 1),
        ({"b": 2.0}, -1),
        ({"a": 0.5, "b": 1.0}, 1),
        ({"c": 1.0}, -1),
    ]:
        state.learn(x, label)
        seen.append({**dict(zip(state.weights, state.w.tolist(), strict=True)), "__b": state.b})
    for name in ("a", "b", "c"):
        assert state.average_weights()[name] == pytest.approx(
            np.mean([w.get(name, 0.0) for w in seen])
        )
    assert state.average_intercept() == pytest.approx(np.mean([w["__b"] for w in seen]))
    assert (
        state.average_score({"zzz": 1.0}) == state.average_intercept()
    )  # an unseen feature counts 0
