"""The lab's server: the stateless endpoint against the engine, hand-worked numbers and brute force."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptronlab import perceptron, pocket
from perceptronlab._ground.numbers import format_sqrt
from perceptronlab.exceptions import InputError
from perceptronlab.web import api
from perceptronlab.web.app import STATIC, create_app

EXAM = {"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1]}
XOR = {"points": [[1, 1], [-1, -1], [1, -1], [-1, 1]], "labels": [1, 1, -1, -1]}


@pytest.fixture(scope="module")
def client():
    """The app with its lifespan (one worker process), as the test client's host name allows."""
    with TestClient(create_app(workers=1, allow_hosts=["testserver"])) as client:
        yield client


def post(client, body, **options):
    payload = {**body, "options": options} if options else body
    response = client.post("/api/run", json=payload)
    assert response.status_code == 200, response.text
    return response.json()


def best_margin_brute_force(X, y, fit_intercept=False, samples=200_000):
    """max over unit directions of min y_i⟨w, x_i⟩ (w through the origin of the (lifted) points)."""
    Z = np.asarray(X, dtype=float) * np.asarray(y, dtype=float)[:, None]
    if fit_intercept:
        Z = np.hstack([np.asarray(y, dtype=float)[:, None], Z])
    if Z.shape[1] == 2:
        angles = np.linspace(0, 2 * np.pi, samples, endpoint=False)
        W = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    else:
        rng = np.random.default_rng(0)
        W = rng.standard_normal((samples, Z.shape[1]))
        W /= np.linalg.norm(W, axis=1, keepdims=True)
    return float((W @ Z.T).min(axis=1).max())


def worksheet_from_answer(answer):
    """The log as the page renders it at the end of the run (see lab.js, logRows)."""
    run = answer["run"]
    steps, weights, log = run["steps"], run["weights"], run["log"]
    last = log["collapse_from"] if log["collapse_from"] is not None else steps["count"]
    rows = [
        (
            str(steps["sweep"][j]),
            f"x{steps['index'][j] + 1}",
            steps["score_text"][j],
            "yes" if steps["mistake"][j] else "no",
            weights["text"][steps["updates"][j]],
        )
        for j in range(last)
    ]
    if log["final_row"]:
        rows.append(tuple(log["final_row"]))
    return rows


# ------------------------------------------------------------------ the exam task ("Perceptron Mistake Bound")


def test_exam_task_run_and_cards(client):
    answer = post(client, EXAM)
    run = answer["run"]
    assert answer["exact"] is True
    assert (run["mistakes"], run["sweeps"], run["converged"], run["w_text"]) == (
        5,
        4,
        True,
        "(1, -2)",
    )
    cards = answer["cards"]
    assert cards["R"]["text"] == "√2" and "R² = 2" in cards["R"]["detail"]
    # ρ* is the best margin of any line through the origin: brute force over directions
    rho = best_margin_brute_force(EXAM["points"], EXAM["labels"])
    assert (
        cards["rho"]["value"] == pytest.approx(rho, abs=1e-4)
        and cards["rho"]["value"] >= rho - 1e-12
    )
    assert cards["rho"]["value"] == pytest.approx(1 / math.sqrt(5), abs=1e-12)
    assert cards["rho"]["text"] == "1/√5" and "ρ*² = 1/5" in cards["rho"]["detail"]
    assert cards["bound"]["text"] == "10" and cards["bound"]["value"] == 10
    assert cards["mistakes"]["value"] == 5 and cards["mistakes"]["within"] is True
    assert cards["separable"]["separable"] is True and cards["separable"]["certificate"] == []
    mm = answer["max_margin"]
    assert np.allclose(np.array(mm["w"]) * math.sqrt(5), [1, -2]) and mm["b"] == 0
    assert mm["band"] == pytest.approx(1 / math.sqrt(5))


