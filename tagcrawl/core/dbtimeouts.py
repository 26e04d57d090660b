"""Bounded waits on PostgreSQL: a hung database must not hang the service.

Three limits, as settings (``settings.py``), applied to the engine by
``engine_options``:

- ``DB_CONNECT_TIMEOUT_S``: libpq ``connect_timeout`` (the whole connection
  start-up, including a server that accepts TCP but never answers);
- ``DB_STATEMENT_TIMEOUT_MS``: PostgreSQL ``statement_timeout`` (a live
  server cancels a statement running longer);
- ``DB_POOL_TIMEOUT_S``: SQLAlchemy ``pool_timeout`` (waiting for a pooled
  connection when all are in use).

A stopped server (SIGSTOP, a frozen VM, a partition with a live TCP peer)
answers nothing, so ``statement_timeout`` never fires and the kernel keeps
acknowledging TCP: libpq would wait forever.  The fourth bound is on the
client: every psycopg2 call that waits for the server (``execute``,
``executemany``, ``copy_expert``, ``commit``, ``rollback``, the pool's
pre-ping) is armed with a deadline, ``statement timeout + IO_GRACE_S``; past
it a watcher thread shuts the connection's socket down, libpq reports
"server closed the connection unexpectedly", and SQLAlchemy discards the
connection.  (psycopg2's wait callbacks would also bound the waits, but they
forbid COPY, which the stream writer uses.)

``unbounded(connection)`` lifts the client bound and the statement timeout of
one connection: migrations may legitimately run long.
"""
from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time

from tagcrawl.core.settings import Settings

log = logging.getLogger(__name__)

#: Seconds the client waits past the server's statement_timeout before it
#: gives the server up for hung.
IO_GRACE_S = 2.0


def engine_options(settings: Settings, url: str) -> dict:
    """``SQLALCHEMY_ENGINE_OPTIONS`` for ``url`` with the timeouts of ``settings``.

    Args:
        settings: ``db_connect_timeout_s``, ``db_statement_timeout_ms``,
            ``db_pool_timeout_s`` (0 turns one off).
        url: the SQLAlchemy database URL; only ``postgresql+psycopg2`` gets the
            libpq and client bounds, every engine gets ``pool_pre_ping``.
    Returns:
        the options dict (``connect_args`` holds the libpq ones).
    """
    options: dict = {"pool_pre_ping": True}
    if not url.startswith("postgresql+psycopg2"):
        return options
    connect_args: dict = {}
    connect_s = int(settings.db_connect_timeout_s or 0)
    statement_ms = int(settings.db_statement_timeout_ms or 0)
    if connect_s:
        connect_args["connect_timeout"] = max(2, connect_s)  # libpq treats 1 as 2
    if statement_ms:
        connect_args["options"] = f"-c statement_timeout={statement_ms}"
        connect_args["connection_factory"] = guarded_connection_class(statement_ms / 1000.0 + IO_GRACE_S)
    if settings.db_pool_timeout_s:
        options["pool_timeout"] = float(settings.db_pool_timeout_s)
    if connect_args:
        options["connect_args"] = connect_args
    return options


class _Watcher:
    """One thread per process that shuts down the sockets of overdue calls.

    It sleeps until the earliest deadline; since every deadline of a class is
    "now + the same bound", a later call never needs to wake it, except when
    nothing was armed (it then sleeps without a deadline).
    """

    def __init__(self):
        self._cond = threading.Condition()
        self._armed: dict[int, tuple[float, int]] = {}  # token -> (deadline, fd)
        self._next = 0
        self._pid = None
        self._idle = True

    def arm(self, fd: int, seconds: float) -> int:
        with self._cond:
            if self._pid != os.getpid():  # first use, or forked: start this process's thread
                self._pid, self._armed, self._idle = os.getpid(), {}, True
                threading.Thread(target=self._run, name="db-deadline-watcher", daemon=True).start()
            self._next += 1
            self._armed[self._next] = (time.monotonic() + seconds, fd)
            if self._idle:
                self._idle = False
                self._cond.notify()
            return self._next

    def disarm(self, token: int) -> None:
        with self._cond:
            self._armed.pop(token, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for token, (deadline, fd) in list(self._armed.items()):
                    if deadline <= now:
                        del self._armed[token]
                        _shut(fd)
                if self._armed:
                    self._cond.wait(min(d for d, _ in self._armed.values()) - now)
                else:
                    self._idle = True
                    self._cond.wait()


def _shut(fd: int) -> None:
    """Shut the socket ``fd`` down (both ways) without closing the fd: the
    blocked libpq call returns at once with a connection error."""
    log.warning("database did not answer in time: dropping the connection")
    try:
        sock = socket.socket(fileno=os.dup(fd))
    except OSError:
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


_watcher = _Watcher()


@contextlib.contextmanager
def _deadline(conn):
    seconds = getattr(conn, "io_timeout_s", None)
    if not seconds or conn.closed:
        yield
        return
    token = _watcher.arm(conn.fileno(), seconds)
    try:
        yield
    finally:
        _watcher.disarm(token)


def guarded_connection_class(io_timeout_s: float):
    """A psycopg2 connection class whose server waits end after ``io_timeout_s``
    seconds (``connection_factory`` of ``psycopg2.connect``)."""
    import psycopg2.extensions as ext

    class GuardedCursor(ext.cursor):
        def execute(self, query, vars=None):
            with _deadline(self.connection):
                return super().execute(query, vars)

        def executemany(self, query, vars_list):
            with _deadline(self.connection):
                return super().executemany(query, vars_list)

        def copy_expert(self, sql, file, size=8192):
            with _deadline(self.connection):
                return super().copy_expert(sql, file, size)

    class GuardedConnection(ext.connection):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.io_timeout_s = io_timeout_s
            self.cursor_factory = GuardedCursor

        def commit(self):
            with _deadline(self):
                return super().commit()

        def rollback(self):
            with _deadline(self):
                return super().rollback()

    return GuardedConnection


def unbounded(sa_connection) -> None:
    """Lift the client bound and the statement timeout of one SQLAlchemy
    ``Connection`` (migrations: a long ``CREATE INDEX`` is legitimate)."""
    dbapi = sa_connection.connection.dbapi_connection
    if hasattr(dbapi, "io_timeout_s"):
        dbapi.io_timeout_s = None
    if sa_connection.dialect.name == "postgresql":
        sa_connection.exec_driver_sql("SET statement_timeout = 0")  # for the session
        sa_connection.commit()  # so that Alembic starts its own transaction
