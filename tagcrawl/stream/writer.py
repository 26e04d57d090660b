"""Group commit: many requests, one transaction, and each request its own outcome.

Each process has one writer thread per app (started lazily, keyed by pid so a
forked worker starts its own).  A request calls ``submit(row)``, which queues
the row and blocks (on the row's own Event) until the batch holding it was
committed (returns) or not (raises ``StoreUnavailable``).  The writer takes a
batch when it has ``STREAM_BATCH_SIZE`` rows, when ``STREAM_BATCH_WAIT_MS``
have passed since its first row was queued, or as soon as every request
thread of the process (``GUNICORN_THREADS``) is waiting on it: no further row
can come then, so waiting longer would only add latency.

A batch waits for company only while there is some: when the previous batch
held more than one row and was taken less than ``STREAM_BATCH_WAIT_MS``
before.  Otherwise (light traffic, or one client sending events one after
the other) the row goes at once; as soon as rows meet in the queue (they
came while a batch was being committed), batches wait again.

The writer receives an ``EventStore`` (``store/``), which inserts the batch
at once, all or nothing.  When that fails for a reason other than a lost
database, each row is retried on its own so a bad row fails alone.  All
waits are on a Condition or an Event.
"""
from __future__ import annotations

import logging
import os
import threading
import time

from flask import Flask

from tagcrawl.core.extensions import db
from tagcrawl.core.settings import settings_of
from tagcrawl.stream.store import EventStore, lost_database, open_store

log = logging.getLogger(__name__)

#: An idle writer thread ends (and closes its connection) after this; the next
#: submit starts another.
IDLE_EXIT_S = 5.0


class StoreUnavailable(Exception):
    """The row was not committed (database down, commit failed, or timed out)."""


class _Pending:
    """One queued row and, once done, its outcome (``error`` None = committed)."""

    __slots__ = ("row", "queued_at", "taken", "error", "done")

    def __init__(self, row: dict):
        self.row, self.queued_at, self.taken, self.error = row, time.monotonic(), False, None
        self.done = threading.Event()


class GroupWriter:
    """The group-commit writer of one app in one process.

    Args:
        store: where the batches go (``store.open_store``); used by the writer
            thread only, and closed when that thread ends idle.
        batch_size: rows per transaction at most.
        wait_s: longest time (seconds) a batch waits for more rows after its first.
        threads: request threads of the process; a batch goes as soon as
            that many rows wait (every thread is blocked on the writer).
    """

    def __init__(self, store: EventStore, batch_size: int, wait_s: float, threads: int):
        self.store, self.batch_size, self.wait_s = store, max(1, batch_size), max(0.0, wait_s)
        self.enough = min(self.batch_size, max(1, threads))  # rows that end the wait
        self._cond = threading.Condition()
        self._queue: list[_Pending] = []
        self._thread: threading.Thread | None = None
        self._last_taken = float("-inf")  # monotonic time the previous batch was taken
        self._last_size = 0  # rows of the previous batch
        self.batches = 0  # committed batches (observability: one commit per batch)

    def submit(self, row: dict, timeout: float) -> None:
        """Queue ``row`` (a ``stream_events`` row dict) and block until its batch is done.

        Raises StoreUnavailable when it was not committed, or when the writer
        did not take it within ``timeout`` seconds (it is then withdrawn,
        never written).  Once taken, the outcome is awaited whatever the time.
        """
        pending = _Pending(row)
        with self._cond:
            self._queue.append(pending)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=f"stream-writer-{os.getpid()}", daemon=True)
                self._thread.start()
            # Wake the writer only when this row can change its mind: the first
            # row (it may be idle) or the one that makes the batch go.  Other
            # wake-ups would only cost thread switches.
            if len(self._queue) == 1 or len(self._queue) == self.enough:
                self._cond.notify()
        if not pending.done.wait(timeout):
            with self._cond:
                if not pending.taken:
                    self._queue.remove(pending)
                    raise StoreUnavailable("the database writer is overloaded")
            pending.done.wait()
        if pending.error is not None:
            raise StoreUnavailable(str(pending.error)) from pending.error

    def _next_batch(self) -> list[_Pending] | None:
        """Wait for rows and take a batch; None when idle for IDLE_EXIT_S (thread ends)."""
        with self._cond:
            idle_until = time.monotonic() + IDLE_EXIT_S
            while True:
                while not self._queue:
                    remaining = idle_until - time.monotonic()
                    if remaining <= 0:
                        # Closed under the lock: a thread started after this one
                        # returns may use the store at once.
                        self.store.close()
                        self._thread = None
                        return None
                    self._cond.wait(remaining)
                first = self._queue[0].queued_at
                deadline = first + self.wait_s
                if self._last_size < 2 or first - self._last_taken >= self.wait_s:
                    deadline = first  # no company lately: nothing to wait for
                while self._queue and len(self._queue) < self.enough:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    self._cond.wait(remaining)
                if self._queue:  # rows may have left meanwhile (timed out before being taken)
                    break
            batch = self._queue[:self.batch_size]
            del self._queue[:self.batch_size]
            self._last_taken, self._last_size = time.monotonic(), len(batch)
            for pending in batch:
                pending.taken = True
            return batch

    def _run(self) -> None:
        while True:
            batch = self._next_batch()
            if batch is None:
                return
            try:
                self._commit(self.store.insert_batch, batch)
            except BaseException as exc:  # never leave a request waiting
                for pending in batch:
                    pending.error = pending.error or exc
                log.exception("stream writer failed")
            finally:
                for pending in batch:
                    pending.done.set()

    def _commit(self, insert, batch: list[_Pending]) -> None:
        """Insert the batch at once; when that fails for a bad row, row by row."""
        try:
            insert([p.row for p in batch])
            self.batches += 1
            return
        except Exception as exc:
            if len(batch) == 1 or lost_database(exc):
                log.warning("stream batch of %d rows not committed: %s", len(batch), exc)
                for pending in batch:
                    pending.error = exc
                return
            log.warning("stream batch of %d rows failed (%s); committing row by row", len(batch), exc)
        for pending in batch:
            try:
                insert([pending.row])
            except Exception as exc:
                log.warning("stream row not committed: %s", exc)
                pending.error = exc


_registry_lock = threading.Lock()


def _reset_after_fork() -> None:
    global _registry_lock
    _registry_lock = threading.Lock()


os.register_at_fork(after_in_child=_reset_after_fork)


def committed_batches(app: Flask) -> int:
    """Batches this process's writer committed so far (0 before its first row);
    reported by ``GET /health/ready`` (``stream.batches``).  Never creates a writer."""
    writer = app.extensions.get("tagcrawl.stream.writers", {}).get(os.getpid())
    return writer.batches if writer is not None else 0


def get_writer(app: Flask) -> GroupWriter:
    """The writer of ``app`` in this process (created on first use).

    Keyed by pid: a forked child never uses its parent's thread, and drops the
    connections it inherited from the parent's pool.  The writer gets the
    store for the app's engine (``store.open_store``).
    """
    writers = app.extensions.setdefault("tagcrawl.stream.writers", {})
    pid = os.getpid()
    writer = writers.get(pid)
    if writer is None:
        with _registry_lock:
            writer = writers.get(pid)
            if writer is None:
                with app.app_context():
                    if writers:  # created in a parent before fork
                        writers.clear()
                        db.engine.dispose(close=False)
                    store = open_store(db.engine)
                settings = settings_of(app)
                writer = GroupWriter(store, settings.stream_batch_size, settings.stream_batch_wait_ms / 1000.0,
                                     settings.gunicorn_threads)
                writers[pid] = writer
    return writer
