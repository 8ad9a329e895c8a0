"""The seeds' datasets (public face of :mod:`perceptronlab.teach.datasets`).

>>> from perceptronlab import datasets
>>> X, y = datasets.exam_task()
>>> X.shape
(3, 2)
"""

from perceptronlab.teach.datasets import (
    Dataset,
    basis,
    exam_task,
    gaussian_pair,
    label_by,
    lfd,
    margin_task,
    nonseparable,
)

__all__ = ["Dataset", "basis", "exam_task", "gaussian_pair", "label_by", "lfd", "margin_task", "nonseparable"]
