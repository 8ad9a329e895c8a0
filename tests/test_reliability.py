"""Reliability, round two (issue 28): ``--out`` never replaces a device, the last raw errors, work
bounded before it starts, exact arithmetic with a budget.

Every node here (character devices, FIFOs, sockets) is made in pytest's scratch folder, never in
/dev; the device nodes need root (``os.mknod``), which the project's CI and this machine have.
"""

from __future__ import annotations

import io
import math
import os
import re
import socket
import stat
from fractions import Fraction

import pytest
from typer.testing import CliRunner

import perceptronlab as pl
from perceptronlab._ground.files import atomic_write
from perceptronlab.cli import app
from perceptronlab.exceptions import InputError
from perceptronlab.io import save_model

runner = CliRunner()

posix_only = pytest.mark.skipif(os.name == "nt", reason="device nodes, FIFOs and sockets are POSIX")


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def one_error_line(result) -> str:
    """The result is a failure with exactly one line on stderr, an ``Error: ...`` line."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), lines[0]
    assert "Traceback" not in result.output
    return lines[0]


# ================================================================ 1. files written only where a file belongs


def _full_device(folder):
    """A character device with /dev/full's numbers (1, 7), made in ``folder``; skipped without root."""
    path = folder / "full"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except PermissionError:
        pytest.skip("making a device node needs root")
    return path


def _fifo(folder):
    path = folder / "pipe"
    os.mkfifo(path)
    return path


def _socket(folder):
    path = folder / "sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.close()  # the node stays in the folder
    return path


def _link_to_device(folder):
    device = _full_device(folder)
    link = folder / "link"
    link.symlink_to(device)
    return link


NODES = {
    "device": _full_device,
    "fifo": _fifo,
    "socket": _socket,
    "link to a device": _link_to_device,
}
EXPECTED_KIND = {
    "device": "a character device",
    "fifo": "a FIFO",
    "socket": "a socket",
    "link to a device": "a character device",
}


