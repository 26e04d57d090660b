"""HTTP API of the crawl side: the crawl API (``bp``, registered at ``/api/v1``),
and the health check and screenshots (``meta``, registered at the root).

Each view declares its contract with flask-smorest (see ``edge.py``); the
OpenAPI document is generated from those declarations.
"""
from __future__ import annotations

import uuid

from flask import current_app, g, jsonify, request, send_from_directory

from tagcrawl.accounts.apikeys import require_api_key
from tagcrawl.web.edge import Blueprint, errors, load_query, operation
from tagcrawl.core.errors import ApiError
from tagcrawl.core.extensions import db
from tagcrawl.core.models import Crawl, CrawlHar
from tagcrawl.core.netguard import url_refusal
from tagcrawl.web.ratelimits import crawl_key, crawl_limit, crawl_limit_off, rate_limited
from tagcrawl.core.schemas import (CrawlRequestSchema, CrawlResponseSchema, CrawlSummarySchema, HealthCheckResponseSchema,
                       VendorSchema)
from tagcrawl.core.settings import current_settings
from tagcrawl.core.schemas.queries import CrawlListArgsSchema, parse_rfc3339
from tagcrawl.engine.vendors import catalog_listing
from tagcrawl.audit.runner import audit_queue, ensure_worker
from tagcrawl.crawl.jobs import status_response
from tagcrawl.crawl.queued import enqueue_crawl
from tagcrawl.crawl.outcome import service_answer
from tagcrawl.crawl.records import store_crawl
from tagcrawl.crawl.screenshots import NAME_RE, screenshot_dir
from tagcrawl.crawl.service import run_crawl

bp = Blueprint("crawl", __name__)
meta = Blueprint("meta", __name__)


@meta.get("/")
@meta.doc(**operation("Health check", "health", tag="meta"))
@meta.response(200, HealthCheckResponseSchema, description="Always `{\"status\": 200}`.")
def health():
    """Health check: ``{"status": 200}``."""
    return jsonify({"status": 200})


@bp.post("")
@bp.doc(**operation(
    "Crawl a page", "crawl", tag="crawl", secured=True,
    description="Loads the page in headless Chrome and reports pixels, consent, cookies, blocking, rules and "
                "screenshots. Any content type is read as JSON; a lone surrogate escape (`\\ud800` without its "
                "pair) in a string is read as U+FFFD, `\\u0000` is refused (422 `string_unicode`). With "
                "`options.webhook` the call returns at once (`message: \"queued\"`). `screenShotUrls` are "
                "absolute with the service's configured public URL, else paths on this service."))
@rate_limited(crawl_limit, key_func=crawl_key, exempt_when=crawl_limit_off)
@require_api_key
@bp.arguments(CrawlRequestSchema)
@bp.response(200, CrawlResponseSchema, description="The crawl report; `success` is false when the page could "
                                                   "not be crawled, was blocked or answered 4xx/5xx (see `error`, "
                                                   "`pageStatus`). A failure of the service is 503 or 504.")
@errors(bp, 401, 413, 422, 429, 503, 504)
def crawl(data: dict):
    """Crawl a page (docs/api.md, "Crawl a page").  ``data``: the loaded CrawlRequest (422 before this on a bad body)."""
    schema = CrawlRequestSchema()
    refusal = url_refusal(data["url"], current_settings().allow_private_targets)
    if refusal:
        return jsonify({"detail": [{"loc": ["body", "url"], "msg": f"Refused target: {refusal}.",
                                    "type": "url_refused"}]}), 422
    options = data.get("options") or {}
    if options.get("webhook") and not g.api_key.webhook_url:
        return jsonify({"detail": [{"loc": ["body", "options", "webhook"], "type": "webhook_not_configured",
                                    "msg": "This API key has no webhook URL; set one with `keys set-webhook`."}]}), 422
    request_json = schema.dump(data)
    if options.get("webhook"):
        request_json["session_id"] = request_json.get("session_id") or str(uuid.uuid4())
        enqueue_crawl(request_json, g.api_key.id)
        app = current_app._get_current_object()
        if current_settings().background == "threads" or not audit_queue(app).durable:
            ensure_worker(app)  # else `flask worker` runs its job; an in-memory queue's jobs live here only
        return jsonify({"sessionId": request_json["session_id"], "url": request_json["url"],
                        "success": True, "message": "queued"})
    outcome = run_crawl(current_settings(), request_json)
    response = outcome.response  # screenShotUrls from settings only (crawl/screenshots.py), never the Host header
    store_crawl(request_json, response, g.api_key.id, outcome.requests, current_settings())
    failed = service_answer(outcome.report)  # the service could not crawl: 503 / 504 (crawl/outcome.py)
    reply = jsonify(response if failed is None else failed[1])
    if failed is not None:
        reply.status_code = failed[0]
        reply.headers.update(failed[2])
    reply.headers["Server-Timing"] = outcome.timings.server_timing()  # per-phase ms (docs/stealth.md)
    return reply


