"""Exact numbers: bounded parsing everywhere it happens, and the formatters."""

import json
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from perceptronlab import InputError, bounds, load_model, perceptron, read_data
from perceptronlab._ground.numbers import (
    MAX_DIGITS,
    MAX_EXPONENT,
    format_number,
    format_short,
    format_sqrt,
    parse_exact,
    sqrt_float,
    to_float,
)
from perceptronlab.teach.checker import check_worksheet

# Each of these names an integer of up to a hundred million digits: building it takes minutes.
HUGE_TEXTS = [
    "1e100000000",
    "-1E100000000",
    "1e-100000000",
    "9" * 100_000,
    "1/" + "7" * 5000,
    "0." + "0" * 2000 + "1",
]


@pytest.mark.parametrize(
    "value, expected",
    [
        (3, Fraction(3)),
        ("-2", Fraction(-2)),
        (" 1/2 ", Fraction(1, 2)),
        ("0.1", Fraction(1, 10)),
        ("1e-3", Fraction(1, 1000)),
        ("2.5E2", Fraction(250)),
        (Fraction(-7, 3), Fraction(-7, 3)),
        (Decimal("0.25"), Fraction(1, 4)),
        (np.int64(5), Fraction(5)),
        (0.5, Fraction(1, 2)),
        ("1e1000", Fraction(10**1000)),
        (10**999, Fraction(10**999)),
    ],
)
def test_exact_numbers_parse(value, expected):
    assert parse_exact(value, "x") == expected


def test_floats_exact_or_as_their_decimal():
    assert parse_exact(0.1, "x") == Fraction(0.1) != Fraction(1, 10)
    assert parse_exact(0.1, "x", floats="decimal") == Fraction(1, 10)


@pytest.mark.parametrize("text", HUGE_TEXTS, ids=lambda text: text[:12])
def test_huge_texts_are_refused_with_the_limit(text):
    with pytest.raises(
        InputError, match=f"at most {MAX_DIGITS} digits and an exponent of at most {MAX_EXPONENT}"
    ):
        parse_exact(text, "X[0, 0]")


@pytest.mark.parametrize(
    "value",
    [10**5000, -(10**1001), Fraction(1, 10**1001), Decimal("1e5000")],
    ids=["int 5001 digits", "int 1002 digits", "fraction", "decimal"],
)
def test_huge_numbers_are_refused(value):
    with pytest.raises(InputError, match="at most 1000 digits"):
        parse_exact(value, "x")


@pytest.mark.parametrize(
    "value", ["abc", "", "1/0", "nan", "inf", float("nan"), float("inf"), None, True, [1]]
)
def test_non_numbers_are_input_errors(value):
    with pytest.raises(InputError, match="x: expected"):
        parse_exact(value, "x")


def test_the_place_is_said_after_the_value():
    with pytest.raises(InputError, match=r"got 'x1' on line 3\. Fix"):
        parse_exact("x1", "CSV file", at=" on line 3")


def test_beyond_the_float_range_is_an_input_error_not_an_overflow():
    with pytest.raises(InputError, match="float range"):
        to_float(Fraction(10**400), "w")
    for eta in (10**400, Fraction(10**400), Decimal("1e400")):
        with pytest.raises(InputError, match="eta"):
            perceptron([[1, 0], [0, 1]], [1, -1], eta=eta)


def test_square_roots_of_huge_fractions_do_not_overflow():
    assert sqrt_float(Fraction(10**400)) == 1e200
    assert sqrt_float(Fraction(10**400, 3)) == pytest.approx(1e200 / 3**0.5, rel=1e-15)
    assert sqrt_float(Fraction(10**700)) == float("inf")
    # exact data past 1e154: the norms of the iterates are past the float range as squares
    run = perceptron([[10**200, 1], [1, 10**200]], [1, -1], exact=True)
    assert run.converged and run.norms[0] == pytest.approx(1e200)


def test_every_reader_of_exact_numbers_is_bounded(tmp_path):
    csv = tmp_path / "data.csv"
    csv.write_text("x1,x2,y\n1,1e100000000,1\n0,1,-1\n")
    with pytest.raises(InputError, match=r"column 'x2'.*'1e100000000' on line 2.*"):
        read_data(csv, exact=True)
    with pytest.raises(InputError, match="at most 1000 digits"):
        perceptron([[1, "1e100000000"], [0, 1]], [1, -1], exact=True)
    with pytest.raises(InputError, match="at most 1000 digits"):
        check_worksheet([("1", "x1", "1e100000000", "yes", "(1, 0)")], [[1, 0], [0, 1]], [1, -1])
    with pytest.raises(InputError, match="at most 1000 digits"):
        check_worksheet([], [[1, 0], [0, 1]], [1, -1], eta="1e100000000")
    with pytest.raises(InputError, match="R .*at most 1000 digits"):
        bounds.novikoff(Decimal("1e100000000"), 1)
    model = tmp_path / "model.json"
    run = perceptron([[1, 0], [0, 1]], [1, -1], exact=True)
    from perceptronlab import save_model

    save_model(run, model)
    document = json.loads(model.read_text())
    document["w"][0] = "1e100000000"
    model.write_text(json.dumps(document))
    with pytest.raises(InputError, match=r"field 'w'.*at most 1000 digits"):
        load_model(model)
    document["w"][0] = 1e308
    document["exact"] = False
    model.write_text(json.dumps(document).replace("1e+308", "1e309"))
    with pytest.raises(InputError, match="field 'w'"):
        load_model(model)


def test_the_lab_refuses_a_huge_coordinate():
    from perceptronlab.web.api import compute

    for coordinate in ("1e100000000", "3/" + "1" * 2000):
        with pytest.raises(InputError, match=r"points\[0\]\[0\]"):
            compute({"points": [[coordinate, 0], [0, 1]], "labels": [1, -1]})


@pytest.mark.parametrize(
    "square, text",
    [
        (Fraction(2), "√2"),
        (Fraction(8), "2√2"),
        (Fraction(9), "3"),
        (Fraction(1, 5), "1/√5"),
        (Fraction(9, 4), "3/2"),
        (Fraction(2, 3), "√2/√3"),
        (Fraction(18, 49), "3√2/7"),
        (Fraction(169, 292), "13/(2√73)"),
        (Fraction(8, 45), "2√2/(3√5)"),
        (Fraction(10), "√10"),
    ],
)
def test_roots_as_the_worksheet_writes_them(square, text):
    assert format_sqrt(square) == text


def test_numbers_as_the_worksheet_writes_them():
    assert [
        format_number(v) for v in (Fraction(-3, 2), Fraction(4), 2.0, 0.1, np.int64(7), 1e16)
    ] == ["-3/2", "4", "2", "0.1", "7", "1e+16"]
    assert [format_short(v) for v in (Fraction(1, 3), 2**0.5, 3.0, 12)] == [
        "1/3",
        "1.41421",
        "3",
        "12",
    ]
