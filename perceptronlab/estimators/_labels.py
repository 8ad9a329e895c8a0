"""The estimators' labels: the classes of a fit or a stream, and the -1/+1 signs of each run
(``classes_[1]`` is +1 for two classes; one run per class, one-vs-rest, for more).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.utils._unique import attach_unique
from sklearn.utils.multiclass import check_classification_targets

from perceptronlab._ground import validation as v
from perceptronlab.estimators._errors import in_sklearn_words
from perceptronlab.exceptions import InputError

if TYPE_CHECKING:
    from numpy.typing import NDArray


def check_targets(y: NDArray[Any], *, binary_only: bool) -> NDArray[Any]:
    """Classification targets; returns the sorted distinct labels.

    The labels are found once: scikit-learn's check reads them from y's dtype
    (``attach_unique``) instead of sorting y again (object labels, which may not sort, are
    checked first, as before).
    """
    if isinstance(y, np.ndarray) and y.ndim == 1 and y.dtype.kind != "O":
        y = attach_unique(y)
    try:
        check_classification_targets(y)
    except ValueError as exc:
        raise InputError(
            f"y (the labels): {exc} Pass class labels (ints, strings, or -1/+1)."
        ) from None
    metadata = y.dtype.metadata if isinstance(y, np.ndarray) else None
    labels = metadata["unique"] if metadata and "unique" in metadata else np.unique(y)
    if binary_only and labels.shape[0] > 2:
        raise too_many(labels)
    return labels


def too_many(labels: NDArray[Any]) -> InputError:
    shown = ", ".join(map(str, labels[:5])) + (", ..." if labels.shape[0] > 5 else "")
    return v.fail(
        "y (the labels)",
        "two classes (Only binary classification is supported.)",
        f"{labels.shape[0]} classes ({shown})",
        "Use perceptronlab.Perceptron or perceptronlab.PocketPerceptron (one-vs-rest) for "
        "more classes, or relabel to two.",
    )


def is_signed(labels: NDArray[Any]) -> bool:
    return labels.dtype.kind in "iuf" and set(labels.tolist()) <= {-1, 1}


def classes_for_training(labels: NDArray[Any]) -> NDArray[Any]:
    """classes_ from the labels seen at fit: two or more, as scikit-learn's classifiers require.

    One class is refused, -1/+1 labels too, with scikit-learn's words first; the functional API
    (:func:`perceptronlab.perceptron`) keeps the lectures' one-class case (the worst case labels
    every basis vector +1).
    """
    if labels.shape[0] >= 2:
        return labels
    raise in_sklearn_words(
        f"The number of classes has to be greater than one; got {labels.shape[0]} class.",
        v.fail(
            "y (the labels)",
            "at least two classes",
            f"only {python_label(labels[0])!r}" if labels.shape[0] else "no labels",
            "Training needs examples of two classes; for a run on one class (the lectures' worst case) "
            "use perceptronlab.perceptron(X, y).",
        ),
    )


def two_classes(classes: Any) -> NDArray[Any]:
    """The ``classes`` parameter of OnlinePerceptron: exactly two labels, sorted."""
    arr = np.asarray(classes)
    if arr.ndim != 1:
        raise v.fail(
            "classes",
            "a flat list of the two class labels",
            f"shape {arr.shape}",
            "Pass e.g. classes=[0, 1].",
        )
    labels = np.unique(arr)
    if labels.shape[0] > 2:
        raise too_many(labels)
    if labels.shape[0] < 2:
        raise v.fail(
            "classes",
            "exactly two class labels",
            f"{labels.tolist()}",
            "Pass both labels the data can carry, e.g. classes=[0, 1].",
        )
    return labels


def signs_of(y: NDArray[Any], classes: NDArray[Any]) -> NDArray[Any]:
    """+1 for ``classes[1]``, -1 for ``classes[0]``; labels outside ``classes`` are refused."""
    refuse_unknown(
        y,
        classes,
        "classes_",
        "Pass both labels of the stream before the first example: OnlinePerceptron(classes=[...]) or "
        "partial_fit(X, y, classes=[...]) (a binary learner has two).",
    )
    return np.where(y == classes[1], 1.0, -1.0)


def refuse_unknown(y: NDArray[Any], classes: NDArray[Any], among: str, fix: str) -> None:
    """Refuse the first label of ``y`` outside ``classes`` (called ``among`` in the message)."""
    unknown = ~np.isin(y, classes)
    if unknown.any():
        raise v.fail(
            "y (the labels)",
            f"labels among {among} {classes.tolist()}",
            f"{python_label(y[unknown][0])!r}",
            fix,
        )


def task_signs(y: NDArray[Any], classes: NDArray[Any]) -> list[NDArray[Any]]:
    """The ±1 labels of each run: one (``classes[1]`` is +1) for two classes, else one per class
    (``classes[k]`` is +1, the rest -1)."""
    if classes.shape[0] == 2:
        return [np.where(y == classes[1], 1.0, -1.0)]
    return [np.where(y == label, 1.0, -1.0) for label in classes]


def python_label(label: Any) -> Any:
    return label.item() if isinstance(label, np.generic) else label


def partial_classes(estimator: Any, classes: Any, y: NDArray[Any], first: bool) -> NDArray[Any]:
    """The classes of a partial_fit call: given on the first call, the same ever after; every
    label of ``y`` among them."""
    check_targets(y, binary_only=False)
    if first:
        if classes is None:
            raise v.fail(
                "classes",
                "every class label of the stream on the first call to partial_fit",
                "None",
                "Pass partial_fit(X, y, classes=np.unique(y_all)); later batches need not "
                "hold every class.",
            )
        known = classes_for_training(check_targets(np.asarray(classes), binary_only=False))
    else:
        known = estimator.classes_
        if classes is not None and not np.array_equal(np.unique(np.asarray(classes)), known):
            raise v.fail(
                "classes",
                f"the classes of the first call, {known.tolist()}",
                f"{np.asarray(classes).tolist()}",
                "Pass classes only on the first call, or call fit to start over.",
            )
    fix = "Pass every label of the stream in classes=[...] on the first call to partial_fit."
    refuse_unknown(y, known, "classes", fix)
    return known
