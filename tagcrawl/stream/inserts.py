"""Putting a batch of rows into ``stream_events``: one statement, all or nothing.

``make_inserter(engine)`` returns an object with ``insert(rows)`` and
``close()``, used by the writer thread only (not thread-safe):

- PostgreSQL with psycopg2: ``PgInserter`` keeps one dedicated connection in
  autocommit mode and sends the batch as one multi-row ``INSERT ... VALUES``
  (psycopg2 ``execute_values``).  A single statement is atomic on its own, so
  a batch costs one round trip: no BEGIN, COMMIT, nor pool pre-ping.  The
  connection is pinged only after ``IDLE_PING_S`` without use, and dropped on
  a connection error (see ``PgInserter.insert`` for the one retry).
- Anything else (SQLite in development): ``CoreInserter``, SQLAlchemy Core
  ``executemany`` in ``engine.begin()``.
"""
from __future__ import annotations

import logging
import time

from sqlalchemy import JSON
from sqlalchemy import exc as sa_exc

from ..models import StreamEvent

log = logging.getLogger(__name__)

IDLE_PING_S = 1.0


def lost_database(exc: BaseException) -> bool:
    """True for a connection failure (refused, dropped), as opposed to a bad row.

    Covers SQLAlchemy's wrapped errors and psycopg2's own (OperationalError,
    InterfaceError and their subclasses, e.g. AdminShutdown).
    """
    if isinstance(exc, sa_exc.DBAPIError):
        return isinstance(exc, sa_exc.OperationalError) or bool(exc.connection_invalidated)
    return any(cls.__name__ in ("OperationalError", "InterfaceError") for cls in type(exc).__mro__)


class CoreInserter:
    """SQLAlchemy Core: ``INSERT`` executemany in one transaction (any database)."""

    def __init__(self, engine):
        self.engine, self.table = engine, StreamEvent.__table__

    def insert(self, rows: list[dict]) -> None:
        """Insert and commit ``rows`` (dicts keyed by column), or raise."""
        with self.engine.begin() as conn:
            conn.execute(self.table.insert(), rows)

    def close(self) -> None:
        """Nothing held between batches."""


class PgInserter:
    """psycopg2: one autocommit connection, one ``INSERT ... VALUES`` per batch."""

    def __init__(self, engine):
        from psycopg2.extras import Json, execute_values

        table = StreamEvent.__table__
        self.engine, self._json, self._execute_values = engine, Json, execute_values
        self.columns = [c.name for c in table.columns if c.name != "id"]
        self.json_columns = frozenset(c.name for c in table.columns if isinstance(c.type, JSON))
        self.statement = f"INSERT INTO {table.name} ({', '.join(self.columns)}) VALUES %s"
        self._conn = None  # a detached SQLAlchemy pool connection (proxy of the psycopg2 one)
        self._last_used = 0.0

    def _value(self, row: dict, column: str):
        item = row.get(column)
        return self._json(item) if item is not None and column in self.json_columns else item

    def _connection(self):
        if self._conn is not None and time.monotonic() - self._last_used > IDLE_PING_S:
            try:
                with self._conn.cursor() as cur:
                    cur.execute("SELECT 1")
            except Exception:
                self.close()
        if self._conn is None:
            conn = self.engine.raw_connection()
            conn.detach()  # ours alone: never handed back to the pool with autocommit on
            conn.rollback()  # end the transaction a pre-ping may have opened
            conn.dbapi_connection.autocommit = True
            self._conn = conn
        return self._conn

    def insert(self, rows: list[dict]) -> None:
        """Insert ``rows`` (dicts keyed by column) in one atomic statement, or raise.

        When a connection kept from an earlier batch turns out dead (the
        server restarted meanwhile), the batch is tried once more on a new
        connection, unless its first ``event_id`` is found there: the
        statement then did commit before the connection broke.
        """
        values = [tuple(self._value(row, c) for c in self.columns) for row in rows]
        reused = self._conn is not None
        try:
            self._execute(values)
        except Exception as exc:
            if not lost_database(exc):
                raise
            self.close()
            if not reused:
                raise
            log.info("stream writer: connection lost (%s); reconnecting", exc)
            if not self._stored(rows[0]["event_id"]):
                self._execute(values)
        self._last_used = time.monotonic()

    def _execute(self, values: list[tuple]) -> None:
        conn = self._connection()
        try:
            with conn.cursor() as cur:
                self._execute_values(cur, self.statement, values, page_size=len(values))
        except Exception as exc:
            if lost_database(exc):
                self.close()
            raise

    def _stored(self, event_id: str) -> bool:
        with self._connection().cursor() as cur:
            cur.execute("SELECT 1 FROM stream_events WHERE event_id = %s", (event_id,))
            return cur.fetchone() is not None

    def close(self) -> None:
        """Close the dedicated connection (the next insert opens another)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass


def make_inserter(engine):
    """The fastest inserter for ``engine``: PgInserter on psycopg2, else CoreInserter."""
    if engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg2":
        return PgInserter(engine)
    return CoreInserter(engine)
