"""The fuzz suite of the gradebook (issue 35): zips of fuzzed members (names, contents, flags,
compression methods, flipped and cut bytes) and folders of fuzzed file names (bytes that are not
UTF-8, control characters, formula starts), graded by ``grade_book``. Each gives a gradebook (or one
InputError line, for a zip too damaged to list); no other exception, a gradebook that encodes as
UTF-8 with no cell a spreadsheet formula, and memory bounded (tracemalloc's peak).

Small in the default profile ("test": a few dozen examples per test); ``make fuzz``
(HYPOTHESIS_PROFILE=fuzz) runs 20 times as many, scaled like tests/test_fuzz.py by
``PERCEPTRONLAB_FUZZ_SCALE``.
"""

from __future__ import annotations

import csv
import io
import os
import struct
import sys
import tempfile
import tracemalloc
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptronlab.exceptions import InputError
from perceptronlab.teach.exams import generate
from perceptronlab.teach.gradebook import grade_book, gradebook_csv

pytestmark = pytest.mark.fuzz

MiB = 2**20
#: the most a graded class of fuzzed files may allocate
PEAK = 24 * MiB
FUZZ_SCALE = float(
    os.environ.get(
        "PERCEPTRONLAB_FUZZ_SCALE", "2.5" if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else "1"
    )
)


def fuzz_settings(share: float) -> settings:
    return settings(
        max_examples=max(5, int(settings.default.max_examples * share * FUZZ_SCALE)),
        deadline=timedelta(seconds=60),
    )


SHEET = (
    "\n".join(line for line in generate("trace", 3).worksheet_csv().splitlines() if line[:1] == "#")
    + "\n"
    + generate("trace", 3).run.table("csv")
)
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def graded(source, variants=None):
    """The gradebook of ``source`` (None for an InputError), checked: UTF-8, no formula cell, the
    memory within :data:`PEAK`."""
    tracemalloc.start()
    try:
        try:
            book = grade_book(source, variants)
        except InputError as exc:
            assert "\n" not in str(exc)
            return None
        text = gradebook_csv(book)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < PEAK, f"allocated {peak / MiB:.1f} MiB"
    text.encode("utf-8")
    for row in csv.reader(io.StringIO(text)):
        assert not any(cell.startswith(FORMULA) for cell in row), row
    return book


@pytest.fixture(scope="module")
def folder():
    with tempfile.TemporaryDirectory() as name:
        warm = Path(name) / "warm"
        warm.mkdir()
        (warm / "a-sheet.csv").write_text(SHEET)
        grade_book(warm)  # the imports and the exact engine loaded before memory is measured
        yield Path(name)


# ================================================================ strategies

names = st.one_of(
    st.text(min_size=1, max_size=40),
    st.sampled_from(
        [
            "=1+1-sheet.csv",
            "+SUM(A1)-sheet.csv",
            "@SUM(1+1)-sheet.csv",
            "-2-sheet.csv",
            "\tx-sheet.csv",
            "\rx-sheet.csv",
            "a/ada-sheet.csv",
            "b/ada-sheet.csv",
            "../up-sheet.csv",
            "/abs-sheet.csv",
            "Ada Lovelace_1001_assignsubmission_file_/sheet.csv",
            "__MACOSX/._x-sheet.csv",
            "dir/",
            "variants.csv",
        ]
    ),
).map(lambda n: n if n.lower().endswith(".csv") or n.endswith("/") else n + ".csv")

contents = st.one_of(
    st.just(SHEET.encode()),
    st.binary(max_size=300),
    st.text(max_size=300).map(str.encode),
    st.builds(
        lambda k, cell: (SHEET + f'1,x1,"{cell * k}",no,x\n').encode(),
        st.integers(0, 140_000),
        st.sampled_from(["9", "\x00", "é"]),
    ),
    st.builds(lambda s: SHEET.replace(",", s).encode(), st.sampled_from([";", '"', "\n", ""])),
    st.just(b"student,variant_seed,kind,file\n1001,1,trace,1001.md\n"),
)


def _heads(raw: bytes) -> list[int]:
    """Where the zip's local and central headers start."""
    found = []
    for signature in (b"PK\x01\x02", b"PK\x03\x04"):
        at = raw.find(signature)
        while at >= 0:
            found.append(at)
            at = raw.find(signature, at + 1)
    return sorted(found)


@st.composite
def zip_bytes(draw) -> bytes:
    """A zip of fuzzed members, then forged: flags, methods and sizes in its headers, flipped bytes
    anywhere, or its end cut off."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in draw(st.lists(st.tuples(names, contents), min_size=1, max_size=6)):
            method = draw(
                st.sampled_from(
                    [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]
                )
            )
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    raw = bytearray(buffer.getvalue())
    for _ in range(draw(st.integers(0, 3))):
        how = draw(st.sampled_from(["flag", "method", "size", "flip", "cut"]))
        heads = [at for at in _heads(bytes(raw)) if at + 30 <= len(raw)]  # whole headers
        head = draw(st.sampled_from(heads)) if heads else 0
        central = raw[head : head + 4] == b"PK\x01\x02"
        if how == "flag" and heads:
            raw[head + (8 if central else 6)] |= 1
        elif how == "method" and heads:
            struct.pack_into(
                "<H", raw, head + (10 if central else 8), draw(st.sampled_from([9, 6, 99]))
            )
        elif how == "size" and heads:
            struct.pack_into(
                "<I", raw, head + (24 if central else 22), draw(st.integers(0, 2**32 - 1))
            )
        elif how == "flip" and raw:
            raw[draw(st.integers(0, len(raw) - 1))] ^= draw(st.integers(1, 255))
        elif how == "cut" and raw:
            del raw[draw(st.integers(0, len(raw) - 1)) :]
    return bytes(raw)


file_names = st.one_of(
    st.binary(min_size=1, max_size=30).map(lambda b: b.replace(b"/", b"_").replace(b"\x00", b"_")),
    names.map(lambda n: n.replace("/", "_").replace("\x00", "_").encode("utf-8", "surrogatepass")),
).filter(lambda b: b not in (b".", b".."))


# ================================================================ tests


@pytest.mark.filterwarnings("ignore:Duplicate name")  # two members of one name: fuzzed on purpose
@fuzz_settings(0.3)
@given(content=zip_bytes())
def test_fuzzed_zips_are_graded(folder, content):
    archive = folder / "class.zip"
    archive.write_bytes(content)
    book = graded(archive)
    if book is not None:
        statuses = {"graded", "duplicate", "skipped", "missing", "unmatched"}
        assert {g.status for g in book.grades} <= statuses
        assert all(g.points == 0 for g in book.grades if g.status in ("skipped", "missing"))


@pytest.mark.skipif(sys.platform != "linux", reason="names of raw bytes: POSIX file systems")
@fuzz_settings(0.3)
@given(files=st.lists(st.tuples(file_names, contents), min_size=1, max_size=5))
def test_fuzzed_file_names_are_graded(folder, files):
    with tempfile.TemporaryDirectory(dir=folder) as name:
        root = os.fsencode(name)
        for raw, data in files:
            try:
                with open(os.path.join(root, raw + b".csv"), "wb") as handle:
                    handle.write(data)
            except OSError:  # a name too long for the file system
                continue
        book = graded(Path(name))
        if book is not None:  # every file listed, once
            assert len(book.grades) == len(os.listdir(root))
