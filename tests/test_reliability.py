"""Reliability, round two (issue 28): ``--out`` never replaces a device, the last raw errors, work
bounded before it starts, exact arithmetic with a budget.

Every node here (character devices, FIFOs, sockets) is made in pytest's scratch folder, never in
/dev; the device nodes need root (``os.mknod``), which the project's CI and this machine have.
"""

from __future__ import annotations

import os
import socket
import stat

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
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
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


NODES = {"device": _full_device, "fifo": _fifo, "socket": _socket, "link to a device": _link_to_device}
EXPECTED_KIND = {"device": "a character device", "fifo": "a FIFO", "socket": "a socket",
                 "link to a device": "a character device"}


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
    line = one_error_line(invoke("exam", "--kind", "trace", "--seed", "3", "--data-out", node,
                                 "--out", tmp_path / "exam.md"))
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
