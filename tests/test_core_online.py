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


def _one_at_a_time(state, rows, signs):
    return [state.learn(row, int(sign)) for row, sign in zip(rows, signs, strict=True)]


@pytest.mark.parametrize("fit_intercept, margin, eta", [(False, 0.0, 1.0), (True, 0.5, 0.3)])
def test_learn_many_on_vectors_has_the_bits_of_learning_one_at_a_time(fit_intercept, margin, eta):
    rng = np.random.default_rng(2)
    X = rng.standard_normal((500, 40)) * rng.lognormal(
        size=40
    )  # real floats: summation order shows
    y = np.where(X @ rng.standard_normal(40) + 0.3 * rng.standard_normal(500) > 0, 1, -1)
    one = OnlineState(fit_intercept=fit_intercept, margin=margin, eta=eta)
    expected = _one_at_a_time(one, X, y)
    many = OnlineState(fit_intercept=fit_intercept, margin=margin, eta=eta)
    got = np.concatenate([many.learn_many(X[:123], y[:123]), many.learn_many(X[123:], y[123:])])
    assert got.tolist() == expected and sum(expected) > 20
    assert one.w.tobytes() == many.w.tobytes() and one.b == many.b
    assert (one.mistakes, one.seen) == (many.mistakes, many.seen) == (sum(expected), 500)
    sparse = OnlineState(fit_intercept=fit_intercept, margin=margin, eta=eta)
    import scipy.sparse as sp

    assert sparse.learn_many(sp.csr_matrix(X), y).tolist() == expected
    assert sparse.w.tobytes() == one.w.tobytes()


def test_learn_many_on_data_frames_has_the_bits_of_learning_dicts_one_at_a_time():
    import pandas as pd

    rng = np.random.default_rng(3)
    first = pd.DataFrame(rng.standard_normal((300, 3)) * [1.0, 3.0, 0.1], columns=["b", "a", "c"])
    second = pd.DataFrame(
        rng.standard_normal((200, 3)), columns=["c", "d", "a"]
    )  # a new and a missing name
    y1 = np.where(first["a"] - first["c"] + 0.2 * rng.standard_normal(300) > 0, 1, -1)
    y2 = np.where(second["a"] + second["d"] > 0, 1, -1)
    one = OnlineState(fit_intercept=True)
    expected = _one_at_a_time(one, first.to_dict("records"), y1) + _one_at_a_time(
        one, second.to_dict("records"), y2
    )
    many = OnlineState(fit_intercept=True)
    got = many.learn_many(first, y1).tolist() + many.learn_many(second, y2).tolist()
    assert got == expected and sum(expected) > 20
    assert list(one.weights.items()) == list(many.weights.items())  # same values, same name order
    assert one.b == many.b and one.mistakes == many.mistakes and one.seen == many.seen == 500
    # and a dict learner takes single rounds after a batch
    assert one.learn({"a": 1.0, "e": 2.0}, 1) == many.learn({"a": 1.0, "e": 2.0}, 1)
    assert list(one.weights.items()) == list(many.weights.items())


def test_learn_one_on_vectors_sums_in_the_sweeps_order():
    x = np.zeros(32)
    x[:4] = [1e16, 1.0, -1e16, 1.0]  # left to right: (1e16 + 1) - 1e16 + 1 = 1.0 (BLAS's ddot: 2.0)
    state = OnlineState()
    state.w = np.ones(32)
    state.seen = 1
    assert state.score(x) == 1.0


def test_learn_many_stops_at_a_bad_row_with_the_rounds_before_it_learned():
    import pandas as pd

    X = np.array([[1.0, 2.0], [-1.0, 0.5], [np.nan, 1.0], [3.0, 1.0]])
    y = np.array([1, 1, -1, 1])
    one = OnlineState()
    _one_at_a_time(one, X[:2], y[:2])
    for batch in (X, pd.DataFrame(X, columns=["p", "q"])):
        many = OnlineState()
        with pytest.raises(InputError, match="nan"):
            many.learn_many(batch, y)
        assert (
            many.w.tolist() == one.w.tolist() and many.seen == 2 and many.mistakes == one.mistakes
        )


def test_learn_many_refuses_bad_batches_by_name():
    import pandas as pd

    state = OnlineState()
    with pytest.raises(InputError, match="-1 or \\+1"):
        state.learn_many(np.ones((2, 2)), [1, 0])
    with pytest.raises(InputError, match="2 labels"):
        state.learn_many(np.ones((2, 2)), [1, 1, 1])
    state.learn_many(np.ones((2, 2)), [1, -1])
    with pytest.raises(InputError, match="a matrix, as in earlier rounds"):
        state.learn_many(pd.DataFrame({"a": [1.0]}), [1])
    frames = OnlineState()
    with pytest.raises(InputError, match="distinct column names"):
        frames.learn_many(pd.DataFrame([[1.0, 2.0]], columns=["a", "a"]), [1])
    with pytest.raises(InputError, match="numeric columns"):
        frames.learn_many(pd.DataFrame({"a": ["high"]}), [1])
    frames.learn_many(pd.DataFrame({"a": [1.0]}), [1])
    with pytest.raises(InputError, match="dict examples"):
        frames.learn_many(np.ones((1, 1)), [1])