def _unchanged(path, before: os.stat_result) -> None:
    after = os.lstat(path)
    assert stat.S_IFMT(after.st_mode) == stat.S_IFMT(before.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


@posix_only
@pytest.mark.parametrize("kind", sorted(NODES))
def test_atomic_write_refuses_a_node_and_leaves_it(tmp_path, kind):
    node = NODES[kind](tmp_path)
    before = os.lstat(node)
    with pytest.raises(InputError) as info:
        atomic_write(node, "text\n", what="--out")
    message = str(info.value)
    assert EXPECTED_KIND[kind] in message and "\n" not in message
    assert message.startswith(f"--out {str(node)!r}: expected a regular file")
    _unchanged(node, before)
    if kind == "link to a device":
        assert os.path.islink(node)
        _unchanged(tmp_path / "full", os.lstat(tmp_path / "full"))
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no temporary file left


@posix_only
@pytest.mark.parametrize("kind", sorted(NODES))
def test_save_model_refuses_a_node(tmp_path, kind):
    node = NODES[kind](tmp_path)
    before = os.lstat(node)
    run = pl.perceptron([[1, 0], [0, 1]], [1, -1])
    with pytest.raises(InputError, match="model path .*expected a regular file"):
        save_model(run, node)
    _unchanged(node, before)


@posix_only
@pytest.mark.parametrize("kind", sorted(NODES))
def test_cli_out_refuses_a_node_in_train_predict_and_exam(tmp_path, exam_csv, kind):
    node = NODES[kind](tmp_path)
    before = os.lstat(node)
    line = one_error_line(invoke("train", exam_csv, "--out", node))
    assert "--out" in line and EXPECTED_KIND[kind] in line
    model = tmp_path / "m.json"
    assert invoke("train", exam_csv, "--out", model, "--quiet").exit_code == 0
    line = one_error_line(invoke("predict", model, exam_csv, "--out", node))
    assert "--out" in line and EXPECTED_KIND[kind] in line
    line = one_error_line(invoke("exam", "--kind", "trace", "--seed", "3", "--out", node))
    assert "--out" in line and EXPECTED_KIND[kind] in line
    line = one_error_line(
        invoke(
            "exam",
            "--kind",
            "trace",
            "--seed",
            "3",
            "--data-out",
            node,
            "--out",
            tmp_path / "exam.md",
        )
    )
    assert "--data-out" in line
    _unchanged(node, before)


@posix_only
def test_a_regular_file_and_a_link_to_one_are_still_replaced(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    atomic_write(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    atomic_write(tmp_path / "fresh.txt", "made")
    assert (tmp_path / "fresh.txt").read_text() == "made"


# ================================================================ 2. no raw exception: exact
# numbers near the float range

from perceptronlab.core.exact import BITS_VARIABLE, ExactBudgetError  # noqa: E402
from perceptronlab.theory import analyze, max_margin, radius, separable  # noqa: E402


@pytest.mark.parametrize("function", [analyze, separable, max_margin])
def test_exact_cells_past_the_float_range_are_one_input_error(function):
    with pytest.raises(InputError, match=r"X\[1, 0\]: expected a number within the float range"):
        function([["1"], ["1e400"]], [1, 1])


def test_exact_cells_whose_squares_pass_the_float_range(tmp_path):
    assert radius([["1e200"]]) == pytest.approx(1e200)  # R² = 1e400 is past a float, R is not
    path = tmp_path / "big.csv"
    path.write_text("x,y\n1e155,1\n-1,-1\n")
    for command in (
        "analyze",
        "report",
    ):  # analysed, or refused in one line: never an OverflowError
        result = invoke(
            command, path, *(("--out", tmp_path / "report") if command == "report" else ())
        )
        assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
        if result.exit_code == 1:
            one_error_line(result)


def test_a_margin_too_small_to_square_gives_an_infinite_bound_not_a_zero_division(tmp_path):
    from perceptronlab.theory._bounds import best_freund_schapire

    assert best_freund_schapire([1.0], [[1e-300], [-3.0]], [1, -1]) == (2.0, math.inf)
    path = tmp_path / "tiny.csv"
    path.write_text("x1,y\n1e-300,1\n-3,-1\n")
    result = invoke("analyze", path)
    assert result.exit_code == 0, result.output
    assert "Freund–Schapire" in result.output and "Warning" not in result.output


def test_max_margin_with_intercept_on_values_far_apart():
    result = max_margin(
        [["123456789/987654321", "1"], ["-1e200", "2"]], [1, -1], fit_intercept=True
    )
    assert result.exact and result.rho == pytest.approx(5e199)
    assert len(str(result)) < 200  # the long exact ρ² is shown rounded
    result = max_margin([["1e-200"], ["2"], ["1/3"], ["0"]], [1, -1, -1, 1], fit_intercept=True)
    assert (
        result.rho_squared == (Fraction(1, 3) - Fraction(1, 10**200)) ** 2 / 4
    )  # half the gap, squared


# ================================================================ 4. exact arithmetic with a budget


def test_the_exact_engine_stops_at_its_bit_budget_with_the_way_to_raise_it(monkeypatch):
    X = [["1/1000003"], ["-1/1000033"], ["1/1000037"], ["-1/1000039"]]
    monkeypatch.setenv(BITS_VARIABLE, "64")
    with pytest.raises(ExactBudgetError) as info:
        pl.perceptron(X, [1, 1, 1, 1], exact=True)
    message = str(info.value)
    assert "64 bits" in message and BITS_VARIABLE in message and "floating point" in message
    monkeypatch.setenv(BITS_VARIABLE, "128")  # raised: the same run goes further (to its own end)
    try:
        run = pl.perceptron(X, [1, 1, 1, 1], exact=True, max_sweeps=3, warn=False)
        assert run.mistakes >= 6
    except ExactBudgetError as exc:
        assert "128 bits" in str(exc) and "after update 6 " not in str(exc)
    monkeypatch.setenv(BITS_VARIABLE, "lots")
    with pytest.raises(InputError, match=BITS_VARIABLE):
        pl.perceptron(X, [1, 1, 1, 1], exact=True)


def test_trace_of_noisy_17_digit_fractions_stops_at_the_budget(tmp_path):
    import random

    rng = random.Random(0)

    def number() -> str:
        return f"{rng.randint(10**15, 10**16)}/{rng.randint(10**15, 10**16)}"

    path = tmp_path / "noisy.csv"
    path.write_text(
        "x1,x2,x3,y\n"
        + "".join(f"{number()},{number()},{number()},{rng.choice([1, -1])}\n" for _ in range(300))
    )
    # trace refuses the 300,000-row worksheet before any arithmetic; with --max-steps raised, the
    # exact engine's bit budget is what stops it
    refused = one_error_line(invoke("trace", path))
    assert "--max-steps" in refused and "10,000 rows" in refused
    for args in (("trace", "--max-steps", "300000", path), ("train", "--exact", path)):
        line = one_error_line(invoke(*args))
        assert "4,096 bits" in line and BITS_VARIABLE in line


# ================================================================ worksheets: balanced cells, digits, a budget

from perceptronlab.teach import checker  # noqa: E402

EXAM_X, EXAM_Y = [[1, 0], [1, 1], [0, 1]], [1, -1, -1]


def _sheet(first_w: str, point: str = "x1") -> io.StringIO:
    sheet = pl.perceptron(EXAM_X, EXAM_Y, exact=True, trace=True).table("csv")
    return io.StringIO(sheet.replace('1,x1,0,yes,"(1, 0)"', f'1,{point},0,yes,"{first_w}"'))


@pytest.mark.parametrize("cell", ["(1, 0", "1, 0)", "[1, 0)", "((1, 0)"])
def test_an_unbalanced_vector_cell_is_refused(cell):
    assert checker.check_worksheet(
        _sheet("(1, 0)"), EXAM_X, EXAM_Y
    ).ok  # the sheet as the engine writes it
    with pytest.raises(InputError, match="Close the parenthesis"):
        checker.check_worksheet(_sheet(cell), EXAM_X, EXAM_Y)
    assert checker.check_worksheet(
        _sheet("[1, 0]"), EXAM_X, EXAM_Y
    ).ok  # brackets that match are fine


def test_a_point_named_with_5000_digits_is_one_line():
    with pytest.raises(InputError, match="expected a point x1 ... x3") as info:
        checker.check_worksheet(_sheet("(1, 0)", point="x" + "1" * 5000), EXAM_X, EXAM_Y)
    assert len(str(info.value)) < 300


def test_a_sheet_carrying_2000_points_is_refused_before_the_run(tmp_path):
    lines = ["# data: x1,x2,y"] + [f"# data: {i},{i % 7},{1 if i % 2 else -1}" for i in range(2000)]
    path = tmp_path / "big.csv"
    path.write_text("\n".join(lines) + '\nsweep,point,score,mistake,w_after\n1,x1,0,yes,"(0, 0)"\n')
    line = one_error_line(invoke("check", path))
    assert "at most 200 points" in line and "2,000 points" in line


def test_a_sheet_of_too_many_rows_is_refused():
    rows = "".join('1,x1,0,yes,"(1, 0)"\n' for _ in range(checker.MAX_SHEET_ROWS + 5))
    with pytest.raises(InputError, match="at most 5,000 rows"):
        checker.check_worksheet(io.StringIO(rows), EXAM_X, EXAM_Y)


def test_the_checked_run_is_bounded_in_steps():
    X = [[1, 0]] * 150 + [
        [-1, 0]
    ] * 50  # never converges (identical points, both labels): 1000 sweeps asked
    y = [1] * 150 + [1] * 50
    result = checker.check_worksheet(io.StringIO('1,x1,0,yes,"(1, 0)"\n'), X, y)
    assert len(result.run.steps) <= checker.MAX_SHEET_STEPS + 200


# ================================================================ archives, codecs, budgets against
# the process's limits

import zipfile  # noqa: E402

import numpy as np  # noqa: E402

from perceptronlab._ground import memory  # noqa: E402
from perceptronlab._ground.numbers import format_display_vector, int_text  # noqa: E402
from perceptronlab.io import read_data  # noqa: E402


def _npz(path, compression, arrays) -> None:
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, array in arrays.items():
            buffer = io.BytesIO()
            np.save(buffer, array)
            archive.writestr(f"{name}.npy", buffer.getvalue())


@pytest.mark.parametrize("compression", [zipfile.ZIP_LZMA, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2])
def test_a_corrupted_compressed_member_is_one_input_error(tmp_path, compression):
    path = tmp_path / "data.npz"
    rng = np.random.default_rng(0)
    _npz(path, compression, {"X": rng.random((500, 3)), "y": np.sign(rng.random(500) - 0.5)})
    data = bytearray(path.read_bytes())
    for i in range(200, 260):  # inside the X member's compressed bytes
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"\.npz file .*corrupt") as info:
        read_data(path)
    assert "\n" not in str(info.value)


def test_npz_members_are_checked_against_each_other_before_decompressing(tmp_path):
    path = tmp_path / "bomb.npz"
    rows = 2**24  # X declares 1 GiB of zeros (about 1 MB on disk); y has 3 labels
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        with archive.open("X.npy", "w", force_zip64=True) as member:
            header = io.BytesIO()
            np.lib.format.write_array_header_1_0(
                header, {"descr": "<f8", "fortran_order": False, "shape": (rows, 8)}
            )
            member.write(header.getvalue())
            zeros = bytes(2**24)
            for _ in range(64):
                member.write(zeros)
        buffer = io.BytesIO()
        np.save(buffer, np.ones(3))
        archive.writestr("y.npy", buffer.getvalue())
    import time

    start = time.perf_counter()
    with pytest.raises(InputError, match="one label per row of X \\(16,777,216\\), got 3 labels"):
        read_data(path, max_bytes="8G")
    assert (
        time.perf_counter() - start < 5
    )  # refused from the headers, not after inflating a gigabyte


def test_a_budget_above_what_the_process_may_use_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(
        memory, "_address_space_room", lambda: 2**30
    )  # as under `ulimit -v` with 1 GiB left
    path = tmp_path / "wide.svm"
    path.write_text("1 2147483647:1\n")
    with pytest.raises(InputError, match=r"this process may still use \(ulimit -v\)"):
        read_data(path, max_bytes="100G")
    limit, source = memory.process_limit()
    assert limit <= 2**30 and source in ("ulimit -v", "the cgroup's memory.max")


def test_process_limit_reads_the_real_rlimit():
    import resource
    import subprocess
    import sys

    code = (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (6 * 2**30, resource.RLIM_INFINITY)); "
        "from perceptronlab._ground.memory import process_limit; print(*process_limit(), sep='|')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    room, source = out.strip().split("|")
    assert int(room) < 6 * 2**30
    assert resource.RLIM_INFINITY != 0 and source in (
        "ulimit -v",
        "the cgroup's memory.max",
        "the machine's memory",
    )


def test_the_display_of_a_huge_w_is_bounded():
    class Huge:  # a vector of 10¹⁰ zeros that refuses to be copied
        def __len__(self):
            return 10**10

        def __iter__(self):
            return iter([0.0] * 20)

    assert format_display_vector(Huge()) == "(0, 0, 0, 0, 0, 0, 0, 0, … 10,000,000,000 entries)"
    assert format_display_vector(np.zeros(3)) == "(0, 0, 0)"


def test_int_text_writes_past_pythons_digit_limit():
    value = 7 * 10**6000 + 12345
    assert int_text(value) == "7" + "0" * 5995 + "12345"
    assert int_text(-value).startswith("-7")


# ================================================================ model files: magnitudes, pipelines of any estimator

import json  # noqa: E402

from perceptronlab.estimators import load_model  # noqa: E402


@pytest.fixture
def scaled_model(tmp_path, exam_csv):
    path = tmp_path / "m.json"
    assert invoke("train", exam_csv, "--scale", "standard", "--out", path, "--quiet").exit_code == 0
    return path


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("mean", 10**400, "an integer of 401 digits"),
        ("scale", 10**400, "an integer of 401 digits"),
        ("scale", 1e-320, "1e-320"),
        ("mean", -1e305, "-1e+305"),
    ],
)
def test_the_scalers_numbers_are_checked_for_magnitude(
    scaled_model, exam_csv, key, value, expected
):
    document = json.loads(scaled_model.read_text())
    document["preprocessing"][key][0] = value
    scaled_model.write_text(json.dumps(document))
    with pytest.raises(InputError, match=rf"preprocessing\.{key}\[0\].*got {re.escape(expected)}"):
        load_model(scaled_model)
    line = one_error_line(invoke("predict", scaled_model, exam_csv))
    assert f"preprocessing.{key}[0]" in line


