"""Sphinx configuration of the perceptronlab site (``make docs``: docs/_build/html/index.html).

The build is offline and strict: warnings are errors (``-W --keep-going``), every gallery example
and the tutorial notebook are executed, and the API reference is generated from the docstrings of
the public names (tests/test_docs.py keeps the reference and ``perceptronlab.__all__`` in step).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # api_examples.py, the examples the reference adds to docstrings

os.environ.setdefault("MPLBACKEND", "Agg")

import perceptronlab  # noqa: E402

project = "perceptronlab"
author = "the perceptronlab authors"
copyright = "the perceptronlab authors"
version = release = perceptronlab.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
exclude_patterns = [
    "_build",
    "**.ipynb_checkpoints",
    "api_examples.md",
    "auto_examples/*.ipynb",
    "auto_examples/*.py",
    "auto_examples/*.zip",
    "auto_examples/*.json",
    "auto_examples/*.md5",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"

# ---------------------------------------------------------------- the API reference
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": False}
autodoc_typehints = "none"  # numpydoc's Parameters sections carry the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = False
numpydoc_xref_param_type = False

# ---------------------------------------------------------------- Markdown and the notebook
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "force"  # the tutorial runs on every build: its numbers are today's
nb_execution_raise_on_error = True  # a failing cell fails the build
nb_execution_timeout = 300
nb_execution_excludepatterns = ["auto_examples/*"]
nb_merge_streams = True

# ---------------------------------------------------------------- the gallery
sphinx_gallery_conf = {
    "examples_dirs": str(HERE.parent / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",  # every example runs
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "doc_module": ("perceptronlab",),
    "backreferences_dir": "gen_modules/backreferences",
    "reference_url": {"perceptronlab": None},
    "download_all_examples": False,
    "remove_config_comments": True,
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib", "figure_scraper"),
    "within_subsection_order": "FileNameSortKey",
    "show_memory": False,
    "write_computation_times": False,  # its page loads DataTables from a CDN: the site stays offline
    "plot_gallery": "True",
}

# ---------------------------------------------------------------- math, offline
# MathJax 2 from the jupyter-server-mathjax package, copied into _static: the site needs no network
import jupyter_server_mathjax  # noqa: E402

MATHJAX = Path(jupyter_server_mathjax.__file__).resolve().parent / "static"
mathjax_path = "MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
mathjax2_config = {
    "tex2jax": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processEscapes": True,
        "ignoreClass": "document",
        "processClass": "math|output_area",
    },
    "HTML-CSS": {
        "availableFonts": [],
        "preferredFont": None,
        "webFont": "STIX-Web",
        "imageFont": None,
    },
    "menuSettings": {"zoom": "None"},
    "messageStyle": "none",
}

# ---------------------------------------------------------------- the page
html_theme = "pydata_sphinx_theme"
html_title = "perceptronlab"
html_static_path = ["_static", str(MATHJAX)]
html_css_files = ["perceptronlab.css"]
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    "secondary_sidebar_items": ["page-toc"],
}
html_show_sourcelink = False
html_last_updated_fmt = None


def add_reference_examples(app, what, name, obj, options, lines):
    """Give a public name whose docstring has no Examples section the one in api_examples.md."""
    from api_examples import examples_for

    if any(line.strip() == "Examples" for line in lines):
        return
    example = examples_for(name)
    if example:
        lines.extend(["", "Examples", "--------", *example.splitlines()])


def build_static_lab(app, exception):
    """The "Try it" page's lab: ``perceptronlab site`` into the built site's lab/ folder."""
    if exception is not None or app.builder.format != "html":
        return
    from sphinx.util import logging

    from perceptronlab.exceptions import InputError
    from perceptronlab.web.site import build_site

    try:
        build_site(Path(app.outdir) / "lab")
    except InputError as exc:  # no runtime: the docs still build, without the live lab
        logging.getLogger(__name__).info(f"The Try it page has no lab: {exc}")


def setup(app):
    app.connect("build-finished", build_static_lab)
    # before numpydoc (priority 500) turns the sections into reST
    app.connect("autodoc-process-docstring", add_reference_examples, priority=100)
