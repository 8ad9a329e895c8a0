"""Memory budgets: how much a reader may allocate, checked before it allocates.

Every reader of :mod:`perceptronlab.io` works out, from what a file declares or implies (rows ×
columns of a CSV, the largest feature index of a LIBSVM file, the shape in an ``.npy`` header, the
sizes in an ``.npz`` archive's directory), how many bytes reading it would take, and calls
:func:`check_budget` before it allocates them. Two limits apply:

- **the budget**: ``max_bytes`` when the caller gives one, else :data:`DEFAULT_FRACTION` of the
  memory this process can still use (:func:`available_memory`);
- **the expansion limit**, only when the caller gave no ``max_bytes``: a file may not unpack to more
  than :data:`EXPANSION_FACTOR` times its own size (beyond :data:`EXPANSION_FLOOR`). A 1 MB
  ``.npz`` of zeros that inflates to a gigabyte, or a 21-byte LIBSVM line with feature index
  100000000, is refused although the machine might hold it; passing ``max_bytes`` says that the
  size is expected, and then only the budget applies.

>>> check_budget(10 * 2**20, "data file 'a.csv'", max_bytes=2**30)
>>> check_budget(2 * 2**30, "data file 'a.csv'", max_bytes=2**30, detail="1,000 rows × 10 columns")
Traceback (most recent call last):
...
perceptronlab.exceptions.InputError: data file 'a.csv': expected at most 1.0 GiB in memory (max_bytes), \
got a file that needs about 2.0 GiB (1,000 rows × 10 columns). Pass a larger max_bytes (e.g. max_bytes='3G'), \
or read a smaller file.
>>> parse_bytes("1.5G"), parse_bytes("512M"), parse_bytes(1000), format_bytes(3 * 2**20)
(1610612736, 536870912, 1000, '3.0 MiB')
"""

from __future__ import annotations

import math
import os
import re
from typing import Any

from perceptronlab.exceptions import fail

__all__ = [
    "DEFAULT_FRACTION",
    "EXPANSION_FACTOR",
    "EXPANSION_FLOOR",
    "available_memory",
    "default_budget",
    "budget_of",
    "check_budget",
    "parse_bytes",
    "format_bytes",
    "process_limit",
]

#: the default budget: this fraction of the memory the process can still use
DEFAULT_FRACTION = 0.5
#: a file may unpack to at most this many times its size on disk (when no max_bytes is given) ...
EXPANSION_FACTOR = 200
#: ... beyond this many bytes (small files may expand freely)
EXPANSION_FLOOR = 64 * 2**20
#: when the available memory cannot be found out
_FALLBACK_AVAILABLE = 4 * 2**30

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_SIZE = re.compile(
    r"^\s*(?P<number>[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*(?P<unit>[KMGT]?)(?:I?B)?\s*$",
    re.IGNORECASE,
)


def proc_numbers(path: str, *keys: str, base: int = 10) -> dict[str, int]:
    """The number after each of ``keys`` (``"MemTotal:"``, its first line) in a /proc file of
    ``key value`` lines; the keys it lacks are left out, and a file that cannot be read or parsed
    (not Linux) gives none."""
    found: dict[str, int] = {}
    try:
        with open(path, encoding="ascii") as handle:
            for line in handle:
                key = next((k for k in keys if line.startswith(k) and k not in found), None)
                if key is not None:
                    found[key] = int(line.split()[1], base)
                    if len(found) == len(keys):
                        break
    except (OSError, ValueError, IndexError):
        return {}
    return found


def _meminfo_available() -> int | None:
    kb = proc_numbers("/proc/meminfo", "MemAvailable:").get("MemAvailable:")
    return None if kb is None else kb * 1024


def _cgroup_room() -> int | None:
    """What a cgroup v2 memory limit leaves (limit − usage), if this process runs under one."""
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as handle:
            limit = handle.read().strip()
        if limit == "max":
            return None
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as handle:
            used = int(handle.read().strip())
        return max(0, int(limit) - used)
    except (OSError, ValueError):
        return None


def _address_space_room() -> int | None:
    """What ``ulimit -v`` (RLIMIT_AS) leaves this process: the limit less the address space in use."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):  # pragma: no cover - Windows
        return None
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return None
    used = proc_numbers("/proc/self/status", "VmSize:").get("VmSize:", 0) * 1024
    return max(0, soft - used)


def _machine_memory() -> int | None:
    """The machine's memory and swap (MemTotal + SwapTotal)."""
    total = sum(proc_numbers("/proc/meminfo", "MemTotal:", "SwapTotal:").values()) * 1024
    return total or None


def process_limit() -> tuple[int, str] | None:
    """The most memory this process may take whatever a budget says, and what sets it: the room
    ``ulimit -v`` leaves, the room a cgroup's ``memory.max`` leaves, or the machine's memory and
    swap, the least of them; None where none can be found out.

    >>> limit, source = process_limit()
    >>> limit > 0 and source in ("ulimit -v", "the cgroup's memory.max", "the machine's memory")
    True
    """
    found = [
        (room, source)
        for room, source in (
            (_address_space_room(), "ulimit -v"),
            (_cgroup_room(), "the cgroup's memory.max"),
            (_machine_memory(), "the machine's memory"),
        )
        if room is not None
    ]
    return min(found) if found else None


