"""The lab in Jupyter: an anywidget that runs the lab page's ES modules, computed by the Python engine.

>>> from perceptronlab.web.widget import Lab
>>> lab = Lab(points=[[1, 0], [1, 1], [0, 1]], labels=[1, -1, -1])
>>> lab.result["run"]["mistakes"], lab.result["cards"]["bound"]["text"]
(5, '10')

The widget syncs ``points``, ``labels`` and ``options`` with the page; whenever one of them
changes (from Python or from a click in the notebook), :func:`perceptronlab.web.api.compute`
recomputes the whole run into ``result`` (or a message into ``error``). Needs the ``jupyter``
extra: ``pip install 'perceptronlab[jupyter]'``.

anywidget loads one ES module: :func:`perceptronlab.web.bundle.bundle` joins the page's modules
into one when this module is imported (plain Python, no Node and no build step at install time).
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

try:
    import anywidget
    import traitlets
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "perceptronlab.web.widget needs anywidget: pip install 'perceptronlab[jupyter]'."
    ) from exc

from perceptronlab.exceptions import PerceptronLabError
from perceptronlab.web.bundle import STATIC, bundle

__all__ = ["Lab"]


class Lab(anywidget.AnyWidget):
    """The perceptron lab as a Jupyter widget (the same page as ``perceptronlab serve``).

    Parameters
    ----------
    points : list of [x, y]
        The points in the plane (numbers, or strings such as ``"1/2"``).
    labels : list of 1 / -1
        One label per point.
    options : dict
        The lab's options (see :mod:`perceptronlab.web.api`): ``order``, ``sequence``,
        ``fit_intercept``, ``eta``, ``margin``, ``pocket``, ``max_sweeps``, ``seed``, ``arithmetic``.
    hidden : list of str
        Controls to hide, as in the page's classroom link (e.g. ``["pocket", "order"]``).

    Attributes
    ----------
    result : dict
        The lab's answer for the current points: ``result["run"]`` (mistakes, sweeps, w, the step
        trace), ``result["cards"]`` (R, ρ*, bound, mistakes, separable), ``result["max_margin"]``.
        Empty while there are no points or the input is bad.
    error : str
        The message for bad input ("" when the input is fine).

    Examples
    --------
    >>> lab = Lab(points=[[1, 1], [-1, -1]], labels=[1, 1])
    >>> lab.result["cards"]["separable"]["text"], lab.error
    ('not separable', '')
    >>> lab.options = {"eta": 0}
    >>> lab.error.split(":")[0], lab.result
    ('options.eta', {})
    """

    _esm = bundle(STATIC / "lab.js")
    _css = STATIC / "lab.css"

    points: traitlets.List[Any] = traitlets.List([]).tag(sync=True)
    labels: traitlets.List[Any] = traitlets.List([]).tag(sync=True)
    options = traitlets.Dict({}).tag(sync=True)
    hidden: traitlets.List[Any] = traitlets.List([]).tag(sync=True)
    result = traitlets.Dict({}).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    # the page numbers its requests; the answer echoes the number (so a repeat is answered too)
    request_id = traitlets.Int(0).tag(sync=True)
    answered_id = traitlets.Int(0).tag(sync=True)

    def __init__(
        self,
        points: Any = None,
        labels: Any = None,
        options: dict[str, Any] | None = None,
        hidden: list[int] | None = None,
        **kwargs: Any,
    ) -> None:
        if points is None:
            points, labels = [[1, 0], [1, 1], [0, 1]], [1, -1, -1]
        self._computed_for: str | None = None
        super().__init__(
            points=_plain(points),
            labels=_plain(labels if labels is not None else []),
            options=dict(options or {}),
            hidden=list(hidden or []),
            **kwargs,
        )
        self._recompute()
        self.on_msg(self._page_message)

    def snapshot(self, step: int = 0) -> str:
        """The current run as one self-contained HTML file's text (it plays back without a server).

        ``step`` is where the cursor stands when the file opens.
        """
        from perceptronlab.web.snapshot import recording, snapshot_html

        if not self.result:
            raise PerceptronLabError(
                self.error or "snapshot: expected a run, got no points; add points first."
            )
        payload = {"points": self.points, "labels": self.labels, "options": self.options}
        return snapshot_html(recording(payload, self.result, step))

    def save_snapshot(self, path: str, step: int = 0) -> None:
        """Write :meth:`snapshot` to ``path`` (an HTML file: open it in any browser)."""
        from perceptronlab._ground.files import atomic_write

        atomic_write(path, self.snapshot(step))

    def _page_message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        # The page's "Save snapshot" button: the page sends what it shows, the kernel writes the file's text
        if not isinstance(content, dict) or content.get("type") != "snapshot":
            return
        from perceptronlab.web.snapshot import snapshot_html

        recorded = content.get("recorded")
        if not isinstance(recorded, dict) or not recorded.get("result"):
            self.send({"type": "snapshot", "error": "there is no run to record"})
            return
        self.send({"type": "snapshot", "html": snapshot_html(recorded)})

    def notify_change(self, change: Any) -> None:
        # An input changed in Python: hold the sync so that the page receives the new input and
        # its result in one message (the page then never draws an old result on new points).
        if change.get("name") in ("points", "labels", "options"):
            with self.hold_sync():
                super().notify_change(change)
        else:
            super().notify_change(change)

    @traitlets.validate("points", "labels")
    def _plain_json(self, proposal: Any) -> Any:
        # Fractions, Decimals and NumPy values assigned in Python reach the page as exact text
        return _plain(proposal["value"])

    @traitlets.observe("points", "labels", "options", "request_id")
    def _inputs_changed(self, change: dict[str, Any]) -> None:
        self._recompute()

    def _recompute(self) -> None:
        """Compute once per distinct input (a page request sets several traits at once)."""
        from perceptronlab.web.api import compute

        key = json.dumps([self.points, self.labels, self.options], sort_keys=True, default=str)
        outputs: dict[str, Any] = {}
        if key != self._computed_for:
            self._computed_for = key
            if not self.points and not self.labels:
                outputs.update(result={}, error="")
            else:
                try:
                    outputs.update(
                        result=compute(
                            {"points": self.points, "labels": self.labels, "options": self.options}
                        ),
                        error="",
                    )
                except PerceptronLabError as exc:
                    outputs.update(result={}, error=str(exc))
        if self.answered_id != self.request_id:
            outputs["answered_id"] = self.request_id
        if outputs:
            self.set_state_quietly(**outputs)

    def set_state_quietly(self, **values: Any) -> None:
        """Set output traits together (the page redraws once)."""
        with self.hold_sync():
            for name, value in values.items():
                setattr(self, name, value)

    @property
    def run(self) -> dict[str, Any]:
        """``result["run"]``: mistakes, sweeps, w, the step trace."""
        run: dict[str, Any] = self.result.get("run", {})
        return run

    @property
    def cards(self) -> dict[str, Any]:
        """``result["cards"]``: R, ρ*, the bound, mistakes and separability, with display texts."""
        cards: dict[str, Any] = self.result.get("cards", {})
        return cards


def _plain(value: Any) -> Any:
    """NumPy arrays, tuples, Fractions and Decimals as plain JSON values (numbers as strings)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Fraction | Decimal):
        return str(value)
    return value
