"""The documentation site: the API reference against the public names, every snippet run, the build.

- The reference (docs/api/index.rst) lists exactly the public names: ``perceptronlab.__all__`` and
  the ``__all__`` of its public submodules. A new public name missing from it, or a listed name
  that no longer exists, fails here (and the strict build fails on a stale one too).
- Every public function and class has examples: in its docstring, or in docs/api_examples.md
  (never both), and those run as doctests.
- Every ``>>>`` snippet of the user guide pages runs as a doctest (``ELLIPSIS`` allowed).
- ``make docs``'s build (Sphinx, warnings as errors, every gallery example and the tutorial
  notebook executed) runs on a copy of docs/ and examples/ in a temporary directory.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import os
import re
import shlex
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

import perceptronlab
from perceptronlab.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
API_INDEX = DOCS / "api" / "index.rst"
SPHINX_ARGS = ["-W", "--keep-going", "-q", "-b", "html"]  # as `make docs`
DOCTEST_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

sys.path.insert(0, str(DOCS))
import api_examples  # noqa: E402  (docs/api_examples.py)

#: public modules inside packages (the package itself re-exports nothing: its modules are the homes)
NESTED_PUBLIC = (
    "perceptronlab.studies.experiments",
    "perceptronlab.studies.report",
    "perceptronlab.web.widget",
)


def public_names() -> dict[str, object]:
    """Qualified public name -> object, each object under its top-level name when it has one."""
    names: dict[str, object] = {}
    for name in perceptronlab.__all__:
        value = getattr(perceptronlab, name)
        if not isinstance(value, types.ModuleType):
            names[f"perceptronlab.{name}"] = value
    top_level = {id(value) for value in names.values()}
    for name in perceptronlab.__all__:
        value = getattr(perceptronlab, name)
        if isinstance(value, types.ModuleType):
            for member in getattr(value, "__all__", ()):
                obj = getattr(value, member)
                if (
                    id(obj) not in top_level
                ):  # e.g. perceptronlab.io.read_data is perceptronlab.read_data
                    names[f"{value.__name__}.{member}"] = obj
    for module_name in NESTED_PUBLIC:
        module = importlib.import_module(module_name)
        names.update(
            {f"{module_name}.{member}": getattr(module, member) for member in module.__all__}
        )
    return names


def reference_names() -> list[str]:
    """The names the reference lists: every entry of its autosummary tables, qualified."""
    listed, module = [], "perceptronlab"
    in_table = False
    for line in API_INDEX.read_text(encoding="utf-8").splitlines():
        if match := re.match(r"\.\. currentmodule:: (\S+)", line):
            module, in_table = match.group(1), False
        elif line.startswith(".. autosummary::"):
            in_table = True
        elif (
            in_table
            and line.startswith("   ")
            and line.strip()
            and not line.strip().startswith(":")
        ):
            listed.append(f"{module}.{line.strip()}")
        elif in_table and line.strip() and not line.startswith(" "):
            in_table = False
    return listed


def has_examples(obj: object) -> bool:
    return re.search(r"^Examples\n-{8}", inspect.getdoc(obj) or "", flags=re.M) is not None


# ---------------------------------------------------------------- the API reference


def test_the_reference_lists_every_public_name_once():
    listed = reference_names()
    public = public_names()
    assert len(listed) == len(set(listed)), [name for name in listed if listed.count(name) > 1]
    missing = sorted(set(public) - set(listed))
    stale = sorted(set(listed) - set(public))
    assert not missing, f"public names missing from docs/api/index.rst: {missing}"
    assert not stale, f"docs/api/index.rst names what is not public (any more): {stale}"
    assert len(public) >= 80


def test_a_missing_or_stale_name_is_caught(monkeypatch):
    """The check above can fail: a new public name, or a name gone from ``__all__``."""
    import perceptronlab.bounds as bounds

    monkeypatch.setattr(bounds, "__all__", [*bounds.__all__, "brand_new_bound"], raising=True)
    monkeypatch.setattr(bounds, "brand_new_bound", lambda: None, raising=False)
    assert "perceptronlab.bounds.brand_new_bound" in set(public_names()) - set(reference_names())
    monkeypatch.setattr(
        bounds, "__all__", [n for n in bounds.__all__ if n not in ("slack", "brand_new_bound")]
    )
    assert "perceptronlab.bounds.slack" in set(reference_names()) - set(public_names())


def test_every_public_function_and_class_has_examples():
    extra = api_examples.sections()
    without, twice = [], []
    for name, obj in public_names().items():
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue  # data: EXPERIMENTS, DATA_FORMATS, ...
        if has_examples(obj) and name in extra:
            twice.append(name)
        elif not has_examples(obj) and name not in extra:
            without.append(name)
    assert not without, (
        f"public names without examples (docstring or docs/api_examples.md): {without}"
    )
    assert not twice, (
        f"examples in the docstring and in docs/api_examples.md (keep the docstring's): {twice}"
    )
    stale = sorted(set(extra) - set(public_names()))
    assert not stale, f"docs/api_examples.md has sections for names that are not public: {stale}"


@pytest.mark.parametrize("name", sorted(api_examples.sections()))
def test_reference_examples_run(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = api_examples.sections()[name]
    test = doctest.DocTestParser().get_doctest(text, {}, name, str(DOCS / "api_examples.md"), 0)
    assert test.examples, f"{name}: the example has no >>> lines"
    runner = doctest.DocTestRunner(optionflags=DOCTEST_FLAGS)
    runner.run(test)
    assert runner.failures == 0, (
        f"{name}: {runner.failures} failing examples (see the output above)"
    )


# ---------------------------------------------------------------- the user guide's snippets

PAGES = sorted(
    p
    for p in DOCS.rglob("*.md")
    if "_build" not in p.parts and p.name != "api_examples.md" and "auto_examples" not in p.parts
)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_page_snippets_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # pages that write files write them here
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # a closing ``` would read as expected output: fences become blank lines
    text = re.sub(r"^```.*$", "", page.read_text(encoding="utf-8"), flags=re.M)
    test = doctest.DocTestParser().get_doctest(
        text, {"__name__": "__docs__"}, page.name, str(page), 0
    )
    runner = doctest.DocTestRunner(optionflags=DOCTEST_FLAGS)
    runner.run(test)
    assert runner.failures == 0, (
        f"{page.name}: {runner.failures} failing snippets (see the output above)"
    )


def console_blocks(text: str) -> list[list[tuple[str, str, int]]]:
    """The ```console blocks of a page: per block, (command, expected output, expected exit code)."""
    blocks = []
    for block in re.findall(r"^```console\n(.*?)^```", text, flags=re.S | re.M):
        commands: list[tuple[str, str, int]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                command = line[2:]
                code = re.search(r"#\s*exit (\d+)\s*$", command)
                commands.append((command, "", int(code.group(1)) if code else 0))
            elif commands:
                command, expected, code = commands[-1]
                commands[-1] = (command, expected + line + "\n", code)
        blocks.append(commands)
    return blocks


CONSOLE_PAGES = [page for page in PAGES if "```console" in page.read_text(encoding="utf-8")]


