"""tests/support/parallel.py: how the suite is split between pytest-xdist
workers (docs/testing.md).  The ``alone`` lock is exercised with threads: a
``flock`` belongs to an open file, so two threads that each open the lock file
contend as two workers would."""
from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support import parallel

ROOT = Path(__file__).parent.parent.parent


class _Item(SimpleNamespace):
    def get_closest_marker(self, name):
        return next((m for m in self.marks if m.name == name), None)

    def add_marker(self, mark):
        self.marks.append(mark.mark)


def _item(module: str, *marks) -> _Item:
    return _Item(path=ROOT / module, marks=[m.mark for m in marks])


@pytest.fixture
def in_worker(monkeypatch, tmp_path):
    monkeypatch.setattr(parallel, "WORKER", "gw0")
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", f"unit-{tmp_path.name}")
    yield
    for path in (parallel._lock_path(), Path(f"{parallel._lock_path()}.turnstile")):
        path.unlink(missing_ok=True)


def test_outside_xdist_the_collection_is_left_alone(monkeypatch):
    monkeypatch.setattr(parallel, "WORKER", None)
    items = [_item("tests/unit/test_a.py"), _item("tests/browser/test_b.py")]
    parallel.split_for_workers(items, ROOT)
    assert [i.path.name for i in items] == ["test_a.py", "test_b.py"] and all(not i.marks for i in items)


def test_modules_are_grouped_and_handed_out_heaviest_first(in_worker):
    heavy = parallel.HEAVY_FIRST[0]
    items = [_item("tests/unit/test_a.py"), _item("tests/db/test_b.py"), _item("tests/browser/test_c.py"),
             _item("tests/unit/test_a.py", pytest.mark.xdist_group("mine")), _item(heavy)]
    parallel.split_for_workers(items, ROOT)
    order = [i.path.relative_to(ROOT).as_posix() for i in items]
    assert order == [heavy, "tests/browser/test_c.py", "tests/db/test_b.py",
                     "tests/unit/test_a.py", "tests/unit/test_a.py"]
    groups = [i.get_closest_marker("xdist_group").args[0] for i in items]
    assert groups == [heavy, "tests/browser/test_c.py", "tests/db/test_b.py", "tests/unit/test_a.py", "mine"]


def _hold(alone: bool, entered: threading.Event, release: threading.Event) -> threading.Thread:
    def run():
        with parallel.alone_lock(alone):
            entered.set()
            release.wait(30)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.slow
def test_an_alone_test_waits_for_the_running_test_and_the_next_one_waits_for_it(in_worker, monkeypatch):
    import fcntl

    asked_exclusive = threading.Event()

    def flock(fd, op):  # the real lock; notes when the alone test starts waiting for the main lock
        if op == fcntl.LOCK_EX and not fd.name.endswith(".turnstile"):
            asked_exclusive.set()
        fcntl.flock(fd, op)

    monkeypatch.setattr(parallel, "fcntl", SimpleNamespace(flock=flock, LOCK_EX=fcntl.LOCK_EX,
                                                           LOCK_SH=fcntl.LOCK_SH, LOCK_UN=fcntl.LOCK_UN))
    first, alone, after = (threading.Event(), threading.Event()), (threading.Event(), threading.Event()), \
        (threading.Event(), threading.Event())
    threads = [_hold(False, *first)]
    assert first[0].wait(10)
    threads.append(_hold(True, *alone))
    assert asked_exclusive.wait(10)  # it holds the turnstile and waits for the main lock
    assert not alone[0].is_set()  # a test of the other worker is running
    threads.append(_hold(False, *after))
    assert not after[0].wait(0.5)  # the alone test is queued: no new ordinary test starts
    first[1].set()
    assert alone[0].wait(10)
    assert not after[0].wait(0.5)  # the ordinary test waits while the alone test runs
    alone[1].set()
    assert after[0].wait(10)
    after[1].set()
    for thread in threads:
        thread.join(10)


def test_ordinary_tests_of_two_workers_run_together(in_worker):
    one, two = (threading.Event(), threading.Event()), (threading.Event(), threading.Event())
    threads = [_hold(False, *one), _hold(False, *two)]
    assert one[0].wait(10) and two[0].wait(10)
    one[1].set(), two[1].set()
    for thread in threads:
        thread.join(10)
