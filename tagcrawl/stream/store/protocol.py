"""The seam between the stream's group-commit writer and the database.

``EventStore`` is what ``writer.GroupWriter`` needs of a database: put a
batch of ``stream_events`` rows in, all or nothing, and say whether a failure
was the database going away (``lost_database``) or a row it refused.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from sqlalchemy import exc as sa_exc


@runtime_checkable
class EventStore(Protocol):
    """Stores batches of ``stream_events`` rows, each batch all or nothing.

    Used by one thread at a time (the writer's): implementations need not be
    thread-safe.  Implemented by ``copy.CopyStore`` (PostgreSQL ``COPY``) and
    ``executemany.ExecutemanyStore`` (any database, SQLite in development);
    ``open_store`` picks one for an engine.
    """

    def insert_batch(self, rows: list[dict]) -> None:
        """Insert and commit ``rows``, or none of them.

        Args:
            rows: one dict per row, keyed by ``stream_events`` column
                (``normalize.normalize`` builds them); a missing key is NULL,
                ``id`` is never given.  The batch size is the writer's
                ``STREAM_BATCH_SIZE`` at most (one when it retries row by row).
        Raises:
            Exception: nothing of the batch was stored.  ``lost_database(exc)``
                is true when the database could not be reached or the
                connection dropped (the writer then fails the whole batch);
                any other error is a row the database refused (constraint,
                value; the writer then retries the rows one by one).
        """

    def close(self) -> None:
        """Release what the store holds between batches (its connection).

        Never raises; the next ``insert_batch`` opens what it needs again."""


def lost_database(exc: BaseException) -> bool:
    """True for a connection failure (refused, dropped), as opposed to a bad row.

    Covers SQLAlchemy's wrapped errors and psycopg2's own (OperationalError,
    InterfaceError and their subclasses, e.g. AdminShutdown).
    """
    if isinstance(exc, sa_exc.DBAPIError):
        return isinstance(exc, sa_exc.OperationalError) or bool(exc.connection_invalidated)
    return any(cls.__name__ in ("OperationalError", "InterfaceError") for cls in type(exc).__mro__)
