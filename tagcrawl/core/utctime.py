"""Times in UTC (core), shared by the query schemas (``schemas.queries``) and
the stored events' filters (``stream.events``), and the app's clock."""
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


#: ``app.extensions`` key of the app's clock (``create_app(clock=...)``).
CLOCK_KEY = "tagcrawl.clock"


def app_now(app) -> datetime:
    """Aware UTC now by the Flask ``app``'s clock (``create_app(clock=...)``;
    tests pass a fixed one, the default is the system clock)."""
    return app.extensions[CLOCK_KEY]()
