"""Every bad input of the engine gets one clear message: what, expected, got, how to fix."""

import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab import perceptron, pocket
from perceptronlab.exceptions import InputError

GOOD_X = [[1, 0], [1, 1], [0, 1]]
GOOD_Y = [1, -1, -1]


@pytest.mark.parametrize(
    ("X", "y", "kwargs", "pattern"),
    [
        ([[1, np.nan], [1, 1]], [1, -1], {}, "(?i)finite values.*nan at row 0, column 1"),
        ([[1, np.inf], [1, 1]], [1, -1], {}, "finite values"),
        ([[1, 0], [1]], [1, -1], {}, "row 1 with 1"),
        (GOOD_X, [1, -1], {}, "3 labels, one per row"),
        (GOOD_X, ["a", "a", "a"], {}, "exactly two classes, got 1 class"),
        (GOOD_X, [0, 1, 2], {}, "exactly two classes, got 3 classes"),
        (np.empty((0, 2)), [], {}, "at least one"),
        (np.empty((3, 0)), GOOD_Y, {}, "at least one feature"),
        ([["1", "x"], ["1", "1"], ["0", "1"]], GOOD_Y, {}, "numeric values"),
        ([["1", "x"], ["1", "1"], ["0", "1"]], GOOD_Y, {"exact": True}, r"X\[0, 1\].*'x'"),
        (GOOD_X, GOOD_Y, {"eta": 0}, "eta.*> 0, got 0"),
        (GOOD_X, GOOD_Y, {"eta": -1.5}, "eta"),
        (GOOD_X, GOOD_Y, {"margin": -1}, "margin.*>= 0, got -1"),
        (GOOD_X, GOOD_Y, {"max_sweeps": 0}, "max_sweeps.*>= 1, got 0"),
        (GOOD_X, GOOD_Y, {"order": "sorted"}, "order.*'cyclic'"),
        (GOOD_X, GOOD_Y, {"seed": -1}, "seed"),
        ([1, 2, 3], GOOD_Y, {}, "2-D array.*reshape"),
    ],
)
def test_bad_input_has_a_clear_message(X, y, kwargs, pattern):
    with pytest.raises(InputError, match=pattern) as info:
        perceptron(X, y, **kwargs)
    message = str(info.value)
    assert "expected" in message and "got" in message


def test_pocket_bad_check():
    with pytest.raises(InputError, match="check.*'update'"):
        pocket(GOOD_X, GOOD_Y, check="never")


def test_any_two_labels_map_to_signs_with_the_larger_positive():
    a = perceptron(GOOD_X, ["yes", "no", "no"])
    b = perceptron(GOOD_X, GOOD_Y)
    assert np.array_equal(a.w, b.w) and list(a.classes) == ["no", "yes"]


def test_input_is_not_copied_or_modified():
    X = np.ascontiguousarray(np.random.default_rng(0).normal(size=(50, 3)))
    y = np.sign(X[:, 0])
    before = X.copy()
    run = perceptron(X, y)
    assert run.data[0] is X
    assert np.array_equal(X, before)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize(
    "call",
    [
        lambda X, y: perceptron(X, y),
        lambda X, y: perceptron(X, y, order="shuffle", seed=0),
        lambda X, y: perceptron(X, y, order="random-mistake", seed=0),
        lambda X, y: pocket(X, y, seed=0),
        lambda X, y: pocket(X, y, order="cyclic", check="sweep"),
        lambda X, y: pocket(X, y, check="ratchet", seed=0),
        lambda X, y: perceptron(X, y, trace=True),
    ],
)
def test_nan_is_named_on_every_path(call, sparse):
    import scipy.sparse as sp

    X = np.ones((40, 3))
    X[17, 2] = np.nan
    y = np.where(np.arange(40) % 2, 1, -1)
    with pytest.raises(
        InputError, match=r"(?i)X: expected finite values, got nan at row 17, column 2"
    ):
        call(sp.csr_matrix(X) if sparse else X, y)


def test_overflow_during_pocket_is_not_blamed_on_the_data():
    import warnings

    from perceptronlab.exceptions import WeightOverflowError

    X = np.array([[1e308, 1e308], [-1e308, 1e308], [1e308, -1e308]])
    with warnings.catch_warnings():  # the one line of the error, no NumPy warning before it
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(WeightOverflowError, match="Scale the data"):
            pocket(X, [1, -1, 1], eta=10.0, seed=0)
    with pytest.raises(WeightOverflowError, match="Scale the data"):
        pocket(X, [1, -1, 1], eta=10.0, seed=0)
    with pytest.raises(WeightOverflowError, match="Scale the data"):
        pocket(X, [1, -1, 1], eta=10.0, seed=0, check="ratchet")
    with pytest.raises(WeightOverflowError, match="Scale the data"):
        pocket(sp.csr_matrix(X), [1, -1, 1], eta=10.0, seed=0, check="ratchet")


def test_labels_of_mixed_types_are_refused_in_one_line():
    y = np.array([1, "a", 1], dtype=object)  # an int and a str do not sort
    with pytest.raises(InputError, match="expected labels of one comparable type, got mixed types"):
        perceptron([[1.0], [2.0], [3.0]], y)


def test_a_read_only_x_runs_the_kernels_compiled_for_a_writable_one(tmp_path):
    """A memory map opened read-only (as scikit-learn's and joblib's are) is not copied, gives the
    same weights, and compiles no kernel a second time (Numba types a read-only array apart)."""
    from perceptronlab.core import kernels

    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 3))
    y = np.where(X @ [1.0, -2.0, 0.5] > 0, 1, -1)
    np.save(tmp_path / "X.npy", X)
    mapped = np.load(tmp_path / "X.npy", mmap_mode="r")
    csr = sp.csr_matrix(X)
    for part in (csr.data, csr.indices, csr.indptr):
        part.setflags(write=False)
    writable = perceptron(X, y), perceptron(sp.csr_matrix(X), y)
    compiled = {
        name: len(f.overloads) for name, f in vars(kernels).items() if hasattr(f, "overloads")
    }
    read_only = perceptron(mapped, y), perceptron(csr, y)
    for ours, theirs in zip(read_only, writable, strict=True):
        assert np.array_equal(ours.w, theirs.w) and ours.mistakes == theirs.mistakes
    assert compiled == {
        name: len(f.overloads) for name, f in vars(kernels).items() if hasattr(f, "overloads")
    }
    assert not mapped.flags.writeable and np.array_equal(np.load(tmp_path / "X.npy"), X)
