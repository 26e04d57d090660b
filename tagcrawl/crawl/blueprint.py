"""HTTP API of the crawl side: health, crawl, vendor list, screenshots."""
from __future__ import annotations

from flask import Blueprint, current_app, g, jsonify, request, send_from_directory
from marshmallow import ValidationError

from ..apikeys import require_api_key
from ..errors import ApiError, validation_error_response
from ..netguard import url_refusal
from ..schemas import CrawlRequestSchema
from ..vendors import catalog_listing
from .records import store_crawl
from .screenshots import NAME_RE, screenshot_dir
from .service import run_crawl

bp = Blueprint("crawl", __name__)


def read_json_body(limit: int):
    """Parse the request body as JSON after capping it at ``limit`` bytes.

    Returns the parsed value; raises ``ApiError`` 413 when the body is larger,
    and a ``ValidationError`` (422 ``json_invalid``) when it is not JSON.
    """
    request.max_content_length = limit
    if request.content_length is not None and request.content_length > limit:
        raise ApiError(413, f"Request body larger than {limit} bytes.")
    data = request.get_json(force=True, silent=True)
    if data is None:
        raise ValidationError({"_body": ["Body is not valid JSON."]})
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
            kind = "json_invalid" if "JSON." in err.messages["_body"][0] else "dict_type"
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
    outcome = run_crawl(current_app.config, request_json)
    response = outcome.response
    if response.get("screenShotUrls"):
        root = request.host_url.rstrip("/")
        response["screenShotUrls"] = {k: (root + v if v.startswith("/") else v)
                                      for k, v in response["screenShotUrls"].items()}
    store_crawl(request_json, response, g.api_key.id)
    return jsonify(response)


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