def _pipelines():
    from sklearn.linear_model import LogisticRegression
    from sklearn.linear_model import Perceptron as ScikitPerceptron

    return [
        pl.Perceptron(),
        pl.AveragedPerceptron(),
        pl.MulticlassPerceptron(),
        ScikitPerceptron(),
        LogisticRegression(),
    ]


@pytest.mark.parametrize("index", range(5))
def test_a_saved_pipeline_of_any_estimator_loads_and_predicts(tmp_path, index):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    estimator = _pipelines()[index]
    rng = np.random.default_rng(index)
    X = rng.normal(size=(60, 3)) * [1, 10, 100] + [5, -5, 50]
    classes = 3 if type(estimator).__name__ == "MulticlassPerceptron" else 2
    y = np.digitize(X[:, 0], np.quantile(X[:, 0], np.linspace(0, 1, classes + 1)[1:-1]))
    pipeline = make_pipeline(StandardScaler(), estimator).fit(X, y)
    path = tmp_path / "pipeline.json"
    save_model(pipeline, path)
    loaded = load_model(path)
    assert (
        loaded.predict(X) == pipeline.predict(X)
    ).all()  # the oracle: scikit-learn's own pipeline


# ================================================================ counts bounded before any work


@pytest.mark.parametrize("experiment", ["worst-case", "learners", "lfd", "bound-vs-actual"])
def test_a_huge_trials_count_is_refused_before_any_work(tmp_path, experiment):
    import time

    start = time.perf_counter()
    line = one_error_line(
        invoke("experiment", experiment, "--trials", 10**30, "--out", tmp_path / "x", "--quiet")
    )
    assert "--trials: expected an integer from 1 to 100,000, got an integer of 31 digits" in line
    assert time.perf_counter() - start < 30 and not (tmp_path / "x").exists()


