"""The dense steps of ``analyze``, ``train``'s verdict and the max-margin QP: memory estimated from
the shape before any work, refused with the one ``--max-bytes`` line, or solved another way."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from typer.testing import CliRunner

from perceptronlab.cli import app
from perceptronlab.exceptions import InputError
from perceptronlab.theory.analysis import analyze, measure
from perceptronlab.theory.geometry import _solver_for_memory, max_margin

runner = CliRunner()


def _wide_libsvm(path, rows: int, contradict: bool = False):
    """``rows`` examples, feature indices up to 10⁶: 50 KB on disk, 7.45 GiB as dense floats."""
    rng = np.random.default_rng(0)
    lines = ["1 1000000:1"]
    for k in range(1, rows):
        features = sorted(rng.choice(np.arange(1, 10**6), 3, replace=False))
        lines.append(f"{1 if k % 2 else -1} " + " ".join(f"{j}:{k % 7 + 1}" for j in features))
    if contradict:  # the same example with both labels: the run never converges, train judges it
        lines.append("-" + lines[0])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def test_analysis_refuses_a_wide_sparse_matrix_from_its_shape():
    X = sp.csr_matrix(
        (np.ones(1000), (np.arange(1000), np.arange(1000) * 999)), shape=(1000, 10**6)
    )
    y = np.where(np.arange(1000) % 2, 1, -1)
    with pytest.raises(InputError, match=r"37\.3 GiB.*1,000 rows × 1,000,000 columns") as refused:
        measure(X, y, max_bytes="4G")
    assert "max_bytes='45G'" in str(refused.value)
    with pytest.raises(InputError, match="max_bytes"):
        analyze(X, y, max_bytes="4G")


@pytest.mark.slow
def test_analyze_on_a_50_kb_libsvm_file_is_one_max_bytes_line(tmp_path):
    data = _wide_libsvm(tmp_path / "wide.svm", 1000)
    result = runner.invoke(app, ["analyze", str(data), "--max-bytes", "4G", "--quiet"])
    assert result.exit_code == 1
    line = _one_line(result.stderr)
    assert line.startswith("Error: the analysis") and "--max-bytes 45G" in line


@pytest.mark.slow
def test_train_keeps_its_model_when_the_verdict_would_not_fit(tmp_path):
    data = _wide_libsvm(tmp_path / "wide.svm", 60, contradict=True)
    out = tmp_path / "model.json"
    result = runner.invoke(
        app, ["train", str(data), "--max-bytes", "1G", "--max-sweeps", "3", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    warning = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert len(warning) == 1 and "--max-bytes" in warning[0] and "Traceback" not in result.stderr
    assert "not checked" in result.stdout and out.exists()


def test_the_qp_goes_sparse_when_daqps_dense_hessian_would_not_fit():
    """4 rows × 50,000 columns: DAQP's Hessian alone is 20 GB; Clarabel's sparse system solves it.
    The four z_i are orthogonal unit vectors, so ρ* is the distance from the origin to their
    centroid: ρ*² = 1/4 (worked by hand)."""
    d = 50_000
    X = sp.csr_matrix((np.ones(4), ([0, 1, 2, 3], [0, 1, 2, d - 1])), shape=(4, d))
    assert _solver_for_memory("daqp", 4, d, False, "working-set", "256M") == "clarabel"
    assert _solver_for_memory("daqp", 4, 20, False, "working-set", "256M") == "daqp"
    result = max_margin(X, [1, -1, 1, -1], max_bytes="256M")
    assert result.rho_squared == pytest.approx(0.25, rel=1e-9)


def test_the_qp_refuses_what_no_solver_can_hold():
    with pytest.raises(InputError, match="quadratic program") as refused:
        _solver_for_memory("daqp", 10**6, 10**6, False, "full", "4G")
    assert "max_bytes" in str(refused.value)
