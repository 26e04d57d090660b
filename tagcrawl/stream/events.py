"""Reading stored events: filters, keyset pagination, export rows.

Events are read in ``(event_timestamp, id)`` order.  A page ends with a
cursor, the position of its last row (``<µs since the epoch>_<row id>``); the
next page starts after it, so pages never skip nor repeat rows whatever
arrives meanwhile.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Iterator

from sqlalchemy import or_, tuple_

from tagcrawl.core.extensions import db
from tagcrawl.core.models import Customer, StreamEvent
from tagcrawl.core.schemas.queries import CURSOR_RE
from tagcrawl.core.schemas.responses import STORED_EVENT_COLUMNS
from tagcrawl.core.utctime import to_utc

PAGE_DEFAULT = 100
PAGE_MAX = 1000

#: Fields of an exported / listed event, in order (``customer`` is the name): the columns of
#: ``stream_events`` but ``id`` (``schemas.STORED_EVENT_COLUMNS``, derived from the model).
FIELDS = list(STORED_EVENT_COLUMNS)

_RELATIVE = re.compile(r"^(\d+)\s*([smhdw])$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


@dataclass(frozen=True)
class EventFilter:
    """Which events to read.  ``since`` is inclusive, ``until`` exclusive
    (aware datetimes, compared with ``event_timestamp``); ``domain`` matches
    the registrable domain or the host; the others are exact.  ``readable``:
    None (no tenancy limit: admin keys, the CLI) or a SELECT of the customer
    ids the caller may read (``grants.readable_customers``)."""

    customer: str | None = None
    domain: str | None = None
    vendor: str | None = None
    event: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    readable: object | None = None


def parse_time(text: str, now: datetime | None = None) -> datetime:
    """ISO 8601 (``2024-05-01``, ``2024-05-01T12:00:00Z``; naive = UTC) or a
    duration back from ``now`` (``90s``, ``15m``, ``24h``, ``7d``, ``2w``).

    Returns an aware datetime; raises ValueError otherwise.
    """
    value = (text or "").strip()
    match = _RELATIVE.match(value.lower())
    if match:
        now = now or datetime.now(timezone.utc)
        try:
            return now - timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})
        except OverflowError:  # further back than year 1: every event
            return datetime.min.replace(tzinfo=timezone.utc)
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ValueError(f"{text!r} is not an ISO 8601 time nor a duration like 24h or 7d") from None
    return to_utc(parsed)


# A cursor is a position in ``(event_timestamp, id)`` order: ``<µs since 1970-01-01 UTC>_<row id>``
# (``schemas.queries.CURSOR_PATTERN``).  Any string of this shape is a valid position; values outside
# what can be stored are clamped to the first or last position, which leaves the page exact.
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MICRO = timedelta(microseconds=1)
#: Bounds of a position: the ``datetime`` range, and row ids of a signed 64-bit column (PostgreSQL
#: ``bigint``, SQLite ``INTEGER``; a larger Python int cannot be bound: SQLite raised OverflowError).
_FIRST_US = (datetime.min.replace(tzinfo=timezone.utc) - _EPOCH) // _MICRO
_LAST_US = (datetime.max.replace(tzinfo=timezone.utc) - _EPOCH) // _MICRO
ID_MAX = 2 ** 63 - 1


def encode_cursor(event_timestamp: datetime, row_id: int) -> str:
    """The cursor of the row ``(event_timestamp, id)``: ``"<µs since the epoch>_<id>"`` (``CURSOR_PATTERN``)."""
    return f"{(_aware(event_timestamp) - _EPOCH) // _MICRO}_{row_id}"


def decode_cursor(cursor: str) -> tuple[datetime, int]:
    """The position ``(aware UTC datetime, row id)`` of a cursor; inverse of ``encode_cursor``.

    Bounds, checked before any conversion: at most 19 digits each
    (``CURSOR_PATTERN``).  A time outside ``datetime``'s range or an id over
    ``ID_MAX`` is clamped: before the first position it becomes
    ``(datetime.min, 0)`` (every row follows it), after the last
    ``(datetime.max, ID_MAX)`` (none does), so the page is the one the
    position asks for, and no value reaches the database out of its range.

    Raises:
        ValueError: ``cursor`` does not have the cursor's shape.
    """
    match = CURSOR_RE.match(cursor) if isinstance(cursor, str) else None
    if match is None:
        raise ValueError("not a cursor returned by this API (<microseconds>_<id>)")
    micros, row_id = int(match.group(1)), int(match.group(2))
    if micros < _FIRST_US:
        return datetime.min.replace(tzinfo=timezone.utc), 0
    if micros > _LAST_US:
        return datetime.max.replace(tzinfo=timezone.utc), ID_MAX
    return _EPOCH + micros * _MICRO, min(row_id, ID_MAX)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def _filtered(query, flt: EventFilter):
    """``query`` narrowed by ``flt``.  The customer is matched by id (a scalar
    subquery on its unique name), so PostgreSQL can read the rows in order from
    ``ix_stream_events_customer_time``."""
    if flt.customer:
        customer_id = db.select(Customer.id).where(Customer.name == flt.customer).scalar_subquery()
        query = query.where(StreamEvent.customer_id == customer_id)
    if flt.readable is not None:
        query = query.where(StreamEvent.customer_id.in_(flt.readable))
    if flt.domain:
        domain = flt.domain.strip().lower()
        query = query.where(or_(StreamEvent.domain == domain, StreamEvent.host == domain))
    if flt.vendor:
        query = query.where(StreamEvent.vendor == flt.vendor)
    if flt.event:
        query = query.where(StreamEvent.event_name == flt.event)
    if flt.since:
        query = query.where(StreamEvent.event_timestamp >= flt.since)
    if flt.until:
        query = query.where(StreamEvent.event_timestamp < flt.until)
    return query


def count_events(flt: EventFilter) -> int:
    """How many events match ``flt``."""
    query = db.select(db.func.count(StreamEvent.id)).select_from(StreamEvent)
    return db.session.scalar(_filtered(query, flt)) or 0


def to_dict(event: StreamEvent, customer: str | None) -> dict:
    """One event as a JSON-ready dict with the ``FIELDS`` keys (times ISO 8601 UTC)."""
    out = {}
    for name in FIELDS:
        value = customer if name == "customer" else getattr(event, name)
        out[name] = _aware(value).isoformat() if isinstance(value, datetime) else value
    return out


def page_events(flt: EventFilter, cursor: str | None = None,
                limit: int = PAGE_DEFAULT) -> tuple[list[dict], str | None]:
    """One page of events after ``cursor``.

    Args:
        flt: the filters.
        cursor: from the previous page, or None for the first.
        limit: page size, clamped to 1..PAGE_MAX.
    Returns:
        ``(events as dicts, next cursor or None when this was the last page)``.
    Raises:
        ValueError: a cursor that this API did not issue.
    """
    limit = max(1, min(int(limit), PAGE_MAX))
    query = (db.select(StreamEvent, Customer.name)
             .outerjoin(Customer, Customer.id == StreamEvent.customer_id)
             .order_by(StreamEvent.event_timestamp, StreamEvent.id)
             .limit(limit + 1))
    query = _filtered(query, flt)
    if cursor:
        stamp, row_id = decode_cursor(cursor)
        # A row-value comparison, not ``ts > s OR (ts = s AND id > r)``: the
        # index on (event_timestamp, id) can seek to it, so a page deep in a
        # large table costs what the first one does.
        query = query.where(tuple_(StreamEvent.event_timestamp, StreamEvent.id) > tuple_(stamp, row_id))
    rows = db.session.execute(query).all()
    more = len(rows) > limit
    rows = rows[:limit]
    events = [to_dict(event, name) for event, name in rows]
    next_cursor = encode_cursor(rows[-1][0].event_timestamp, rows[-1][0].id) if more else None
    db.session.expunge_all()  # keep the session small while exporting many pages
    return events, next_cursor


def iter_events(flt: EventFilter, page_size: int = PAGE_MAX) -> Iterator[dict]:
    """Every matching event, page by page (constant memory)."""
    cursor = None
    while True:
        events, cursor = page_events(flt, cursor, page_size)
        yield from events
        if cursor is None:
            return