def test_exam_task_trace_equals_the_engine(client):
    answer = post(client, EXAM)
    run = perceptron(EXAM["points"], EXAM["labels"], exact=True, trace=True)
    steps = answer["run"]["steps"]
    assert steps["count"] == len(run.steps) == 12
    assert steps["index"] == [s.index for s in run.steps]
    assert steps["sweep"] == [s.sweep for s in run.steps]
    assert steps["mistake"] == [s.mistake for s in run.steps]
    assert [Fraction(t) for t in steps["score_text"]] == [s.score for s in run.steps]
    weights = answer["run"]["weights"]
    after = [weights["w"][k] for k in steps["updates"]]
    assert after == [[float(c) for c in s.w] for s in run.steps]
    assert worksheet_from_answer(answer) == run.worksheet_rows()
    # the seed's worksheet, row by row
    assert worksheet_from_answer(answer)[:3] == [
        ("1", "x1", "0", "yes", "(1, 0)"),
        ("1", "x2", "-1", "yes", "(0, -1)"),
        ("1", "x3", "1", "no", "(0, -1)"),
    ]
    assert worksheet_from_answer(answer)[-1] == ("4", "all", "1, 1, 2", "no", "stop")


def test_misclassified_points_for_every_weight_vector(client):
    answer = post(client, EXAM)
    X, y = np.array(EXAM["points"]), np.array(EXAM["labels"])
    weights = answer["run"]["weights"]
    for w, b, wrong in zip(weights["w"], weights["b"], weights["wrong"], strict=True):
        expected = [i for i in range(3) if y[i] * (X[i] @ np.array(w) + b) <= 0]
        assert wrong == expected
    assert weights["wrong"][0] == [0, 1, 2]  # at w = 0 every point is a tie, and ties are mistakes
    assert weights["wrong"][-1] == []


def test_learning_rate_scales_w_only(client):
    answer = post(client, EXAM, eta=2)
    assert (
        answer["run"]["mistakes"] == 5 and answer["run"]["w_text"] == "(2, -4)"
    )  # "Perceptron Mistake Bound", (c)
    half = post(client, EXAM, eta="1/2")
    assert half["run"]["w_text"] == "(1/2, -1)" and half["options"]["eta"] == "1/2"


def test_squeeze_plot_and_errors_per_sweep(client):
    answer = post(client, EXAM)
    run = perceptron(EXAM["points"], EXAM["labels"], exact=True)
    squeeze = answer["plots"]["squeeze"]
    assert squeeze["norms"] == pytest.approx([0.0, *run.norms.tolist()])
    k = np.arange(len(squeeze["norms"]))
    assert squeeze["upper"] == pytest.approx(np.sqrt(k * 2).tolist())  # √k·R
    assert squeeze["lower"] == pytest.approx((k / math.sqrt(5)).tolist())  # kρ*
    assert all(
        lo <= norm + 1e-12 <= up + 2e-12
        for lo, norm, up in zip(squeeze["lower"], squeeze["norms"], squeeze["upper"], strict=True)
    )
    assert answer["plots"]["errors"] == run.errors_after_sweep.tolist() == [1, 1, 0, 0]


# ------------------------------------------------------------------ options


def test_pick_order_visits_the_chosen_points_first(client):
    answer = post(client, EXAM, order="pick", sequence=[2, 0])
    assert answer["visit_order"] == [2, 0, 1]
    permuted = perceptron(
        [EXAM["points"][i] for i in (2, 0, 1)],
        [EXAM["labels"][i] for i in (2, 0, 1)],
        exact=True,
        trace=True,
    )
    steps = answer["run"]["steps"]
    assert steps["index"] == [[2, 0, 1][s.index] for s in permuted.steps]
    assert answer["run"]["mistakes"] == permuted.mistakes
    assert steps["index"][:3] == [2, 0, 1]


