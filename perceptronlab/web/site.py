"""The lab as a static site: the page, its modules, the Pyodide runtime and the package's own Python.

``perceptronlab site DIR`` writes::

    DIR/index.html            the page (static/index.html, as :func:`site_page` changes it)
    DIR/static/               the page's ES modules and CSS (the served page's own files)
    DIR/pyodide/              CPython in WebAssembly, from the npm package ``pyodide`` 314
    DIR/python/perceptronlab/ the Python files the browser runs (:data:`BROWSER_FILES`), copied byte
                              for byte from this package; python/files.json lists them

Any static server serves it (``python -m http.server``, GitHub Pages, a course page); the page
loads the runtime from its own folder and asks nothing of any other server. The Python files need
only the standard library (:mod:`perceptronlab.pure`, :mod:`perceptronlab.web.lab`): the
browser computes exact runs, the answers of ``POST /api/run`` for the same requests.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from perceptronlab.exceptions import fail

PACKAGE = Path(__file__).resolve().parents[1]
STATIC = Path(__file__).resolve().parent / "static"

#: the package's files that :func:`perceptronlab.web.lab.compute` imports (the standard library
#: alone: tests/test_lab_stdlib.py checks that it loads nothing else with NumPy unimportable)
BROWSER_FILES = (
    "__init__.py",
    "_version.py",
    "exceptions.py",
    "_ground/__init__.py",
    "_ground/checks.py",
    "_ground/numbers.py",
    "pure/__init__.py",
    "pure/geometry.py",
    "pure/rule.py",
    "web/__init__.py",
    "web/exact_cards.py",
    "web/lab.py",
    "web/request.py",
    "web/texts.py",
    "web/trace.py",
)

#: the runtime's files, from the npm package pyodide (314.x)
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: the page's own files that the served page has and the site does not use
_SERVER_ONLY = ("index.html", "page.js")


#: what the site's page says otherwise than the served page (static/index.html): the engine runs in
#: the page (a status line under the header tells the runtime's progress), started by site.js
_SITE_CHANGES = (
    (
        "perceptronlab's engine: exact",
        "perceptronlab's own engine, running in this page: exact",
    ),
    (
        "</p>\n  </header>",
        '</p>\n    <p class="plab-runtime" data-testid="runtime" role="status"></p>\n  </header>',
    ),
    ('src="static/page.js"', 'src="static/site.js"'),
)


def site_page() -> bytes:
    """The site's index.html: the served page with :data:`_SITE_CHANGES` made, one place each."""
    page = (STATIC / "index.html").read_bytes().decode("utf-8")
    for old, new in _SITE_CHANGES:
        if page.count(old) != 1:  # the served page changed: _SITE_CHANGES must follow it
            raise RuntimeError(f"static/index.html holds {old!r} {page.count(old)} times, not once")
        page = page.replace(old, new)
    return page.encode("utf-8")


def default_pyodide() -> Path:
    """Where the runtime is looked up: the project's node_modules/pyodide (``npm install`` in a
    checkout), else the working directory's node_modules/pyodide."""
    candidates = [
        PACKAGE.parent / "node_modules" / "pyodide",
        Path.cwd() / "node_modules" / "pyodide",
    ]
    return next((c for c in candidates if (c / "pyodide.asm.wasm").is_file()), candidates[0])


def check_pyodide(folder: Path) -> Path:
    """The runtime's folder, or one line saying what is missing and how to get it."""
    missing = [name for name in PYODIDE_FILES if not (folder / name).is_file()]
    if missing:
        raise fail(
            "--pyodide",
            "a folder with the Pyodide runtime (" + ", ".join(PYODIDE_FILES) + ")",
            f"{folder} without {missing[0]}",
            "Run `npm install` in the perceptronlab project (package.json lists pyodide 314), "
            "or pass --pyodide DIR, the folder of an unpacked pyodide 314.x npm package.",
        )
    return folder


def build_site(directory: Path, pyodide: Path | None = None) -> dict:
    """Write the static lab into ``directory``; returns {"files": count, "bytes": size}.

    Raises
    ------
    perceptronlab.InputError
        The runtime is missing (the message says how to install it), or ``directory`` is a file.
    """
    runtime = check_pyodide(Path(pyodide) if pyodide is not None else default_pyodide())
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise fail("DIR", "a folder for the site", f"the file {directory}", "Name a folder.")
    (directory / "static").mkdir(parents=True, exist_ok=True)
    (directory / "pyodide").mkdir(exist_ok=True)
    (directory / "index.html").write_bytes(site_page())
    for source in sorted(STATIC.iterdir()):
        if source.is_file() and source.name not in _SERVER_ONLY:
            shutil.copyfile(source, directory / "static" / source.name)
    for name in PYODIDE_FILES:
        shutil.copyfile(runtime / name, directory / "pyodide" / name)
    python = directory / "python"
    for name in BROWSER_FILES:
        target = python / "perceptronlab" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE / name, target)
    listing = [f"perceptronlab/{name}" for name in BROWSER_FILES]
    (python / "files.json").write_text(json.dumps(listing, indent=1) + "\n", encoding="utf-8")
    written = [path for path in directory.rglob("*") if path.is_file()]
    return {"files": len(written), "bytes": sum(path.stat().st_size for path in written)}
