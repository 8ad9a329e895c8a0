"""A practitioner's table on the command line: text columns, missing cells, chosen columns, a score.

The table is scikit-learn's wine data as a tutorial's CSV comes: a label column of names first, the
measurements under header names with spaces and parentheses, a text column (``region``) that tells
the classes apart only in part, a ``year`` column to leave out, and ``NA``/empty cells. The oracles
are brute force in the test (the column means, the rows with a missing cell) and scikit-learn's own
split and metrics.
"""

from __future__ import annotations

import csv
import json
import re

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.model_selection import train_test_split
from typer.testing import CliRunner

from perceptronlab.cli import app

runner = CliRunner()
#: wine's 13 measurements, some under names with spaces and parentheses
NAMES = [
    "alcohol (%)", "malic acid (g/l)", "ash", "alcalinity_of_ash", "magnesium", "total_phenols",
    "flavanoids (mg)", "nonflavanoid_phenols", "proanthocyanins", "color intensity", "hue",
    "od280/od315_of_diluted_wines", "proline",
]  # fmt: skip
REGIONS = {
    "barolo": ["Piedmont"],
    "grignolino": ["Piedmont", "Veneto"],
    "barbera": ["Veneto", "Tuscany"],
}


def _table(rng_seed: int = 0) -> tuple[list[str], list[list[str]]]:
    data = load_wine()
    rng = np.random.default_rng(rng_seed)
    labels = np.array(["barolo", "grignolino", "barbera"])[data.target]
    header = ["cultivar", "region", *NAMES, "year"]
    rows = []
    for i, label in enumerate(labels):
        cells = [f"{v:g}" for v in data.data[i]]
        row = [str(label), str(rng.choice(REGIONS[label])), *cells, str(1990 + i % 7)]
        if i % 13 == 4:
            row[3] = "NA"  # malic acid (g/l)
        if i % 29 == 8:
            row[1] = ""  # region
        if i % 31 == 2:
            row[8] = "NA"  # flavanoids (mg)
        rows.append(row)
    return header, rows


@pytest.fixture
def wine_csv(tmp_path):
    header, rows = _table()
    path = tmp_path / "wine.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path, header, rows


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def _error(result) -> str:
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("Error: ")]
    assert result.exit_code == 1 and len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return lines[0]


TRAIN = ["--label", "cultivar", "--categorical", "region", "--ignore", "year", "--missing", "mean"]
BEST = [*TRAIN, "--scale", "standard", "--intercept"]


def test_without_flags_the_text_column_then_the_missing_cell_name_their_flags(wine_csv):
    path = wine_csv[0]
    first = _error(invoke("train", path, "--label", "cultivar", "-q"))
    assert "column 'region'" in first and "--categorical region" in first
    assert "--ignore region" in first and "'Piedmont' on line 2" in first
    second = _error(invoke("train", path, "--label", "cultivar", "--categorical", "auto", "-q"))
    # the first missing cell in row order: row 2 (line 4) has flavanoids (mg) NA
    assert "column 'flavanoids (mg)'" in second and "on line 4" in second
    assert "--missing drop" in second and "--missing mean" in second


def test_train_predict_evaluate_on_the_raw_table(wine_csv, tmp_path):
    path, header, rows = wine_csv
    model = tmp_path / "m.json"
    trained = invoke("train", path, *BEST, "-o", model, "-q")
    assert trained.exit_code == 0, trained.output
    document = json.loads(model.read_text())
    recipe = document["table"]
    assert [c["name"] for c in recipe["columns"]] == ["region", *NAMES]  # year ignored
    assert recipe["columns"][0]["categories"] == ["Piedmont", "Tuscany", "Veneto"]
    for column in recipe["columns"][1:]:  # the fill value: the column's mean, by brute force
        j = header.index(column["name"])
        values = [float(r[j]) for r in rows if r[j] != "NA"]
        assert column["fill"] == pytest.approx(sum(values) / len(values), rel=1e-12)
    counts = [r[1] for r in rows if r[1]]
    assert recipe["columns"][0]["fill"] == max(set(counts), key=counts.count)
    assert document["feature_names"][:3] == ["region=Piedmont", "region=Tuscany", "region=Veneto"]

    predicted = invoke("predict", model, path, "--json", "-q")
    labels = json.loads(predicted.stdout)["predictions"]
    assert len(labels) == len(rows)
    scored = invoke("evaluate", model, path, "--json")
    assert scored.exit_code == 0, scored.output
    record = json.loads(scored.stdout)
    confusion = np.array(record["confusion"])
    assert record["labels"] == ["barbera", "barolo", "grignolino"]
    assert confusion.sum() == len(rows)
    assert record["accuracy"] == np.trace(confusion) / len(rows) >= 0.97
    truth = [r[0] for r in rows]
    agree = np.mean([a == b for a, b in zip(labels, truth, strict=True)])
    assert agree == record["accuracy"]  # predict and evaluate agree
    for k, label in enumerate(record["labels"]):
        one = record["per_class"][label]
        assert one["recall"] == pytest.approx(confusion[k, k] / confusion[k].sum())
        assert one["precision"] == pytest.approx(confusion[k, k] / confusion[:, k].sum())
    shown = invoke("evaluate", model, path)
    assert f"{record['accuracy']:.2%}" in shown.stdout and "precision" in shown.stdout


