"""A process's memory from ``/proc/<pid>/status``, for tests that assert a bound.

``VmRSS`` is the resident set now, ``VmHWM`` its peak since the process
started or since ``reset_peak`` (``echo 5 > /proc/<pid>/clear_refs``,
Linux 4.0+): a peak between two points of a test needs no sampling thread.
"""
from __future__ import annotations

import os

MB = 1024 * 1024


def _field(pid: int, name: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(name + ":"):
                return int(line.split()[1]) * 1024
    raise KeyError(name)


def rss(pid: int | None = None) -> int:
    """Resident bytes of ``pid`` (this process by default)."""
    return _field(pid or os.getpid(), "VmRSS")


def peak(pid: int | None = None) -> int:
    """Peak resident bytes of ``pid`` since start or the last ``reset_peak``."""
    return _field(pid or os.getpid(), "VmHWM")


def reset_peak(pid: int | None = None) -> None:
    """Restart ``pid``'s peak at its current resident size (needs the right to write its ``clear_refs``)."""
    with open(f"/proc/{pid or os.getpid()}/clear_refs", "w") as refs:
        refs.write("5")
