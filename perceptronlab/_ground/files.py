"""Writing files safely: every file perceptronlab writes goes through :func:`atomic_open`.

A write goes to a fresh temporary file in the target's own folder (``tempfile.mkstemp``: a unique
name, so concurrent writers never share one and no file of the user's is touched), is flushed and
``fsync``-ed, and then replaces the target in one step (``os.replace``). Readers see the old file or
the new one, never half of one; concurrent writers to one path all succeed and the last one wins.

- **Permissions**: an existing target keeps its mode (a 0600 model stays 0600) and, where the
  process may, its owner; a new file gets the mode the umask gives (as ``open`` would).
- **Symbolic links are written through**: when the target is a link, the file it points to is
  replaced and the link stays a link (as ``open(path, "w")`` would have written through it).
- **Regular files only**: a target (or the end of a link) that exists and is a device, a FIFO, a
  socket or anything else but a regular file is refused with one line before anything is written,
  and checked again just before the rename, so ``--out /dev/null`` never replaces the node.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(folder / "a.txt", "hello\\n").read_text()
'hello\\n'
>>> sorted(p.name for p in folder.iterdir())
['a.txt']
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from perceptronlab._ground.memory import proc_numbers
from perceptronlab.exceptions import fail

__all__ = ["atomic_folder", "atomic_open", "atomic_write", "write_target"]

_UMASK_LOCK = threading.Lock()


def _umask() -> int:
    """The process umask, read without changing it where the system allows (Linux)."""
    mask = proc_numbers("/proc/self/status", "Umask:", base=8).get("Umask:")
    if mask is not None:
        return mask
    with _UMASK_LOCK:  # elsewhere: set and restore at once
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


#: what a node that is not a regular file is called in messages, by its ``stat`` test
_NODE_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def _node_kind(mode: int) -> str:
    """What a node that is not a regular file or a folder is, for a message."""
    return next((name for test, name in _NODE_KINDS if test(mode)), "a special file")


def _refuse_node(path: str | os.PathLike, target: Path, what: str) -> None:
    """Refuse ``target`` (the end of ``path``) when it exists and is not a regular file or a folder."""
    try:
        mode = os.stat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:
        raise _unwritable(path, what, exc) from None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return
    through = f" (a link to {str(target)!r})" if Path(path) != target else ""
    raise fail(
        f"{what} {str(path)!r}",
        "a regular file or a new file name",
        f"{_node_kind(mode)}{through}",
        "Name a regular file; perceptronlab never writes over a device, a pipe or a socket.",
    )


def write_target(path: str | os.PathLike, what: str = "output file") -> Path:
    """The file a write to ``path`` replaces: ``path`` itself, or the file a symbolic link points to.

    Raises
    ------
    InputError
        ``path`` is a directory, a device, a FIFO, a socket (or a link to one), or its folder does
        not exist.
    """
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if target.is_dir():
        raise fail(
            f"{what} {str(path)!r}",
            "a file name",
            "a directory",
            f"Name a file inside it, e.g. {str(path / 'out')!r}.",
        )
    _refuse_node(path, target, what)
    parent = target.parent
    if not parent.is_dir():
        raise fail(
            f"{what} {str(path)!r}",
            "a file in an existing folder",
            f"missing folder {str(parent)!r}",
            "Create the folder first.",
        )
    return target


@contextlib.contextmanager
def atomic_open(
    path: str | os.PathLike,
    mode: str = "w",
    *,
    encoding: str | None = "utf-8",
    newline: str | None = None,
    what: str = "output file",
) -> Iterator[IO[Any]]:
    """Open a temporary file that replaces ``path`` when the block ends without an error.

    Parameters
    ----------
    path : the file to write (a symbolic link is written through).
    mode : ``"w"`` (text) or ``"wb"`` (bytes).
    encoding, newline : as for :func:`open`, text mode only.
    what : how messages name the file (``"model path"``, ``"--out"``).

    Raises
    ------
    InputError
        A directory, a missing folder, or a folder this process may not write in.
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"mode: expected 'w' or 'wb', got {mode!r}")
    target = write_target(path, what)
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    except OSError as exc:
        raise _unwritable(path, what, exc) from None
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise _unwritable(path, what, exc) from None
    try:
        _set_mode(fd, tmp, existing)
        text = mode == "w"
        with os.fdopen(
            fd, mode, encoding=encoding if text else None, newline=newline if text else None
        ) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        _refuse_node(
            path, target, what
        )  # a node made at the name while we wrote is not replaced either
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.filename in (
            None,
            tmp,
            str(target),
        ):  # the write itself failed
            raise _unwritable(path, what, exc) from None
        raise
    _sync_folder(target.parent)