def test_trials_in_scientific_notation_is_a_usage_error(tmp_path):
    result = invoke("experiment", "worst-case", "--trials", "1e30", "--out", tmp_path / "x")
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_counts_in_the_library_have_a_ceiling():
    from perceptronlab._ground.validation import MAX_COUNT, check_positive_int

    assert check_positive_int("max_sweeps", MAX_COUNT, "") == MAX_COUNT
    with pytest.raises(InputError, match="max_sweeps: expected an integer from 1 to"):
        pl.perceptron([[1.0]], [1], max_sweeps=MAX_COUNT + 1)


# ================================================================ the lab server: stalled clients,
# a client that leaves, Host

web = pytest.importorskip("perceptronlab.web.app", reason="the web extra")


@pytest.fixture
def lab(monkeypatch):
    import logging

    from perceptronlab.web import guard

    monkeypatch.setattr(
        guard, "REQUEST_TIMEOUT", 2.0
    )  # the server made below reads it when it starts
    logging.getLogger("perceptronlab.web").setLevel(logging.INFO)
    with web.background(web.create_app(workers=1)) as url:
        host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
        yield url, host, int(port)


def _stall(host: str, port: int, count: int) -> list[socket.socket]:
    stalled = []
    for _ in range(count):
        connection = socket.create_connection((host, port))
        connection.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127")  # headers that never finish
        stalled.append(connection)
    return stalled


