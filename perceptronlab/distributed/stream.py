"""Out of core on one machine: sweep after sweep over files bigger than memory.

Each sweep reads the partitions (Parquet row groups, CSV/LIBSVM byte ranges, dask blocks) one
after another and carries w from one to the next, so memory holds one partition at a time, and
the run is exactly the cyclic perceptron over the concatenation of the partitions in order:
``stream_fit(files)`` gives the same bits as ``perceptronlab.perceptron(X_all, y_all)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from perceptronlab.distributed.mixing import StreamOptions, mix_in_process, open_run

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from rich.progress import Progress, TaskID
    from typing_extensions import Unpack

    from perceptronlab.distributed.model import MixedPerceptron
    from perceptronlab.distributed.sources import DataSource


class _SweepBar:
    """A Rich progress bar per sweep (rows read), on stderr.

    On a terminal each bar clears when its sweep ends; in a log, every sweep leaves one line.
    """

    def __init__(self) -> None:
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def start(self, epoch: int, total_rows: int | None) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        console = Console(stderr=True)
        progress = Progress(
            TextColumn("sweep {task.fields[sweep]}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("rows"),
            TimeElapsedColumn(),
            console=console,
            transient=console.is_terminal,
        )
        self._progress, self._task = (
            progress,
            progress.add_task("sweep", total=total_rows, sweep=epoch),
        )
        progress.start()

    def advance(self, rows: int) -> None:
        assert self._progress is not None and self._task is not None  # between start() and stop()
        self._progress.advance(self._task, rows)

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def stream_fit(
    path_or_glob: DataSource,
    y: ArrayLike | None = None,
    *,
    progress: bool = True,
    **options: Unpack[StreamOptions],
) -> MixedPerceptron:
    """The perceptron over data bigger than memory: one partition in memory, sweep after sweep.

    Parameters
    ----------
    path_or_glob : a Parquet, CSV or LIBSVM file, a directory of them, or a glob such as
        ``'data/*.parquet'`` (files are taken in sorted order); also a dask array (with ``y``) or a
        dask DataFrame, read block by block in this process.
    label : the label column of Parquet/CSV/DataFrame data (default: the last column).
    eta, margin, fit_intercept : as in :func:`perceptronlab.perceptron`.
    max_epochs : the most sweeps; the run stops earlier at a sweep without a mistake.
    averaged : return the mean of the end-of-sweep weights instead of the last ones.
    seed : None sweeps in file order (the cyclic perceptron); an integer permutes the partitions
        and the rows inside each partition every sweep, reproducibly.
    callback : called with an :class:`~perceptronlab.distributed.EpochInfo` after every sweep; return
        True to stop.
    blocksize : bytes per CSV/LIBSVM partition (Parquet partitions are the files' row groups).
    progress : show a Rich progress bar per sweep on stderr.

    Returns
    -------
    MixedPerceptron
        With one shard: ``history[:, 0]`` is the mistakes per sweep.

    Examples
    --------
    >>> import numpy as np, pandas as pd, tempfile, os
    >>> from perceptronlab.distributed import stream_fit
    >>> folder = tempfile.mkdtemp()
    >>> frame = pd.DataFrame({"x1": [1.0, 1, 0], "x2": [0.0, 1, 1], "label": [1, -1, -1]})
    >>> frame.to_csv(os.path.join(folder, "exam.csv"), index=False)
    >>> model = stream_fit(os.path.join(folder, "*.csv"), progress=False)
    >>> model.w.tolist(), model.history[:, 0].tolist()
    ([1.0, -2.0], [2, 2, 1, 0])
    """
    bar = _SweepBar() if progress else None
    settings, source = open_run("stream_fit", path_or_glob, y, options, StreamOptions)
    # one shard; the warning points here, as it did through fit_in_process
    callback, warn = options.get("callback"), options.get("warn", True)
    return mix_in_process(source, settings, 1, callback, bar, warn=warn, stacklevel=3)
