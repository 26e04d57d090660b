"""Where the stream's rows go: the ``EventStore`` seam and its two stores.

- ``copy.CopyStore``: PostgreSQL with psycopg2, one ``COPY ... FROM STDIN``
  per batch on a dedicated autocommit connection (the fast path).
- ``executemany.ExecutemanyStore``: anything else (SQLite in development),
  SQLAlchemy Core ``executemany`` in ``engine.begin()``.

``open_store(engine)`` picks the store for an engine; ``writer.GroupWriter``
receives it and knows nothing of engines.
"""
from __future__ import annotations

from tagcrawl.stream.store.copy import CopyStore
from tagcrawl.stream.store.executemany import ExecutemanyStore
from tagcrawl.stream.store.protocol import EventStore, lost_database

__all__ = ["CopyStore", "EventStore", "ExecutemanyStore", "lost_database", "open_store"]


def open_store(engine) -> EventStore:
    """The fastest store for ``engine`` (a SQLAlchemy engine): ``CopyStore`` on
    PostgreSQL with psycopg2, else ``ExecutemanyStore``.  Opens no connection:
    the first ``insert_batch`` does."""
    if engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg2":
        return CopyStore(engine)
    return ExecutemanyStore(engine)