def test_shuffle_and_random_mistake_match_the_engine(client):
    for order in ("shuffle", "random-mistake"):
        answer = post(client, EXAM, order=order, seed=3)
        run = perceptron(
            EXAM["points"], EXAM["labels"], order=order, seed=3, exact=True, trace=True
        )
        assert answer["run"]["steps"]["index"] == [s.index for s in run.steps]
        assert answer["run"]["mistakes"] == run.mistakes


def test_bias_uses_the_augmented_points(client):
    answer = post(client, EXAM, fit_intercept=True)
    run = perceptron(EXAM["points"], EXAM["labels"], fit_intercept=True, exact=True)
    assert answer["run"]["mistakes"] == run.mistakes and answer["run"]["w_text"].endswith(
        f"b = {run.b}"
    )
    cards = answer["cards"]
    assert cards["R"]["text"] == "√3"  # ‖(1, 1, 1)‖
    rho = best_margin_brute_force(
        EXAM["points"], EXAM["labels"], fit_intercept=True, samples=400_000
    )
    assert cards["rho"]["value"] == pytest.approx(rho, abs=2e-3)
    assert cards["rho"]["value"] >= rho - 1e-9  # the optimum is at least as good as any sample
    assert cards["bound"]["value"] == pytest.approx(3 / cards["rho"]["value"] ** 2)
    assert run.mistakes <= cards["bound"]["value"]


def test_margin_perceptron_bound(client):
    answer = post(client, EXAM, margin="1/2")
    run = perceptron(EXAM["points"], EXAM["labels"], margin=Fraction(1, 2), exact=True)
    assert answer["run"]["mistakes"] == run.mistakes
    assert answer["cards"]["bound"]["text"] == "15"  # (R² + 2ρ₀)/ρ*² = (2 + 1)·5
    assert answer["run"]["mistakes"] <= 15


def test_pocket_matches_the_engine(client):
    body = {
        "points": [[2, 1], [3, 2], [1, 2], [-1, -2], [-2, -1], [2, 2]],
        "labels": [1, 1, 1, -1, -1, -1],
    }
    for order in ("cyclic", "random-mistake"):
        answer = post(client, body, pocket=True, seed=1, order=order, max_sweeps=20)
        run = pocket(
            body["points"],
            body["labels"],
            order=order,
            seed=1,
            max_sweeps=20,
            exact=True,
            trace=True,
        )
        assert answer["run"]["algorithm"] == "pocket"
        assert answer["run"]["pocket_errors"] == run.pocket_errors == 1
        assert answer["run"]["mistakes"] == run.mistakes
        assert answer["run"]["steps"]["index"] == [s.index for s in run.steps]
        assert answer["run"]["w"] == [float(c) for c in run.w]


@pytest.mark.parametrize("check", ["update", "sweep", "ratchet"])
def test_pocket_takes_the_engines_check(client, check):
    body = {
        "points": [[2, 1], [3, 2], [1, 2], [-1, -2], [-2, -1], [2, 2], [0, 1]],
        "labels": [1, 1, 1, -1, -1, -1, -1],
    }
    answer = post(client, body, pocket=True, check=check, seed=2, order="shuffle", max_sweeps=20)
    run = pocket(
        body["points"],
        body["labels"],
        check=check,
        order="shuffle",
        seed=2,
        max_sweeps=20,
        exact=True,
        trace=True,
    )
    assert answer["options"]["check"] == check == run.params["check"]
    assert (
        answer["run"]["pocket_errors"] == run.pocket_errors
        and answer["run"]["mistakes"] == run.mistakes
    )
    assert answer["run"]["steps"]["index"] == [s.index for s in run.steps]
    assert answer["run"]["w"] == [float(c) for c in run.w]


def test_pocket_check_defaults_to_every_update_and_refuses_others(client):
    assert post(client, EXAM)["options"]["check"] == "update"
    with pytest.raises(
        InputError,
        match=r"options.check: expected one of 'update', 'sweep', 'ratchet', got 'epoch'",
    ):
        api.compute({**EXAM, "options": {"pocket": True, "check": "epoch"}})


