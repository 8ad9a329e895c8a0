"""Grading whatever a class hands in (issue 35): damaged, encrypted, oversized and unsupported zip
members graded ``unreadable`` with the reason while the others are graded; a zip bomb read under the
class's budget with bounded memory; a cell past the csv module's limit, a folder with no sheet, a file
name that is not UTF-8, dangling links and FIFOs: each a result or one clean line."""

from __future__ import annotations

import io
import os
import struct
import sys
import tracemalloc
import zipfile
import zlib

import pytest
from typer.testing import CliRunner

from perceptronlab.cli import app
from perceptronlab.teach.exams import generate
from perceptronlab.teach.gradebook import grade_book, gradebook_csv
from perceptronlab.teach.handin import MAX_CLASS_BYTES

runner = CliRunner()
MiB = 2**20


def good_sheet(seed: int = 0) -> str:
    task = generate("trace", seed)
    header = [line for line in task.worksheet_csv().splitlines() if line.startswith("#")]
    return "\n".join(header) + "\n" + task.run.table("csv")


def raw_zip(members: list[tuple[str, bytes, int, int, int, int]]) -> bytes:
    """A zip written by hand: (name, stored bytes, method, flags, crc, declared size) per member, so
    that a test can forge what zipfile would never write."""
    out, central = io.BytesIO(), []
    for name, data, method, flags, crc, size in members:
        offset = out.tell()
        encoded = name.encode("utf-8")
        out.write(
            struct.pack(
                "<4s5H3I2H",
                b"PK\x03\x04",
                20,
                flags,
                method,
                0,
                0,
                crc,
                len(data),
                size,
                len(encoded),
                0,
            )
            + encoded
            + data
        )
        central.append(
            struct.pack(
                "<4s6H3I5H2I",
                b"PK\x01\x02",
                20,
                20,
                flags,
                method,
                0,
                0,
                crc,
                len(data),
                size,
                len(encoded),
                0,
                0,
                0,
                0,
                0,
                offset,
            )
            + encoded
        )
    start = out.tell()
    out.write(b"".join(central))
    out.write(
        struct.pack(
            "<4s4H2IH",
            b"PK\x05\x06",
            0,
            0,
            len(central),
            len(central),
            out.tell() - start,
            start,
            0,
        )
    )
    return out.getvalue()