def test_prediction_takes_columns_by_name_and_counts_unseen_categories(wine_csv, tmp_path):
    path, header, rows = wine_csv
    model = tmp_path / "m.json"
    assert invoke("train", path, *BEST, "-o", model, "-q").exit_code == 0
    order = [header.index(n) for n in ["year", *reversed(NAMES), "region"]]  # no label, reordered
    other = tmp_path / "new.csv"
    with open(other, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["notes", *(header[j] for j in order)])
        for i, row in enumerate(rows):
            region = "Sicily" if i < 3 else row[1]
            writer.writerow(["x", *(region if j == 1 else row[j] for j in order)])
    same = json.loads(invoke("predict", model, path, "--json", "-q").stdout)["predictions"]
    moved = invoke("predict", model, other, "--json")
    assert moved.exit_code == 0, moved.output
    assert json.loads(moved.stdout)["predictions"][3:] == same[3:]
    assert "never saw" in moved.stderr and "'region' 3 cells" in moved.stderr
    gone = tmp_path / "gone.csv"
    gone.write_text("cultivar,region,ash\nbarolo,Veneto,2.1\n")
    assert "no column 'alcohol (%)'" in _error(invoke("predict", model, gone))


def test_holdout_is_stratified_and_seeded(wine_csv):
    path, _, rows = wine_csv
    runs = [
        json.loads(invoke("train", path, *BEST, "--holdout", "0.25", "--seed", s, "--json").stdout)
        for s in ("0", "0", "1")
    ]
    assert runs[0]["holdout"] == runs[1]["holdout"]
    held = runs[0]["holdout"]
    y = [r[0] for r in rows]
    _, expected = train_test_split(y, test_size=0.25, stratify=y, random_state=0)
    assert (
        held["rows"]
        == len(expected)
        == sum(held["per_class"][c]["support"] for c in held["per_class"])
    )
    assert {c: held["per_class"][c]["support"] for c in held["per_class"]} == {
        c: expected.count(c) for c in set(y)
    }
    assert held["accuracy"] == np.trace(np.array(held["confusion"])) / held["rows"]
    assert runs[0]["n_examples"] == len(rows) - len(expected)
    text = invoke("train", path, *BEST, "--holdout", "0.25", "--seed", "0")
    assert f"held out ({held['rows']} rows, --holdout 0.25): accuracy {held['accuracy']:.2%}" in (
        text.stdout
    )


def test_missing_drop_says_how_many_rows_went_and_features_take_header_names(wine_csv):
    path, header, rows = wine_csv
    chosen = ["alcohol (%)", "malic acid (g/l)", "region"]
    result = invoke(
        "train", path, "--label", "cultivar", "--features", ",".join(chosen),
        "--categorical", "auto", "--missing", "drop", "--intercept",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    gone = sum(any(r[header.index(n)] in ("", "NA") for n in chosen) for r in rows)
    assert gone > 0
    assert f"dropped {gone} rows with a missing cell ({len(rows) - gone} of {len(rows)}" in (
        result.stderr
    )
    record = json.loads(
        invoke(
            "train", path, "--label", "cultivar", "--features", ",".join(chosen),
            "--categorical", "auto", "--missing", "drop", "--json",
        ).stdout
    )  # fmt: skip
    assert record["table"]["rows_dropped"] == gone and record["n_examples"] == len(rows) - gone
    assert record["table"]["features"] == [
        "alcohol (%)", "malic acid (g/l)", "region=Piedmont", "region=Tuscany", "region=Veneto",
    ]  # fmt: skip


def test_bad_column_flags_are_one_line_each(wine_csv):
    path = wine_csv[0]
    assert "got 'nope'" in _error(invoke("train", path, "--label", "cultivar", "--ignore", "nope"))
    assert "--holdout" in _error(invoke("train", path, *TRAIN, "--holdout", "1.5"))
    both = _error(invoke("train", path, *TRAIN, "--features", "ash,year"))
    assert "'year'" in both


# ---------------------------------------------------------------- the advice names --intercept


def _write(path, X, y):
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["mass (g)", "length (mm)", "kind"])
        writer.writerows([*(f"{v:g}" for v in x), label] for x, label in zip(X, y, strict=True))
    return path


