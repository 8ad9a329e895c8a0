"""The lectures' datasets: the exam task, the margin task, basis vectors, Gaussian pairs, the
Learning From Data target and non-separable clouds.

This module is the one public home of these names (the implementation is private).

>>> from perceptronlab import datasets
>>> X, y = datasets.exam_task()
>>> X.shape
(3, 2)
"""

from perceptronlab.teach._datasets import (
    Dataset,
    basis,
    exam_task,
    gaussian_pair,
    label_by,
    lfd,
    margin_task,
    nonseparable,
)

__all__ = [
    "Dataset",
    "basis",
    "exam_task",
    "gaussian_pair",
    "label_by",
    "lfd",
    "margin_task",
    "nonseparable",
]
