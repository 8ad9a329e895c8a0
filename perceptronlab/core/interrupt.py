"""Ctrl-C during a parallel compiled kernel: a KeyboardInterrupt, like anywhere else.

Numba's parallel kernels (``parallel=True``) run a little Python on every call from Python
(``numba.core.serialize._numba_unpickle``, which rebuilds a constant of the parallel region). A
Ctrl-C that arrives while the kernel runs is handled by the interpreter at that moment: the
KeyboardInterrupt is raised inside the callback, which the compiled code cannot pass on, and the
call ends in ``SystemError: CPUDispatcher(...) returned a result with an exception set`` with the
KeyboardInterrupt as its cause. :func:`call_parallel` turns that back into the KeyboardInterrupt
the user asked for (a program's Ctrl-C handling, the CLI's exit code 130, a notebook's interrupt).

A Ctrl-C can also land while Python runs a finalizer (a ``__del__``: llvmlite's, when Numba has just
compiled or loaded a kernel); Python cannot raise out of a finalizer, so it prints "Exception ignored
in ..." and the work would go on to its sweep limit. :func:`ctrl_c_from_finalizers` raises it again.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
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


@contextlib.contextmanager
def ctrl_c_from_finalizers(*, again: bool = True) -> Iterator[None]:
    """Inside the block, a Ctrl-C that Python drops in a finalizer is raised again in the main
    thread, at its next step; with ``again=False`` it is only kept off stderr (Python would print
    "Exception ignored in ..." and a traceback), where the Ctrl-C reaches the work another way (a
    Dask future's finalizer as the cluster shuts down). Every other error in a finalizer shows.

    >>> import time
    >>> class Finalized:
    ...     def __del__(self):
    ...         raise KeyboardInterrupt  # as a Ctrl-C landing in a finalizer
    >>> try:
    ...     with ctrl_c_from_finalizers():
    ...         finalized = Finalized()
    ...         del finalized
    ...         time.sleep(5)
    ... except KeyboardInterrupt:
    ...     print("interrupted")
    interrupted
    """
    import threading

    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous(unraisable)
        elif again:  # the SIGINT again, from another thread, once this hook has returned
            threading.Timer(0.01, _ctrl_c_again, (threading.main_thread().ident,)).start()

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


def _ctrl_c_again(main_thread: int) -> None:
    """SIGINT to the main thread (waking it from a sleep or a wait, as a Ctrl-C does)."""
    import signal

    if hasattr(signal, "pthread_kill"):
        signal.pthread_kill(main_thread, signal.SIGINT)
    else:  # pragma: no cover - Windows: the interrupt is seen at the main thread's next step
        import _thread

        _thread.interrupt_main()
