"""Data files (CSV, LIBSVM, .npy, .npz) and JSON model files: round trips, oracles, bad files."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

import perceptronlab as pl
from perceptronlab.estimators import LoadedModel, load_model
from perceptronlab.exceptions import InputError
from perceptronlab.io import read_data, save_model

EXAM_CSV = "x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n"


def _message(excinfo) -> str:
    return str(excinfo.value)


# ================================================================ CSV


def test_csv_exam_task_reads_and_trains_like_the_seed(exam_csv):
    X, y = read_data(exam_csv)
    assert X.dtype == np.float64 and X.shape == (3, 2)
    assert X.tolist() == [[1, 0], [1, 1], [0, 1]]
    assert y.tolist() == [1, -1, -1] and y.dtype.kind == "i"
    run = pl.perceptron(*read_data(exam_csv, exact=True), exact=True)
    assert (run.mistakes, [str(v) for v in run.w]) == (5, ["1", "-2"])


def test_csv_matches_numpy_genfromtxt_on_random_floats(tmp_path):
    rng = np.random.default_rng(0)
    data = rng.normal(size=(40, 5))
    labels = rng.integers(0, 2, size=40)
    path = tmp_path / "random.csv"
    lines = ["a,b,c,d,e,label"] + [
        ",".join(repr(float(v)) for v in row) + f",{lab}"
        for row, lab in zip(data, labels, strict=True)
    ]
    path.write_text("\n".join(lines) + "\n")
    X, y = read_data(path)
    oracle = np.genfromtxt(path, delimiter=",", skip_header=1)
    assert np.array_equal(X, oracle[:, :-1])  # bit for bit: repr round-trips
    assert np.array_equal(X, data)
    assert y.tolist() == labels.tolist()


def test_csv_label_column_by_name_and_string_labels(tmp_path):
    path = tmp_path / "mail.csv"
    path.write_text("words, label ,links\n3,spam,1\n0,ham,3\n5,spam,2\n")
    X, y = read_data(path, label="label")
    assert X.tolist() == [[3, 1], [0, 3], [5, 2]]
    assert y.tolist() == ["spam", "ham", "spam"]
    run = pl.perceptron(X, y)
    assert list(run.classes) == ["ham", "spam"]


def test_csv_exact_keeps_the_decimal_text(tmp_path):
    path = tmp_path / "dec.csv"
    path.write_text("x1,x2,y\n0.1,1/3,1\n-2.50,1e-2,-1\n")
    X, _ = read_data(path, exact=True)
    assert X == [[Fraction(1, 10), Fraction(1, 3)], [Fraction(-5, 2), Fraction(1, 100)]]
    assert all(type(v) is Fraction for row in X for v in row)
    # the float reading of 0.1 is not 1/10: exact mode is what keeps hand computation exact
    floats = path.with_name("floats.csv")
    floats.write_text("x1,y\n0.1,1\n")
    assert Fraction(float(read_data(floats)[0][0, 0])) != Fraction(1, 10)
    assert read_data(floats, exact=True)[0] == [[Fraction(1, 10)]]


def test_csv_bom_blank_lines_tsv_and_fmt_override(tmp_path):
    bom = tmp_path / "bom.csv"
    bom.write_bytes("\ufeffx,y\n\n1.5,1\n\n-1,0\n".encode())
    X, y = read_data(bom)
    assert X.tolist() == [[1.5], [-1.0]] and y.tolist() == [1, 0]
    tsv = tmp_path / "data.tsv"
    tsv.write_text("x\tz\ty\n1\t2\t3\n4\t5\t6\n")
    X, y = read_data(tsv)
    assert X.tolist() == [[1, 2], [4, 5]] and y.tolist() == [3, 6]
    dat = tmp_path / "data.dat"
    dat.write_text(EXAM_CSV)
    assert read_data(dat, fmt="CSV")[0].shape == (3, 2)


@pytest.mark.parametrize(
    "text",
    [
        'a,b,y\r\n1e3,-0.0,1\r\n 2.5 ,"3",-1\r\n',
        "\n\na,b,y\n\n0.1,0.2,0\n\n0.30000000000000004,1e-320,1\n",
        "\ufeffa;b,c,y\n1,2,3\n4,5,6\n",
        "a,b,y\n" + "\n".join(f"{i / 7!r},{-i * 1e10!r},{i % 2}" for i in range(50)) + "\n",
    ],
)
def test_csv_fast_path_equals_the_careful_path(tmp_path, text):
    """NumPy's C parser (the fast path) and Python's float of each exact cell agree bit for bit."""
    path = tmp_path / "d.csv"
    path.write_bytes(text.encode())
    X, y = read_data(path)
    X_exact, y_exact = read_data(path, exact=True)
    assert X.tolist() == [[float(v) for v in row] for row in X_exact]
    assert y.tolist() == y_exact.tolist() and y.dtype == y_exact.dtype


def test_csv_without_label_column(tmp_path):
    path = tmp_path / "features.csv"
    path.write_text("x1,x2\n1,0\n0,1\n")
    X, y = read_data(path, has_label=False)
    assert y is None and X.tolist() == [[1, 0], [0, 1]]


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("x1,x2,y\n1,0,1\n1,zz,-1\n", ["column 'x2'", "'zz'", "line 3"]),
        ("x1,x2,y\n1,0,1\n1,,-1\n", ["column 'x2'", "empty cell", "line 3"]),
        ("x1,x2,y\n1,0,1\nnan,1,-1\n", ["finite", "column 'x1'", "line 3"]),
        ("x1,x2,y\n1,0,1\n1,1\n", ["3 cells", "2 on line 3", "ragged"]),
        ("x1,x2,y\n1,0,1\n1,1,-1,7\n", ["3 cells", "4 on line 3"]),
        ("x1,x2,y\n1,0,1\n1,1,\n", ["label", "empty cell on line 3"]),
        ("x1,x2,y\n", ["only the header"]),
        ("\n\n", ["only blank lines"]),
        ("1,0,1\n1,1,-1\n", ["header", "x1,x2,y"]),
        ("x\n1\n", ["at least two columns"]),
        ('x1,x2,y\n1,"0,1\n', ["3 cells"]),
    ],
)
def test_csv_bad_content_names_the_place(tmp_path, text, pieces):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(InputError) as excinfo:
        read_data(path)
    message = _message(excinfo)
    for piece in pieces:
        assert piece in message, (piece, message)
    assert "expected" in message and "got" in message


def test_csv_bad_exact_cell(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("x1,x2,y\n1,0,1\n1,1/0,-1\n")
    with pytest.raises(InputError, match=r"column 'x2'.*'1/0' on line 3"):
        read_data(path, exact=True)


def test_csv_binary_garbage_and_unknown_label(tmp_path, exam_csv):
    path = tmp_path / "garbage.csv"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(InputError, match="UTF-8"):
        read_data(path)
    with pytest.raises(
        InputError, match=r"label: expected a column name of the header \('x1', 'x2', 'y'\)"
    ):
        read_data(exam_csv, label="target")
    dup = tmp_path / "dup.csv"
    dup.write_text("a,a,b\n1,2,3\n")
    with pytest.raises(InputError, match="occurs once"):
        read_data(dup, label="a")


# ================================================================ files and formats


def test_missing_empty_directory_and_unknown_extension(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_data(tmp_path / "nope.csv")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(InputError, match="empty file"):
        read_data(empty)
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    with pytest.raises(InputError, match="a directory"):
        read_data(folder)
    odd = tmp_path / "data.xlsx"
    odd.write_text("x")
    with pytest.raises(InputError, match=r"got '\.xlsx'.*fmt="):
        read_data(odd)
    with pytest.raises(InputError, match="one of csv, tsv, libsvm, npy, npz"):
        read_data(odd, fmt="excel")


def test_libsvm_round_trip_against_sklearn_dump(tmp_path):
    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(1)
    dense = (
        np.round(rng.normal(size=(30, 8)) * 8) / 8 * (rng.random((30, 8)) < 0.3)
    )  # exact in text
    labels = np.where(rng.random(30) < 0.5, -1, 1)
    path = tmp_path / "data.svm"
    dump_svmlight_file(dense, labels, str(path), zero_based=False)
    X, y = read_data(path)
    assert sp.issparse(X) and X.format == "csr"
    assert np.array_equal(X.toarray()[:, : dense.shape[1]], dense)
    assert y.tolist() == labels.tolist()
    X_exact, _ = read_data(path, exact=True)
    assert Fraction(X_exact[0][0]) == Fraction(float(X[0, 0]))
    # training on the file equals training on the arrays it came from
    a = pl.perceptron(X, y, max_sweeps=50, warn=False)
    b = pl.perceptron(X.toarray(), labels, max_sweeps=50, warn=False)
    assert np.array_equal(a.w, b.w) and a.mistakes == b.mistakes


@pytest.mark.parametrize("text", ["1 1:2 3:x\n", "1 1:2\n-1 2\n", "# only a comment\n"])
def test_libsvm_corrupt(tmp_path, text):
    path = tmp_path / "bad.libsvm"
    path.write_text(text)
    with pytest.raises(InputError, match="LIBSVM file"):
        read_data(path)


def test_label_option_only_for_csv(tmp_path):
    path = tmp_path / "d.npy"
    np.save(path, np.ones((2, 3)))
    with pytest.raises(InputError, match="Only CSV files have named columns"):
        read_data(path, label="y")


def test_npy_last_column_is_the_label(tmp_path):
    arr = np.array([[1.0, 0.0, 1.0], [1.0, 1.0, -1.0], [0.0, 1.0, -1.0]])
    path = tmp_path / "exam.npy"
    np.save(path, arr)
    X, y = read_data(path)
    assert X.tolist() == arr[:, :2].tolist() and y.tolist() == [1, -1, -1]
    X, y = read_data(path, has_label=False)
    assert X.shape == (3, 3) and y is None


@pytest.mark.parametrize(
    ("array", "match"),
    [
        (np.arange(4.0), "shape"),
        (np.ones((3, 1)), "at least 2 columns"),
        (np.array([["a", "b"], ["c", "d"]]), "numeric"),
    ],
)
def test_npy_bad_arrays(tmp_path, array, match):
    path = tmp_path / "bad.npy"
    np.save(path, array)
    with pytest.raises(InputError, match=match):
        read_data(path)


def test_npy_pickle_is_refused_and_truncation_detected(tmp_path):
    path = tmp_path / "obj.npy"
    np.save(path, np.array([[1, {"a": 1}]], dtype=object), allow_pickle=True)
    with pytest.raises(InputError, match="pickle"):
        read_data(path)
    good = tmp_path / "good.npy"
    np.save(good, np.ones((50, 3)))
    cut = tmp_path / "cut.npy"
    cut.write_bytes(good.read_bytes()[:200])
    with pytest.raises(InputError, match="truncated"):
        read_data(cut)
    text = tmp_path / "text.npy"
    text.write_text("x1,x2,y\n")
    with pytest.raises(InputError, match=".npy"):
        read_data(text)


def test_npz_round_trip_and_errors(tmp_path):
    X0 = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    y0 = np.array(["a", "b", "a"])
    path = tmp_path / "d.npz"
    np.savez(path, X=X0, y=y0)
    X, y = read_data(path)
    assert np.array_equal(X, X0) and y.tolist() == y0.tolist()
    only_x = tmp_path / "x.npz"
    np.savez(only_x, X=X0)
    assert read_data(only_x, has_label=False)[1] is None
    with pytest.raises(InputError, match=r"arrays named 'X' and 'y'.*\['X'\]"):
        read_data(only_x)
    short = tmp_path / "short.npz"
    np.savez(short, X=X0, y=np.array([1, 2]))
    with pytest.raises(InputError, match="one label per row of X"):
        read_data(short)
    cut = tmp_path / "cut.npz"
    cut.write_bytes(path.read_bytes()[:150])
    with pytest.raises(InputError, match="corrupt"):
        read_data(cut)
    flat = tmp_path / "flat.npz"
    np.savez(flat, X=np.ones(3), y=np.ones(3))
    with pytest.raises(InputError, match="2-D"):
        read_data(flat)


# ================================================================ models


def test_exact_run_round_trip_keeps_fractions(tmp_path):
    X = [[Fraction(1, 3), 1], [1, Fraction(1, 2)], [0, -1]]
    y = [1, -1, -1]
    run = pl.perceptron(X, y, eta=Fraction(1, 7), exact=True, fit_intercept=True)
    path = save_model(run, tmp_path / "m.json")
    document = json.loads(path.read_text())
    assert document["format"] == "perceptronlab-model" and document["version"] == 1
    assert document["exact"] is True and document["params"]["eta"] == "1/7"
    assert document["w"] == [str(v) for v in run.w] and document["b"] == str(run.b)
    assert any("/" in s for s in document["w"] + [document["b"]])  # genuinely fractional weights
    model = load_model(path)
    assert isinstance(model, LoadedModel) and model.exact
    assert model.w == list(run.w) and model.b == run.b
    assert all(type(v) is Fraction for v in model.w)
    assert model.params["eta"] == Fraction(1, 7)
    scores = model.decision_function(X)
    expected = [
        sum((a * Fraction(c) for a, c in zip(run.w, row, strict=True)), Fraction(0)) + run.b
        for row in X
    ]
    assert scores.tolist() == expected
    assert model.predict(X).tolist() == [1 if s > 0 else -1 for s in expected]


def test_float_run_round_trip_bit_for_bit(tmp_path):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 4))
    y = np.where(X @ np.array([1.0, -2.0, 0.5, 0.3]) + 0.1 > 0, "yes", "no")
    run = pl.perceptron(X, y, fit_intercept=True, eta=0.37, max_sweeps=200, warn=False)
    path = save_model(run, tmp_path / "m.json")
    model = load_model(path)
    assert isinstance(model, pl.Perceptron)
    assert np.array_equal(model.coef_[0], run.w) and model.intercept_[0] == run.b
    assert model.classes_.tolist() == ["no", "yes"]
    assert model.n_mistakes_ == run.mistakes and model.converged_ == run.converged
    scores = X @ run.w + run.b
    assert model.predict(X).tolist() == np.where(scores > 0, "yes", "no").tolist()
    raw = load_model(path, as_estimator=False)
    assert isinstance(raw, LoadedModel) and np.array_equal(raw.w, run.w)
    assert np.allclose(raw.decision_function(X), scores)
    # saving the loaded model writes the same document again
    again = save_model(raw, tmp_path / "again.json")
    assert json.loads(again.read_text()) == json.loads(path.read_text())


def test_estimators_round_trip_binary_and_one_vs_rest(tmp_path):
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        models = [
            pl.Perceptron(max_iter=10).fit(X, y),
            pl.Perceptron(max_iter=10).fit(X, y == 2),
            pl.PocketPerceptron(random_state=0, max_iter=3).fit(X, y == 1),
        ]
    for k, est in enumerate(models):
        path = save_model(est, tmp_path / f"m{k}.json")
        loaded = load_model(path)
        assert type(loaded) is type(est)
        assert loaded.get_params() == est.get_params()
        assert np.array_equal(loaded.coef_, est.coef_)
        assert np.array_equal(loaded.predict(X), est.predict(X))
        assert np.array_equal(loaded.decision_function(X), est.decision_function(X))


def test_sklearn_model_loads_as_loaded_model_and_predicts_like_sklearn(tmp_path):
    from sklearn.datasets import load_iris
    from sklearn.linear_model import Perceptron as SkPerceptron

    X, y = load_iris(return_X_y=True)
    for target in (y, y == 0):
        sk = SkPerceptron(random_state=0).fit(X, target)
        model = load_model(save_model(sk, tmp_path / "sk.json"))
        assert isinstance(model, LoadedModel)
        assert model.estimator.startswith("sklearn.")
        assert np.array_equal(model.predict(X), sk.predict(X))
        assert np.allclose(model.decision_function(X), sk.decision_function(X))


def test_pocket_run_round_trip(tmp_path):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=40) > 0, 1, -1)
    run = pl.pocket(X, y, seed=1, max_sweeps=20)
    model = load_model(save_model(run, tmp_path / "p.json"))
    assert isinstance(model, pl.PocketPerceptron)
    assert model.pocket_errors_ == run.pocket_errors
    assert int((model.predict(X) != y).sum()) == run.pocket_errors


def test_model_file_is_plain_json_never_pickle(tmp_path, exam_csv):
    run = pl.perceptron(*read_data(exam_csv))
    text = save_model(run, tmp_path / "m.json").read_text()
    assert text.lstrip().startswith("{") and json.loads(text)["algorithm"] == "perceptron"
    assert not (tmp_path / "m.json.tmp").exists()


def _model_doc(tmp_path) -> dict:
    run = pl.perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True)
    return json.loads(save_model(run, tmp_path / "good.json").read_text())


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda d: d.update(format="something-else"), "format tag 'something-else'"),
        (lambda d: d.pop("format"), "without it"),
        (lambda d: d.update(version=2), "newer perceptronlab; upgrade"),
        (lambda d: d.update(version="1"), "field 'version'"),
        (lambda d: d.update(w=["1"]), "field 'w'.*2 weights"),
        (lambda d: d.update(w=["1", "abc"]), "field 'w'"),
        (lambda d: d.update(w=["1", True]), "field 'w'"),
        (lambda d: d.update(b=[1, 2]), "field 'b'"),
        (lambda d: d.update(classes=[1]), "field 'classes'"),
        (lambda d: d.update(classes=[1, 1]), "distinct"),
        (lambda d: d.update(n_features=0), "field 'n_features'"),
        (lambda d: d.update(exact="yes"), "field 'exact'"),
        (lambda d: d.update(params=[]), "field 'params'"),
    ],
)
def test_tampered_model_files(tmp_path, edit, match):
    document = _model_doc(tmp_path)
    edit(document)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    with pytest.raises(InputError, match=match):
        load_model(path)


def test_corrupt_truncated_foreign_model_files(tmp_path):
    good = tmp_path / "good.json"
    _model_doc(tmp_path)
    text = good.read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2])
    with pytest.raises(InputError, match=r"valid JSON.*line \d+, column \d+.*truncated"):
        load_model(cut)
    for name, content in (("list.json", "[1, 2, 3]"), ("pkg.json", '{"name": "left-pad"}')):
        path = tmp_path / name
        path.write_text(content)
        with pytest.raises(InputError, match="a perceptronlab model"):
            load_model(path)
    binary = tmp_path / "m.pkl"
    binary.write_bytes(b"\x80\x04\x95\xff\xfe")
    with pytest.raises(InputError, match="never pickle"):
        load_model(binary)
    with pytest.raises(InputError, match="no such file"):
        load_model(tmp_path / "missing.json")
    empty = tmp_path / "empty.json"
    empty.write_text("")
    with pytest.raises(InputError, match="empty file"):
        load_model(empty)


def test_save_errors(tmp_path):
    run = pl.perceptron([[1.0, 0.0], [0.0, 1.0]], [1, -1])
    with pytest.raises(InputError, match="missing folder"):
        save_model(run, tmp_path / "no" / "such" / "m.json")
    with pytest.raises(InputError, match="a perceptronlab Run or a fitted estimator"):
        save_model({"w": [1, 2]}, tmp_path / "m.json")
    with pytest.raises(InputError, match="a directory"):
        save_model(run, tmp_path)
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind
    run.w = np.array([np.inf, 0.0])
    with pytest.raises(InputError, match="finite"):
        save_model(run, tmp_path / "m.json")


def test_loaded_model_checks_features(tmp_path):
    model = load_model(
        save_model(
            pl.perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True), tmp_path / "m.json"
        )
    )
    with pytest.raises(InputError, match="2 features"):
        model.predict([[1, 2, 3]])
    assert model.predict([[0, 0]]).tolist() == [-1]  # a tie is not positive: classes_[0]
    assert model.decision_function([[0.5, 0.25]]).tolist() == [Fraction(0)]