def test_not_separable_shows_the_certificate(client):
    answer = post(client, XOR)
    card = answer["cards"]["separable"]
    assert card["separable"] is False and answer["run"]["cycled"] is True
    z = np.array(XOR["points"], dtype=float) * np.array(XOR["labels"], dtype=float)[:, None]
    alpha = np.array([float(Fraction(a)) for a in card["certificate_weights"]])
    assert np.allclose(alpha @ z[card["certificate"]], 0) and alpha.sum() == pytest.approx(
        1
    )  # Gordan
    assert answer["cards"]["rho"]["value"] is None and answer["cards"]["bound"]["value"] is None
    assert answer["max_margin"] is None
    assert worksheet_from_answer(answer)[-1][-1].startswith("cycle")


def test_float_points_run_in_float_arithmetic(client):
    body = {"points": [[1.25, 0.3], [0.7, 1.1], [-0.45, 0.9]], "labels": [1, -1, -1]}
    answer = post(client, body)
    assert answer["exact"] is False
    run = perceptron(np.array(body["points"]), body["labels"], trace=True)
    assert answer["run"]["w"] == run.w.tolist()
    assert answer["run"]["steps"]["score"] == [s.score for s in run.steps]
    rho = best_margin_brute_force(body["points"], body["labels"])
    assert answer["cards"]["rho"]["value"] == pytest.approx(rho, abs=1e-4)
    assert answer["cards"]["rho"]["value"] >= rho - 1e-12


def test_string_coordinates_are_exact(client):
    answer = post(
        client, {"points": [["1/3", "0"], ["0.5", "1/2"]], "labels": [1, -1]}, arithmetic="exact"
    )
    assert answer["exact"] is True
    assert answer["cards"]["R"]["text"] == "1/√2"  # ‖(1/2, 1/2)‖² = 1/2


def test_long_runs_are_traced_in_part(client):
    rng = np.random.default_rng(0)
    X = rng.uniform(-5, 5, size=(3000, 2)).round(2)
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(3000) > 0, 1, -1)  # noisy: never converges
    answer = post(client, {"points": X.tolist(), "labels": y.tolist()}, max_sweeps=20)
    limits = answer["limits"]
    assert (
        limits["complete"] is False and limits["traced_steps"] == 3000
    )  # one sweep of 3,000 points
    assert "traced" in limits["note"]
    whole = perceptron(X, y, max_sweeps=20, warn=False)
    assert answer["run"]["mistakes"] == whole.mistakes and answer["run"]["sweeps"] == whole.sweeps


def test_the_ten_thousand_point_limit_is_served(client):
    rng = np.random.default_rng(1)
    X = rng.uniform(-5, 5, size=(10_000, 2)).round(3)
    y = np.where(X @ [1, -2] > 0, 1, -1)
    answer = post(client, {"points": X.tolist(), "labels": y.tolist()})
    assert answer["n"] == 10_000 and answer["cards"]["separable"]["separable"] is True
    assert answer["run"]["mistakes"] == perceptron(X, y).mistakes


# ------------------------------------------------------------------ bad requests


