"""The command line as people expect it (issue 14, item 4), through its real entry points.

`python -m perceptronlab`; plain flags in `--help` (no `<bool>`); every help ends with examples, and
every example runs; one flag style and one default per concept, stated truly; command-line wording
in errors and warnings; shell completion; `-V`.
"""

from __future__ import annotations

import ast
import csv
import inspect
import io
import json
import os
import re
import subprocess
import sys
import types
from fractions import Fraction
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

import perceptronlab as pl
from perceptronlab.cli import app
from perceptronlab.cli._common import DEFAULT_MAX_SWEEPS
from perceptronlab.cli._examples import EXAMPLES
from perceptronlab.cli._wording import flags_of, to_command_line

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).parent / "perceptronlab"
COMMAND = typer.main.get_command(app)
NAMES = sorted(COMMAND.commands)
ANSI = re.compile(r"\x1b\[[0-9;]*m")
WIDE = {"COLUMNS": "200"}

runner = CliRunner()


def invoke(*args: str, env: dict | None = None):
    return runner.invoke(app, [str(a) for a in args], env=env)


def help_text(*args: str) -> str:
    result = invoke(*args, "--help", env=WIDE)
    assert result.exit_code == 0, result.output
    return ANSI.sub("", result.stdout)


def _one_error_line(result) -> str:
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


# ================================================================ entry points


