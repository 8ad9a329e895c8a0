"""Issue 22, item 8: the report's pictures survive real data (any R, any number of sweeps, long card text)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from perceptronlab import perceptron, plots  # noqa: E402
from perceptronlab.bounds import novikoff  # noqa: E402
from perceptronlab.studies.report import _cards  # noqa: E402


def _noisy_run(sweeps: int):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 3))
    y = np.where(rng.standard_normal(40) > 0, 1, -1)
    return perceptron(X, y, max_sweeps=sweeps, warn=False)


def test_a_long_run_is_drawn_per_block_of_sweeps_with_its_range():
    run = _noisy_run(12_000)
    assert run.sweeps == 12_000
    ax = plots.sweeps(run).axes[0]
    x, means = ax.lines[0].get_xdata(), ax.lines[0].get_ydata()
    assert len(x) <= plots.AGGREGATE_BLOCKS and x[-1] == 12_000
    block = 12_000 // len(x)
    updates = np.asarray(run.updates_per_sweep, dtype=float)
    # brute force: each point is the mean of its block, and the band holds every sweep of it
    for k in (0, len(x) // 2, len(x) - 1):
        chunk = updates[k * block : (k + 1) * block]
        assert means[k] == pytest.approx(chunk.mean())
    band = ax.collections[0].get_paths()[0].vertices[:, 1]
    assert band.min() == updates.min() and band.max() == updates.max()
    assert "mean of" in ax.get_legend().get_texts()[0].get_text()
    assert "12,000 sweeps" in ax.get_title()


def test_a_short_run_keeps_one_point_per_sweep():
    run = _noisy_run(300)
    ax = plots.sweeps(run).axes[0]
    assert np.array_equal(ax.lines[0].get_ydata(), run.updates_per_sweep) and not ax.collections


@pytest.mark.parametrize(("R", "rho"), [(4254.0, 0.0348), (1.41, 0.45), (0.001, 1e-6)])
def test_the_bound_surface_centres_any_dataset(R, rho):
    fig = plots.bound_surface(mark=(R, rho))
    _, by_margin, by_radius = fig.axes
    for ax, value in ((by_margin, rho), (by_radius, R)):
        low, high = ax.get_xlim()
        assert ax.get_xscale() == "log" and low < value < high
        # the mark sits well inside, not squeezed into a corner: at least a fifth of the decades on each side
        decades = np.log10(high) - np.log10(low)
        assert min(np.log10(value) - np.log10(low), np.log10(high) - np.log10(value)) > decades / 5
    for line in by_margin.lines[:4]:
        xs, ys = line.get_xdata(), line.get_ydata()
        radius = np.sqrt(ys[0]) * xs[0]
        assert np.allclose(ys, [float(novikoff(radius, r)) for r in xs])
    labels = [t.get_text() for t in by_margin.get_legend().get_texts()]
    assert not any("e+" in t or "e-" in t for t in labels)


def test_a_card_of_words_is_wide_and_never_cut_inside_a_word():
    page = _cards(
        [("features scaled", "StandardScaler: each feature to mean 0 and variance 1"), ("R", 2.5)]
    )
    assert '<div class="card text"><div class="label">features scaled</div>' in page
    assert '<div class="card"><div class="label">R</div>' in page
    from perceptronlab.studies import report

    assert "word-break: break-word" not in report._CSS and "word-break: normal" in report._CSS
