"""Group commit: many requests, one transaction, and each request its own outcome.

Each process has one writer thread per app (started lazily, keyed by pid so a
forked worker starts its own).  A request announces itself with ``slot()``
when it starts, then ``submit(row)`` queues its row and blocks until the
batch holding that row was committed (returns) or failed (raises
``StoreUnavailable``).  The writer takes a batch when it has
``STREAM_BATCH_SIZE`` rows, when ``STREAM_BATCH_WAIT_MS`` have passed since
its first row was queued, or as soon as no other request of the process holds
a slot (no further row can come, so waiting would only add latency).  The
batch is one multi-row INSERT in one transaction.  When it fails for a reason
other than a lost database, each row is retried in its own transaction so a
bad row fails alone.  All waits are on a Condition or an Event.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from contextlib import contextmanager

from flask import Flask
from sqlalchemy import JSON
from sqlalchemy import exc as sa_exc

from ..extensions import db
from ..models import StreamEvent

log = logging.getLogger(__name__)

IDLE_EXIT_S = 60.0  # an idle writer thread ends; the next submit starts another


class StoreUnavailable(Exception):
    """The row was not committed (database down, commit failed, or timed out)."""


class _Pending:
    """One queued row and, once done, its outcome (``error`` None = committed)."""

    __slots__ = ("row", "queued_at", "taken", "error", "done")

    def __init__(self, row: dict):
        self.row, self.queued_at, self.taken, self.error = row, time.monotonic(), False, None
        self.done = threading.Event()


def _lost_database(exc: BaseException) -> bool:
    """True when retrying row by row cannot help (connection refused / dropped).

    Covers SQLAlchemy's wrapped errors and raw DB-API ones (psycopg2's
    OperationalError / InterfaceError, e.g. "server closed the connection").
    """
    if isinstance(exc, sa_exc.DBAPIError):
        return isinstance(exc, sa_exc.OperationalError) or bool(exc.connection_invalidated)
    return any(cls.__name__ in ("OperationalError", "InterfaceError") for cls in type(exc).__mro__)


class GroupWriter:
    """The group-commit writer of one app in one process.

    Args:
        app: the Flask app (its engine is used from the writer thread).
        batch_size: rows per transaction at most.
        wait_s: longest time (seconds) a batch waits for more rows after its first.
    """

    def __init__(self, app: Flask, batch_size: int, wait_s: float):
        self.app, self.batch_size, self.wait_s = app, max(1, batch_size), max(0.0, wait_s)
        self._cond = threading.Condition()
        self._queue: list[_Pending] = []
        self._slots = 0  # requests that started and have not queued their row nor given up
        self._thread: threading.Thread | None = None
        self.batches = 0  # committed batches (for the bench and the tests)

    @contextmanager
    def slot(self):
        """Hold a slot while a request prepares its row; yields ``submit``."""
        state = {"open": True}
        with self._cond:
            self._slots += 1

        def submit(row: dict, timeout: float) -> None:
            state["open"] = False
            self._submit(row, timeout)

        try:
            yield submit
        finally:
            if state["open"]:
                with self._cond:
                    self._slots -= 1
                    self._cond.notify_all()

    def _submit(self, row: dict, timeout: float) -> None:
        """Queue ``row`` and block until its batch is done.

        Raises StoreUnavailable when it was not committed, or when the writer
        did not take it within ``timeout`` seconds (it is then dropped, never
        written).  Once taken, the outcome is awaited whatever the time.
        """
        pending = _Pending(row)
        with self._cond:
            self._slots -= 1
            self._queue.append(pending)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=f"stream-writer-{os.getpid()}", daemon=True)
                self._thread.start()
            self._cond.notify_all()
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
                        self._thread = None
                        return None
                    self._cond.wait(remaining)
                deadline = self._queue[0].queued_at + self.wait_s
                while self._queue and len(self._queue) < self.batch_size and self._slots > 0:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    self._cond.wait(remaining)
                if self._queue:  # rows may have left meanwhile (timed out before being taken)
                    break
            batch = self._queue[:self.batch_size]
            del self._queue[:self.batch_size]
            for pending in batch:
                pending.taken = True
            return batch

    def _run(self) -> None:
        with self.app.app_context():
            inserter = make_inserter(db.engine)
        while True:
            batch = self._next_batch()
            if batch is None:
                return
            try:
                self._commit(inserter, batch)
            except BaseException as exc:  # never leave a request waiting
                for pending in batch:
                    pending.error = pending.error or exc
                log.exception("stream writer failed")
            finally:
                for pending in batch:
                    pending.done.set()

    def _commit(self, inserter, batch: list[_Pending]) -> None:
        try:
            inserter([p.row for p in batch])
            self.batches += 1
            return
        except Exception as exc:
            if len(batch) == 1 or _lost_database(exc):
                log.warning("stream batch of %d rows not committed: %s", len(batch), exc)
                for pending in batch:
                    pending.error = exc
                return
            log.warning("stream batch of %d rows failed (%s); committing row by row", len(batch), exc)
        for pending in batch:
            try:
                inserter([pending.row])
            except Exception as exc:
                log.warning("stream row not committed: %s", exc)
                pending.error = exc


def make_inserter(engine):
    """A function ``insert(rows)`` that inserts ``rows`` (dicts keyed by column)
    into ``stream_events`` in one transaction and commits.

    On PostgreSQL with psycopg2 it sends one multi-row ``INSERT ... VALUES``
    (``execute_values``, about half the CPU of SQLAlchemy's executemany);
    elsewhere it uses SQLAlchemy Core.
    """
    table = StreamEvent.__table__
    if engine.dialect.name != "postgresql" or engine.dialect.driver != "psycopg2":
        def insert_core(rows: list[dict]) -> None:
            with engine.begin() as conn:
                conn.execute(table.insert(), rows)

        return insert_core

    from psycopg2.extras import Json, execute_values

    columns = [c.name for c in table.columns if c.name != "id"]
    json_columns = {c.name for c in table.columns if isinstance(c.type, JSON)} & set(columns)
    statement = f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES %s"

    def value(row: dict, column: str):
        item = row.get(column)
        return Json(item) if column in json_columns and item is not None else item

    def insert_values(rows: list[dict]) -> None:
        values = [tuple(value(row, c) for c in columns) for row in rows]
        conn = engine.raw_connection()  # pooled, pre-pinged
        try:
            with conn.cursor() as cur:
                execute_values(cur, statement, values, page_size=len(values))
            conn.commit()
        except BaseException as exc:
            if _lost_database(exc):
                conn.invalidate(exc)
            else:
                conn.rollback()
            raise
        finally:
            conn.close()

    return insert_values


_registry_lock = threading.Lock()


def _reset_after_fork() -> None:
    global _registry_lock
    _registry_lock = threading.Lock()


os.register_at_fork(after_in_child=_reset_after_fork)


def get_writer(app: Flask) -> GroupWriter:
    """The writer of ``app`` in this process (created on first use).

    Keyed by pid: a forked child never uses its parent's thread, and drops the
    connections it inherited from the parent's pool.
    """
    writers = app.extensions.setdefault("tagcrawl.stream.writers", {})
    pid = os.getpid()
    writer = writers.get(pid)
    if writer is None:
        with _registry_lock:
            writer = writers.get(pid)
            if writer is None:
                if writers:  # created in a parent before fork
                    writers.clear()
                    with app.app_context():
                        db.engine.dispose(close=False)
                writer = GroupWriter(app, app.config.get("STREAM_BATCH_SIZE", 100),
                                     app.config.get("STREAM_BATCH_WAIT_MS", 10) / 1000.0)
                writers[pid] = writer
    return writer
