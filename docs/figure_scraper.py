"""A sphinx-gallery image scraper for figures made without pyplot.

``perceptronlab.plots`` builds :class:`matplotlib.figure.Figure` objects directly (no global
state, headless by construction), so pyplot's figure list never sees them. This scraper shows every
Figure that a gallery block left in the example's namespace (as a variable, or in a list, tuple or
dict held by one, such as ``ExperimentResult.figures``), each once, in the order they appear.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

# example file -> the figures it has shown (kept alive, so that ids are never reused)
_shown: dict[str, list[Any]] = {}


def _figures(value: Any, depth: int = 0):
    from matplotlib.figure import Figure

    if isinstance(value, Figure):
        yield value
    elif depth == 0 and isinstance(value, list | tuple):
        for item in value:
            yield from _figures(item, 1)
    elif depth == 0 and isinstance(value, dict):
        for item in value.values():
            yield from _figures(item, 1)
    elif depth == 0 and isinstance(getattr(value, "figures", None), dict):
        yield from _figures(value.figures, 0)


def figure_scraper(block, block_vars, gallery_conf, **kwargs):
    from sphinx_gallery.scrapers import figure_rst

    shown = _shown.setdefault(str(block_vars["src_file"]), [])
    new = []
    for name, value in block_vars["example_globals"].items():
        if name.startswith("__"):
            continue
        for figure in _figures(value):
            if not any(figure is old for old in shown) and not any(figure is n for n in new):
                new.append(figure)
    paths = []
    for figure, path in zip(new, block_vars["image_path_iterator"], strict=False):
        figure.savefig(str(path), dpi=96)
        shown.append(figure)
        paths.append(PurePosixPath(path))
    return figure_rst(paths, gallery_conf["src_dir"])


def _get_sg_image_scraper():
    return figure_scraper
