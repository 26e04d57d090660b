"""The portable event store: SQLAlchemy Core ``INSERT`` executemany in one transaction."""
from __future__ import annotations

from tagcrawl.core.models import StreamEvent


class ExecutemanyStore:
    """``EventStore`` for any database SQLAlchemy speaks (SQLite in development):
    one ``INSERT`` executemany in ``engine.begin()`` per batch, so the batch
    commits whole or rolls back.

    Args:
        engine: the SQLAlchemy engine; a pool connection is taken per batch.
    """

    def __init__(self, engine):
        self.engine, self.table = engine, StreamEvent.__table__

    def insert_batch(self, rows: list[dict]) -> None:
        """Insert and commit ``rows`` (dicts keyed by column), or raise (``EventStore.insert_batch``)."""
        with self.engine.begin() as conn:
            conn.execute(self.table.insert(), rows)

    def close(self) -> None:
        """Nothing held between batches."""