def available_memory() -> int:
    """Bytes of memory this process can still use: the least of the system's available memory
    (``MemAvailable``, or psutil's where there is no /proc), what a cgroup limit leaves and what
    ``ulimit -v`` leaves.

    >>> available_memory() > 0
    True
    """
    found = [
        n for n in (_meminfo_available(), _cgroup_room(), _address_space_room()) if n is not None
    ]
    if not found:
        try:
            import psutil

            found.append(int(psutil.virtual_memory().available))
        except Exception:  # psutil missing or unsupported here: the total, else a guess
            try:
                found.append(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2)
            except (ValueError, OSError, AttributeError):
                found.append(_FALLBACK_AVAILABLE)
    return max(1, min(found))


def default_budget() -> int:
    """The budget when no ``max_bytes`` is given: :data:`DEFAULT_FRACTION` of :func:`available_memory`."""
    return int(available_memory() * DEFAULT_FRACTION)


def budget_of(max_bytes: Any = None) -> int:
    """The bytes a step may take: ``max_bytes`` when given, else :func:`default_budget`."""
    return default_budget() if max_bytes is None else parse_bytes(max_bytes)


def parse_bytes(value: Any, what: str = "max_bytes") -> int:
    """A size in bytes from an int or a text such as ``"2G"``, ``"512M"``, ``"1.5GiB"``, ``"1e9"``.

    K, M, G and T are powers of 1024; a trailing ``B`` or ``iB`` is allowed.
    """
    if isinstance(value, bool):
        raise fail(
            what,
            "a size in bytes such as 2G, 512M or 1e9",
            repr(value),
            "Pass e.g. max_bytes='2G'.",
        )
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value):
        number = int(value)
    else:
        match = _SIZE.match(str(value)) if isinstance(value, str) and len(value) <= 40 else None
        if match is None:
            raise fail(
                what,
                "a size in bytes such as 2G, 512M or 1e9",
                repr(value)[:60],
                "Pass e.g. max_bytes='2G' (K, M, G, T are powers of 1024).",
            )
        scaled = float(match.group("number")) * _UNITS[match.group("unit").upper()]
        if not math.isfinite(scaled) or scaled > 2**62:
            raise fail(what, "a size below 4 EiB", repr(value), "Pass e.g. max_bytes='2G'.")
        number = int(scaled)
    if number < 1:
        raise fail(what, "a size of at least 1 byte", repr(value), "Pass e.g. max_bytes='2G'.")
    return number


def format_bytes(n: float) -> str:
    """``n`` bytes for people: ``'512 B'``, ``'3.0 MiB'``, ``'1.2 GiB'``."""
    n = float(n)
    if n >= 2**50:
        return f"{n:.3g} bytes"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{int(n)} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"  # pragma: no cover - the loop returns at TiB


def _suggest(needed: int) -> str:
    """A round size above ``needed`` to suggest, in the units :func:`parse_bytes` reads."""
    for unit, size in (("G", 2**30), ("M", 2**20), ("K", 2**10)):
        if needed >= size:
            return f"{math.ceil(needed * 1.2 / size)}{unit}"
    return "1M"


def check_budget(
    needed: float,
    what: str,
    *,
    max_bytes: Any = None,
    file_size: int | None = None,
    detail: str = "",
    subject: str = "a file",
    smaller: str = "read a smaller file",
) -> None:
    """Refuse, before allocating, to read something that needs more than the budget allows.

    Parameters
    ----------
    needed : the bytes reading would take (an estimate from what the file declares or implies).
    what : the thing read, for the message (``"data file 'x.csv'"``).
    max_bytes : the caller's budget (int or text such as ``"2G"``); ``None`` for the default
        budget and the expansion limit.
    file_size : the file's size on disk, for the expansion limit.
    detail : how ``needed`` was worked out (``"150,000 rows × 1,000 columns"``), for the message.
    subject : what needs the memory, for the message (``"a file"``; ``"a quadratic program"``).
    smaller : the other way out, for the message (``"read a smaller file"``).

    Raises
    ------
    InputError
        Over the budget, or (without ``max_bytes``) over the expansion limit: the message says the
        size needed and how to raise the limit.
    """
    needed = int(needed)
    how = f" ({detail})" if detail else ""
    suggestion = _suggest(needed)
    raise_it = f"Pass a larger max_bytes (e.g. max_bytes='{suggestion}'), or {smaller}."
    if max_bytes is not None:
        budget = parse_bytes(max_bytes)
        if needed > budget:
            raise fail(
                what,
                f"at most {format_bytes(budget)} in memory (max_bytes)",
                f"{subject} that needs about {format_bytes(needed)}{how}",
                raise_it,
            )
        limit = process_limit()
        if (
            limit is not None and needed > limit[0]
        ):  # a budget above what the process may use is no licence
            raise fail(
                what,
                f"at most the {format_bytes(limit[0])} this process may still use ({limit[1]})",
                f"{subject} that needs about {format_bytes(needed)}{how}",
                f"max_bytes cannot raise {limit[1]}: {smaller}, or run where more memory is allowed.",
            )
        return
    if file_size is not None and needed > max(EXPANSION_FLOOR, EXPANSION_FACTOR * file_size):
        raise fail(
            what,
            f"a file that needs at most {EXPANSION_FACTOR} times its size in memory",
            f"{format_bytes(file_size)} on disk that needs about {format_bytes(needed)}{how}",
            f"A small file that unpacks to far more is refused unless you expect it: pass "
            f"max_bytes='{suggestion}' to read it anyway.",
        )
    budget = default_budget()
    if needed > budget:
        raise fail(
            what,
            f"at most {format_bytes(budget)} in memory ({DEFAULT_FRACTION:.0%} of the "
            f"{format_bytes(budget / DEFAULT_FRACTION)} available)",
            f"{subject} that needs about {format_bytes(needed)}{how}",
            f"Pass max_bytes='{suggestion}' if the machine can hold it, free some memory, or "
            f"{smaller}.",
        )