def test_python_dash_m_is_the_same_command_line():
    version = subprocess.run(
        [sys.executable, "-m", "perceptronlab", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert version.returncode == 0 and version.stdout.strip() == f"perceptronlab {pl.__version__}"
    usage = subprocess.run(
        [sys.executable, "-m", "perceptronlab"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, **WIDE},
    )
    assert "Usage: python -m perceptronlab [OPTIONS] COMMAND" in ANSI.sub(
        "", usage.stdout + usage.stderr
    )
    bad = subprocess.run(
        [sys.executable, "-m", "perceptronlab", "train", "missing.csv"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert (
        bad.returncode == 1 and bad.stderr.startswith("Error: ") and "Traceback" not in bad.stderr
    )


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_flags(flag):
    result = invoke(flag)
    assert result.exit_code == 0 and result.stdout == f"perceptronlab {pl.__version__}\n"


@pytest.mark.parametrize("order", [("--version", "--verbose"), ("--verbose", "-V")])
def test_version_verbose_names_the_processor_and_the_kernels(order):
    from perceptronlab.core.cpu import cpu_text

    result = invoke(*order)
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and lines[0] == f"perceptronlab {pl.__version__}"
    assert f"CPU: {cpu_text()}" in lines
    assert any(line.startswith("CSR sweep: ") and "measured:" in line for line in lines)
    assert any(line.startswith("dense sweep: ") and "measured (" in line for line in lines)
    compiled = "host" if "NUMBA_CPU_NAME" not in os.environ else os.environ["NUMBA_CPU_NAME"]
    assert any(line.startswith(f"compiled for: {compiled}") for line in lines)


def test_verbose_alone_says_what_it_goes_with():
    result = invoke("--verbose")
    assert result.exit_code == 2 and "--verbose goes with --version" in result.output


def test_no_command_prints_the_help():
    result = invoke()
    assert result.exit_code in (0, 2) and "Usage: perceptronlab" in result.output


def test_shell_completion():
    env = {
        **os.environ,
        "_PERCEPTRONLAB_COMPLETE": "complete_bash",
        "COMP_WORDS": "perceptronlab tr",
        "COMP_CWORD": "1",
    }
    done = subprocess.run([str(SCRIPT)], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0 and done.stdout.split() == ["train", "trace"]
    env.update(COMP_WORDS="perceptronlab train data.csv --inter", COMP_CWORD="3")
    flags = subprocess.run([str(SCRIPT)], capture_output=True, text=True, timeout=120, env=env)
    assert flags.stdout.split() == ["--intercept"]
    # from bash, as a user runs it: Typer detects the shell it was started from (under make, sh,
    # which it does not support: "Shell sh not supported."); the `exit` keeps bash from exec'ing
    script = subprocess.run(
        ["bash", "-c", f"'{SCRIPT}' --show-completion; exit $?"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert script.returncode == 0 and "_perceptronlab_completion" in script.stdout
    assert "--install-completion" in help_text()


def test_the_cli_does_not_import_click():
    """Typer ≥ 0.2x no longer installs click; the command line must not need it."""
    for path in (ROOT / "perceptronlab" / "cli").glob("*.py"):
        tree = ast.parse(path.read_text())
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        }
        imported |= {
            node.module.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        }
        assert "click" not in imported, path


# ================================================================ help: plain flags and examples


@pytest.mark.parametrize("name", [None, *NAMES])
def test_help_shows_plain_flags(name):
    text = help_text(*([name] if name else []))
    assert "<bool>" not in text
    command = COMMAND if name is None else COMMAND.commands[name]
    for param in command.params:
        if getattr(param, "is_flag", False) and param.opts[0].startswith("--"):
            line = next(
                ln
                for ln in text.splitlines()
                if f"{param.opts[0]} " in ln or ln.rstrip().endswith(param.opts[0])
            )
            assert "<" not in line.split(param.opts[0], 1)[1].split("  ")[0], line


@pytest.mark.parametrize("name", [None, *NAMES])
def test_help_ends_with_two_or_three_examples(name):
    text = help_text(*([name] if name else []))
    lines = [ln.strip() for ln in text.rstrip().splitlines() if ln.strip()]
    start = max(i for i, ln in enumerate(lines) if ln == "Examples")
    shown = lines[start + 1 :]
    commands, notes = shown[0::2], shown[1::2]
    assert 2 <= len(commands) <= 3 and len(notes) == len(commands), shown
    assert commands == [line for line, _ in EXAMPLES[name]]
    for line in commands:
        words = line.split()
        assert words[0] == "perceptronlab" and (name is None or words[1] == name), line


def test_every_registered_command_has_examples():
    assert set(NAMES) <= set(EXAMPLES), set(NAMES) - set(EXAMPLES)


@pytest.fixture
def example_files(tmp_path, monkeypatch):
    """The files the examples name, in a temporary working directory."""
    monkeypatch.chdir(tmp_path)
    Path("data.csv").write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    Path("new.csv").write_text("x1,x2\n2,0\n0,2\n")
    return tmp_path


def _fill(sheet: Path) -> None:
    """Fill a blank sheet from `exam --sheet-out` with the correct rows, keeping its '#' header."""
    from perceptronlab.teach.sheets import read_header

    header = read_header(sheet)
    run = pl.perceptron([list(x) for x in header.X], list(header.y), exact=True, trace=True)
    comments = [ln for ln in sheet.read_text().splitlines() if ln.startswith("#")]
    sheet.write_text("\n".join(comments) + "\n" + run.table("csv"))


@pytest.mark.slow
def test_every_example_runs(example_files):
    """Each example line of every help, run as written (serve aside: it does not return)."""
    order = [
        "demo",
        "trace",
        "train",
        "predict",
        "evaluate",
        "analyze",
        "report",
        "experiment",
        "exam",
        "check",
        "quiz",
        "site",
        None,
    ]
    assert set(order) >= set(EXAMPLES) - {"serve"}
    for name in order:
        for line, _ in EXAMPLES[name]:
            if name == "check" and line.split()[2] == "sheet.csv":
                _fill(
                    Path("sheet.csv")
                )  # the student's work on the blank sheet of the exam example
            if name == "check" and line.split()[2] == "my-sheet.csv":  # a sheet without a header
                traced = invoke("trace", "data.csv", "--eta", "1/2", "-f", "csv", "-q")
                Path("my-sheet.csv").write_text(traced.stdout)
            args = [a.strip("'") for a in re.findall(r"'[^']*'|\S+", line)[1:]]
            result = invoke(*args)
            assert result.exit_code == 0, f"{line}\n{result.output}"
    assert (
        Path("model.json").exists()
        and Path("predictions.csv").exists()
        and Path("exam.pdf").exists()
    )
    assert Path("report/report.html").exists()
    assert Path("lab-site/index.html").exists() and Path("public/lab/pyodide").is_dir()


def test_serve_examples_parse():
    """serve runs until interrupted: its examples are checked by parsing them, not by running them."""
    for line, _ in EXAMPLES["serve"]:
        ctx = COMMAND.commands["serve"].make_context("serve", line.split()[2:])
        assert set(ctx.params) >= {"port", "host"}


# ================================================================ one style, one default, stated truly


def test_intercept_is_one_flag_pair_everywhere():
    having = {name: flags_of(cmd).get("intercept") for name, cmd in COMMAND.commands.items()}
    having = {name: flags for name, flags in having.items() if flags is not None}
    assert {"train", "trace", "analyze", "report", "check"} <= set(having)
    assert set(having.values()) == {("--intercept", "--no-intercept", True)}


def test_eta_and_margin_take_exact_numbers_on_every_command(tmp_path):
    data = tmp_path / "exam.csv"
    data.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    trained = invoke("train", data, "--eta", "1/2", "--margin", "0.5", "--json")
    assert trained.exit_code == 0, trained.output
    run = pl.perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], eta=0.5, margin=0.5)
    assert json.loads(trained.stdout)["w"] == run.w.tolist()
    exact = invoke("train", data, "--eta", "1/2", "--exact", "--json")
    assert json.loads(exact.stdout)["w"] == ["1/2", "-1"]
    traced = invoke("trace", data, "--eta", "0.5", "--margin", "1/2", "-f", "csv", "-q")
    assert traced.exit_code == 0
    assert traced.stdout == pl.perceptron(
        [[1, 0], [1, 1], [0, 1]],
        [1, -1, -1],
        eta=Fraction(1, 2),
        margin=Fraction(1, 2),
        exact=True,
        trace=True,
    ).table("csv")


def test_max_sweeps_defaults_are_the_librarys_and_the_help_says_them():
    assert DEFAULT_MAX_SWEEPS == {
        "perceptron": inspect.signature(pl.perceptron).parameters["max_sweeps"].default,
        "pocket": inspect.signature(pl.pocket).parameters["max_sweeps"].default,
        "averaged": inspect.signature(pl.averaged_perceptron).parameters["max_sweeps"].default,
        "multiclass": inspect.signature(pl.multiclass_perceptron).parameters["max_sweeps"].default,
    }
    train_help = " ".join(help_text("train").split())
    assert (
        "Default: 1000 for the perceptron (--dask and --stream too), 100 for the others."
        in train_help
    )
    stream = next(p for p in COMMAND.commands["train"].params if p.name == "stream")
    assert "implies --dask" not in stream.help and "no cluster" in stream.help
    trace_help = " ".join(help_text("trace").split())
    assert re.search(r"--max-sweeps <int range> .*\[default: 1000\]", trace_help)


def test_the_stream_and_dask_runs_get_the_same_default(monkeypatch, tmp_path):
    data = tmp_path / "exam.csv"
    data.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    calls = []

    def train_from_cli(path, *, scheduler, shards, stream, options, quiet):
        calls.append(options)
        return pl.perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1])

    fake = types.ModuleType("perceptronlab.distributed")
    fake.train_from_cli = train_from_cli
    monkeypatch.setitem(sys.modules, "perceptronlab.distributed", fake)
    assert invoke("train", data, "--stream", "-q").exit_code == 0
    assert invoke("train", data, "--dask", "-q").exit_code == 0
    assert [c["max_sweeps"] for c in calls] == [1000, 1000]


def test_pocket_default_is_100_sweeps(tmp_path):
    data = tmp_path / "xor.csv"
    data.write_text("a,b,y\n1,1,1\n-1,-1,1\n1,-1,-1\n-1,1,-1\n")
    result = invoke("train", data, "--algorithm", "pocket", "--seed", "0", "--json")
    assert json.loads(result.stdout)["params"]["max_sweeps"] == 100


# ================================================================ command-line wording


@pytest.mark.parametrize(
    ("args", "flag", "python"),
    [
        (("train", "{data}", "--eta", "-1"), "--eta 1.0", "eta=1.0"),
        (("trace", "{data}", "--eta", "0"), "--eta 1.0", "eta=1.0"),
        (("train", "{data}", "--margin", "-1"), "--margin 0", "margin=0"),
        (("check", "{sheet}", "--eta", "0"), "--eta 1.0", "eta=1.0"),
    ],
)
def test_errors_name_the_flags(tmp_path, args, flag, python):
    data = tmp_path / "exam.csv"
    data.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("# data: x1,x2,y\n# data: 1,0,1\n" + '1,x1,0,yes,"(1, 0)"\n')
    result = invoke(*[a.format(data=data, sheet=sheet) for a in args])
    line = _one_error_line(result)
    assert result.exit_code == 1 and flag in line and python not in line


def test_the_verdict_and_advice_of_train_name_the_flags(tmp_path):
    """train's verdict on an unfinished run (the analysis' own, issue 22) speaks in flags."""
    data = tmp_path / "xor.csv"
    data.write_text("a,b,y\n1,1,1\n-1,-1,1\n1,-1,-1\n-1,1,-1\n")
    cycled = invoke("train", data, "-q")
    text = " ".join(cycled.stdout.split())
    assert "--algorithm pocket" in text and "perceptronlab.pocket" not in text
    assert not [ln for ln in cycled.stderr.splitlines() if ln.startswith("Warning: ")]
    exam = tmp_path / "exam.csv"
    exam.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    limited = invoke("train", exam, "--max-sweeps", "2", "-q", "--json")
    sweeps = json.loads(limited.stdout)["advice"]
    assert [a["topic"] for a in sweeps] == ["sweeps"]
    assert "--max-sweeps 2" in sweeps[0]["why"] and "--max-sweeps 11" in sweeps[0]["fix"]
    assert "max_sweeps" not in sweeps[0]["why"] + sweeps[0]["fix"]


@pytest.mark.slow
def test_the_stream_warning_names_max_sweeps_not_max_epochs(tmp_path):
    data = tmp_path / "noisy.csv"
    data.write_text("a,b,y\n1,1,1\n-1,-1,1\n1,-1,-1\n-1,1,-1\n0.5,0.5,-1\n")
    result = invoke(
        "train", data, "--stream", "--order", "shuffle", "--seed", "2", "--max-sweeps", "2", "-q"
    )
    assert result.exit_code == 0, result.output
    warning = [ln for ln in result.stderr.splitlines() if ln.startswith("Warning: ")]
    assert warning and all("max_epochs" not in ln for ln in warning)
    assert any("--max-sweeps" in ln for ln in warning) or any(
        "never converge" in ln for ln in warning
    )


def test_wording_leaves_what_the_command_lacks():
    flags = flags_of(COMMAND.commands["predict"])
    message = "Pass e.g. max_updates=10 or eta=2; raise max_epochs."
    assert to_command_line(message, flags) == message  # predict has none of these flags
    flags = flags_of(COMMAND.commands["train"])
    assert (
        to_command_line(message, flags)
        == "Pass e.g. --max-updates 10 or --eta 2; raise --max-sweeps."
    )
    assert to_command_line("Pass fit_intercept=True.", flags) == "Pass --intercept."
    assert (
        to_command_line("seed: expected None or an integer >= 0, got -1. Pass e.g. seed=0.", flags)
        == "--seed: expected None or an integer >= 0, got -1. Pass e.g. --seed 0."
    )


# ================================================================ the rest of the surface


def test_check_without_data_refuses_in_one_line(tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        pl.perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True, trace=True).table("csv")
    )
    result = invoke("check", sheet)
    line = _one_error_line(result)
    assert result.exit_code == 1 and "--data" in line and "'# data:'" in line
    assert result.stdout == ""  # no verdict on a guess


def test_exam_writes_its_files_and_quiet_silences_the_notes(tmp_path):
    data, sheet = tmp_path / "d.csv", tmp_path / "s.csv"
    result = invoke(
        "exam", "-k", "trace", "-s", "3", "--data-out", data, "--sheet-out", sheet, "-q"
    )
    assert result.exit_code == 0 and result.stderr == ""
    rows = list(csv.reader(io.StringIO(data.read_text())))
    assert rows[0] == ["x1", "x2", "y"] and len(rows) >= 4
    assert sheet.read_text().startswith("# perceptronlab worksheet: exam task trace, seed 3\n")


def test_pockets_check_flag_says_its_default():
    lines = [line.strip().strip("│").strip() for line in help_text("train").splitlines()]
    text = " ".join(" ".join(lines).split())
    assert "--check <update|sweep|ratchet>" in text
    assert "update (after every update; the default, as perceptronlab.pocket)" in text


def _ragged_lines(page: str, width: int = 80) -> list[str]:
    """Lines of a help page's text (outside the boxes) that break before the margin although the
    next line's first word would have fitted: a docstring's own line break, not Rich's wrapping."""
    lines = [line.rstrip() for line in ANSI.sub("", page).splitlines()]
    boxes = [i for i, line in enumerate(lines) if line.lstrip().startswith("╭")]
    lines = lines[: boxes[0]] if boxes else lines  # the description; the examples keep their lines
    ragged = []
    for line, following in zip(lines, lines[1:], strict=False):
        text, next_text = line.strip(), following.strip()
        if not text or not next_text or line.lstrip().startswith(("│", "╭", "╰")):
            continue
        if following.lstrip().startswith(("│", "╭", "-", "*", "•")) or re.match(
            r"\d+[.)] ", next_text
        ):
            continue
        if len(line) + 1 + len(next_text.split()[0]) < width - 1:
            ragged.append(line)
    return ragged


@pytest.mark.parametrize("name", [None, *NAMES])
def test_help_reads_at_80_columns(name):
    """Every --help at 80 columns wraps its paragraphs cleanly (issue 36, item 6)."""
    args = [name, "--help"] if name else ["--help"]
    page = runner.invoke(app, args, env={"COLUMNS": "80", "TERM": "dumb"}, color=False).output
    assert "Usage" in page
    assert not _ragged_lines(page), f"{name}: ragged lines at 80 columns:\n" + "\n".join(
        _ragged_lines(page)
    )


def test_the_ragged_line_check_can_fail():
    page = " Any number of classes: one run per class (one-vs-rest)\n unless --algorithm\n multiclass.\n"
    assert _ragged_lines(page) == [
        " Any number of classes: one run per class (one-vs-rest)",
        " unless --algorithm",
    ]
