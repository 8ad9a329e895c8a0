"""Ctrl-C during a parallel compiled kernel: a KeyboardInterrupt, like anywhere else.

Numba's parallel kernels (``parallel=True``) run a little Python on every call from Python
(``numba.core.serialize._numba_unpickle``, which rebuilds a constant of the parallel region). A
Ctrl-C that arrives while the kernel runs is handled by the interpreter at that moment: the
KeyboardInterrupt is raised inside the callback, which the compiled code cannot pass on, and the
call ends in ``SystemError: CPUDispatcher(...) returned a result with an exception set`` with the
KeyboardInterrupt as its cause. :func:`call_parallel` turns that back into the KeyboardInterrupt
the user asked for (a program's Ctrl-C handling, the CLI's exit code 130, a notebook's interrupt).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def caused_by_interrupt(exc: BaseException) -> bool:
    """Whether a KeyboardInterrupt is ``exc`` or in its chain of causes and contexts."""
    seen = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def call_parallel(kernel: Callable[..., Any], *args: Any) -> Any:
    """``kernel(*args)`` for a Numba parallel kernel; Ctrl-C during it raises KeyboardInterrupt.

    >>> call_parallel(max, 1, 2)
    2
    """
    try:
        return kernel(*args)
    except SystemError as exc:
        if caused_by_interrupt(exc):
            raise KeyboardInterrupt from None
        raise
