"""Peak resident memory of this process, read from ``/proc`` (Linux).

``PeakRss()`` resets the kernel's high-water mark (``/proc/self/clear_refs``
``5``, Linux 4.0+) on entry and reads ``VmHWM`` on exit: ``growth_mb`` is how
far the peak rose above the resident size at entry, whatever thread allocated.
"""
from __future__ import annotations

import gc
import re
from pathlib import Path

_STATUS = Path("/proc/self/status")


def _kb(field: str) -> int:
    return int(re.search(field + r":\s+(\d+) kB", _STATUS.read_text()).group(1))


class PeakRss:
    """``with PeakRss() as peak: ...`` then ``peak.growth_mb`` (MiB above the RSS at entry)."""

    def __enter__(self) -> "PeakRss":
        gc.collect()
        Path("/proc/self/clear_refs").write_text("5")
        self.start_kb = _kb("VmRSS")
        self.growth_mb = 0.0
        return self

    def __exit__(self, *exc) -> None:
        self.growth_mb = (_kb("VmHWM") - self.start_kb) / 1024
