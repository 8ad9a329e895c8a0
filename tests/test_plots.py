"""perceptronlab.plots: the plotted data is the engine's and the theory's numbers; PNGs are written."""

import io

import numpy as np
import pytest
from matplotlib.figure import Figure

from perceptronlab import datasets, perceptron, plots, pocket
from perceptronlab.bounds import novikoff
from perceptronlab.exceptions import InputError
from perceptronlab.theory.geometry import max_margin, radius

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=50)
    return buffer.getvalue()


def _xy(line):
    data = line.get_xydata()
    return data[:, 0], data[:, 1]


@pytest.fixture(scope="module")
def basis_run():
    X, y = datasets.basis(6)
    return perceptron(X, y), max_margin(X, y).rho, radius(X)


def test_squeeze_plots_the_runs_norms_between_the_bounds(basis_run):
    run, rho, R = basis_run
    fig = plots.squeeze(run, rho, R)
    assert isinstance(fig, Figure)
    left, right = fig.axes
    k, norms = _xy(left.lines[0])
    assert np.array_equal(k, np.arange(run.mistakes + 1))
    assert np.allclose(norms, np.r_[0.0, run.norms])
    assert np.allclose(norms, np.sqrt(np.arange(7)))  # e_1 + ... + e_k
    ks, lower = _xy(left.lines[1])
    assert np.allclose(lower, ks * rho)
    ks, upper = _xy(left.lines[2])
    assert np.allclose(upper, np.sqrt(ks) * R)
    # the proof's squeeze holds at every mistake: k rho <= ||w_k|| <= sqrt(k) R
    assert np.all(k * rho <= norms + 1e-12) and np.all(norms <= np.sqrt(k) * R + 1e-12)
    k2, squares = _xy(right.lines[0])
    assert np.allclose(squares, norms**2)
    bound_x, _ = _xy(right.lines[3])
    assert np.allclose(bound_x, novikoff(R, rho)) and np.isclose(bound_x[0], 6.0)
    assert left.get_xlabel() and left.get_title() and right.get_title() and right.get_legend()
    assert _png(fig).startswith(PNG_MAGIC)


def test_squeeze_switches_to_log_axes_far_from_the_bound():
    X, y = datasets.gaussian_pair(25, 1.5, seed=1520)  # separable, 14 mistakes, bound about 1543
    run = perceptron(X, y)
    rho, R = max_margin(X, y).rho, radius(X)
    assert novikoff(R, rho) > 10 * run.mistakes
    right = plots.squeeze(run, rho, R).axes[1]
    assert right.get_xscale() == "log"
    k, squares = _xy(right.lines[0])
    assert k[0] == 1 and np.allclose(squares, run.norms**2)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("not a run", 1.0, 1.0), "Run"),
        ((None, 0.0, 1.0), "Run"),
    ],
)
def test_squeeze_rejects_bad_input(args, fragment):
    with pytest.raises(InputError, match=fragment):
        plots.squeeze(*args)


def test_squeeze_rejects_a_non_positive_margin(basis_run):
    run, _, R = basis_run
    with pytest.raises(InputError, match="rho"):
        plots.squeeze(run, -0.5, R)


def test_bound_vs_actual_scatter_and_boxes():
    rows = [
        dict(bound=b, mistakes=m, separation=s)
        for s, b, m in [
            (2.0, 40.0, 4),
            (2.0, 90.0, 3),
            (3.0, 12.0, 2),
            (3.0, 20.0, 1),
            (3.0, 8.0, 2),
        ]
    ]
    fig = plots.bound_vs_actual(rows)
    left, right = fig.axes[:2]  # then the colour bar
    offsets = np.asarray(left.collections[0].get_offsets())
    assert np.allclose(offsets, [[r["bound"], r["mistakes"]] for r in rows])
    x, y = _xy(left.lines[0])
    assert np.allclose(x, y)  # the line actual = bound
    assert len(right.get_xticklabels()) == 2 and [
        t.get_text() for t in right.get_xticklabels()
    ] == ["2", "3"]
    # horizontal segments: caps, medians and the line ratio = 1; separation 2 has ratios 10 and 30
    levels = {
        round(float(line.get_xydata()[0, 1]), 9)
        for line in right.lines
        if len(line.get_xydata()) == 2 and line.get_xydata()[0, 1] == line.get_xydata()[1, 1]
    }
    assert {1.0, 10.0, 20.0, 30.0} <= levels
    assert "every run within its bound: yes" in fig._suptitle.get_text()
    assert _png(fig).startswith(PNG_MAGIC)


