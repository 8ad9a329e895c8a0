"""What a class handed in: the files of a folder or a zip, listed first and read one at a time.

:class:`HandIns` lists every file of a folder (its subfolders too, as a Moodle "download all
submissions" zip unpacks: ``<full name>_12345_assignsubmission_file_/sheet.csv``) or of a zip, and
reads a listed file only when asked, under two budgets: :data:`MAX_SHEET_BYTES` for one file and
:data:`MAX_CLASS_BYTES` of decompressed bytes for the whole class. A file that cannot be read (a
damaged, encrypted or oversized zip member, an unsupported compression, text that is not UTF-8)
gives its reason instead of its text, so that one bad file never stops the class; a file that is
not read at all (not a ``.csv``, a hidden file, a dangling link, a FIFO, a device) is listed with
why. Names are shown printable (a name that is not UTF-8 is shown with U+FFFD), never as bytes.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "ada-sheet.csv").write_text("sweep,point\\n")
>>> _ = (folder / "notes.txt").write_text("hello")
>>> with HandIns(folder) as hand:
...     [(e.name, e.skip) for e in hand.entries], hand.text(hand.entries[0])
([('ada-sheet.csv', ''), ('notes.txt', 'not a .csv file')], ('sweep,point\\n', ''))
"""

from __future__ import annotations

import os
import stat
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from perceptronlab._ground import validation as v

#: the largest file read as a sheet (a filled sheet is a few kilobytes)
MAX_SHEET_BYTES = 1 << 20
#: the decompressed bytes read for one class, all files together
MAX_CLASS_BYTES = 128 << 20
#: the most files listed (of every kind) and the deepest subfolder walked
MAX_FILES = 20_000
MAX_DEPTH = 8
#: the zip compression methods the standard library reads: stored, deflate, bzip2, LZMA
_METHODS = {0: "stored", 8: "deflate", 12: "bzip2", 14: "LZMA"}


def printable(name: str) -> str:
    """``name`` as text any terminal and UTF-8 file can take: bytes that are not UTF-8 and control
    characters become U+FFFD; at most 300 characters."""
    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    shown = "".join(c if c.isprintable() else "\ufffd" for c in text)
    return shown if len(shown) <= 300 else shown[:299] + "…"


@dataclass(frozen=True)
class Entry:
    """One file handed in: its printable path inside the folder or zip, why it is not read
    (``""`` when it is read), and whether it is a ``.csv`` file (a sheet, perhaps unreadable)."""

    name: str
    skip: str
    where: Any = None  # the Path of a folder's file, the ZipInfo of a zip's member
    csv: bool = False

    @property
    def basename(self) -> str:
        return self.name.rsplit("/", 1)[-1]


