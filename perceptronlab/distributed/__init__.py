"""Beyond one machine: iterative parameter mixing on Dask, and data larger than memory.

- :func:`fit`: iterative parameter mixing (McDonald, Hall & Mann 2010) on a Dask cluster.
- :func:`stream_fit`: the cyclic perceptron over files bigger than memory, one partition at a time.
- :func:`fit_in_process`: the same mixing as :func:`fit` in this process (the reference).
- :func:`one_shot_average`: the baseline that averages independently trained perceptrons once.
"""

from perceptronlab.distributed.cluster import ShardError, fit, train_from_cli
from perceptronlab.distributed.mixing import EpochInfo, fit_in_process, one_shot_average
from perceptronlab.distributed.model import MixedPerceptron
from perceptronlab.distributed.stream import stream_fit

__all__ = [
    "EpochInfo",
    "MixedPerceptron",
    "ShardError",
    "fit",
    "fit_in_process",
    "one_shot_average",
    "stream_fit",
    "train_from_cli",
]
