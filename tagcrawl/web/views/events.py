"""``GET /api/v1/events``: read stored events (API key required).

Query parameters, all optional: ``customer`` (name), ``domain`` (registrable
domain or host), ``vendor`` (catalog key), ``event`` (event name), ``since``
(inclusive) and ``until`` (exclusive) as ISO 8601 or a duration back from now
(``24h``, ``7d``), ``limit`` (1..1000, default 100; larger values are capped)
and ``cursor`` (``next_cursor`` of the previous page: a position
``<µs since the epoch>_<row id>``, ``schemas.queries.CURSOR_PATTERN``; every
value of that shape is accepted, its parts range-checked by ``decode_cursor``).

Answer: ``{"events": [event, ...], "next_cursor": str or null}``, events in
``(event_timestamp, id)`` order; ``next_cursor`` is null on the last page.
A bad parameter is a 400 ErrorMessage that names it.

Tenancy (``grants.py``): a key reads only the customers it is granted, or all
with the all-customers flag.  ``customer`` naming a customer the key is not
granted (or that does not exist) is a 403, the same answer for both, so a key
cannot probe customer names.
"""
from __future__ import annotations

from flask import g, jsonify, request

from tagcrawl.accounts.apikeys import require_api_key
from tagcrawl.web.edge import Blueprint, errors, load_query, operation
from tagcrawl.core.errors import ApiError
from tagcrawl.accounts.grants import granted_names, readable_customers
from tagcrawl.core.schemas import EventPageSchema
from tagcrawl.core.schemas.queries import EventListArgsSchema
from tagcrawl.stream.events import EventFilter, page_events, parse_time

bp = Blueprint("stream_events", __name__)


@bp.get("/events")
@bp.doc(**operation("Read stored events", "list_events", tag="stream", secured=True,
                    description="Only the customers this API key is granted (`flask keys grant`).",
                    parameters=[{"in": "query", "schema": EventListArgsSchema}]))
@require_api_key
@bp.response(200, EventPageSchema, description="One page, in (event_timestamp, id) order.")
@errors(bp, 400, 401, 403)
def list_events():
    """One page of stored events; see the module docstring."""
    args = load_query(EventListArgsSchema, request.args)
    customer = args.get("customer") or None
    readable = readable_customers(g.api_key)
    if readable is not None and customer is not None and customer not in granted_names(g.api_key):
        raise ApiError(403, "customer: this API key is not granted that customer.")
    flt = EventFilter(
        readable=readable,
        customer=customer,
        domain=args.get("domain") or None,
        vendor=args.get("vendor") or None,
        event=args.get("event") or None,
        since=parse_time(args["since"]) if args.get("since") else None,
        until=parse_time(args["until"]) if args.get("until") else None,
    )
    try:
        events, next_cursor = page_events(flt, args.get("cursor") or None, args["limit"])
    except ValueError as exc:
        raise ApiError(400, f"cursor: {exc}.") from None
    return jsonify({"events": events, "next_cursor": next_cursor})