#: a `$ perceptronlab ...` line without shell syntax: run by the command line's own app in this
#: process (the code the console script runs, without a new interpreter's second of start-up); any
#: other line (pipes, redirections, printf, ls) runs in bash
PLAIN_COMMAND = re.compile(r"perceptronlab(?: [^|;&<>$`'\"*?\\#]*)?")


def _run_line(command: str, cwd: Path, env: dict, monkeypatch) -> tuple[int, str, str]:
    """Run one `$` line in ``cwd``: its exit code, stdout and stderr."""
    line = re.sub(r"\s+#.*$", "", command).strip()
    if PLAIN_COMMAND.fullmatch(line):
        shown = {name: env[name] for name in ("MPLBACKEND", "COLUMNS", "NO_COLOR", "TERM")}
        with monkeypatch.context() as patch:
            patch.chdir(cwd)
            result = CliRunner().invoke(app, shlex.split(line)[1:], env=shown)
        return result.exit_code, result.stdout, result.stderr
    done = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "page", CONSOLE_PAGES, ids=[str(p.relative_to(DOCS)) for p in CONSOLE_PAGES]
)
def test_page_commands_run(page, tmp_path, monkeypatch):
    """Every `$ command` of a ```console block runs (in order, in one directory) and prints what is shown."""
    blocks = console_blocks(page.read_text(encoding="utf-8"))
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "MPLBACKEND": "Agg",
        "COLUMNS": "100",
        "NO_COLOR": "1",
        "TERM": "dumb",
    }
    checker = doctest.OutputChecker()
    for commands in blocks:
        for command, expected, code in commands:
            returncode, stdout, stderr = _run_line(command, tmp_path, env, monkeypatch)
            assert returncode == code, f"{page.name}: `{command}` exited {returncode}:\n{stderr}"
            if expected.strip():
                assert checker.check_output(expected, stdout, DOCTEST_FLAGS), (
                    f"{page.name}: `{command}` printed\n{stdout}\nexpected\n{expected}"
                )


def test_the_guide_shows_python_only_as_doctests():
    """A ```python block would be shown without being run: the pages use ```pycon (doctests)."""
    for page in PAGES:
        if "reference" in page.relative_to(DOCS).parts:
            # the README's former detail sections (issue 38, moved as they were): their Python
            # blocks are shown, not run, as they were in the README; the guide's pages run theirs
            continue
        text = page.read_text(encoding="utf-8")
        if (
            page.name == "architecture.md"
        ):  # its one ```python block is run by tests/test_new_member.py
            text = text.replace("```python\n# new_member.py", "", 1)
        assert "```python" not in text, f"{page.name}: write snippets as ```pycon doctests"