def atomic_write(
    path: str | os.PathLike,
    data: str | bytes,
    *,
    encoding: str = "utf-8",
    newline: str | None = None,
    what: str = "output file",
) -> Path:
    """Write ``data`` (text or bytes) to ``path`` atomically (see :func:`atomic_open`); return ``path``."""
    with atomic_open(
        path,
        "wb" if isinstance(data, bytes) else "w",
        encoding=encoding,
        newline=newline,
        what=what,
    ) as handle:
        handle.write(data)
    return Path(path)


@contextlib.contextmanager
def atomic_folder(
    path: str | os.PathLike,
    *,
    ours: Callable[[Path], bool],
    force: bool = False,
    what: str = "--out",
) -> Iterator[Path]:
    """A fresh temporary folder beside ``path`` that replaces ``path`` when the block ends without an
    error; on an error (or Ctrl-C) it is removed and ``path`` is left as it was.

    An existing ``path`` must be a folder that is empty or ``ours`` (e.g. a class folder this
    package wrote), unless ``force``: a folder of other files is refused with one line, before
    anything is written. A symbolic link is written through (the folder it points to is replaced).
    The swap is two renames (the old folder aside, the new one in), then the old one is removed.
    """
    path = Path(path)
    target = Path(os.path.realpath(path))  # a link written through; "." a folder with a name
    if target.exists() and not target.is_dir():
        raise fail(
            f"{what} {str(path)!r}", "a folder (created if missing)", "a file", "Name a folder."
        )
    cwd = Path(os.path.realpath(os.getcwd()))
    if target == cwd or target in cwd.parents:
        raise fail(
            f"{what} {str(path)!r}",
            "a folder outside the current one (it is replaced whole)",
            "the current folder" if target == cwd else "a folder that holds the current one",
            "Name a new folder, e.g. --out class.",
        )
    if target.is_dir() and not force and any(target.iterdir()) and not ours(target):
        raise fail(
            f"{what} {str(path)!r}",
            "a new or empty folder, or one this command wrote before",
            "a folder with other files",
            "Name a new folder, or add --force to replace this one and everything in it.",
        )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"))
        mode = stat.S_IMODE(os.stat(target).st_mode) if target.is_dir() else 0o777 & ~_umask()
        os.chmod(tmp, mode)
    except OSError as exc:
        raise _unwritable(path, what, exc) from None
    try:
        yield tmp
        _swap(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _swap(new: Path, target: Path) -> None:
    """``new`` renamed to ``target``; an old ``target`` set aside first and removed after."""
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".old"))
        os.replace(target, old)  # onto the empty folder just made: a unique name
    try:
        os.replace(new, target)
    except BaseException:
        if old is not None:
            os.replace(old, target)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    _sync_folder(target.parent)


def _set_mode(fd: int, tmp: str, existing: os.stat_result | None) -> None:
    mode = stat.S_IMODE(existing.st_mode) if existing is not None else 0o666 & ~_umask()
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:  # pragma: no cover - Windows before Python 3.13
        os.chmod(tmp, mode)
    if (
        existing is not None
        and hasattr(os, "fchown")
        and (existing.st_uid != os.geteuid() or existing.st_gid != os.getegid())
    ):
        with contextlib.suppress(
            OSError
        ):  # only the owner's privileges allow it; else the new owner is us
            os.fchown(fd, existing.st_uid, existing.st_gid)


def _sync_folder(folder: Path) -> None:
    """Make the rename durable (POSIX); nothing where folders cannot be opened."""
    if not hasattr(os, "O_DIRECTORY"):  # pragma: no cover - Windows
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems do not sync folders
        pass
    finally:
        os.close(fd)


def _unwritable(path: str | os.PathLike, what: str, exc: OSError):
    return fail(
        f"{what} {str(path)!r}",
        "a file this process may write",
        f"{exc.strerror or type(exc).__name__}",
        "Check the folder's permissions and free space.",
    )


def check_readable_file(path: Path, what: str = "data file") -> None:
    """Refuse, with one line, a path that is not a non-empty regular file (before any reading)."""
    if path.is_dir():
        raise fail(f"{what} {str(path)!r}", "a file", "a directory", "Name a file inside it.")
    if not path.exists():
        raise fail(
            f"{what} {str(path)!r}",
            "an existing file",
            "no such file",
            "Check the path (it is relative to the current directory).",
        )
    if not path.is_file():
        raise fail(
            f"{what} {str(path)!r}",
            "a regular file",
            "a device, pipe or socket",
            "Save the data to a file first.",
        )
    if path.stat().st_size == 0:
        raise fail(
            f"{what} {str(path)!r}",
            "a non-empty file",
            "an empty file (0 bytes)",
            "Check that the file was written completely.",
        )
