"""The online protocol: predict from w and x, then learn from y; replay == one cyclic sweep."""

import numpy as np
import pytest

from perceptronlab import perceptron
from perceptronlab.core.online import OnlineState
from perceptronlab.exceptions import InputError


def test_learning_one_by_one_equals_replay_and_one_sweep():
    rng = np.random.default_rng(0)
    X = rng.integers(-3, 4, size=(200, 4)).astype(float)
    y = np.sign(X @ np.array([1.0, -2.0, 0.5, 1.0]) + 0.1)
    one = OnlineState(fit_intercept=True)
    mistakes = [i for i in range(len(y)) if one.learn(X[i], int(y[i]))]
    two = OnlineState(fit_intercept=True)
    assert two.replay(X, y).tolist() == mistakes
    sweep = perceptron(X, y, fit_intercept=True, max_sweeps=1, warn=False)
    assert np.array_equal(one.w, two.w) and np.array_equal(one.w, sweep.w) and one.b == sweep.b
    assert one.mistakes == two.mistakes == sweep.mistakes


def test_dicts_equal_vectors():
    rng = np.random.default_rng(1)
    X = rng.integers(-3, 4, size=(100, 3)).astype(float)
    y = np.sign(X[:, 0] - X[:, 2] + 0.5)
    vec, dic = OnlineState(), OnlineState()
    for xi, yi in zip(X, y, strict=True):
        assert vec.predict_sign(xi) == dic.predict_sign({"a": xi[0], "b": xi[1], "c": xi[2]})
        vec.learn(xi, int(yi))
        dic.learn({"a": xi[0], "b": xi[1], "c": xi[2]}, int(yi))
    assert np.array_equal(vec.w, dic.w) and vec.mistakes == dic.mistakes
    assert dic.feature_names == {"a": 0, "b": 1, "c": 2}


def test_tie_is_a_mistake_whatever_the_label():
    state = OnlineState()
    assert state.predict_sign({"a": 1.0}) == -1
    assert state.learn({"a": 1.0}, -1)  # the prediction was -1 but y<w,x> = 0 counts


def test_bad_rounds_are_named():
    state = OnlineState()
    with pytest.raises(InputError, match=r"x\['a'\].*finite"):
        state.learn({"a": float("nan")}, 1)
    state = OnlineState()
    state.learn({"a": 1.0}, 1)
    with pytest.raises(InputError, match=r"x\['b'\].*a number"):
        state.learn({"a": 1.0, "b": "high"}, 1)
    state = OnlineState()
    state.learn([1.0, 2.0], 1)
    with pytest.raises(InputError, match="2 features"):
        state.learn([1.0], 1)
    with pytest.raises(InputError, match="a vector, as in earlier rounds"):
        state.learn({"a": 1.0}, 1)
    with pytest.raises(InputError, match="-1 or \\+1"):
        state.learn([1.0, 2.0], 0)
