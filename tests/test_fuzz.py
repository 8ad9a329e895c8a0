"""The fuzz suite (issue 13 item 7): every reader, the model loader and the command line, fed
hostile input by Hypothesis. No raw exception (only InputError, or exit codes 0/1/2 with no
traceback), no hang (a deadline per example) and no allocation past the budget (tracemalloc's peak,
which counts NumPy's buffers).

``make test`` runs it in about a minute (HYPOTHESIS_PROFILE=test); ``make fuzz`` runs the tests
marked ``fuzz`` with 50 times as many examples (HYPOTHESIS_PROFILE=fuzz: the profile's 20 times,
scaled by :data:`FUZZ_SCALE`; over 100,000 inputs in this file), the whole process under a 4 GiB
address-space cap (``ulimit -v``) and each input under a 60 s deadline. Profiles are in
tests/conftest.py; ``PERCEPTRONLAB_FUZZ_SCALE`` sets the scale (e.g. 0.1 on a loaded machine).

Issue 28 added: exact numbers near the float range for the analysis (``analyze``, ``separable``,
``max_margin``), archives of every codec (LZMA, bz2, zlib), scaled models with fuzzed scaler
fields, pipelines' model files, huge counts (``--trials``, ``--seed``) and ``analyze --exact``.
Issue 35 added: hostile class labels and column names (HTML, LaTeX, Markdown, spreadsheet
formulas, math text, line breaks) through every ``trace`` format and matplotlib's text.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
import tracemalloc
import zipfile
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from perceptronlab.cli import app
from perceptronlab.estimators import load_model
from perceptronlab.exceptions import InputError
from perceptronlab.io import read_data

pytestmark = pytest.mark.fuzz

MiB = 2**20
#: the budget the readers are fuzzed with, and the most they may allocate beyond it
BUDGET = 4 * MiB
SLACK = 4 * MiB
#: largest decimal exponent in the numbers generated: past the exact numbers' limit
#: (perceptronlab._ground.numbers.MAX_EXPONENT), so that both sides of it are tried
EXACT_EXPONENT = 1500
READER_EXPONENT = 1500


#: examples per share in the "fuzz" profile are scaled by this (so that `make fuzz` feeds this file
#: over 100,000 inputs); 1 in the "test" profile
FUZZ_SCALE = float(
    os.environ.get(
        "PERCEPTRONLAB_FUZZ_SCALE", "2.5" if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else "1"
    )
)


def fuzz_settings(share: float) -> settings:
    """``share`` times the profile's examples (100 in "test", 2000 × :data:`FUZZ_SCALE` in "fuzz"),
    and a deadline of 60 s that only a hang misses."""
    return settings(
        max_examples=max(5, int(settings.default.max_examples * share * FUZZ_SCALE)),
        deadline=timedelta(seconds=60),
    )


def within_budget(call):
    """``call()``'s result, None after an InputError; any other exception fails the example, and
    so does an allocation beyond the budget."""
    tracemalloc.start()
    try:
        try:
            result = call()
        except InputError:
            result = None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < BUDGET + SLACK, f"allocated {peak / MiB:.1f} MiB"
    return result


@pytest.fixture(scope="module")
def folder():
    import sklearn.datasets  # noqa: F401 - the readers' lazy imports, loaded before memory is measured

    import perceptronlab._ground.validation  # noqa: F401

    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


# ================================================================ strategies


def number_text(max_exponent: int) -> st.SearchStrategy[str]:
    """Cells and flag values: numbers in every spelling, and things that are not numbers."""
    return st.one_of(
        st.integers(-(10**6), 10**6).map(str),
        st.builds(
            lambda m, e: f"{m}e{e}",
            st.integers(-999, 999),
            st.integers(-max_exponent, max_exponent),
        ),
        st.builds(lambda m, f: f"{m}.{f}", st.integers(-99, 99), st.integers(0, 10**6)),
        st.builds(lambda p, q: f"{p}/{q}", st.integers(-99, 99), st.integers(0, 99)),
        st.floats(width=64, min_value=-1e300, max_value=1e300).map(repr),
        st.sampled_from(
            [
                "",
                " ",
                "nan",
                "NaN",
                "inf",
                "-inf",
                "1e",
                "--1",
                "0x10",
                "1_000",
                "½",
                "1,5",
                '"1"',
                "١",
                "+1",
                "-0",
                "1e-400",
                "1/0",
                " 2 ",
                "1.",
                ".5",
                "1e100000000",
                "-1e-100000000",
                "9" * 1200,
                "1/" + "7" * 1200,
                "1e309",
                "-1e309",
                "1e308",
                "1e200",
            ]
        ),
        st.text(max_size=4),
    )


@st.composite
def table_text(draw, delimiter: str = ",", max_exponent: int = READER_EXPONENT) -> str:
    """A CSV/TSV file: a header, ragged or regular rows, odd line ends, quotes, BOMs, blank lines."""
    width = draw(st.integers(1, 5))
    names = st.one_of(
        st.sampled_from(["x1", "x2", "x3", "y", "label", "", "1"]), st.text(max_size=4)
    )
    header = draw(st.lists(names, min_size=width, max_size=width))
    cell = st.one_of(number_text(max_exponent), st.sampled_from(["spam", "ham", "-1", "1"]))
    regular = draw(st.booleans())
    rows = draw(
        st.lists(
            st.lists(
                cell, min_size=width if regular else 0, max_size=width if regular else width + 2
            ),
            max_size=8,
        )
    )
    quote = draw(st.booleans())
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = (
        end.join(
            delimiter.join(f'"{c}"' if quote and '"' not in c else c for c in row)
            for row in [header, *rows]
        )
        + end
    )
    if draw(st.booleans()):
        text = (
            draw(st.sampled_from(["", "\ufeff", "\n\n", " \n"]))
            + text
            + draw(st.sampled_from(["", "\n", "\n\n", '"', "1,2", "\x00"]))
        )
    return text


@st.composite
def plausible_table(draw, max_exponent: int = EXACT_EXPONENT) -> str:
    """A CSV file that is mostly good data (so that the commands get to train, trace and analyse),
    now and then with one hostile cell."""
    d = draw(st.integers(1, 3))
    n = draw(st.integers(1, 7))
    number = st.one_of(
        st.integers(-3, 3).map(str), st.sampled_from(["0.5", "-1/2", "1e-3", "2.25", "1/3"])
    )
    labels = draw(
        st.sampled_from([["-1", "1"], ["a", "b"], ["0", "1", "2"], ["1"], ["spam", "ham"]])
    )
    rows = [[draw(number) for _ in range(d)] + [draw(st.sampled_from(labels))] for _ in range(n)]
    if draw(st.integers(0, 3)) == 0:
        row, col = draw(st.integers(0, n - 1)), draw(st.integers(0, d))
        rows[row][col] = draw(number_text(max_exponent))
    header = [f"x{j + 1}" for j in range(d)] + ["y"]
    return "\n".join(",".join(row) for row in [header, *rows]) + "\n"


@st.composite
def libsvm_text(draw) -> str:
    index = st.one_of(
        st.integers(-3, 30),
        st.integers(2**31 - 2, 2**31 + 2),
        st.integers(0, 2**40),
        st.sampled_from([10**8, 10**6]),
    )
    entry = st.one_of(
        st.builds(lambda i, v: f"{i}:{v}", index, number_text(READER_EXPONENT)),
        st.sampled_from(["qid:1", "#c", ":", "1:", ":1", "a:b"]),
        st.text(max_size=3),
    )
    label = st.one_of(st.sampled_from(["1", "-1", "+1", "0", "2"]), number_text(READER_EXPONENT))
    lines = draw(
        st.lists(
            st.builds(lambda lab, es: " ".join([lab, *es]), label, st.lists(entry, max_size=5)),
            max_size=6,
        )
    )
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines) + draw(st.sampled_from(["", "\n"]))


@st.composite
def npy_bytes(draw) -> bytes:
    """A valid .npy of a small array, then perhaps mutated: truncated, bytes flipped, a forged header."""
    dtype = draw(st.sampled_from(["<f8", "<f4", "<i8", "|i1", "|b1", "<U2", "<c16", ">f8"]))
    shape = draw(st.sampled_from([(3, 2), (2, 3), (1, 1), (0, 2), (4,), (2, 2, 2), (5, 3)]))
    buffer = io.BytesIO()
    np.save(buffer, np.zeros(shape, dtype=dtype) + (1 if dtype != "<U2" else ""))
    data = bytearray(buffer.getvalue())
    mutation = draw(st.sampled_from(["none", "truncate", "flip", "header", "append"]))
    if mutation == "truncate" and data:
        del data[draw(st.integers(0, len(data) - 1)) :]
    elif mutation == "flip" and data:
        for _ in range(draw(st.integers(1, 4))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    elif mutation == "header":
        fake_shape = draw(
            st.lists(st.one_of(st.integers(-2, 5), st.integers(0, 2**70)), max_size=3)
        )
        descr = draw(st.sampled_from(["<f8", "|O", "<U3", "V8", "<f16", "xyz", "[('a', '<f8')]"]))
        text = (
            f"{{'descr': {descr!r}, 'fortran_order': {draw(st.booleans())}, "
            f"'shape': {tuple(fake_shape)!r}, }}"
        )
        if draw(st.booleans()):
            text = text[: draw(st.integers(0, len(text)))]
        body = text.encode("latin1")
        data = bytearray(
            b"\x93NUMPY\x01\x00" + len(body).to_bytes(2, "little") + body + bytes(data[128:])
        )
    elif mutation == "append":
        data += draw(st.binary(max_size=64))
    return bytes(data)


@st.composite
def npz_bytes(draw) -> bytes:
    """An archive of members named X.npy/y.npy (or not) holding fuzzed .npy bytes, perhaps mutated."""
    buffer = io.BytesIO()
    compression = draw(
        st.sampled_from(
            [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]
        )
    )
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name in draw(
            st.lists(
                st.sampled_from(["X.npy", "y.npy", "X", "z.npy"]),
                min_size=0,
                max_size=3,
                unique=True,
            )
        ):
            archive.writestr(name, draw(npy_bytes()))
    data = bytearray(buffer.getvalue())
    if draw(st.booleans()) and data:
        for _ in range(draw(st.integers(1, 3))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    if draw(st.booleans()) and data:
        del data[draw(st.integers(1, len(data))) :]
    return bytes(data)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([10**400, -(10**401), 1e-320, 5e-324, 1e300, -1e308, 2**63, 0])
    | st.text(max_size=6)
    | number_text(EXACT_EXPONENT),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)

GOOD_MODEL = {
    "format": "perceptronlab-model",
    "version": 1,
    "algorithm": "perceptron",
    "estimator": "perceptronlab.Run",
    "exact": False,
    "params": {"eta": 1.0, "fit_intercept": True},
    "n_features": 2,
    "classes": [-1, 1],
    "w": [1.0, -2.0],
    "b": 0.5,
    "training": {"mistakes": 3, "sweeps": 2, "converged": True},
    "feature_names": ["x1", "x2"],
    "label_name": "y",
}
SCALED = {
    **GOOD_MODEL,
    "preprocessing": {
        "version": 1,
        "scaler": "standard",
        "mean": [0.5, -1.0],
        "scale": [2.0, 0.25],
    },
}
MAXABS = {**GOOD_MODEL, "preprocessing": {"version": 1, "scaler": "maxabs", "scale": [3.0, 1e-3]}}
MULTICLASS = {
    **GOOD_MODEL,
    "classes": ["a", "b", "c"],
    "w": [[1, 0], [0, 1], [1, 1]],
    "b": [0, 0, 1],
    "training": {"mistakes": [1, 2, 3]},
}


@st.composite
def model_text(draw) -> str:
    base = draw(
        st.sampled_from(
            [
                GOOD_MODEL,
                MULTICLASS,
                SCALED,
                MAXABS,
                {**GOOD_MODEL, "exact": True, "w": ["1/3", "-2"], "b": "1/2"},
            ]
        )
    )
    document = json.loads(json.dumps(base))
    if "preprocessing" in document and draw(st.booleans()):  # one of the scaler's numbers fuzzed
        key = draw(
            st.sampled_from([k for k in ("mean", "scale") if k in document["preprocessing"]])
        )
        document["preprocessing"][key][draw(st.integers(0, 1))] = draw(JSON_VALUES)
    fields = list(base) + ["preprocessing", "extra"]
    for field in draw(st.lists(st.sampled_from(fields), max_size=3, unique=True)):
        if draw(st.booleans()):
            document.pop(field, None)
        else:
            document[field] = draw(JSON_VALUES)
    text = json.dumps(document, allow_nan=True)
    mutation = draw(st.sampled_from(["none", "none", "truncate", "replace", "nest"]))
    if mutation == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    elif mutation == "replace":
        at = draw(st.integers(0, len(text)))
        text = (
            text[:at]
            + draw(
                st.sampled_from(["NaN", "1e309", "-Infinity", "[", "}", "9" * 50, '"', "\\u0000"])
            )
            + text[at + draw(st.integers(0, 3)) :]
        )
    elif mutation == "nest":
        text = "[" * draw(st.integers(1, 5000)) + text
    return text


# ================================================================ readers


@fuzz_settings(3)
@given(text=table_text(), exact=st.booleans(), has_label=st.booleans(), tsv=st.booleans())
# an exact number past float's range in an unnamed first column (once an OverflowError)
@example(text=",x1\n1e309,0\n", exact=True, has_label=False, tsv=False)
def test_csv_and_tsv_reader(folder, text, exact, has_label, tsv):
    path = folder / ("d.tsv" if tsv else "d.csv")
    path.write_text(text.replace(",", "\t") if tsv else text, encoding="utf-8", newline="")
    result = within_budget(
        lambda: read_data(path, exact=exact, has_label=has_label, max_bytes=BUDGET)
    )
    if result is not None:
        X, y = result
        n = len(X) if exact else X.shape[0]
        assert n >= 1 and (y is None or len(y) == n)
        if not exact:
            assert X.dtype == np.float64 and np.isfinite(X).all()


@fuzz_settings(2)
@given(
    content=st.binary(max_size=200), kind=st.sampled_from(["csv", "tsv", "libsvm", "npy", "npz"])
)
def test_every_reader_on_arbitrary_bytes(folder, content, kind):
    path = folder / f"bytes.{kind}"
    path.write_bytes(content)
    within_budget(lambda: read_data(path, max_bytes=BUDGET))


@fuzz_settings(2)
@given(text=libsvm_text(), exact=st.booleans())
def test_libsvm_reader(folder, text, exact):
    path = folder / "d.libsvm"
    path.write_text(text, encoding="utf-8", newline="")
    result = within_budget(lambda: read_data(path, exact=exact, max_bytes=BUDGET))
    if result is not None and not exact:
        X, y = result
        assert X.shape[0] == len(y) and np.isfinite(X.data).all()


@fuzz_settings(3)
@given(content=npy_bytes(), has_label=st.booleans(), exact=st.booleans())
def test_npy_reader(folder, content, has_label, exact):
    path = folder / "d.npy"
    path.write_bytes(content)
    result = within_budget(
        lambda: read_data(path, has_label=has_label, exact=exact, max_bytes=BUDGET)
    )
    if result is not None and not exact:
        assert result[0].ndim == 2


@fuzz_settings(3)
@given(content=npz_bytes(), has_label=st.booleans())
def test_npz_reader(folder, content, has_label):
    path = folder / "d.npz"
    path.write_bytes(content)
    result = within_budget(lambda: read_data(path, has_label=has_label, max_bytes=BUDGET))
    if result is not None:
        X, y = result
        assert X.ndim == 2 and (y is None or len(y) == X.shape[0])


# ================================================================ the model loader


@pytest.mark.filterwarnings(
    "ignore:X does not have valid feature names"
)  # scikit-learn's, on purpose
@fuzz_settings(4)
@given(text=model_text())
def test_model_loader(folder, text):
    path = folder / "m.json"
    path.write_text(text, encoding="utf-8")
    model = within_budget(lambda: load_model(path, as_estimator=False))
    if model is None:
        return
    # a model that keeps the contract predicts (or refuses the input with an InputError)
    X = np.ones((2, model.n_features_in_))
    scores = model.decision_function(X)
    labels = model.predict(X)
    assert len(labels) == 2 and all(label in model.classes_.tolist() for label in labels.tolist())
    assert scores.shape[0] == 2
    if not model.exact:
        assert np.all(
            np.isfinite(np.asarray(scores, dtype=np.float64)) | ~np.isfinite(model.coef_).any()
        )
    estimator = load_model(path)
    assert estimator.predict(X).tolist() == labels.tolist()


# ================================================================ the command line


runner = CliRunner()


FLAG_NUMBER = number_text(EXACT_EXPONENT)


@st.composite
def command_line(draw, data: str, model: str, sheet: str) -> list[str]:
    command = draw(
        st.sampled_from(
            # a report draws a section of figures per class (on a fuzzed table of many classes,
            # most of this test's time): one draw in about fifty, several reports a run still
            ["train", "train", "predict", "predict", "trace", "analyze", "check", "exam"] * 6
            + ["report", "experiment", "experiment"]
        )
    )
    if command == "train":
        args = ["train", data, "-q"]
        if draw(st.booleans()):
            args.append("--exact")
        if draw(st.booleans()):
            args += ["--algorithm", draw(st.sampled_from(["pocket", "perceptron", "nope"]))]
        if draw(st.booleans()):
            args += ["--out", model]
    elif command == "predict":
        args = ["predict", model, data]
    elif command == "trace":
        args = [
            "trace",
            data,
            "-q",
            "--format",
            draw(st.sampled_from(["md", "csv", "latex", "html"])),
        ]
    elif command == "analyze":
        args = ["analyze", data, "--json", draw(st.sampled_from(["--loo", "--no-loo"]))]
        if draw(st.booleans()):
            args.append("--exact")
    elif command == "experiment":  # only counts that are refused before any work (or a tiny run)
        args = [
            "experiment",
            draw(st.sampled_from(["worst-case", "lfd", "learners", "bound-vs-actual"])),
            "--trials",
            draw(st.sampled_from(["0", "-1", "1e30", "100001", str(10**30), "x", "2.5"])),
            "-q",
            "--out",
            str(Path(model).parent / "experiment"),
        ]
    elif command == "report":
        args = ["report", data, "-q", "--out", str(Path(model).parent / "report")]
    elif command == "check":
        args = ["check", sheet] + (["--data", data] if draw(st.booleans()) else [])
    else:
        args = [
            "exam",
            "--kind",
            draw(st.sampled_from(["trace", "margin", "generalization", "essay"])),
            "--seed",
            str(draw(st.one_of(st.integers(-1, 10**6), st.sampled_from([10**30, 2**63])))),
        ]
    for flag, values in (
        ("--eta", FLAG_NUMBER),
        ("--margin", FLAG_NUMBER),
        ("--max-sweeps", st.sampled_from(["1", "3", "0", "-1", "x", "50"])),
        ("--label", st.sampled_from(["y", "x1", "nope", ""])),
        ("--data-format", st.sampled_from(["csv", "npy", "libsvm", "excel"])),
        ("--max-bytes", st.sampled_from(["1K", "4M", "0", "lots", "1e9"])),
    ):
        if flag in FLAGS.get(command, ()) and draw(st.integers(0, 5)) == 0:
            args += [flag, draw(values)]
    return args


#: the flags each fuzzed command has
FLAGS = {
    "train": ("--eta", "--margin", "--max-sweeps", "--label", "--data-format", "--max-bytes"),
    "trace": ("--eta", "--margin", "--max-sweeps", "--label", "--data-format", "--max-bytes"),
    "analyze": ("--label", "--data-format", "--max-bytes"),
    "check": ("--eta", "--label", "--data-format", "--max-bytes"),
    "predict": ("--label", "--data-format", "--max-bytes"),
    "report": ("--label", "--data-format", "--max-bytes"),
}


@fuzz_settings(3)
@given(
    data=st.data(),
    text=st.one_of(plausible_table(), table_text(max_exponent=EXACT_EXPONENT)),
    sheet=st.one_of(table_text(max_exponent=EXACT_EXPONENT), st.just("")),
)
def test_command_line(folder, data, text, sheet):
    paths = {
        "data": folder / "cli.csv",
        "model": folder / "cli.json",
        "sheet": folder / "sheet.csv",
    }
    paths["data"].write_text(text, encoding="utf-8", newline="")
    paths["sheet"].write_text(sheet, encoding="utf-8", newline="")
    if data.draw(st.booleans()):
        paths["model"].write_text(data.draw(model_text()), encoding="utf-8")
    args = data.draw(command_line(str(paths["data"]), str(paths["model"]), str(paths["sheet"])))
    if args[0] == "predict" and data.draw(
        st.booleans()
    ):  # a model trained on the data, or on other data
        trained = runner.invoke(
            app, ["train", str(paths["data"]), "--out", str(paths["model"]), "-q"]
        )
        assert trained.exit_code in (0, 1) and "Traceback" not in trained.output, trained.output
        paths["data"].write_text(
            data.draw(st.one_of(st.just(text), plausible_table())), encoding="utf-8"
        )
    result = runner.invoke(app, args)
    event(f"{args[0]}: exit {result.exit_code}")
    assert result.exit_code in (0, 1, 2), (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        result.exception,
    )
    assert "Traceback" not in result.output, (args, result.output)
    if result.exit_code == 1:
        lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
        assert lines and (lines[-1].startswith("Error: ") or args[0] == "check"), (
            args,
            result.stderr,
        )


# ================================================================ the exact analysis near the float range

#: exact cells on both sides of the float range, tiny ones that underflow, and ordinary ones
EXACT_CELLS = st.one_of(
    st.sampled_from(
        [
            "1",
            "-1",
            "0",
            "2",
            "3",
            "1/3",
            "123456789/987654321",
            "1e155",
            "-1e155",
            "1e200",
            "-1e200",
            "1e300",
            "1e308",
            "-1e308",
            "1e309",
            "1e400",
            "-1e400",
            "1e-300",
            "-1e-300",
            "1e-200",
            "1e-400",
            "7e-170",
            "1e1000",
            "1/" + "7" * 300,
        ]
    ),
    st.builds(
        lambda m, e: f"{m}e{e}", st.integers(-99, 99), st.integers(-EXACT_EXPONENT, EXACT_EXPONENT)
    ),
    st.builds(lambda p, q: f"{p}/{q}", st.integers(-(10**20), 10**20), st.integers(1, 10**20)),
)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@fuzz_settings(3)
@given(
    data=st.data(),
    n=st.integers(1, 5),
    d=st.integers(1, 3),
    fit_intercept=st.booleans(),
    function=st.sampled_from(["analyze", "separable", "max_margin"]),
)
def test_exact_analysis(data, n, d, fit_intercept, function):
    from perceptronlab.exceptions import PerceptronLabError
    from perceptronlab.theory import analyze, max_margin, separable

    X = data.draw(st.lists(st.lists(EXACT_CELLS, min_size=d, max_size=d), min_size=n, max_size=n))
    y = data.draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
    call = {"analyze": analyze, "separable": separable, "max_margin": max_margin}[function]
    try:
        result = call(X, y, fit_intercept=fit_intercept)
    except (
        PerceptronLabError
    ) as exc:  # refused with one line: an InputError, not separable, or on the edge
        event(f"{function}: {type(exc).__name__}")
        assert "\n" not in str(exc)
        return
    event(f"{function}: answered")
    assert len(str(result)) < 5000  # shown within bounds (a long exact number is rounded, marked ≈)


# ================================================================ hostile labels and names (issue 35)

#: pieces that mean something in one of the outputs: HTML, LaTeX, Markdown, CSV, matplotlib
MARKUP_PIECES = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    '"',
    "'",
    "&",
    "&amp;",
    "\\input{/etc/passwd}",
    "\n\\input{/etc/passwd}",
    "%",
    "$\\frac$",
    "$x_1$",
    "$",
    "{",
    "}",
    "#",
    "_",
    "^",
    "~",
    "\\",
    "\r",
    "\n",
    "\t",
    "\x0b",
    "\u2028",
    "[a](javascript:x)",
    "*",
    "`",
    "|",
    "=1+1",
    "+SUM(A1)",
    "@SUM(1+1)",
    "-",
    "ü",
    "⟨w,x⟩",
]


@st.composite
def hostile_name(draw) -> str:
    """A class label or a column name built of markup pieces and a little text."""
    pieces = st.one_of(st.sampled_from(MARKUP_PIECES), st.text(max_size=3))
    name = "".join(draw(st.lists(pieces, min_size=1, max_size=4)))
    return name if name.strip() else name + "a"  # a label of spaces alone is read as missing


@st.composite
def hostile_table(draw) -> str:
    """A small CSV, 2 features, with three hostile class labels (one worksheet each) and hostile
    feature names, quoted as a spreadsheet writes it."""
    import csv

    # three classes: distinct once the reader strips the spaces around a cell ("\ta" is "a")
    labels = draw(
        st.lists(hostile_name(), min_size=3, max_size=3, unique_by=lambda label: label.strip())
    )
    names = draw(st.lists(hostile_name(), min_size=2, max_size=2, unique=True))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*names, "label"])
    for k in range(6):
        writer.writerow([k % 3, k // 3 - 1, labels[k % 3]])
    return buffer.getvalue()


#: what trace's HTML may hold: its own tags, and one attribute (the worksheet's class)
TRACE_TAGS = {"h3", "table", "thead", "tbody", "tr", "th", "td", "sub"}
#: the LaTeX trace's own commands and the escapes of the labels
LATEX_OWN = (
    r"\\(medskip|noindent|textbf|par|begin|end|hline|langle|rangle|textbackslash|"
    r"textasciicircum|textasciitilde)\b|\\[{}$&#%_\\]"
)


def _html_elements(page: str) -> tuple[set[str], set[str]]:
    from html.parser import HTMLParser

    tags: set[str] = set()
    attributes: set[str] = set()

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs):
            tags.add(tag)
            attributes.update(name for name, _ in attrs)

    Parser().feed(page)
    return tags, attributes


@fuzz_settings(0.5)
@given(text=hostile_table(), fmt=st.sampled_from(["html", "latex", "md", "csv"]))
def test_hostile_labels_stay_text_in_every_trace_format(folder, text, fmt):
    path = folder / "hostile.csv"
    path.write_text(text, encoding="utf-8", newline="")
    result = runner.invoke(app, ["trace", str(path), "-f", fmt, "--max-sweeps", "2", "-q"])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
    if result.exit_code:
        return
    out = result.stdout
    if fmt == "html":
        tags, attributes = _html_elements(out)
        assert tags <= TRACE_TAGS and attributes <= {"class"}, (tags, attributes)
    elif fmt == "latex":
        import re

        lines = out.splitlines()
        assert not any(line.lstrip().startswith("%") for line in lines)
        assert "\\" not in re.sub(LATEX_OWN, "", out), out
    else:
        headings = [line for line in out.splitlines() if "against the rest" in line]
        assert len(headings) == 3, out


@fuzz_settings(0.3)
@given(label=hostile_name())
def test_hostile_labels_are_drawn_literally(label):
    """matplotlib draws a label as written (math text would raise on ``$\\frac$``)."""
    pytest.importorskip("matplotlib")
    from perceptronlab._ground.markup import mathtext_literal
    from perceptronlab.plots import new_figure

    figure = new_figure(2, 1)
    figure.text(0, 0, f"class {mathtext_literal(label)}")
    figure.canvas.draw()
