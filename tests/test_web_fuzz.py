"""Fuzzing the lab's API (issue 13, item 7): no 500, no hang, no raw exception.

Hypothesis sends what a hostile or careless client might: any JSON value, near-valid requests
with odd numbers (4,000-digit integers, ``1e100000000``, 36-digit fractions, NaN), odd options,
mangled bytes, and odd headers. In process, :func:`perceptronlab.web.api.compute` must answer or
raise :class:`perceptronlab.InputError`; through the real server (worker processes, deadlines),
every answer is 200, 413, 415 or 422 with a message, and no request runs into the deadline (a
request inside the budget that did would be a hole in the budget).

Each test runs a multiple of the loaded Hypothesis profile's examples: about 10 s in all under
``make test``, twenty times as many under ``make fuzz`` (``HYPOTHESIS_PROFILE=fuzz``).
"""

from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from perceptronlab.exceptions import InputError
from perceptronlab.web import api, request
from perceptronlab.web.app import background, create_app
from perceptronlab.web.pool import WorkerPool

pytestmark = pytest.mark.fuzz

DEADLINE_S = 10.0
#: the server answers within its queue deadline plus its compute deadline (plus a worker's start,
#: should a worker have been replaced)
ANSWER_S = 2 * DEADLINE_S + WorkerPool(1, 0, 1.0).start_timeout
#: examples per test: multiples of the loaded profile's (Hypothesis's 100 in `make test`, more in `make fuzz`)
EXAMPLES = settings().max_examples


def fuzz(times: int) -> settings:
    return settings(
        max_examples=times * EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# ------------------------------------------------------------------ what a client may send

_number_text = st.sampled_from(
    [
        "1/2",
        "-3/4",
        "0.5",
        "1e9",
        "1e-30",
        "1e100000000",
        "-1e-100000000",
        "1/0",
        "0/5",
        "  7 ",
        "1_000",
        "٣",
        "NaN",
        "-Infinity",
        "0x10",
        "1e",
        "/",
        "--1",
        "3.",
        ".5",
        "123456789012345678/987654321098765432",
        "1" * 41,
        "\u00a0",
        "",
    ]
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


def request_strategy(max_digits: int):
    """Requests, near-valid and not; integers of up to ``max_digits`` digits (JSON text stops at 4,300)."""
    huge = st.integers(1, max_digits).map(lambda digits: 10**digits - 1) | st.integers(
        -(10**30), 10**30
    )
    cells = st.one_of(
        st.integers(-8, 8),
        st.floats(width=64),
        huge,
        huge.map(lambda v: -v),
        _number_text,
        st.text(max_size=12),
        st.none(),
        st.booleans(),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    )
    points = st.one_of(
        st.lists(st.lists(cells, min_size=2, max_size=2), max_size=12),
        st.lists(st.lists(cells, max_size=4), max_size=6),
        cells,
    )
    labels = st.one_of(
        st.lists(st.sampled_from([1, -1, 0, 2, 1.0, -1.0, "1", None, True]), max_size=12), cells
    )
    values = st.one_of(
        cells,
        st.sampled_from(["cyclic", "shuffle", "random-mistake", "pick", "exact", "float", "auto"]),
        st.integers(-3, 1003),
        st.lists(st.integers(-2, 14), max_size=14),
    )
    options = st.one_of(
        st.dictionaries(st.sampled_from([*request.OPTION_DEFAULTS, "bogus"]), values, max_size=6),
        cells,
    )
    return st.one_of(
        st.fixed_dictionaries({"points": points, "labels": labels}, optional={"options": options}),
        st.dictionaries(
            st.sampled_from(["points", "labels", "options", "extra"]), _json, max_size=4
        ),
        _json,
    )


requests = request_strategy(6000)  # Python callers (the widget) may pass any int
json_requests = request_strategy(4300)


def _valid_grid(draw_n: int) -> dict:
    return {
        "points": [[i % 7 - 3, i // 7 - 3] for i in range(draw_n)],
        "labels": [1 if i % 3 else -1 for i in range(draw_n)],
    }


def encode(payload) -> bytes:
    """JSON as a client would send it (NaN and Infinity included, as JavaScript's JSON cannot)."""
    return json.dumps(payload, allow_nan=True).encode()


_bodies = st.one_of(
    json_requests.map(encode),
    st.binary(max_size=200),
    st.tuples(json_requests.map(encode), st.integers(0, 400)).map(
        lambda pair: pair[0][: pair[1]]
    ),  # cut short
    st.tuples(st.integers(1, 40), st.integers(0, 3)).map(
        lambda pair: (
            encode(_valid_grid(pair[0]))[:-1] + b',"options":' + b"[" * 10 ** pair[1] + b"}"
        )
    ),
)

# ------------------------------------------------------------------ in process


@fuzz(5)
@given(payload=requests)
def test_compute_answers_or_says_what_is_wrong(payload):
    try:
        answer = api.compute(payload)
    except InputError as exc:
        assert ": expected " in str(exc) and len(str(exc)) < 2_000
        return
    json.dumps(answer, allow_nan=False)
    assert answer["n"] == len(payload["points"])


@fuzz(5)
@given(body=_bodies)
def test_compute_body_answers_or_says_what_is_wrong(body):
    try:
        api.compute_body(body)
    except InputError as exc:
        assert ": expected " in str(exc) and len(str(exc)) < 2_000


# ------------------------------------------------------------------ through the server


@pytest.fixture(scope="module")
def lab():
    with (
        background(create_app(workers=2, deadline=DEADLINE_S)) as url,
        httpx.Client(base_url=url, timeout=ANSWER_S) as client,
    ):
        yield client


def check_answer(response: httpx.Response) -> None:
    assert response.status_code in (200, 413, 415, 422), (response.status_code, response.text[:300])
    if response.status_code == 200:
        assert "run" in response.json()
        return
    detail = response.json()["detail"]
    assert isinstance(detail, str) and "expected" in detail, detail
    assert "deadline" not in detail, detail  # inside the budget, nothing runs into the deadline


@fuzz(3)
@given(body=_bodies)
def test_the_server_never_fails_on_a_body(lab, body):
    check_answer(lab.post("/api/run", content=body, headers={"Content-Type": "application/json"}))


_header_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


@fuzz(1)
@given(
    host=st.one_of(
        st.sampled_from(["127.0.0.1", "localhost:1", "[::1]", "evil.test"]), _header_text
    ),
    origin=st.none()
    | st.sampled_from(["null", "http://127.0.0.1", "https://evil.test"])
    | _header_text,
    kind=st.none()
    | st.sampled_from(["application/json", "text/plain", "application/json; charset=utf-8"])
    | _header_text,
)
def test_the_server_never_fails_on_headers(lab, host, origin, kind):
    headers = {"Host": host}
    if origin is not None:
        headers["Origin"] = origin
    if kind is not None:
        headers["Content-Type"] = kind
    try:
        response = lab.post("/api/run", content=encode(_valid_grid(3)), headers=headers)
    except (
        httpx.LocalProtocolError
    ):  # a header httpx itself will not send: not a request to the server
        reject()
    assert response.status_code in (200, 400, 403, 415), (
        headers,
        response.status_code,
        response.text[:200],
    )
    assert response.headers["x-content-type-options"] == "nosniff"
    if response.status_code != 200:
        assert "expected" in response.json()["detail"]
