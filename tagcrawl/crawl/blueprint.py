"""HTTP API of the crawl side: health, crawl, vendor list, screenshots."""
from __future__ import annotations

import uuid

from flask import Blueprint, current_app, g, jsonify, request, send_from_directory
from marshmallow import ValidationError

from ..apikeys import require_api_key
from ..background import ensure_started
from ..extensions import db
from ..models import Crawl, CrawlHar
from ..errors import ApiError, validation_error_response
from ..netguard import url_refusal
from ..schemas import DEPTH_MSG, MESSAGE_TYPES, CrawlRequestSchema, strict_json_loads, unicode_problem
from ..schemas.queries import CrawlListArgsSchema, first_error, parse_rfc3339
from ..vendors import catalog_listing
from .jobs import enqueue_crawl, status_response
from .records import store_crawl
from .screenshots import NAME_RE, screenshot_dir
from .service import run_crawl

bp = Blueprint("crawl", __name__)


def read_json_body(limit: int):
    """Parse the request body as JSON after capping it at ``limit`` bytes.

    Returns the parsed value; raises ``ApiError`` 413 when the body is larger,
    and a ``ValidationError`` (422 ``json_invalid``) when it is not JSON.
    """
    request.max_content_length = limit + 1  # a chunked body is read up to one byte past the limit
    if request.content_length is not None and request.content_length > limit:
        raise ApiError(413, f"Request body larger than {limit} bytes.")
    raw = request.get_data(cache=True)
    if len(raw) > limit:
        raise ApiError(413, f"Request body larger than {limit} bytes.")
    try:  # strict: UTF-8, no NaN/Infinity nor out-of-range numbers (none of them can be stored)
        text = raw.decode("utf-8-sig")
        data = strict_json_loads(text)
    except RecursionError:
        raise ValidationError({"_body": [DEPTH_MSG]}) from None
    except ValueError:
        raise ValidationError({"_body": ["Body is not valid JSON."]}) from None
    problem = unicode_problem(data, text)
    if problem:
        raise ValidationError({"_body": [problem]})
    return data


@bp.get("/")
def health():
    """Health check: ``{"status": 200}``."""
    return jsonify({"status": 200})


@bp.post("/api/v1")
@require_api_key
def crawl():
    """Crawl a page (spec 4.2).  422 on a bad body, 401 without a valid key."""
    schema = CrawlRequestSchema()
    try:
        body = read_json_body(current_app.config["CRAWL_MAX_BYTES"])
        if not isinstance(body, dict):
            raise ValidationError({"_body": ["Body must be a JSON object."]})
        data = schema.load(body)
    except ValidationError as err:
        if "_body" in err.messages:
            kind = MESSAGE_TYPES.get(err.messages["_body"][0]) or (
                "json_invalid" if "JSON." in err.messages["_body"][0] else "dict_type")
            return jsonify({"detail": [{"loc": ["body"], "msg": err.messages["_body"][0], "type": kind}]}), 422
        return validation_error_response(err, schema)
    refusal = url_refusal(data["url"], current_app.config.get("ALLOW_PRIVATE_TARGETS", False))
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
        ensure_started(current_app._get_current_object()).wake()
        return jsonify({"sessionId": request_json["session_id"], "url": request_json["url"],
                        "success": True, "message": "queued"})
    outcome = run_crawl(current_app.config, request_json)
    response = outcome.response
    if response.get("screenShotUrls"):
        root = request.host_url.rstrip("/")
        response["screenShotUrls"] = {k: (root + v if v.startswith("/") else v)
                                      for k, v in response["screenShotUrls"].items()}
    store_crawl(request_json, response, g.api_key.id, outcome.requests, current_app.config)
    reply = jsonify(response)
    reply.headers["Server-Timing"] = outcome.timings.server_timing()  # per-phase ms (docs/stealth.md)
    return reply


@bp.get("/api/v1/crawls/<session_id>")
@require_api_key
def crawl_result(session_id: str):
    """The stored CrawlResponse of this key's latest crawl with ``session_id``,
    or its status while queued/running.  404 for other keys' crawls."""
    crawl = None if "\x00" in session_id else db.session.scalars(  # PostgreSQL refuses NUL in text
        db.select(Crawl).filter_by(session_id=session_id, api_key_id=g.api_key.id).order_by(Crawl.id.desc())).first()
    if crawl is None:
        raise ApiError(404, "No crawl with this sessionId for this API key.")
    return jsonify(status_response(crawl))


@bp.get("/api/v1/crawls/<session_id>/har")
@require_api_key
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


@bp.get("/api/v1/crawls")
@require_api_key
def crawl_list():
    """This key's crawls since ``since`` (ISO 8601), newest first, at most
    ``limit`` (default 100, max 500): ``[{sessionId, url, status, success, createdAt}]``."""
    try:
        args = CrawlListArgsSchema().load(request.args)
    except ValidationError as err:
        raise ApiError(400, first_error(err) + ".") from None
    query = db.select(Crawl).filter_by(api_key_id=g.api_key.id).order_by(Crawl.id.desc())
    if args.get("since"):
        query = query.where(Crawl.created_at >= parse_rfc3339(args["since"]))
    limit = min(500, max(1, args["limit"]))
    rows = db.session.scalars(query.limit(limit))
    return jsonify([{"sessionId": c.session_id, "url": c.url, "status": c.status, "success": c.success,
                     "createdAt": c.created_at.isoformat()} for c in rows])


@bp.get("/api/v1/vendors")
@require_api_key
def vendors():
    """The vendor catalog: ``[{key, name, aliases, category}]``."""
    return jsonify(catalog_listing())


@bp.get("/screenshots/<name>")
def screenshot(name: str):
    """A screenshot PNG by its unguessable name."""
    if not NAME_RE.match(name):
        raise ApiError(404, "No such screenshot.")
    return send_from_directory(screenshot_dir(current_app.config), name, mimetype="image/png")
