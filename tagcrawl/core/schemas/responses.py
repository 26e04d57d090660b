"""Response bodies of the endpoints beyond the crawl and stream resources (documented in the OpenAPI
document, see ``openapi.py``); dump-only, never used to load requests."""
from __future__ import annotations

from marshmallow import Schema, fields, validate
from sqlalchemy import JSON, Boolean, DateTime, Integer, String

from tagcrawl.core.models import StreamEvent
from tagcrawl.core.schemas.queries import CURSOR_PATTERN


class ValidationErrorItemSchema(Schema):
    """One entry of the 422 ``detail`` list."""

    loc = fields.List(fields.Raw(metadata={"anyOf": [{"type": "string"}, {"type": "integer"}]}), required=True)
    msg = fields.String(required=True)
    type = fields.String(required=True)


class VendorSchema(Schema):
    """One vendor of the catalog (``GET /api/v1/vendors``)."""

    key = fields.String(required=True)
    name = fields.String(required=True)
    aliases = fields.List(fields.String(), required=True)
    category = fields.String(required=True)


class CrawlSummarySchema(Schema):
    """One crawl of ``GET /api/v1/crawls``."""

    sessionId = fields.String(required=True)
    url = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["queued", "running", "done", "failed"]))
    success = fields.Boolean(required=True, allow_none=True)
    createdAt = fields.String(required=True, metadata={"format": "date-time"})


#: A listed event's fields (``GET /api/v1/events``, ``flask events export``) and the
#: ``stream_events`` column each one shows: every column of ``models.StreamEvent`` but ``id``,
#: in table order; ``customer_id`` is shown as ``customer``, the customer's name.
#: ``stream/events.py`` lists these names (``FIELDS``); built once, at import.
STORED_EVENT_COLUMNS = {("customer" if column.name == "customer_id" else column.name): column
                        for column in StreamEvent.__table__.columns if column.name != "id"}


def _stored_field(name: str, column) -> fields.Field:
    """The response field of one ``stream_events`` column: required, null where the
    column is nullable; times as ISO 8601 strings, JSON columns as any JSON.

    Raises:
        TypeError: a column type with no field here (add it before listing the column).
    """
    kind = column.type
    if name == "customer" or isinstance(kind, String):
        field, metadata = fields.String, {}
    elif isinstance(kind, DateTime):
        field, metadata = fields.String, {"format": "date-time"}
    elif isinstance(kind, Boolean):
        field, metadata = fields.Boolean, {}
    elif isinstance(kind, Integer):
        field, metadata = fields.Integer, {}
    elif isinstance(kind, JSON):
        field, metadata = fields.Raw, {}
    else:
        raise TypeError(f"stream_events.{column.name}: no response field for {kind!r}")
    if column.nullable:
        return field(required=True, allow_none=True, metadata=metadata)
    return field(required=True, metadata=metadata)


class StoredEventSchema(Schema.from_dict({name: _stored_field(name, column)
                                          for name, column in STORED_EVENT_COLUMNS.items()})):
    """One stored event, as ``GET /api/v1/events`` lists it (``stream/events.py``):
    one field per ``STORED_EVENT_COLUMNS`` entry, typed after its column."""


class EventPageSchema(Schema):
    """``GET /api/v1/events``: one page of events and the cursor of the next."""

    events = fields.List(fields.Nested(StoredEventSchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True, metadata={
        "pattern": CURSOR_PATTERN, "description": "The `cursor` of the next page; null on the last page."})
