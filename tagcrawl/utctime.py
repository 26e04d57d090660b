"""Times in UTC (core), shared by the query schemas (``schemas.queries``) and
the stored events' filters (``stream.events``)."""
from __future__ import annotations

from datetime import datetime, timezone


def to_utc(moment: datetime) -> datetime:
    """``moment`` in UTC (naive = UTC already).  PostgreSQL refuses offsets past
    ±15:59 (RFC 3339 allows ±23:59), so times are converted before a query;
    one before year 1 in UTC becomes ``datetime.min`` (UTC)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    try:
        return moment.astimezone(timezone.utc)
    except OverflowError:
        return datetime.min.replace(tzinfo=timezone.utc)