def test_bound_vs_actual_rejects_rows_without_the_numbers():
    with pytest.raises(InputError, match="bound"):
        plots.bound_vs_actual([{"x": 1}])
    with pytest.raises(InputError, match="at least one row"):
        plots.bound_vs_actual([])


def test_sweeps_plots_updates_and_errors_per_sweep():
    X, y = datasets.exam_task()
    run = perceptron(X, y)
    ax = plots.sweeps(run).axes[0]
    sweeps_x, updates = _xy(ax.lines[0])
    assert np.array_equal(sweeps_x, [1, 2, 3, 4]) and updates.tolist() == [2, 2, 1, 0]
    _, errors = _xy(ax.lines[1])
    assert np.array_equal(errors, run.errors_after_sweep)
    # brute force: the end-of-sweep weights of the worksheet are (0,-1), (0,-2), (1,-2), (1,-2)
    for e, w in zip(errors, [(0, -1), (0, -2), (1, -2), (1, -2)], strict=True):
        assert e == int(np.sum(y * (X @ np.array(w)) <= 0))
    assert ax.get_xlabel() == "sweep" and "converged" in ax.get_title()


def test_sweeps_of_pocket_adds_the_pocket_history():
    X, y = datasets.nonseparable()
    run = pocket(X, y, fit_intercept=True, order="cyclic", check="sweep", max_sweeps=30)
    ax = plots.sweeps(run).axes[0]
    assert len(ax.lines) >= 3
    _, history = _xy(ax.lines[2])
    assert np.array_equal(history, run.pocket_history)
    _, errors = _xy(ax.lines[1])
    assert np.array_equal(
        history, np.minimum.accumulate(errors)
    )  # the pocket keeps the best so far
    assert _png(plots.sweeps(run)).startswith(PNG_MAGIC)


def _on_line(line, w, b):
    points = line.get_xydata()
    return np.allclose(points @ np.asarray(w, dtype=float) + b, 0.0, atol=1e-9)


def test_decision_regions_from_a_run_a_vector_and_an_estimator():
    from sklearn.linear_model import Perceptron as SkPerceptron

    X, y = datasets.gaussian_pair(20, 3.0, seed=7, bias=False)
    run = perceptron(X, y, fit_intercept=True)
    ax = plots.decision_regions(run, X, y).axes[0]
    assert _on_line(ax.lines[0], run.w, run.b)
    assert ax.get_xlabel() and ax.get_title()
    ax = plots.decision_regions(np.r_[run.b, run.w], X, y).axes[0]
    assert _on_line(ax.lines[0], run.w, run.b)
    labels = np.where(y > 0, "spam", "ham")
    est = SkPerceptron(random_state=0).fit(X, labels)
    ax = plots.decision_regions(est, X, labels).axes[0]
    assert _on_line(ax.lines[0], est.coef_[0], est.intercept_[0])
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "class ham" in legend and "class spam" in legend


def test_decision_regions_marks_the_misclassified_points():
    X, y = datasets.exam_task()
    w = np.array([1.0, 0.0])  # x2 = (1, 1) labelled -1 is on the wrong side, x3 is a tie
    ax = plots.decision_regions(w, X, y).axes[0]
    marked = [c for c in ax.collections if "misclassified" in str(c.get_label())]
    assert len(marked) == 1 and marked[0].get_label() == "misclassified (2)"
    assert np.allclose(np.asarray(marked[0].get_offsets()), [[1, 1], [0, 1]])


