"""How the suite is split between pytest-xdist workers (``make test`` runs
``pytest -n 2 --dist loadgroup --no-loadscope-reorder``; docs/testing.md).

- A module is the unit of work: every test without an ``xdist_group`` marker
  gets the group of its module, so a module-scoped fixture (the CMP crawls of
  ``cmp_cases.crawl_all``, a gunicorn server) is set up on one worker only,
  never once per worker.  Tests marked ``@pytest.mark.xdist_group("name")``
  run on one worker together, whatever their module.
- Modules are handed out heaviest first, so the run does not end with one
  worker busy on a 100 s module while the other one idles: the modules of
  ``HEAVY_FIRST`` (the longest of a serial run, measured), then tests/browser,
  tests/db, and tests/unit last (many short modules even the load out).
- A test marked ``alone`` runs while no test of another worker runs
  (``alone_lock``): for a test that measures the whole machine, not its own
  processes.

Every worker has its own fixture web, PostgreSQL cluster and Redis server
(session fixtures, free ports) and its own ``tmp_path``; nothing here is
shared between workers but the CPU.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from pathlib import Path

import pytest

WORKER = os.environ.get("PYTEST_XDIST_WORKER")  # "gw0", "gw1"... in an xdist worker, None otherwise

# The longest modules of a serial run (--durations, 2026-11-26), longest first.
HEAVY_FIRST = (
    "tests/browser/test_audit_site_e2e.py",
    "tests/browser/test_consent_cmps.py",
    "tests/browser/test_audit_grid.py",
    "tests/browser/test_consent_reject.py",
    "tests/browser/test_consent_compliance.py",
    "tests/browser/test_lifecycle.py",
    "tests/browser/test_audit_queue.py",
    "tests/browser/test_consent_heuristic.py",
    "tests/browser/test_audit_worker_kill.py",
    "tests/browser/test_service_outcome.py",
    "tests/browser/test_cli.py",
    "tests/browser/test_npm_sdk_vendors.py",
    "tests/browser/test_concurrency.py",
    "tests/browser/test_faults_browser.py",
)
FOLDER_ORDER = ("tests/browser/", "tests/db/", "tests/unit/")


def _module(item, root: Path) -> str:
    return item.path.relative_to(root).as_posix()


def _rank(module: str) -> tuple[int, int]:
    if module in HEAVY_FIRST:
        return (0, HEAVY_FIRST.index(module))
    folder = next((i for i, f in enumerate(FOLDER_ORDER) if module.startswith(f)), len(FOLDER_ORDER))
    return (1 + folder, 0)


def split_for_workers(items: list, root: Path) -> None:
    """In an xdist worker only: give each of the collected ``items`` (in place)
    its module's ``xdist_group`` unless it has one, and order them heaviest
    module first (a stable sort: the order inside a module is kept).  Outside
    xdist the items are left as collected (quick groups first, for ``-x``)."""
    if WORKER is None:
        return
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(_module(item, root)))
    items.sort(key=lambda item: _rank(_module(item, root)))


def _lock_path() -> Path:
    """One lock file per xdist run (the workers share ``PYTEST_XDIST_TESTRUNUID``)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "serial")
    return Path(tempfile.gettempdir()) / f"tagcrawl-pytest-{run}.lock"


@contextlib.contextmanager
def alone_lock(alone: bool):
    """Hold the run's lock around one test: shared for an ordinary test,
    exclusive for a test marked ``alone`` (it waits until the other worker's
    test ends, and the other worker waits for it).  A turnstile lock, taken
    briefly by every test and held by an ``alone`` test while it waits, keeps
    the ordinary tests of the other worker from starving it.  Outside xdist:
    nothing to wait for."""
    if WORKER is None:
        yield
        return
    path = _lock_path()
    with open(path, "a+") as main, open(f"{path}.turnstile", "a+") as turnstile:
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        if alone:
            fcntl.flock(main, fcntl.LOCK_EX)
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        else:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
            fcntl.flock(main, fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(main, fcntl.LOCK_UN)
