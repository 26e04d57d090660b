"""The OpenAPI 3.1 document of tagcrawl, generated from ``schemas.py``.

``build_spec(app)`` returns the document as a dict: apispec with its
marshmallow plugin turns the same schemas that validate and dump the bodies
into components, and ``OPERATIONS`` (data, one entry per operation) adds the
paths.  An operation whose endpoint is not registered in ``app`` is left out,
so the document never lists a route that the app does not serve.
``document(app)`` caches it per app; ``docs_blueprint.py`` serves it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask

from . import __version__, schemas

OPENAPI_VERSION = "3.1.0"
SECURITY = [{"ApiKeyAuth": []}]
UUID4_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$"

#: Component schemas, by name (apispec's resolver would strip "Schema" too; explicit is stabler).
COMPONENTS = {
    "HealthCheckResponse": schemas.HealthCheckResponseSchema,
    "ErrorMessage": schemas.ErrorMessageSchema,
    "ValidationErrorItem": schemas.ValidationErrorItemSchema,
    "HTTPValidationError": schemas.HTTPValidationErrorSchema,
    "Options": schemas.OptionsSchema,
    "ValidationRule": schemas.ValidationRuleSchema,
    "CrawlRequest": schemas.CrawlRequestSchema,
    "ButtonAttributes": schemas.ButtonAttributesSchema,
    "MarketingPixel": schemas.MarketingPixelSchema,
    "ValidationResult": schemas.ValidationResultSchema,
    "ScreenShotUrls": schemas.ScreenShotUrlsSchema,
    "CrawlResponse": schemas.CrawlResponseSchema,
    "CrawlSummary": schemas.CrawlSummarySchema,
    "Vendor": schemas.VendorSchema,
    "StreamEventRequest": schemas.StreamEventRequestSchema,
    "StoredEvent": schemas.StoredEventSchema,
    "EventPage": schemas.EventPageSchema,
}

_RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before retrying.",
                                "schema": {"type": "integer", "minimum": 0}}}

#: Reusable responses: name -> (description, body schema or None, headers).
RESPONSES = {
    "BadRequest": ("Malformed request (the message names the problem).", "ErrorMessage", {}),
    "Unauthorized": ("Missing, unknown or revoked credential (API key or ingestion token).", "ErrorMessage", {}),
    "Forbidden": ("Not allowed: the Origin (else Referer) is not whitelisted, or the API key is not granted "
                  "the customer.", "ErrorMessage", {}),
    "NotFound": ("No such resource.", "ErrorMessage", {}),
    "PayloadTooLarge": ("Request body over the size cap.", "ErrorMessage", {}),
    "UnsupportedMediaType": ("Content type other than application/json, text/plain or none.", "ErrorMessage", {}),
    "ValidationFailed": ("The body violates the schema: one `detail` entry per problem.", "HTTPValidationError", {}),
    "RateLimited": ("Rate limit exceeded.", "ErrorMessage", _RETRY_AFTER),
    "Unavailable": ("The database cannot take the request now; nothing was stored.", "ErrorMessage", _RETRY_AFTER),
}


@dataclass
class Operation:
    """One documented operation.  ``responses`` maps a status to a component
    response name (``RESPONSES``) or to an inline response object."""

    method: str
    path: str
    endpoint: str
    summary: str
    tag: str
    responses: dict
    description: str = ""
    secured: bool = False
    parameters: list | type = field(default_factory=list)  # or a query-args marshmallow schema
    request_body: dict | None = None


def _json(schema: str | dict, description: str) -> dict:
    ref = {"$ref": f"#/components/schemas/{schema}"} if isinstance(schema, str) else schema
    return {"description": description, "content": {"application/json": {"schema": ref}}}


def _query(name: str, description: str, schema: dict | None = None) -> dict:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema or {"type": "string"}}


_ORIGIN = {"name": "Origin", "in": "header", "required": False, "schema": {"type": "string"},
           "description": "Origin of the page that sent the event (a browser sets it)."}
_NO_CONTENT = {"description": "Accepted: the event is stored (committed). No body."}
_READY = {"type": "object", "required": ["status", "database", "browsers"], "properties": {
    "status": {"type": "integer", "enum": [200, 503]},
    "database": {"type": "string", "enum": ["ok", "unavailable"]},
    "browsers": {"type": "object", "required": ["state", "size", "alive", "idle"], "properties": {
        "state": {"type": "string", "enum": ["ok", "unavailable"]}, "size": {"type": "integer"},
        "alive": {"type": "integer"}, "idle": {"type": "integer"}}}}}

OPERATIONS = [
    Operation("get", "/", "crawl.health", "Health check", "meta",
              {200: _json("HealthCheckResponse", "Always `{\"status\": 200}`.")}),
    Operation("get", "/health/ready", "health.ready", "Readiness (database and browsers)", "meta",
              {200: _json(_READY, "Ready: the database answers and browsers can be started."),
               503: {**_json(_READY, "Not ready: the database or the browsers are unavailable."),
                     "headers": _RETRY_AFTER}},
              description="For load balancers. `GET /` is the liveness check and touches neither."),
    Operation("post", "/api/v1", "crawl.crawl", "Crawl a page", "crawl",
              {200: _json("CrawlResponse", "The crawl report; `success` is false when the page could not be "
                                           "crawled or was blocked (see `error`)."),
               401: "Unauthorized", 413: "PayloadTooLarge", 422: "ValidationFailed", 429: "RateLimited"},
              description="Loads the page in headless Chrome and reports pixels, consent, cookies, blocking, "
                          "rules and screenshots. Any content type is read as JSON. With `options.webhook` "
                          "the call returns at once (`message: \"queued\"`).",
              secured=True,
              request_body={"required": True, "content": {"application/json": {
                  "schema": {"$ref": "#/components/schemas/CrawlRequest"}}}}),
    Operation("get", "/api/v1/crawls", "crawl.crawl_list", "List this key's crawls", "crawl",
              {200: _json({"type": "array", "items": {"$ref": "#/components/schemas/CrawlSummary"}},
                          "Newest first."),
               400: "BadRequest", 401: "Unauthorized"},
              secured=True,
              parameters=schemas.CrawlListArgsSchema),
    Operation("get", "/api/v1/crawls/{session_id}", "crawl.crawl_result", "One crawl's result", "crawl",
              {200: _json("CrawlResponse", "The stored report, or `{sessionId, url, success: false, message: "
                                           "<queued|running>}` while it runs."),
               401: "Unauthorized", 404: "NotFound"},
              secured=True,
              parameters=[{"name": "session_id", "in": "path", "required": True, "schema": {"type": "string"},
                           "description": "The crawl's `sessionId`."}]),
    Operation("get", "/api/v1/crawls/{session_id}/har", "crawl.crawl_har", "One crawl's traffic as HAR 1.2", "crawl",
              {200: _json({"type": "object", "description": "HAR 1.2 (`log.pages`, `log.entries`; docs/har.md)."},
                          "Every captured request with its decoded body (capped), frame (`_frameUrl`) and send "
                          "time; cookie and authorization headers redacted unless the key opted in."),
               401: "Unauthorized", 404: "NotFound"},
              secured=True,
              parameters=[{"name": "session_id", "in": "path", "required": True, "schema": {"type": "string"},
                           "description": "The crawl's `sessionId`."}]),
    Operation("get", "/api/v1/vendors", "crawl.vendors", "The vendor catalog", "crawl",
              {200: _json({"type": "array", "items": {"$ref": "#/components/schemas/Vendor"}}, "Sorted by key."),
               401: "Unauthorized"},
              secured=True),
    Operation("get", "/api/v1/events", "stream_events.list_events", "Read stored events", "stream",
              {200: _json("EventPage", "One page, in (event_timestamp, id) order."),
               400: "BadRequest", 401: "Unauthorized", 403: "Forbidden"},
              secured=True,
              parameters=schemas.EventListArgsSchema),
    Operation("post", "/stream/api/v1", "stream.ingest", "Ingest one event from the browser tag", "stream",
              {204: _NO_CONTENT, 400: "BadRequest", 401: "Unauthorized", 403: "Forbidden",
               413: "PayloadTooLarge", 415: "UnsupportedMediaType", 429: "RateLimited", 503: "Unavailable"},
              description="Checks, in order: size (413), content type (415), JSON and schema (400), token (401), "
                          "Origin/Referer whitelist (403); 204 only once the row is committed. The token `t` "
                          "in the body is the credential: the Origin check stops other sites' pages, not "
                          "other clients. A `text/plain` body (what `navigator.sendBeacon` sends) or one with "
                          "no content type is read as this same JSON object.",
              parameters=[_ORIGIN],
              request_body={"required": True, "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/StreamEventRequest"}}}}),
    Operation("options", "/stream/api/v1", "stream.preflight", "CORS preflight of the ingestion endpoint", "stream",
              {204: {"description": "The origin is whitelisted by some customer: CORS headers, no body."},
               403: "Forbidden", 503: "Unavailable"},
              parameters=[_ORIGIN]),
    Operation("get", "/stream/tag.js", "stream_tag.tag_js", "The browser tag script", "stream",
              {200: {"description": "The script.", "content": {"application/javascript": {"schema": {
                  "type": "string"}}}},
               304: {"description": "Not modified (ETag matched)."}},
              parameters=[_query("v", "The script's hash: makes the answer cacheable for a year.")]),
    Operation("get", "/screenshots/{name}", "crawl.screenshot", "A screenshot", "crawl",
              {200: {"description": "PNG image.", "content": {"image/png": {"schema": {
                  "type": "string", "contentMediaType": "image/png"}}}},
               404: "NotFound"},
              parameters=[{"name": "name", "in": "path", "required": True, "schema": {"type": "string"},
                           "description": "Unguessable file name from `screenShotUrls`."}]),
    Operation("get", "/openapi.json", "docs.openapi_json", "This document", "meta",
              {200: {"description": "OpenAPI 3.1 document.",
                     "content": {"application/json": {"schema": {"type": "object"}}}}}),
    Operation("get", "/docs", "docs.docs", "Interactive API documentation (Swagger UI)", "meta",
              {200: {"description": "HTML page.", "content": {"text/html": {"schema": {"type": "string"}}}}}),
]


def _field_attributes(plugin: MarshmallowPlugin):
    """Custom fields of ``schemas.py`` as JSON Schema (after ``init_spec``)."""

    def attributes(self, field, ret, **kwargs) -> dict:
        if schemas.validate_uuid4 in field.validators:
            return {"pattern": UUID4_PATTERN}
        if isinstance(field, schemas.HttpUrl):
            return {"type": "string", "format": "uri", "maxLength": schemas.URL_MAX}
        if isinstance(field, schemas.JsonNumber):  # apispec writes x-minimum for a Range on a non-Number field
            return {"type": "number", "minimum": ret.pop("x-minimum", None), "maximum": ret.pop("x-maximum", None)}
        if isinstance(field, schemas.StringOrInteger):
            return {"type": ["string", "integer"], "maxLength": schemas.STREAM_SHORT_MAX}
        if isinstance(field, schemas.ObjectList):
            return {"type": "array", "items": {"type": "object"}, "maxItems": schemas.STREAM_ARRAY_MAX}
        return {}

    plugin.converter.add_attribute_function(attributes)


def build_spec(app: Flask) -> dict:
    """The OpenAPI 3.1 document of ``app`` (only the operations it serves)."""
    plugin = MarshmallowPlugin()
    spec = APISpec(title="tagcrawl", version=__version__, openapi_version=OPENAPI_VERSION, plugins=[plugin],
                   info={"description": "Audits marketing tags: crawls pages in headless Chrome (`/api/v1`) and "
                                        "ingests the browser tag's events (`/stream/api/v1`). Security notes: "
                                        "SECURITY.md in the repository."},
                   tags=[{"name": "crawl", "description": "Page crawls (API key)."},
                         {"name": "stream", "description": "Event ingestion and reading."},
                         {"name": "meta", "description": "Health and documentation."}])
    _field_attributes(plugin)
    spec.components.security_scheme("ApiKeyAuth", {"type": "apiKey", "in": "header", "name": "x-api-key",
                                                    "description": "API key (`flask keys create NAME`)."})
    for name, schema in COMPONENTS.items():
        spec.components.schema(name, schema=schema)
    spec.components.schemas["HTTPValidationError"]["properties"]["detail"]["items"] = {
        "$ref": "#/components/schemas/ValidationErrorItem"}
    for name, (description, body, headers) in RESPONSES.items():
        response = _json(body, description) if body else {"description": description}
        if headers:
            response["headers"] = headers
        spec.components.response(name, response)
    paths: dict[str, dict] = {}
    for op in OPERATIONS:
        if op.endpoint not in app.view_functions:
            continue
        operation = {"operationId": op.endpoint.replace(".", "_"), "summary": op.summary, "tags": [op.tag],
                     "responses": {str(status): ({"$ref": f"#/components/responses/{r}"} if isinstance(r, str)
                                                 else r) for status, r in op.responses.items()}}
        if op.description:
            operation["description"] = op.description
        if op.secured:
            operation["security"] = SECURITY
        if isinstance(op.parameters, type):  # a marshmallow schema of query arguments
            operation["parameters"] = plugin.converter.schema2parameters(op.parameters, location="query")
        elif op.parameters:
            operation["parameters"] = op.parameters
        if op.request_body:
            operation["requestBody"] = op.request_body
        paths.setdefault(op.path, {})[op.method] = operation
    for path, operations in paths.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()


def document(app: Flask) -> dict:
    """``build_spec(app)``, built once per app."""
    cached = app.extensions.get("tagcrawl_openapi")
    if cached is None:
        cached = app.extensions["tagcrawl_openapi"] = build_spec(app)
    return cached