@posix_only
def test_stalled_clients_cannot_make_the_server_refuse_everyone(monkeypatch, caplog):
    import logging

    from perceptronlab.web import guard

    monkeypatch.setattr(
        guard, "REQUEST_TIMEOUT", 60.0
    )  # the cap on idle connections, not the timeout, frees room
    logging.getLogger("perceptronlab.web").setLevel(logging.INFO)
    with web.background(web.create_app(workers=1)) as url:
        host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
        _stalled_then_served(url, host, int(port), caplog)


def _stalled_then_served(url, host, port, caplog) -> None:
    import time

    import httpx

    stalled = _stall(host, port, web.MAX_CONNECTIONS + 8)  # more than the server's connection limit
    time.sleep(2.5)  # past guard.EVICT_AFTER
    answer = httpx.get(url + "api/health", timeout=10)
    assert answer.status_code == 200
    assert any("idle connections: closed its" in record.getMessage() for record in caplog.records)
    for connection in stalled:
        connection.close()


@posix_only
def test_a_request_that_never_finishes_its_headers_is_closed_after_the_timeout(lab, caplog):
    import time

    _, host, port = lab
    (connection,) = _stall(host, port, 1)
    connection.settimeout(20)
    start = time.perf_counter()
    assert connection.recv(100) == b""  # the server closed it
    assert 1.5 < time.perf_counter() - start < 15
    assert any("no whole request within 2 s" in record.getMessage() for record in caplog.records)


