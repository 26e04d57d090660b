"""Response bodies of the endpoints beyond spec.md (documented in the OpenAPI
document, see ``openapi.py``); dump-only, never used to load requests."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

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


def _nullable_str(**metadata) -> fields.String:
    return fields.String(required=True, allow_none=True, metadata=metadata)


def _nullable_int() -> fields.Integer:
    return fields.Integer(required=True, allow_none=True)


class StoredEventSchema(Schema):
    """One stored event, as ``GET /api/v1/events`` lists it (``stream/events.py``)."""

    event_id = fields.String(required=True)
    customer = _nullable_str()
    received_at = fields.String(required=True, metadata={"format": "date-time"})
    event_timestamp = fields.String(required=True, metadata={"format": "date-time"})
    client_timestamp = _nullable_int()
    clock_skew_ms = _nullable_int()
    vendor = fields.String(required=True)
    vendor_name = fields.String(required=True)
    event_name = fields.String(required=True)
    domain = _nullable_str()
    host = _nullable_str()
    page_url = _nullable_str()
    page_path = _nullable_str()
    vendor_url = _nullable_str()
    http_method = _nullable_str()
    deployment_method = _nullable_str()
    tag_version = _nullable_str()
    deployment_version = _nullable_str()
    release = _nullable_str()
    environment = _nullable_str()
    container = _nullable_str()
    execution_ms = _nullable_int()
    vendor_event_id = _nullable_str()
    consent_state = _nullable_str()
    session_id = _nullable_str()
    customer_ref = _nullable_str()
    system = _nullable_str()
    details = fields.Raw(required=True, allow_none=True)
    extra = fields.Raw(required=True, allow_none=True)
    browser_family = _nullable_str()
    browser_version = _nullable_str()
    os_family = _nullable_str()
    os_version = _nullable_str()
    device_family = _nullable_str()
    is_bot = fields.Boolean(required=True, allow_none=True)
    ip_prefix = _nullable_str()
    user_agent = _nullable_str()


class EventPageSchema(Schema):
    """``GET /api/v1/events``: one page of events and the cursor of the next."""

    events = fields.List(fields.Nested(StoredEventSchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True, metadata={
        "pattern": CURSOR_PATTERN, "description": "The `cursor` of the next page; null on the last page."})
