"""Files written safely (issue 13 item 5): unique temporary files in the target's folder, fsync and
one rename; permissions kept; symbolic links written through; other files never touched."""

from __future__ import annotations

import json
import os
import stat
import threading

import pytest
from typer.testing import CliRunner

import perceptronlab as pl
from perceptronlab._ground.files import atomic_open, atomic_write
from perceptronlab.cli import app
from perceptronlab.estimators import load_model
from perceptronlab.exceptions import InputError
from perceptronlab.io import save_model

runner = CliRunner()
pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX permissions and symbolic links")


@pytest.fixture
def run():
    return pl.perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_concurrent_saves_to_one_path_all_succeed(tmp_path):
    target = tmp_path / "m.json"
    runs = [pl.perceptron([[1.0, 0.0], [0.0, 1.0]], [1, -1], eta=float(k + 1)) for k in range(4)]
    failures = []

    def save(k: int) -> None:
        for _ in range(200):
            try:
                save_model(runs[k], target)
            except Exception as exc:  # noqa: BLE001 - every failure is counted
                failures.append(exc)

    threads = [threading.Thread(target=save, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    document = json.loads(target.read_text())  # a whole document, from one of the writers
    assert document["params"]["eta"] in (1.0, 2.0, 3.0, 4.0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]  # no temporary file left


def test_unrelated_files_survive(tmp_path, run):
    mine = tmp_path / "m.json.tmp"
    mine.write_text("the user's own file")
    save_model(run, tmp_path / "m.json")
    assert mine.read_text() == "the user's own file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "m.json.tmp"]


def test_permissions_are_kept_and_new_files_follow_the_umask(tmp_path, run):
    target = tmp_path / "m.json"
    target.write_text("{}")
    os.chmod(target, 0o600)
    save_model(run, target)
    assert _mode(target) == 0o600 and load_model(target).w == list(run.w)
    old = os.umask(0o027)
    try:
        fresh = save_model(run, tmp_path / "new.json")
    finally:
        os.umask(old)
    assert _mode(fresh) == 0o640


def test_symbolic_links_are_written_through(tmp_path, run):
    real = tmp_path / "real" / "model.json"
    real.parent.mkdir()
    real.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    save_model(run, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert load_model(real).w == list(run.w)
    assert sorted(p.name for p in real.parent.iterdir()) == ["model.json"]
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "real" / "later.json")
    save_model(run, dangling)
    assert dangling.is_symlink() and (tmp_path / "real" / "later.json").exists()


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old\n")
    with pytest.raises(RuntimeError, match="half way"), atomic_open(target) as handle:
        handle.write("new, half")
        raise RuntimeError("half way")
    assert target.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == [
        "out.csv"
    ]
    assert atomic_write(target, b"\x00bytes").read_bytes() == b"\x00bytes"


def test_write_errors_are_input_errors(tmp_path, run):
    with pytest.raises(InputError, match="a directory"):
        atomic_write(tmp_path, "x")
    with pytest.raises(InputError, match="missing folder"):
        atomic_write(tmp_path / "no" / "f.txt", "x")
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir()
        os.chmod(locked, 0o500)
        try:
            with pytest.raises(InputError, match="may write"):
                save_model(run, locked / "m.json")
        finally:
            os.chmod(locked, 0o700)


def test_predict_out_and_exam_out_are_atomic_and_keep_permissions(tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    model = tmp_path / "m.json"
    assert runner.invoke(app, ["train", str(data), "-o", str(model), "-q"]).exit_code == 0
    out = tmp_path / "p.csv"
    out.write_text("old")
    os.chmod(out, 0o640)
    stray = tmp_path / "p.csv.tmp"
    stray.write_text("keep")
    result = runner.invoke(app, ["predict", str(model), str(data), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert out.read_text().split() == ["prediction", "1", "-1", "-1"] and _mode(out) == 0o640
    assert stray.read_text() == "keep"
    exam = tmp_path / "exam.md"
    exam.write_text("old")
    os.chmod(exam, 0o600)
    assert runner.invoke(app, ["exam", "--kind", "trace", "--out", str(exam), "-q"]).exit_code == 0
    assert exam.read_text().startswith("#") and _mode(exam) == 0o600
    bad = runner.invoke(
        app, ["predict", str(model), str(data), "--out", str(tmp_path / "no" / "p.csv")]
    )
    assert bad.exit_code == 1 and "missing folder" in bad.stderr


def test_report_and_experiment_files_are_written_atomically(tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    out = tmp_path / "report"
    result = runner.invoke(app, ["report", str(data), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["report.html"]