class HandIns:
    """The files of a folder or a zip, listed at once and read one at a time (a context manager).

    ``entries`` lists every file, sorted by name; :meth:`text` reads one. ``spent`` counts the
    decompressed bytes read, ``unread`` the files refused once :data:`MAX_CLASS_BYTES` was spent.
    """

    def __init__(self, source: str | os.PathLike, budget: int = MAX_CLASS_BYTES):
        self.path, self.budget, self.spent, self.unread = Path(source), budget, 0, 0
        self.archive: zipfile.ZipFile | None = None
        self.entries: list[Entry] = []

    def __enter__(self) -> HandIns:
        if self.path.is_dir():
            self.entries = sorted(_folder_entries(self.path), key=lambda e: e.name)
        elif self.path.is_file() and zipfile.is_zipfile(self.path):
            try:
                self.archive = zipfile.ZipFile(self.path)
                infos = self.archive.infolist()
            except Exception as exc:  # a forged directory: zipfile's errors are many kinds
                raise _not_a_class(self.path, f"a damaged zip: {printable(str(exc))}") from None
            _check_many(len(infos), self.path)
            self.entries = sorted(
                (_member_entry(m) for m in infos if not m.filename.endswith("/")),
                key=lambda e: e.name,
            )
        else:
            raise _not_a_class(
                self.path, "a file that is not a zip" if self.path.is_file() else "no such folder"
            )
        return self

    def __exit__(self, *exc: object) -> None:
        if self.archive is not None:
            self.archive.close()

    def text(self, entry: Entry) -> tuple[str, str]:
        """(the file's text, ``""``) or (``""``, why it cannot be read); charged to the budget."""
        if entry.skip:
            return "", entry.skip
        left = self.budget - self.spent
        declared = entry.where.file_size if isinstance(entry.where, zipfile.ZipInfo) else 0
        if left <= 0 or declared > left:
            self.unread += 1
            return "", (
                f"not read: the class's budget of {self.budget >> 20} MiB of decompressed text "
                "was spent on the files before it"
            )
        data, why = self._bytes(entry, min(MAX_SHEET_BYTES, left))
        self.spent += len(data)
        if why:
            return "", why
        try:
            return data.decode("utf-8-sig"), ""
        except UnicodeDecodeError:
            return "", f"{entry.basename} is not UTF-8 text"

    def _bytes(self, entry: Entry, limit: int) -> tuple[bytes, str]:
        if isinstance(entry.where, zipfile.ZipInfo):
            return _member_bytes(self.archive, entry.where, limit)
        try:  # opened without blocking and checked again: a FIFO put there since is not read
            fd = os.open(entry.where, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            with os.fdopen(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    return b"", "not a regular file any more"
                data = handle.read(limit + 1)
        except OSError as exc:
            return b"", f"cannot be read ({exc.strerror or type(exc).__name__})"
        return _bounded(data, limit)


def _bounded(data: bytes, limit: int) -> tuple[bytes, str]:
    if len(data) > limit:
        return data[:limit], f"more than {limit:,} bytes, more than a sheet"
    return data, ""


def _member_entry(info: zipfile.ZipInfo) -> Entry:
    name = printable(info.filename)
    base = name.rsplit("/", 1)[-1]
    if "__MACOSX" in info.filename.split("/") or base.startswith("."):
        return Entry(name, "a hidden or macOS metadata file", info)
    if not base.lower().endswith(".csv"):
        return Entry(name, "not a .csv file", info)
    if info.flag_bits & 0x1:
        return Entry(name, "encrypted (a password-protected zip member)", info, True)
    if info.compress_type not in _METHODS:
        methods = ", ".join(_METHODS.values())
        why = f"compression method {info.compress_type} (readable: {methods})"
        return Entry(name, why, info, True)
    if info.file_size > MAX_SHEET_BYTES:
        why = f"{info.file_size:,} bytes, more than a sheet (at most 1 MiB)"
        return Entry(name, why, info, True)
    return Entry(name, "", info, True)


def _member_bytes(
    archive: zipfile.ZipFile | None, info: zipfile.ZipInfo, limit: int
) -> tuple[bytes, str]:
    assert archive is not None  # a zip's entries are read while it is open
    try:
        with archive.open(info) as handle:
            data = handle.read(limit + 1)
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError) as exc:
        return b"", f"a damaged zip member ({printable(str(exc))})"
    except Exception as exc:  # zlib.error, lzma.LZMAError: the codecs' own errors
        return b"", f"a damaged zip member ({type(exc).__name__}: {printable(str(exc))})"
    return _bounded(data, limit)


def _folder_entries(root: Path) -> list[Entry]:
    """Every file under ``root`` (links not followed into folders), with why each one is skipped."""
    out: list[Entry] = []
    stack = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            children = list(os.scandir(folder))
        except OSError as exc:
            out.append(_entry(root, folder, f"a folder that cannot be read ({exc.strerror})"))
            continue
        for child in children:
            path = Path(child.path)
            if child.is_dir(follow_symlinks=False):
                if depth + 1 >= MAX_DEPTH:
                    out.append(_entry(root, path, f"a folder deeper than {MAX_DEPTH} levels"))
                else:
                    stack.append((path, depth + 1))
                continue
            why = _why_skipped(path)
            out.append(replace(_entry(root, path, why), csv=not why))
            _check_many(len(out), root)
    return out


def _entry(root: Path, path: Path, skip: str) -> Entry:
    return Entry(printable(path.relative_to(root).as_posix()), skip, path)


def _why_skipped(path: Path) -> str:
    """Why a folder's file is not read (``""`` for a regular ``.csv`` file or a link to one)."""
    name = path.name
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a dangling link (it points to nothing)"
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if stat.S_ISDIR(mode):
        return "a link to a folder (not followed)"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe), not a file"
    if not stat.S_ISREG(mode):
        return "a device or socket, not a file"
    if name.startswith(".") or name == "Thumbs.db":
        return "a hidden file"
    return "" if name.lower().endswith(".csv") else "not a .csv file"


def _check_many(count: int, where: Path) -> None:
    if count > MAX_FILES:
        raise v.fail(
            "worksheets",
            f"at most {MAX_FILES:,} files in the class's folder or zip",
            f"{count:,} in {printable(str(where))!r}"
            if where.is_file()
            else f"more in {printable(str(where))!r}",
            "Grade the class in groups.",
        )


def _not_a_class(path: Path, why: str) -> Exception:
    return v.fail(
        "worksheets",
        "a folder or a zip of worksheets (.csv)",
        f"{printable(str(path))!r} ({why})",
        "Put the filled sheets in one folder, or zip them (download the submissions again if the "
        "zip is damaged).",
    )
