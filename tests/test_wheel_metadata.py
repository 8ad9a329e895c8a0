"""Release metadata: one version, the license, classifiers and URLs, CHANGELOG.md and CITATION.cff."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

import perceptronlab

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10: tomli comes with `build` (the dev extra)
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
VERSION = perceptronlab.__version__


def test_the_version_is_written_once():
    assert "version" not in PROJECT and PROJECT["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "perceptronlab._version.__version__"
    }
    from perceptronlab._version import __version__

    assert __version__ == VERSION and re.fullmatch(r"\d+\.\d+\.\d+", VERSION)
    # no other module of the package spells a version of its own
    for path in (ROOT / "perceptronlab").rglob("*.py"):
        if path.name != "_version.py":
            assert not re.search(r"__version__\s*=\s*['\"]", path.read_text(encoding="utf-8")), path


def test_license_file_matches_pyproject():
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert (
        "Permission is hereby granted, free of charge" in text
        and 'THE SOFTWARE IS PROVIDED "AS IS"' in text
    )
    # an SPDX license expression excludes license classifiers (setuptools refuses both)
    assert not [c for c in PROJECT["classifiers"] if c.startswith("License ::")]


def test_classifiers_urls_and_extras():
    classifiers = PROJECT["classifiers"]
    assert "Typing :: Typed" in classifiers and "Intended Audience :: Education" in classifiers
    minimum = re.fullmatch(r">=3\.(\d+)", PROJECT["requires-python"]).group(1)
    versions = sorted(
        int(c.rsplit(".", 1)[1])
        for c in classifiers
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert versions[0] == int(minimum)  # the classifiers start where requires-python does
    urls = PROJECT["urls"]
    assert {"Documentation", "Source", "Issues"} <= set(urls)
    assert urls["Source"] == "https://github.com/perceptronlab/perceptronlab"
    assert urls["Issues"] == urls["Source"] + "/issues"
    extras = PROJECT["optional-dependencies"]
    assert any(dep.startswith("typst") for dep in extras["pdf"])
    assert {"build", "twine"} <= {re.split(r"[<>=\[ ]", dep)[0] for dep in extras["dev"]}
    assert extras["all"] == ["perceptronlab[plots,web,jupyter,dask,pdf,river,dev,docs]"]
    assert any(dep.startswith("river") for dep in extras["river"])


def test_changelog_has_this_release():
    text = (ROOT / "CHANGELOG.md").read_text()
    sections = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", text, flags=re.M)
    assert sections[0] == VERSION, sections  # the newest entry is this version
    assert sections == sorted(sections, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
    entry = text.split(f"## [{VERSION}]", 1)[1].split("\n## ", 1)[0]
    assert "### Added" in entry and entry.count("\n- ") >= 3
    assert f"[{VERSION}]: https://github.com/perceptronlab/perceptronlab/" in text


def test_citation_is_valid_cff_1_2_0_with_this_version():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    schema = json.loads((ROOT / "tests" / "data" / "cff-1.2.0.schema.json").read_text())
    import jsonschema  # here, not at collection: its URI grammar takes seconds to build

    validator = jsonschema.Draft7Validator(
        schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER
    )
    errors = sorted(validator.iter_errors(citation), key=str)
    assert not errors, [e.message for e in errors]
    assert citation["cff-version"] == "1.2.0"
    assert citation["version"] == VERSION
    assert citation["license"] == PROJECT["license"]
    assert citation["repository-code"] == PROJECT["urls"]["Source"]
    assert citation["url"] == PROJECT["urls"]["Documentation"]


def test_the_schema_refuses_a_broken_citation():
    """The validator above can fail: a citation without authors and with a bad license is refused."""
    schema = json.loads((ROOT / "tests" / "data" / "cff-1.2.0.schema.json").read_text())
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    broken = {k: v for k, v in citation.items() if k != "authors"} | {"license": "Not-A-License"}
    import jsonschema

    messages = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(broken)]
    assert any("authors" in m for m in messages) and len(messages) >= 2


def test_readme_install_section_names_this_wheel():
    readme = (ROOT / "README.md").read_text()
    assert (
        "pip install perceptronlab[all]" in readme or "pip install 'perceptronlab[all]'" in readme
    )
    assert f"pip install 'dist/perceptronlab-{VERSION}-py3-none-any.whl[all]'" in readme
    assert "make dist" in readme