def deflated(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def test_damaged_members_are_unreadable_and_the_others_graded(tmp_path):
    good = good_sheet().encode()
    crc = zlib.crc32(good)
    members = [
        ("ada-sheet.csv", deflated(good), 8, 0, crc, len(good)),
        ("badcrc-sheet.csv", deflated(good), 8, 0, crc ^ 1, len(good)),
        ("forged-sheet.csv", deflated(good), 8, 0, crc, 10),
        ("secret-sheet.csv", deflated(good), 8, 1, crc, len(good)),
        ("method9-sheet.csv", deflated(good), 9, 0, crc, len(good)),
        ("cut-sheet.csv", deflated(good)[:40], 8, 0, crc, len(good)),
        ("huge-sheet.csv", deflated(good), 8, 0, crc, 50 * MiB),
    ]
    archive = tmp_path / "class.zip"
    archive.write_bytes(raw_zip(members))
    grades = {g.student: g for g in grade_book(archive).sheets}
    assert grades["ada"].points == 2
    reasons = {name: grades[name].message for name in grades if name != "ada"}
    assert {g.slip for s, g in grades.items() if s != "ada"} == {"unreadable"}
    assert "damaged" in reasons["badcrc"] and "damaged" in reasons["forged"]
    assert "encrypted" in reasons["secret"] and "compression method 9" in reasons["method9"]
    assert "damaged" in reasons["cut"] and "more than a sheet" in reasons["huge"]
    result = runner.invoke(app, ["check", str(archive), "--gradebook", str(tmp_path / "g.csv")])
    assert result.exit_code == 0 and "Traceback" not in result.output


def test_a_truncated_zip_is_one_line(tmp_path):
    archive = tmp_path / "cut.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("ada-sheet.csv", good_sheet())
    archive.write_bytes(archive.read_bytes()[:-30])
    result = runner.invoke(app, ["check", str(archive)])
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow  # the issue's own reproducer: 128 MiB decompressed, about 4 s here
def test_a_zip_bomb_is_read_under_the_budget(tmp_path):
    """4,900 members of 1 MiB each (a few MB packed): the class's budget stops the reading, each
    member not read is listed, and memory stays bounded (tracemalloc's peak)."""
    member = (b"sweep,point,score,mistake,w_after\n" + b'1,x1,0,yes,"(1, 0)"\n' * 60000)[:MiB]
    packed, crc = deflated(member), zlib.crc32(member)
    archive = tmp_path / "bomb.zip"
    archive.write_bytes(
        raw_zip([(f"s{k:04d}-sheet.csv", packed, 8, 0, crc, MiB) for k in range(4900)])
    )
    tracemalloc.start()
    try:
        book = grade_book(archive)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(book.sheets) == 4900 and peak < 64 * MiB
    unread = [g for g in book.sheets if "budget" in g.message]
    assert len(unread) == 4900 - MAX_CLASS_BYTES // MiB
    assert any("budget" in note for note in book.notes)


def test_a_cell_past_the_csv_limit_is_graded_unreadable(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "ada-sheet.csv").write_text(good_sheet())
    (folder / "long-sheet.csv").write_text(good_sheet() + '1,x1,"' + "9" * 140_000 + '",no,x\n')
    grades = {g.student: g for g in grade_book(folder).sheets}
    assert grades["ada"].points == 2
    assert grades["long"].slip == "unreadable" and "131,072" in grades["long"].message


def test_a_folder_of_data_without_a_sheet_is_one_line(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "a.csv").write_text(generate("trace", 1).dataset_csv())
    (folder / "b.csv").write_text("x1,x2,y\n1,2,1\n")
    result = runner.invoke(app, ["check", str(folder), "--gradebook", str(tmp_path / "g.csv")])
    assert result.exit_code == 1 and "none a worksheet" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output


@pytest.mark.skipif(sys.platform != "linux", reason="names of raw bytes, FIFOs: POSIX file systems")
def test_odd_names_links_and_fifos_are_listed(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "ada-sheet.csv").write_text(good_sheet())
    with open(os.path.join(os.fsencode(folder), b"\xff\xfe-sheet.csv"), "w") as handle:
        handle.write(good_sheet(1))
    os.symlink(tmp_path / "nowhere", folder / "gone-sheet.csv")
    os.mkfifo(folder / "pipe-sheet.csv")
    book = grade_book(folder)
    rows = {g.file: g for g in book.grades}
    assert rows["\ufffd\ufffd-sheet.csv"].points == 2
    assert "dangling link" in rows["gone-sheet.csv"].message
    assert "FIFO" in rows["pipe-sheet.csv"].message
    assert {rows["gone-sheet.csv"].status, rows["pipe-sheet.csv"].status} == {"skipped"}
    gradebook_csv(book).encode("utf-8")
    result = runner.invoke(app, ["check", str(folder), "--gradebook", str(tmp_path / "g.csv")])
    assert result.exit_code == 0, result.output
    assert "\ufffd\ufffd-sheet.csv" in (tmp_path / "g.csv").read_text(encoding="utf-8")


def test_duplicate_names_in_two_zip_folders_are_named(tmp_path):
    archive = tmp_path / "dup.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a/ada-sheet.csv", good_sheet())
        zf.writestr("b/ada-sheet.csv", good_sheet().replace("\n1,x1,", "\n1,x1,7", 1))
    grades = grade_book(archive).sheets
    assert [g.status for g in grades] == ["duplicate", "duplicate"]
    assert "b/ada-sheet.csv" in grades[0].flag and "a/ada-sheet.csv" in grades[1].flag
