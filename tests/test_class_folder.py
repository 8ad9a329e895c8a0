"""A class folder written atomically (issue 35): built beside --out and swapped in at the end, a folder
of other files refused without --force, Ctrl-C leaves the old folder as it was, the key apart from
every student's file (a student ``key`` gets their own exam), --solution with a class warned."""

from __future__ import annotations

import csv

from typer.testing import CliRunner

from perceptronlab.cli import app
from perceptronlab.teach.exams import generate

runner = CliRunner()


def exam(*args):
    return runner.invoke(app, ["exam", "--kind", "margin", "-q", *map(str, args)])


def roster(tmp_path, *ids):
    path = tmp_path / f"roster-{'-'.join(ids)}.csv"
    path.write_text("\n".join(ids) + "\n")
    return path


def test_a_second_class_replaces_the_first(tmp_path):
    out = tmp_path / "class"
    assert exam("--students", roster(tmp_path, "ada", "alan", "grace"), "--out", out).exit_code == 0
    result = exam("--students", roster(tmp_path, "x1", "x2"), "--out", out, "--seed", "5")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["_key", "variants.csv", "x1-data.csv", "x1.md", "x2-data.csv", "x2.md"]
    key = (out / "_key" / "key.md").read_text()
    assert "## x1 " in key and "## ada " not in key
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_folder_of_other_files_is_refused_unless_forced(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("precious")
    result = exam("--variants", 2, "--out", out)
    assert result.exit_code == 1 and "--force" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert (out / "thesis.tex").read_text() == "precious"
    assert exam("--variants", 2, "--out", out, "--force").exit_code == 0
    assert not (out / "thesis.tex").exists() and (out / "student-001.md").exists()


def test_ctrl_c_leaves_the_old_folder_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "class"
    assert exam("--variants", 3, "--out", out).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    import perceptronlab.cli.exams as exams_cli

    real = exams_cli._class_files

    def interrupted(*args):
        for k, item in enumerate(real(*args)):
            if k == 4:
                raise KeyboardInterrupt
            yield item

    monkeypatch.setattr(exams_cli, "_class_files", interrupted)
    result = exam("--variants", 5, "--out", out, "--seed", "9")
    assert result.exit_code == 130
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "left as it was" in lines[0]
    assert {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["class"]  # no temporary folder left


def test_a_student_called_key_gets_their_own_exam(tmp_path):
    out = tmp_path / "class"
    result = exam("--students", roster(tmp_path, "key", "ada"), "--out", out)
    assert result.exit_code == 0, result.output
    rows = {r["student"]: r for r in csv.DictReader((out / "variants.csv").open())}
    task = generate("margin", int(rows["key"]["variant_seed"]))
    assert (out / rows["key"]["file"]).read_text() == task.markdown()  # no key in it
    assert "## key (variant seed" in (out / "_key" / "key.md").read_text()


def test_solution_with_a_class_is_warned(tmp_path):
    result = exam("--variants", 2, "--out", tmp_path / "c", "--solution")
    assert result.exit_code == 0 and "--solution" in result.stderr


def test_the_current_folder_is_not_replaced(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = exam("--variants", 2, "--out", ".")
    assert result.exit_code == 1 and "the current folder" in result.stderr
    assert list(tmp_path.iterdir()) == []