@bp.get("/crawls/<session_id>")
@bp.doc(**operation("One crawl's result", "get_crawl", tag="crawl", secured=True))
@require_api_key
@bp.response(200, CrawlResponseSchema, description="The stored report, or `{sessionId, url, success: false, "
                                                   "message: <queued|running>}` while it runs.")
@errors(bp, 401, 404)
def crawl_result(session_id: str):
    """The stored CrawlResponse of this key's latest crawl with ``session_id``,
    or its status while queued/running.  404 for other keys' crawls."""
    crawl = None if "\x00" in session_id else db.session.scalars(  # PostgreSQL refuses NUL in text
        db.select(Crawl).filter_by(session_id=session_id, api_key_id=g.api_key.id).order_by(Crawl.id.desc())).first()
    if crawl is None:
        raise ApiError(404, "No crawl with this sessionId for this API key.")
    return jsonify(status_response(crawl))


@bp.get("/crawls/<session_id>/har")
@bp.doc(**operation(
    "One crawl's traffic as HAR 1.2", "get_crawl_har", tag="crawl", secured=True,
    description="Every captured request with its decoded body (capped), frame (`_frameUrl`) and send time; "
                "cookie and authorization headers redacted unless the key opted in (docs/har.md)."))
@require_api_key
@bp.response(200, {"$ref": "#/components/schemas/Har"}, description="The HAR 1.2 document (docs/har.md).")
@errors(bp, 401, 404)
def crawl_har(session_id: str):
    """The HAR 1.2 document of this key's latest finished crawl with
    ``session_id``: every captured request with its decoded body, frame and
    time (docs/har.md).  404 for other keys' crawls, unfinished crawls and
    crawls stored without traffic."""
    crawl = None if "\x00" in session_id else db.session.scalars(
        db.select(Crawl).filter_by(session_id=session_id, api_key_id=g.api_key.id)
        .where(Crawl.status.in_(("done", "failed"))).order_by(Crawl.id.desc())).first()
    row = db.session.get(CrawlHar, crawl.id) if crawl is not None else None
    if row is None:
        raise ApiError(404, "No captured traffic for this sessionId and API key.")
    return current_app.response_class(row.har, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{crawl.session_id}.har"'})


@bp.get("/crawls")
@bp.doc(**operation("List this key's crawls", "list_crawls", tag="crawl", secured=True, parameters=[
    {"in": "query", "schema": CrawlListArgsSchema}]))
@require_api_key
@bp.response(200, CrawlSummarySchema(many=True), description="Newest first.")
@errors(bp, 400, 401)
def crawl_list():
    """This key's crawls since ``since`` (ISO 8601), newest first, at most
    ``limit`` (default 100, max 500): ``[{sessionId, url, status, success, createdAt}]``."""
    args = load_query(CrawlListArgsSchema, request.args)
    query = db.select(Crawl).filter_by(api_key_id=g.api_key.id).order_by(Crawl.id.desc())
    if args.get("since"):
        query = query.where(Crawl.created_at >= parse_rfc3339(args["since"]))
    limit = min(500, max(1, args["limit"]))
    rows = db.session.scalars(query.limit(limit))
    return jsonify([{"sessionId": c.session_id, "url": c.url, "status": c.status, "success": c.success,
                     "createdAt": c.created_at.isoformat()} for c in rows])


@bp.get("/vendors")
@bp.doc(**operation("The vendor catalog", "list_vendors", tag="crawl", secured=True))
@require_api_key
@bp.response(200, VendorSchema(many=True), description="Sorted by key.")
@errors(bp, 401)
def vendors():
    """The vendor catalog: ``[{key, name, aliases, category}]``."""
    return jsonify(catalog_listing())


@meta.get("/screenshots/<name>")
@meta.doc(**operation("A screenshot", "get_screenshot", tag="crawl"))
@meta.response(200, description="PNG image.", content_type="image/png")
@errors(meta, 404)
def screenshot(name: str):
    """A screenshot PNG by its unguessable name."""
    if not NAME_RE.match(name):
        raise ApiError(404, "No such screenshot.")
    return send_from_directory(screenshot_dir(current_settings()), name, mimetype="image/png")
