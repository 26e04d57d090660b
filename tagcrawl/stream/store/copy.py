"""The PostgreSQL event store: one ``COPY stream_events (...) FROM STDIN`` per batch.

``CopyStore`` keeps one dedicated psycopg2 connection in autocommit mode and
sends the batch as one ``COPY`` in PostgreSQL's text format (``copy_line``
formats a row).  A single statement is atomic on its own, so a batch costs
one round trip: no BEGIN, COMMIT, nor pool pre-ping.  COPY rather than a
multi-row ``INSERT``: the rows are formatted without psycopg2's per-value
adaptation and the server parses no SQL per value, which is cheaper in CPU on
both sides.  The connection is pinged only after ``IDLE_PING_S`` without use,
and dropped on a connection error (see ``CopyStore.insert_batch`` for the one
retry).  Used by the writer thread only (not thread-safe).
"""
from __future__ import annotations

import io
import json
import logging
import time
from datetime import datetime

from sqlalchemy import JSON

from tagcrawl.core.models import StreamEvent
from tagcrawl.stream.store.protocol import lost_database

log = logging.getLogger(__name__)

IDLE_PING_S = 1.0

#: COPY text format: the NULL marker, and the characters that a value must
#: escape (backslash first, so that the other escapes are not doubled).
COPY_NULL = "\\N"
_ESCAPES = (("\\", "\\\\"), ("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r"))
#: JSON columns (JSONB): compact, non-ASCII as is (the COPY data is UTF-8 and
#: JSONB keeps the characters, not the escapes); NaN and Infinity, which JSONB
#: refuses anyway, raise ValueError before anything is sent.
_json_dumps = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode


def copy_escape(text: str) -> str:
    """``text`` as a field of COPY's text format: backslash, tab, newline and
    carriage return escaped (``\\\\``, ``\\t``, ``\\n``, ``\\r``); the rest as is."""
    if "\\" in text or "\t" in text or "\n" in text or "\r" in text:
        for char, escaped in _ESCAPES:
            text = text.replace(char, escaped)
    return text


#: COPY text of a non-JSON value by type (``str`` is used as is): booleans
#: ``t``/``f``, ints in decimal, datetimes in ISO 8601 (with their UTC offset
#: when aware; a naive one is read in the session's time zone).
_FORMAT = {
    type(None): lambda value: COPY_NULL,
    bool: lambda value: "t" if value else "f",
    int: int.__repr__,
    float: float.__repr__,
    datetime: datetime.isoformat,
}


def _other(value) -> str:
    """Text of a value whose exact type is not in ``_FORMAT``: a subclass uses
    its nearest base's format (``bool`` before ``int``), anything else ``str()``."""
    if isinstance(value, (dict, list)):
        raise TypeError(f"a {type(value).__name__} in a column that is not JSON")
    for cls in type(value).__mro__:
        if cls in _FORMAT:
            return _FORMAT[cls](value)
    return str(value)


def copy_line(plain: list, documents: list) -> str:
    """One row of COPY's text format, without its newline.

    Args:
        plain: values of the non-JSON columns (str, int, bool, datetime, None).
        documents: values of the JSON columns, sent as compact JSON (non-ASCII
            kept as is: the text goes out as UTF-8), or None for NULL.
    Returns:
        the fields joined by tabs, each escaped (``copy_escape``), NULL as ``\\N``.
    """
    fields = [value if type(value) is str else _FORMAT.get(type(value), _other)(value) for value in plain]
    fields += [COPY_NULL if value is None else _json_dumps(value) for value in documents]
    line = "\t".join(fields)
    values = plain + documents
    # Usually nothing needs escaping: one scan of the line then, not one per field.  The
    # line's only tabs must be the separators and its only backslashes those of the NULLs.
    if (line.count("\t") == len(fields) - 1 and line.count("\\") == values.count(None)
            and "\n" not in line and "\r" not in line):
        return line
    return "\t".join(COPY_NULL if value is None else copy_escape(field) for value, field in zip(values, fields))


class CopyStore:
    """``EventStore`` for PostgreSQL with psycopg2: one autocommit connection, one
    ``COPY ... FROM STDIN`` per batch.

    The batch goes as PostgreSQL's COPY text format (tab-separated, ``\\N`` for
    NULL, see ``copy_line``), encoded as UTF-8 (the connection's client
    encoding is set so).  One COPY is one statement: in autocommit mode it
    stores every row of the batch or none (a bad row fails the whole batch,
    which the writer then retries row by row).

    Args:
        engine: a SQLAlchemy engine on PostgreSQL with psycopg2; the store
            takes one connection from its pool and keeps it, detached.
    """

    def __init__(self, engine):
        table = StreamEvent.__table__
        self.engine = engine
        columns = [c for c in table.columns if c.name != "id"]
        self.plain = [c.name for c in columns if not isinstance(c.type, JSON)]
        self.documents = [c.name for c in columns if isinstance(c.type, JSON)]
        self.statement = f"COPY {table.name} ({', '.join(self.plain + self.documents)}) FROM STDIN"
        self._conn = None  # a detached SQLAlchemy pool connection (proxy of the psycopg2 one)
        self._last_used = 0.0

    def payload(self, rows: list[dict]) -> bytes:
        """``rows`` (dicts keyed by column; a missing key is NULL) as COPY input, UTF-8."""
        plain, documents = self.plain, self.documents
        lines = [copy_line([row.get(c) for c in plain], [row.get(c) for c in documents]) for row in rows]
        lines.append("")
        return "\n".join(lines).encode("utf-8")

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
            dbapi = conn.dbapi_connection
            dbapi.autocommit = True
            if dbapi.encoding != "UTF8":
                dbapi.set_client_encoding("UTF8")  # the COPY data is UTF-8
            self._conn = conn
        return self._conn

    def insert_batch(self, rows: list[dict]) -> None:
        """Insert ``rows`` (dicts keyed by column) in one atomic COPY, or raise
        (``EventStore.insert_batch``).

        When a connection kept from an earlier batch turns out dead (the
        server restarted meanwhile), the batch is tried once more on a new
        connection, unless its first ``event_id`` is found there: the
        statement then did commit before the connection broke.
        """
        data = self.payload(rows)
        reused = self._conn is not None
        try:
            self._execute(data)
        except Exception as exc:
            if not lost_database(exc):
                raise
            self.close()
            if not reused:
                raise
            log.info("stream writer: connection lost (%s); reconnecting", exc)
            if not self._stored(rows[0]["event_id"]):
                self._execute(data)
        self._last_used = time.monotonic()

    def _execute(self, data: bytes) -> None:
        conn = self._connection()
        try:
            with conn.cursor() as cur:
                cur.copy_expert(self.statement, io.BytesIO(data), size=max(8192, len(data)))
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
