"""Reading data files and writing and reading model files.

- :mod:`perceptronlab.io.data`: :func:`read_data` reads CSV (with a header), TSV, LIBSVM/svmlight,
  ``.npy`` and ``.npz`` into ``(X, y)``, within a memory budget.
- :mod:`perceptronlab.io.models`: :func:`save_model` writes a model as JSON (never pickle), atomically;
  :func:`perceptronlab.load_model` reads it back through :func:`read_model_document` and the contract
  :func:`check_model_document`.

Every bad file gets one clear :class:`~perceptronlab.exceptions.InputError`: what was wrong, what was
expected, what came and how to fix it.
"""

from perceptronlab.io.data import DATA_FORMATS as DATA_FORMATS
from perceptronlab.io.data import read_columns as read_columns
from perceptronlab.io.data import read_data as read_data
from perceptronlab.io.models import MODEL_FORMAT as MODEL_FORMAT
from perceptronlab.io.models import MODEL_VERSION as MODEL_VERSION
from perceptronlab.io.models import check_model_document as check_model_document
from perceptronlab.io.models import read_model_document as read_model_document
from perceptronlab.io.models import save_model as save_model

__all__ = [
    "read_data",
    "read_columns",
    "save_model",
    "read_model_document",
    "check_model_document",
    "DATA_FORMATS",
    "MODEL_FORMAT",
    "MODEL_VERSION",
]