@posix_only
def test_a_client_that_leaves_mid_request_is_one_log_line(lab, caplog):
    import time

    _, host, port = lab
    connection = socket.create_connection((host, port))
    connection.sendall(
        b"POST /api/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 5000\r\n\r\n{"points": ['
    )
    time.sleep(0.5)
    connection.close()
    deadline = time.time() + 10
    while time.time() < deadline and not any(
        "left before" in r.getMessage() for r in caplog.records
    ):
        time.sleep(0.1)
    messages = [record.getMessage() for record in caplog.records]
    assert any(
        "left before its request was sent whole (12 bytes of 5000)" in m for m in messages
    ), messages
    assert not any("Exception in ASGI application" in m for m in messages)
    assert all(record.exc_info is None for record in caplog.records)


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("localhost:evil", 400),
        ("[::1]x", 400),
        ("localhost:99999", 400),
        ("localhost:8000", 200),
        ("[::1]:8000", 200),
        ("127.0.0.1", 200),
    ],
)
def test_host_is_checked_as_host_and_port(host, status):
    from fastapi.testclient import TestClient

    with TestClient(web.create_app(workers=1)) as client:
        answer = client.get("/api/health", headers={"Host": host})
    assert answer.status_code == status, answer.text
    if status == 400:
        assert "Host: expected" in answer.json()["detail"]


def test_a_traced_exact_run_of_too_many_features_is_refused_before_it_starts(tmp_path):
    from perceptronlab.core.exact import TRACE_MAX_FEATURES

    d = TRACE_MAX_FEATURES + 1
    path = tmp_path / "wide.csv"
    path.write_text(
        ",".join(f"x{i}" for i in range(d))
        + ",y\n"
        + ",".join(["1"] * d)
        + ",1\n"
        + ",".join(["-1"] * d)
        + ",-1\n"
    )
    line = one_error_line(invoke("trace", path))
    assert "at most 1,000 features for a traced run" in line and "1,001 features" in line
    run = pl.perceptron(
        [[1] * d, [-1] * d], [1, -1], exact=True
    )  # untraced: within the cell budget
    assert run.converged and len(run.w) == d


