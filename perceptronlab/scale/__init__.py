"""Deprecated alias of :mod:`perceptronlab.distributed` (the name until 0.2.0).

``import perceptronlab.scale`` (and ``perceptronlab.scale.mixing``, ``.model``, ``.sources``,
``.stream``, ``.distributed``) still work, with a :class:`DeprecationWarning` naming the new
module; the names are the very objects of :mod:`perceptronlab.distributed`. Removed in 0.5.0.
"""

import sys
import warnings

from perceptronlab.distributed import *  # noqa: F403  (the alias re-exports the new module)
from perceptronlab.distributed import __all__ as __all__
from perceptronlab.distributed import cluster, mixing, model, sources, stream

warnings.warn(
    "perceptronlab.scale was renamed perceptronlab.distributed in 0.3.0; "
    "import perceptronlab.distributed instead (the old name goes in 0.5.0)",
    DeprecationWarning,
    stacklevel=2,
)

# 0.2.0's submodules, as the same module objects (scale/distributed.py is now distributed/cluster.py)
for _old, _new in (
    ("distributed", cluster),
    ("mixing", mixing),
    ("model", model),
    ("sources", sources),
    ("stream", stream),
):
    sys.modules[f"{__name__}.{_old}"] = _new
distributed = cluster
