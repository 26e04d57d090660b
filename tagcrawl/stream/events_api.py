"""``GET /api/v1/events``: read stored events (API key required).

Query parameters, all optional: ``customer`` (name), ``domain`` (registrable
domain or host), ``vendor`` (catalog key), ``event`` (event name), ``since``
(inclusive) and ``until`` (exclusive) as ISO 8601 or a duration back from now
(``24h``, ``7d``), ``limit`` (1..1000, default 100; larger values are capped)
and ``cursor`` (``next_cursor`` of the previous page).

Answer: ``{"events": [event, ...], "next_cursor": str or null}``, events in
``(event_timestamp, id)`` order; ``next_cursor`` is null on the last page.
A bad parameter is a 400 ErrorMessage that names it.
"""
from __future__ import annotations

from flask import jsonify, request

from ..apikeys import require_api_key
from ..edge import Blueprint, operation, query
from ..errors import ApiError
from ..schemas import EventPageSchema
from .events import PAGE_DEFAULT, EventFilter, page_events, parse_time

bp = Blueprint("stream_events", __name__, description="Reading stored events (API key).")


def _time_arg(name: str):
    value = request.args.get(name)
    if not value:
        return None
    try:
        return parse_time(value)
    except ValueError as exc:
        raise ApiError(400, f"{name}: {exc}.") from None


def _limit_arg() -> int:
    value = request.args.get("limit")
    if value is None or value == "":
        return PAGE_DEFAULT
    try:
        limit = int(value)
    except ValueError:
        raise ApiError(400, "limit: Not a valid integer.") from None
    if limit < 1:
        raise ApiError(400, "limit: Must be 1 or more.")
    return limit


@bp.get("/events")
@bp.doc(**operation("Read stored events", "stream_events_list_events", tag="stream", secured=True, parameters=[
    query("customer", "Customer name."), query("domain", "Registrable domain or host."),
    query("vendor", "Catalog key."), query("event", "Event name."),
    query("since", "Inclusive: ISO 8601, or a duration back from now (`24h`, `7d`)."),
    query("until", "Exclusive: ISO 8601, or a duration back from now."),
    query("limit", "Page size, 1..1000 (larger is capped).", {"type": "integer"}),
    query("cursor", "`next_cursor` of the previous page.")]))
@require_api_key
@bp.response(200, EventPageSchema, description="One page, in (event_timestamp, id) order.")
@bp.alt_response(400, response="BadRequest")
@bp.alt_response(401, response="Unauthorized")
def list_events():
    """One page of stored events; see the module docstring."""
    flt = EventFilter(
        customer=request.args.get("customer") or None,
        domain=request.args.get("domain") or None,
        vendor=request.args.get("vendor") or None,
        event=request.args.get("event") or None,
        since=_time_arg("since"),
        until=_time_arg("until"),
    )
    try:
        events, next_cursor = page_events(flt, request.args.get("cursor") or None, _limit_arg())
    except ValueError as exc:
        raise ApiError(400, f"cursor: {exc}.") from None
    return jsonify({"events": events, "next_cursor": next_cursor})