# ---------------------------------------------------------------- the build


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    """`make docs` on a copy of the sources (the gallery writes its pages next to the sources)."""
    work = tmp_path_factory.mktemp("site")
    ignore = shutil.ignore_patterns(
        "_build", "auto_examples", "generated", "gen_modules", "jupyter_execute", "__pycache__"
    )
    shutil.copytree(DOCS, work / "docs", ignore=ignore)
    shutil.copytree(ROOT / "examples", work / "examples", ignore=ignore)
    (work / "benchmarks").mkdir()
    shutil.copy(ROOT / "benchmarks" / "RESULTS.md", work / "benchmarks" / "RESULTS.md")
    out = work / "html"
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONWARNINGS": "ignore::DeprecationWarning"}
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", *SPHINX_ARGS, str(work / "docs"), str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert done.returncode == 0, (
        f"the docs build failed:\n{done.stdout[-5000:]}\n{done.stderr[-10000:]}"
    )
    return out


@pytest.mark.slow
def test_the_site_builds_with_every_page(built_site):
    assert (built_site / "index.html").is_file()
    for page in PAGES:
        html = built_site / page.relative_to(DOCS).with_suffix(".html")
        assert html.is_file(), f"{page} was not built"
    for name in public_names():
        assert (built_site / "api" / "generated" / f"{name}.html").is_file(), (
            f"no reference page for {name}"
        )


@pytest.mark.slow
def test_the_site_needs_no_network(built_site):
    """Scripts, styles and fonts are the site's own (MathJax included): it reads offline."""
    outside = set()
    for page in built_site.rglob("*.html"):
        for url in re.findall(
            r'<(?:script|link)[^>]+(?:src|href)="(https?:[^"]+)"', page.read_text(encoding="utf-8")
        ):
            outside.add(url)
    assert not outside, f"the site loads from the network: {sorted(outside)[:5]}"
    assert (built_site / "_static" / "MathJax.js").is_file()


@pytest.mark.slow
def test_every_gallery_example_ran_and_drew(built_site):
    examples = sorted((ROOT / "examples").glob("plot_*.py"))
    assert len(examples) >= 8
    images = built_site / "_images"
    for example in examples:
        page = built_site / "auto_examples" / f"{example.stem}.html"
        assert page.is_file(), f"{example.name} has no gallery page"
        assert list(images.glob(f"sphx_glr_{example.stem}_0*.png")), (
            f"{example.name} drew no figure"
        )
        assert "sphx-glr-script-out" in page.read_text(encoding="utf-8"), (
            f"{example.name} printed nothing"
        )


@pytest.mark.slow
def test_the_reference_pages_show_signatures_and_examples(built_site):
    page = (built_site / "api" / "generated" / "perceptronlab.perceptron.html").read_text(
        encoding="utf-8"
    )
    assert "max_sweeps" in page and "Examples" in page
    run_page = (built_site / "api" / "generated" / "perceptronlab.Run.html").read_text(
        encoding="utf-8"
    )
    assert "Examples" in run_page and "worksheet_rows" in run_page  # the supplement and the methods


@pytest.mark.slow
def test_the_tutorial_notebook_was_executed(built_site):
    html = (built_site / "tutorial" / "convergence.html").read_text(encoding="utf-8")
    assert "cell_output" in html and "<img" in html
    assert "Traceback" not in html


@pytest.mark.slow
def test_the_performance_page_includes_the_benchmark_table(built_site):
    html = (built_site / "user_guide" / "performance.html").read_text(encoding="utf-8")
    first_row = next(
        line
        for line in (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| dense sweep")
    )
    assert first_row.split("|")[1].strip().split(",")[0] in html


# ---------------------------------------------------------------- the README, the front door


README = ROOT / "README.md"


def test_the_readme_is_a_front_door():
    """At most 250 lines (issue 38): what it is, the two commands, install, three examples, links."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    for command in ("make run", "make test"):
        assert command in text


def test_the_readme_snippets_run(tmp_path, monkeypatch):
    """The README's ```pycon example is a doctest, like the guide's."""
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"^```pycon\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)
    assert blocks, "the README's exact example is gone: update this test"
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=DOCTEST_FLAGS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 3


def test_the_readme_links_lead_somewhere():
    """Every page the README links to is in the tree (and so on the documentation site)."""
    links = re.findall(r"\]\(((?!https?:)[^)#]+)", README.read_text(encoding="utf-8"))
    assert len(links) >= 10
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing, missing
