"""``POST /stream/api/v1``: ingest one event from the browser tag (docs/stream.md, "Answers").

Checks, in this order, each answered as ErrorMessage:

1. 413 body over ``STREAM_MAX_BYTES`` (while reading, before parsing);
2. 415 a content type other than application/json, text/plain or none;
3. 400 not a JSON object;
4. 429 with ``Retry-After``: over the per-visitor limit, (``t``, client IP)
   (``ratelimits.check_stream_limit``; counted once the body is known to be a
   JSON object, so the body is read and parsed once);
5. 400 the schema refuses it (the message names the field);
6. 401 token unknown, expired or revoked;
7. 403 Origin (else the Referer's origin) missing or not whitelisted for the
   token's customer;
8. 204 (no body) once the row is committed, or 503 with ``Retry-After`` when
   the database cannot take it.

Every answer to a request with an ``Origin`` header echoes it in
``Access-Control-Allow-Origin`` (``Vary: Origin``), so a page can read why
an event was refused.  ``OPTIONS`` answers the CORS preflight for origins
whitelisted by any customer.
"""
from __future__ import annotations

from flask import Response, current_app, request
from sqlalchemy.exc import SQLAlchemyError

from tagcrawl.web.edge import Blueprint, operation, read_capped
from tagcrawl.core.errors import ApiError
from tagcrawl.web.ratelimits import check_stream_limit
from tagcrawl.core.settings import current_settings, settings_of
from tagcrawl.core.utctime import app_now
from tagcrawl.web.stream_body import check_content_type, parse_object, validate_event
from tagcrawl.stream.origins import host_allowed, request_origin
from tagcrawl.stream.normalize import normalize
from tagcrawl.stream.tenants import all_patterns, lookup_token, token_problem
from tagcrawl.stream.writer import StoreUnavailable, get_writer

bp = Blueprint("stream", __name__)

PREFLIGHT_MAX_AGE_S = 7200


def _unavailable(reason: str) -> ApiError:
    retry = str(current_settings().stream_retry_after_s)
    return ApiError(503, f"Event not stored: {reason} Retry later.", {"Retry-After": retry})


@bp.after_request
def _cors(response: Response) -> Response:
    """Echo the request's Origin on every answer of the stream endpoint."""
    origin = request.headers.get("Origin")
    if origin and origin != "null":
        response.headers["Access-Control-Allow-Origin"] = origin
    if "Vary" in response.headers:
        response.vary.add("Origin")
    else:
        response.headers["Vary"] = "Origin"
    return response


def no_content() -> Response:
    """204 without a body nor a Content-Type."""
    response = Response(status=204)
    del response.headers["Content-Type"]
    return response


_ORIGIN = {"name": "Origin", "in": "header", "required": False, "schema": {"type": "string"},
           "description": "Origin of the page that sent the event (a browser sets it)."}


# The stream's answers are documented with ``doc(responses=...)`` rather than
# ``alt_response`` decorators, which would each wrap the view: this is the hot path.
@bp.route("/api/v1", methods=["OPTIONS"])
@bp.doc(**operation("CORS preflight of the ingestion endpoint", "preflight_event", tag="stream",
                    parameters=[_ORIGIN]),
        responses={204: {"description": "The origin is whitelisted by some customer: CORS headers, no body."},
                   403: "Forbidden", 503: "Unavailable"})
def preflight():
    """CORS preflight: 204 with the CORS headers for a whitelisted origin, else 403."""
    found = request_origin(request.headers.get("Origin"), None)
    try:
        allowed = found is not None and host_allowed(found[1], all_patterns())
    except SQLAlchemyError:
        current_app.logger.warning("stream preflight: database unavailable")
        raise _unavailable("the database is unavailable.") from None
    if not allowed:
        raise ApiError(403, "Origin is not whitelisted for streaming.")
    response = no_content()
    response.headers.update({
        "Access-Control-Allow-Methods": "POST",
        "Access-Control-Allow-Headers": "Content-Type",
        "Access-Control-Max-Age": str(PREFLIGHT_MAX_AGE_S),
    })
    return response


def accept_event() -> dict:
    """Run checks 1-7 on the current request and build its ``stream_events`` row.

    Returns:
        the normalized row (see ``normalize.normalize``), not yet stored.
    Raises:
        ApiError: 413, 415, 400, 429, 401, 403, or 503 when the token cannot
            be looked up (database down).
    """
    data = read_capped(request.environ, current_settings().stream_max_bytes)
    check_content_type(request.headers.get("Content-Type"))
    body = parse_object(data)
    check_stream_limit(body.get("t"))
    event = validate_event(body)
    now = app_now(current_app)
    try:
        info = lookup_token(event["t"])
    except SQLAlchemyError:
        current_app.logger.warning("stream token lookup: database unavailable")
        raise _unavailable("the database is unavailable.") from None
    problem = token_problem(info, now)
    if problem:
        raise ApiError(401, problem)
    found = request_origin(request.headers.get("Origin"), request.headers.get("Referer"))
    if found is None:
        raise ApiError(403, "No Origin or Referer header: the request origin cannot be checked.")
    if not host_allowed(found[1], info.patterns):
        raise ApiError(403, f"Origin {found[0]} is not whitelisted for this token's customer.")
    return normalize(event, customer_id=info.customer_id, origin_host=found[1], environ=request.environ,
                     received_at=now)


@bp.post("/api/v1")
@bp.doc(**operation(
    "Ingest one event from the browser tag", "ingest_event", tag="stream", parameters=[_ORIGIN],
    description="Checks, in order: size (413), content type (415), JSON and schema (400), token (401), "
                "Origin/Referer whitelist (403); 204 only once the row is committed. The token `t` in the body "
                "is the credential: the Origin check stops other sites' pages, not other clients. A "
                "`text/plain` body (what `navigator.sendBeacon` sends) or one with no content type is read as "
                "this same JSON object. In any string or key, a lone surrogate escape (`\\ud83d` without its "
                "pair: a JavaScript string cut inside an emoji) is stored as U+FFFD; `\\u0000` is refused (400). "
                "The rate limit counts the token `t` in its canonical spelling (case, braces and `urn:uuid:` do "
                "not make another token)."),
        requestBody={"required": True, "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/StreamEventRequest"}}}},
        responses={204: {"description": "Accepted: the event is stored (committed). No body."},
                   400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 413: "PayloadTooLarge",
                   415: "UnsupportedMediaType", 429: "RateLimited", 503: "Unavailable"})
def ingest():
    """Ingest one event; see the module docstring for the answers."""
    row = accept_event()
    app = current_app._get_current_object()
    try:
        get_writer(app).submit(row, settings_of(app).stream_ack_timeout_s)
    except StoreUnavailable as exc:
        raise _unavailable("the database could not commit it.") from exc
    return no_content()


preflight.provide_automatic_options = False  # OPTIONS is the preflight view itself
ingest.provide_automatic_options = False