BAD = [
    (b'{"points": [[NaN, 0]], "labels": [1]}', "finite"),
    (b'{"points": [[Infinity, 0]], "labels": [1]}', "finite"),
    (b'{"points": [[1, 0]', "JSON"),
    (b"[1, 2]", "JSON object"),
    (json.dumps({"points": [[1, 0, 2]], "labels": [1]}).encode(), "points[0]: expected a pair"),
    (json.dumps({"points": [1, 2], "labels": [1, 1]}).encode(), "points[0]: expected a pair"),
    (json.dumps({"points": [["abc", 0]], "labels": [1]}).encode(), "points[0][0]"),
    (json.dumps({"points": [[True, 0]], "labels": [1]}).encode(), "points[0][0]"),
    (json.dumps({"points": [["1e400", 0]], "labels": [1]}).encode(), "points[0][0]"),
    (json.dumps({"points": [[2e6, 0]], "labels": [1]}).encode(), "Rescale"),
    (json.dumps({"points": [], "labels": []}).encode(), "at least one point"),
    (json.dumps({"labels": [1]}).encode(), "points"),
    (json.dumps({"points": [[1, 0]], "labels": [1, -1]}).encode(), "1 labels, one per point"),
    (json.dumps({"points": [[1, 0]], "labels": [0]}).encode(), "labels[0]: expected 1 or -1"),
    (json.dumps({"points": [[1, 0]], "labels": [1], "extra": 1}).encode(), "unknown key 'extra'"),
    (json.dumps({**EXAM, "options": {"speed": 3}}).encode(), "unknown key 'speed'"),
    (json.dumps({**EXAM, "options": {"order": "backwards"}}).encode(), "options.order"),
    (json.dumps({**EXAM, "options": {"eta": -1}}).encode(), "options.eta: expected a number > 0"),
    (json.dumps({**EXAM, "options": {"eta": "x"}}).encode(), "options.eta"),
    (json.dumps({**EXAM, "options": {"margin": -0.5}}).encode(), "options.margin"),
    (json.dumps({**EXAM, "options": {"max_sweeps": 0}}).encode(), "options.max_sweeps"),
    (json.dumps({**EXAM, "options": {"max_sweeps": 5000}}).encode(), "options.max_sweeps"),
    (json.dumps({**EXAM, "options": {"seed": -1}}).encode(), "options.seed"),
    (json.dumps({**EXAM, "options": {"fit_intercept": "yes"}}).encode(), "options.fit_intercept"),
    (
        json.dumps({**EXAM, "options": {"order": "pick", "sequence": [0, 0]}}).encode(),
        "each point at most once",
    ),
    (
        json.dumps({**EXAM, "options": {"order": "pick", "sequence": [7]}}).encode(),
        "options.sequence[0]",
    ),
    (json.dumps({**EXAM, "options": {"arithmetic": "decimal"}}).encode(), "options.arithmetic"),
    # sizes: a 4,000-digit integer is described, not echoed; more than 4,300 digits stop the parser
    (
        json.dumps({"points": [[10**3999, 0]], "labels": [1]}).encode(),
        "got an integer of 4,000 digits",
    ),
    (
        json.dumps({"points": [["1/2", -(10**3999)]], "labels": [1]}).encode(),
        "points[0][1]: expected a number",
    ),
    (b'{"points": [[' + b"7" * 5000 + b', 0]], "labels": [1]}', "integers of at most 4,300 digits"),
    (json.dumps({"points": [[1e300, 0]], "labels": [1]}).encode(), "got 1e+300"),
    (
        json.dumps({**EXAM, "options": {"eta": 10**50}}).encode(),
        "options.eta: expected a number between",
    ),
    (
        json.dumps({**EXAM, "options": {"margin": -(10**40)}}).encode(),
        "options.margin: expected a number between",
    ),
    (json.dumps({"points": [["1e100000000", 0]], "labels": [1]}).encode(), "points[0][0]"),
    (b'{"points": ' + b"[" * 100_000 + b"]" * 100_000 + b', "labels": [1]}', "JSON"),
]