def _advice(path, *flags):
    result = invoke("train", path, "--label", "kind", *flags, "--json")
    assert result.exit_code == 0, result.output
    return {a["topic"]: a for a in json.loads(result.stdout)["advice"]}


def test_the_advice_names_the_intercept_for_classes_only_an_offset_separates(tmp_path):
    # all measurements positive: no hyperplane through the origin separates the light from the heavy
    rng = np.random.default_rng(0)
    light = np.column_stack([rng.uniform(30, 40, 40), rng.uniform(10, 20, 40)])
    heavy = np.column_stack([rng.uniform(45, 55, 40), rng.uniform(10, 20, 40)])
    X, y = np.vstack([light, heavy]), ["light"] * 40 + ["heavy"] * 40
    advice = _advice(_write(tmp_path / "sep.csv", X, y))
    assert "--intercept" in advice["intercept"]["fix"]
    # one heavy bird among the light ones: no hyperplane at all, but an offset leaves one error
    X = np.vstack([X, [[35.0, 15.0]]])
    advice = _advice(_write(tmp_path / "noisy.csv", X, [*y, "heavy"]))["intercept"]
    assert "--intercept" in advice["fix"]
    # the counts measured both ways: the data is not separable (one error at least, either way),
    # and the intercept removes at least half of the errors through the origin
    origin = int(re.search(r"are (\d+) of 81 through the origin", advice["why"]).group(1))
    with_b = [int(e) for e in re.findall(r"(\d+) with an intercept", advice["why"])]
    assert len(with_b) == 2 and "scale='standard'" not in advice["why"]  # --scale standard said
    assert "--scale standard" in advice["why"]
    assert min(with_b) >= 1 and 2 * min(with_b) <= origin, advice["why"]
    assert "--intercept with --scale standard" in advice["fix"]  # the better of the two named


def test_a_damaged_recipe_is_one_line_and_unlabelled_rows_are_still_predicted(wine_csv, tmp_path):
    path, header, rows = wine_csv
    model = tmp_path / "m.json"
    assert invoke("train", path, *BEST, "-o", model, "-q").exit_code == 0
    document = json.loads(model.read_text())
    damaged = tmp_path / "damaged.json"
    document["table"]["columns"][0]["categories"].pop()  # 2 categories, the weights expect 3
    damaged.write_text(json.dumps(document))
    assert "field 'table'" in _error(invoke("predict", damaged, path))
    gaps = tmp_path / "gaps.csv"
    with open(gaps, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows([["NA" if i % 2 else r[0], *r[1:]] for i, r in enumerate(rows)])
    result = invoke("predict", model, gaps, "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["predictions"]) == len(rows)
    assert "missing cells: predicting every row" in result.stderr


def test_evaluate_scores_a_plain_model_and_needs_labels(tmp_path):
    data = tmp_path / "exam.csv"
    data.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    model = tmp_path / "e.json"
    assert invoke("train", data, "-o", model, "-q").exit_code == 0
    record = json.loads(invoke("evaluate", model, data, "--json").stdout)
    assert record["labels"] == [-1, 1] and record["confusion"] == [[2, 0], [0, 1]]
    assert record["accuracy"] == 1.0 and record["per_class"]["1"]["recall"] == 1.0
    unlabelled = tmp_path / "new.csv"
    unlabelled.write_text("x1,x2\n1,0\n")
    assert "a label column to score against" in _error(invoke("evaluate", model, unlabelled))
