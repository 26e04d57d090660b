"""Peak memory of a piece of work, read from ``/proc`` (this module holds no test).

- :func:`in_subprocess`: runs code in a fresh Python process (this checkout on
  ``PYTHONPATH``), optionally under an address-space limit (``RLIMIT_AS``), and
  returns how far its peak RSS (``VmHWM``) rose during the work.
- :func:`in_this_process`: the same for a call in the test process: the peak
  is reset first by writing ``5`` to ``/proc/self/clear_refs`` (Linux 4.0+;
  ``tracemalloc``'s peak where that file cannot be written).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parents[2]

_CHILD = r"""
import json, resource, sys
def status(name):
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith(name + ":"))
job = json.loads(sys.stdin.read())
scope = {}
exec(job["setup"], scope)
try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
except OSError:
    pass
if job["address_space_mb"]:
    limit = status("VmSize") * 1024 + job["address_space_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
before = status("VmHWM")
exec(job["work"], scope)
after = status("VmHWM")
print(json.dumps({"before_kb": before, "after_kb": after, "result": repr(scope.get("result"))}))
"""


@dataclass
class Peak:
    """Peak RSS before and after the work (kB), its growth (MB) and ``repr(result)``."""

    before_kb: int
    after_kb: int
    result: str

    @property
    def growth_mb(self) -> float:
        return (self.after_kb - self.before_kb) / 1024


def in_subprocess(setup: str, work: str, address_space_mb: int | None = None, timeout: float = 120) -> Peak:
    """Run ``setup`` then ``work`` (Python source; ``work`` may set ``result``)
    in a fresh interpreter and measure the peak RSS growth of ``work``.

    Args:
        setup: imports and inputs, not measured.
        work: the measured code.
        address_space_mb: when set, ``RLIMIT_AS`` is the process's size after
            ``setup`` plus this many MB: allocating past it raises MemoryError.
        timeout: seconds before the child is killed (a hang fails the test).
    Raises:
        RuntimeError: the child failed; the message ends with its stderr (a
        MemoryError past ``address_space_mb`` shows there).
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    job = json.dumps({"setup": setup, "work": work, "address_space_mb": address_space_mb})
    done = subprocess.run([sys.executable, "-c", _CHILD], input=job, capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=ROOT, check=False)
    if done.returncode:
        raise RuntimeError(f"the measured child exited with {done.returncode}:\n{done.stderr[-3000:]}")
    return Peak(**json.loads(done.stdout.strip().splitlines()[-1]))


def _status_kb(name: str) -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(name + ":"))


def in_this_process(fn):
    """``(fn(), peak memory growth in MB)`` for a call in this process.

    The peak RSS (``VmHWM``) is reset to the current RSS first; other threads
    of the process count too, so the figure is an upper bound of ``fn``'s own.
    Where ``/proc/self/clear_refs`` cannot be written, the peak of Python's
    own allocations during the call (``tracemalloc``) is returned instead.
    """
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        tracemalloc.start()
        try:
            result = fn()
            return result, tracemalloc.get_traced_memory()[1] / (1024 * 1024)
        finally:
            tracemalloc.stop()
    before = _status_kb("VmHWM")
    result = fn()
    return result, (_status_kb("VmHWM") - before) / 1024