@pytest.mark.parametrize(("body", "needle"), BAD)
def test_bad_requests_get_422_with_a_message(client, body, needle):
    response = client.post("/api/run", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and needle in detail
    assert "expected" in detail  # the message shape: what, expected, got, how to fix
    assert client.post("/api/run", json=EXAM).status_code == 200  # the server is still fine


def test_limits_points_and_bytes(client):
    too_many = {"points": [[1, 0]] * 10_001, "labels": [1] * 10_001}
    response = client.post("/api/run", json=too_many)
    assert response.status_code == 422 and "at most 10,000 points" in response.json()["detail"]
    big = (
        b'{"points": ['
        + b",".join([b"[1.000000000001, 0.00000000001]"] * 40_000)
        + b'], "labels": []}'
    )
    assert len(big) > 1_000_000
    response = client.post("/api/run", content=big, headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and "at most 1,000,000 bytes" in response.json()["detail"]
    many_exact = {
        "points": [[i % 50, i // 50] for i in range(600)],
        "labels": [1] * 600,
        "options": {"arithmetic": "exact"},
    }
    response = client.post("/api/run", json=many_exact)
    assert (
        response.status_code == 422
        and "'exact' with at most 500 points" in response.json()["detail"]
    )


def thirty_six_digit_fractions(n: int = 500, seed: int = 0) -> dict:
    """Issue 13's legal 45 KB request: n points whose coordinates are 36-digit fractions, exact."""
    import random

    rng = random.Random(seed)

    def fraction() -> str:
        return f"{rng.randint(10**17, 10**18 - 1)}/{rng.randint(10**17, 10**18 - 1)}"

    return {
        "points": [[fraction(), fraction()] for _ in range(n)],
        "labels": [rng.choice([1, -1]) for _ in range(n)],
        "options": {"arithmetic": "exact"},
    }


def test_exact_arithmetic_within_its_budget(client):
    """36-digit fractions would grow without bound in exact arithmetic: refused with the budget."""
    body = thirty_six_digit_fractions()
    assert 40_000 < len(json.dumps(body)) < 50_000
    response = client.post("/api/run", json=body)
    assert response.status_code == 422
    assert response.json()["detail"].startswith(
        "options.arithmetic: expected 'exact' only for numbers with a "
        "common denominator of at most 18 digits"
    )
    auto = client.post("/api/run", json={**body, "options": {}})  # auto: floats for such numbers
    assert auto.status_code == 200 and auto.json()["exact"] is False
    # within the budget: thirds and sevenths, η = 1/3, exactly
    small = {
        "points": [["1/3", "2/7"], ["-1/7", "1/3"], ["5/21", "-2/3"]],
        "labels": [1, -1, 1],
        "options": {"arithmetic": "exact", "eta": "1/3"},
    }
    answer = post(client, small)
    run = perceptron(
        [[Fraction(c) for c in p] for p in small["points"]],
        small["labels"],
        eta=Fraction(1, 3),
        exact=True,
    )
    assert (
        answer["exact"] is True
        and answer["run"]["w_text"] == "(" + ", ".join(str(v) for v in run.w) + ")"
    )
    # η's denominator counts: 1/10^20 leaves the budget; auto falls back to floats
    tiny = post(client, EXAM, eta="1/100000000000000000000")
    assert tiny["exact"] is False and tiny["run"]["mistakes"] == 5


def test_answers_use_the_point_names_and_plurals(client):
    nonsep = {
        "points": [[2, 1], [3, 2.5], [1, 2], [2.5, -0.5], [-1.5, -2], [-2.5, -1], [-1, -3], [2, 2]],
        "labels": [1, 1, 1, 1, -1, -1, -1, -1],
    }
    card = post(client, nonsep)["cards"]["separable"]
    names = ", ".join(f"x{i + 1}" for i in card["certificate"])
    assert card["detail"].startswith(
        f"{names} with weights α = {', '.join(card['certificate_weights'])} give"
    )
    assert "example" not in card["detail"] and "perceptronlab.pocket" not in card["detail"]
    assert card["remedy"] == "Switch on pocket: it keeps the best weights seen."
    pocket = post(client, nonsep, pocket=True, max_sweeps=20)
    assert pocket["run"]["pocket_errors"] == 1
    assert pocket["run"]["state"].endswith(": 1 error") and pocket["cards"]["mistakes"][
        "detail"
    ].endswith(" 1 error")
    origin = post(client, {"points": [[0, 0]], "labels": [1]})["cards"]["separable"]
    assert origin["detail"].startswith("x1 is the origin")


def test_compute_raises_input_error_in_python():
    with pytest.raises(InputError, match="labels"):
        api.compute({"points": [[1, 0]], "labels": ["a"]})


# ------------------------------------------------------------------ the page and its files


def test_page_and_static_files(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert (
        '<script type="module" src="static/page.js">' in page.text and "<script>" not in page.text
    )
    script = client.get("/static/lab.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert 'import { mountPage } from "./lab.js"' in client.get("/static/page.js").text
    assert client.get("/static/lab.css").status_code == 200
    assert client.get("/api/health").json()["ok"] is True


def test_no_network_no_cdn():
    """The page loads nothing from outside the package: no http(s) URL except the SVG namespace."""
    for name in ("index.html", "lab.js", "page.js", "lab.css"):
        text = (STATIC / name).read_text(encoding="utf-8")
        urls = [line for line in text.splitlines() if "http://" in line or "https://" in line]
        assert all("http://www.w3.org/2000/svg" in line for line in urls), (name, urls)
    assert "export default" in (STATIC / "lab.js").read_text(
        encoding="utf-8"
    )  # the anywidget entry


def test_sqrt_text():
    assert [
        format_sqrt(Fraction(v))
        for v in (2, 8, 9, Fraction(1, 5), Fraction(9, 4), Fraction(18, 49))
    ] == ["√2", "2√2", "3", "1/√5", "3/2", "3√2/7"]


# ------------------------------------------------------------------ nothing a client sends breaks it

_cell = st.one_of(
    st.integers(-5, 5),
    st.floats(allow_nan=True, allow_infinity=True, width=32),
    st.sampled_from(["1/2", "0.5", "-3", "x", "", "1/0", "1e9", "1e-30", None, True]),
    st.just([1, 2]),
)
_point = st.one_of(st.lists(_cell, min_size=2, max_size=2), st.lists(_cell, max_size=3), _cell)
_options = st.dictionaries(
    st.sampled_from(
        [
            "order",
            "sequence",
            "fit_intercept",
            "eta",
            "margin",
            "pocket",
            "check",
            "max_sweeps",
            "seed",
            "arithmetic",
            "bogus",
        ]
    ),
    st.one_of(
        st.sampled_from(
            [
                "cyclic",
                "shuffle",
                "random-mistake",
                "pick",
                "exact",
                "float",
                "auto",
                "update",
                "sweep",
                "ratchet",
            ]
        ),
        st.integers(-2, 1001),
        st.booleans(),
        st.lists(st.integers(-1, 6), max_size=6),
        _cell,
    ),
    max_size=4,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    points=st.lists(_point, max_size=7),
    labels=st.lists(st.sampled_from([1, -1, 0, 1.0, "1", None]), max_size=7),
    options=_options,
)
def test_any_request_gets_an_answer_or_a_message(points, labels, options):
    try:
        answer = api.compute({"points": points, "labels": labels, "options": options})
    except InputError as exc:
        assert "expected" in str(exc)
        return
    json.dumps(answer, allow_nan=False)
    assert answer["n"] == len(points)
    run = answer["run"]
    assert (
        len(run["weights"]["w"]) == run["mistakes"] + 1
        or not run["complete"]
        or run["algorithm"] == "pocket"
    )


_half = st.integers(-6, 6).map(lambda v: v / 2)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_valid_requests_match_the_engine(data):
    """Any valid request: the answer's run is the engine's run on the same points and options."""
    n = data.draw(st.integers(1, 6))
    grid = data.draw(st.booleans())
    coordinate = _half if grid else st.floats(-4, 4, allow_nan=False).map(lambda v: round(v, 2))
    points = data.draw(
        st.lists(st.lists(coordinate, min_size=2, max_size=2), min_size=n, max_size=n)
    )
    labels = data.draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
    order = data.draw(st.sampled_from(["cyclic", "shuffle", "random-mistake"]))
    options = {
        "order": order,
        "fit_intercept": data.draw(st.booleans()),
        "pocket": data.draw(st.booleans()),
        "eta": data.draw(st.sampled_from([1, 2, "1/2"])),
        "seed": data.draw(st.integers(0, 3)),
        "check": data.draw(st.sampled_from(["update", "sweep", "ratchet"])),
        "max_sweeps": 30,
    }
    answer = api.compute({"points": points, "labels": labels, "options": options})
    exact = answer["exact"]
    assert exact == all(float(2 * c).is_integer() for p in points for c in p)
    X = points if exact else np.array(points, dtype=float)
    eta = Fraction(options["eta"]) if exact else float(Fraction(options["eta"]))
    common = dict(
        eta=eta,
        fit_intercept=options["fit_intercept"],
        order=order,
        seed=options["seed"],
        max_sweeps=30,
        exact=exact,
        trace=True,
    )
    if options["pocket"]:
        run = pocket(X, labels, check=options["check"], **common)
    else:
        run = perceptron(X, labels, warn=False, **common)
    assert answer["run"]["mistakes"] == run.mistakes and answer["run"]["sweeps"] == run.sweeps
    assert answer["run"]["w"] == [float(c) for c in run.w]
    assert answer["run"]["steps"]["index"] == [s.index for s in run.steps]
    bound = answer["cards"]["bound"]["value"]
    if bound is not None and not options["pocket"]:
        assert run.mistakes <= bound + 1e-9  # Novikoff holds on every separable request
    assert answer["cards"]["separable"]["separable"] == (
        answer["cards"]["rho"]["value"] is not None
    )


def test_margin_task_and_the_worst_case(client):
    """The margin task of "Perceptron Mistake Bound" (R² = 10, best margin √2, bound 5) and the tight
    case e₁, e₂ of the notebook "The Perceptron Convergence Theorem"."""
    margin_task = {"points": [[3, 1], [1, 2], [-1, -1], [0, -2]], "labels": [1, 1, -1, -1]}
    answer = post(client, margin_task)
    rho = best_margin_brute_force(margin_task["points"], margin_task["labels"])
    assert answer["cards"]["rho"]["value"] == pytest.approx(rho, abs=1e-4)
    assert (
        answer["cards"]["R"]["text"],
        answer["cards"]["rho"]["text"],
        answer["cards"]["bound"]["text"],
    ) == ("√10", "√2", "5")
    worst = post(client, {"points": [[1, 0], [0, 1]], "labels": [1, 1]})
    assert (
        worst["cards"]["R"]["text"],
        worst["cards"]["rho"]["text"],
        worst["cards"]["bound"]["text"],
    ) == ("1", "1/√2", "2")
    assert worst["run"]["mistakes"] == 2  # the bound is attained


# ---------------------------------------------------------------- the self-test's questions


def test_the_quiz_endpoint_serves_the_self_test_of_the_seed(client):
    from perceptronlab.teach.quiz import quiz_document

    answer = client.get("/api/quiz?seed=7&count=5")
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "no-store"
    document = answer.json()
    assert document == json.loads(
        json.dumps(quiz_document(7, 5))
    )  # the teaching module's questions, as JSON
    assert len(document["questions"]) == 5
    assert client.get("/api/quiz?seed=7&count=5").json() == document  # reproducible from the seed
    assert client.get("/api/quiz?seed=8&count=5").json() != document


@pytest.mark.parametrize(
    "query, needle",
    [
        ("count=0", "count: expected an integer from 1 to 50"),
        ("count=51", "count: expected an integer from 1 to 50"),
        ("seed=-1", "seed: expected an integer from 0"),
        ("seed=abc", "got 'abc'"),
    ],
)
def test_bad_quiz_requests_get_422_with_one_line(client, query, needle):
    answer = client.get(f"/api/quiz?{query}")
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert needle in detail and "\n" not in detail
