"""gunicorn config for tests: tagcrawl's own, with each worker's address space
capped (``RLIMIT_AS``) once it is ready to serve.

The cap is the worker's address space at that moment plus
``TAGCRAWL_TEST_AS_HEADROOM_MB`` (MiB): an allocation past it fails with
``MemoryError`` in the worker instead of growing it.  Only for workers that
start no browser (Chrome reserves terabytes of address space for V8's cage
and would not start under such a cap)."""
from __future__ import annotations

import os
import resource

from tagcrawl.runtime.gunicorn_conf import *  # noqa: F401,F403  (the shipped settings)
from tagcrawl.runtime.gunicorn_conf import post_worker_init as _shipped_post_worker_init


def _vm_size_bytes() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


def post_worker_init(worker):  # noqa: F811  (wraps the shipped hook)
    _shipped_post_worker_init(worker)
    cap = _vm_size_bytes() + int(os.environ["TAGCRAWL_TEST_AS_HEADROOM_MB"]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    worker.log.info("address space capped at %d MiB", cap >> 20)