def test_decision_regions_draws_the_max_margin_band_through_the_support_vectors():
    X, y = datasets.margin_task()
    run = perceptron(X, y)
    ax = plots.decision_regions(run, X, y, max_margin=True).axes[0]
    best = max_margin(X, y)
    assert _on_line(ax.lines[1], best.w, best.b)
    level = float(np.min(y * (X @ best.w + best.b)))
    edges = ax.lines[2:4]
    for edge, offset in zip(edges, (-level, level), strict=True):
        assert _on_line(edge, best.w, best.b - offset)
    # every support vector lies on one of the band's edges
    for i in best.support:
        assert np.isclose(abs(X[i] @ best.w + best.b), level)
    assert f"{best.rho:.4g}" in ax.lines[1].get_label()


def test_decision_regions_with_the_bias_column_and_zero_one_labels():
    X, y = datasets.gaussian_pair(15, 4.0, seed=1)  # leading column of ones
    run = perceptron(X, y)
    ax = plots.decision_regions(run, X, (y > 0).astype(int)).axes[0]
    assert _on_line(ax.lines[0], run.w[1:], run.w[0])
    Xn, yn = datasets.nonseparable()
    ax = plots.decision_regions(
        pocket(Xn, yn, fit_intercept=True, seed=0), Xn, yn, max_margin=True
    ).axes[0]
    assert any("not separable" in t.get_text() for t in ax.texts)


@pytest.mark.parametrize(
    ("fitted", "X", "fragment"),
    [
        ([1.0, 2.0], np.ones((3, 4)), "2 features"),
        ([0.0, 0.0], np.eye(2), "nonzero w"),
        ([1.0, 2.0, 3.0, 4.0], np.eye(2), "weight vector"),
        ("w", np.eye(2), "weight vector"),
    ],
)
def test_decision_regions_rejects_bad_input(fitted, X, fragment):
    with pytest.raises(InputError, match=fragment):
        plots.decision_regions(fitted, X, [1, -1] + [1] * (X.shape[0] - 2))


def test_bound_surface_slices_are_novikoffs_bound():
    fig = plots.bound_surface(radii=(1.0, 3.0), margins=(0.5,), mark=(2.0, 0.25))
    surface, by_margin, by_radius = fig.axes
    assert surface.name == "3d"
    for line, R in zip(by_margin.lines[:3], (1.0, 3.0, 2.0), strict=True):
        rho, bound = _xy(line)
        assert np.allclose(bound, [novikoff(R, r) for r in rho])
    for line, rho in zip(by_radius.lines[:2], (0.5, 0.25), strict=True):
        R, bound = _xy(line)
        assert np.allclose(bound, [novikoff(r, rho) for r in R])
    _, marked = _xy(by_margin.lines[-1])
    assert np.isclose(marked[0], 64.0)  # 2^2 / 0.25^2
    assert by_margin.get_yscale() == "log" and by_radius.get_xlabel() == "radius R"
    assert _png(fig).startswith(PNG_MAGIC)


def test_bound_surface_rejects_a_bad_mark():
    with pytest.raises(InputError, match="mark"):
        plots.bound_surface(mark=3.0)
    with pytest.raises(InputError, match="rho"):
        plots.bound_surface(mark=(1.0, 0.0))


def test_every_plot_saves_a_png(tmp_path, basis_run):
    run, rho, R = basis_run
    X, y = datasets.exam_task()
    figures = {
        "squeeze": plots.squeeze(run, rho, R),
        "sweeps": plots.sweeps(run),
        "regions": plots.decision_regions(perceptron(X, y), X, y, max_margin=True),
        "surface": plots.bound_surface(),
        "bound": plots.bound_vs_actual([{"bound": 5.0, "mistakes": 3, "separation": 1.0}]),
    }
    for name, fig in figures.items():
        path = tmp_path / f"{name}.png"
        fig.savefig(path)
        assert path.read_bytes().startswith(PNG_MAGIC) and path.stat().st_size > 5_000
