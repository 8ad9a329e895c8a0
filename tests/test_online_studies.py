"""The experiment "mistakes against the bound" and the chapter's figures."""

from __future__ import annotations

import io

import pytest

from perceptronlab.exceptions import InputError
from perceptronlab.online import FiniteClass, littlestone_dimension
from perceptronlab.plots.online import ldim_growth, mistake_tree, mistakes_against_bound
from perceptronlab.studies.online import findings, run_online_experiment


def test_the_experiment_keeps_every_learner_within_its_bound():
    rows = run_online_experiment(seed=1, trials=2)
    assert {row["learner"] for row in rows} >= {"Consistent", "Halving", "SOA", "Winnow"}
    assert {row["game"] for row in rows} == {"adversary", "random", "noisy"}
    assert all(row["mistakes"] <= row["bound"] for row in rows)
    lines, stats = findings(rows)
    assert stats["all_within_bound"] and stats["soa_meets_ldim"] and "yes" in lines[0]
    broken = [dict(rows[0], mistakes=rows[0]["bound"] + 1, within=False), *rows[1:]]
    assert findings(broken)[1]["all_within_bound"] is False
    fig = mistakes_against_bound(rows)
    assert len(fig.axes[0].patches) == len({(row["class"], row["learner"]) for row in rows})
    fig.savefig(io.BytesIO(), format="png")


def test_the_tree_figure_names_the_seed_points():
    H = FiniteClass.thresholds(15)
    fig = mistake_tree(littlestone_dimension(H), H)
    texts = [text.get_text() for text in fig.axes[0].texts]
    assert texts.count("0") == texts.count("1") == 2**4 - 1  # one label per edge
    assert {"1/2", "1/4", "3/4", "1/8", "15/16"} <= set(texts)
    with pytest.raises(InputError, match="depth at most 7"):
        mistake_tree(littlestone_dimension(FiniteClass.thresholds(255)))


def test_the_growth_figure_draws_each_series():
    series = {"thresholds": [(2**d - 1, d) for d in range(1, 6)]}
    fig = ldim_growth(series)
    assert fig.axes[0].lines[0].get_ydata().tolist() == [1, 2, 3, 4, 5]