@posix_only
def test_long_exact_work_stops_cleanly_on_ctrl_c(tmp_path):
    """Ctrl-C in exact sweeps that never end (noisy labels): exit code 130 and ``Interrupted.``.

    The signal is sent once the child has said it is past reading the file (its progress line, the
    threshold lowered to 0 s), not after a guessed number of seconds; the child gets Ctrl-C's default
    action even where pytest's own parent ignores it, and is killed whatever the assertions say."""
    import random
    import signal
    import subprocess
    import sys

    rng = random.Random(1)
    path = tmp_path / "noisy.csv"
    path.write_text(
        "x1,x2,x3,y\n"
        + "".join(
            f"{rng.randint(-9, 9)},{rng.randint(-9, 9)},{rng.randint(-9, 9)},"
            f"{rng.choice([1, -1])}\n"
            for _ in range(300)
        )
    )
    child = (
        "import sys; import perceptronlab.cli._progress as p; p.SHOW_AFTER = 0.0; "
        "from perceptronlab.cli import main; main(sys.argv[1:])"
    )
    args = ["train", "--exact", "--order", "shuffle", "--seed", "1", "--max-sweeps", "1000000"]
    process = subprocess.Popen(
        [sys.executable, "-c", child, *args, str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        read = process.stderr.readline()  # the file is read: the exact sweeps are under way
        assert read.startswith(f"train: reading {path}: done"), read
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1] == "Interrupted." and "Traceback" not in err


def _stall_in_body(host: str, port: int, count: int) -> list[socket.socket]:
    """Connections that send whole POST headers announcing 100,000 bytes, one byte, then nothing."""
    stalled = []
    for _ in range(count):
        connection = socket.create_connection((host, port))
        connection.sendall(
            b"POST /api/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100000\r\n\r\n{"
        )
        stalled.append(connection)
    return stalled


@posix_only
def test_a_body_slowloris_cannot_make_health_answer_503(monkeypatch, caplog):
    """Body-stalled connections (45 here against a per-client cap of 30; 510 against 128 in use:
    the same mechanism) count against the per-client cap, so the oldest are closed and health
    answers; before, a connection inside a body was never closed to make room."""
    import logging
    import time

    import httpx

    from perceptronlab.web import guard

    monkeypatch.setattr(guard, "IDLE_PER_CLIENT", 30)
    monkeypatch.setattr(guard, "REQUEST_TIMEOUT", 60.0)  # neither the timeout ...
    monkeypatch.setattr(guard, "MIN_BODY_RATE", 1)  # ... nor the rate frees the room: the cap does
    logging.getLogger("perceptronlab.web").setLevel(logging.INFO)
    with web.background(web.create_app(workers=1)) as url:
        host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
        stalled = _stall_in_body(host, int(port), 45)
        time.sleep(2.5)  # past guard.EVICT_AFTER
        stalled += _stall_in_body(host, int(port), 10)  # the attacker reconnects
        statuses = [httpx.get(url + "api/health", timeout=2).status_code for _ in range(3)]
        for connection in stalled:
            connection.close()
    assert statuses == [200, 200, 200]
    assert any("idle connections: closed its" in r.getMessage() for r in caplog.records)


@posix_only
def test_a_request_body_must_arrive_at_the_minimum_rate(monkeypatch, lab, caplog):
    import time

    from perceptronlab.web import guard

    monkeypatch.setattr(guard, "BODY_GRACE", 0.2)
    monkeypatch.setattr(guard, "MIN_BODY_RATE", 100_000)  # 100,000 bytes due within 1.2 s
    _, host, port = lab
    (connection,) = _stall_in_body(host, port, 1)
    connection.settimeout(20)
    start = time.perf_counter()
    assert connection.recv(100) == b""  # closed before the 2 s request timeout of ``lab``
    assert time.perf_counter() - start < 1.9
    assert any("slower than 100000 bytes a second" in r.getMessage() for r in caplog.records)
