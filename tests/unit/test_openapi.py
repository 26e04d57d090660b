"""The OpenAPI document (``/openapi.json``) and its Swagger UI page (``/docs``).

The document is checked against the OpenAPI 3.1 meta-schema, against the
app's routes (every route documented, nothing documented that is not served),
and against what the service really answers (dumped bodies validate against
their components).  Conformance of live answers to generated requests is
``tests/db/test_schemathesis.py``; the page rendered in Chrome is
``tests/browser/test_openapi_browser.py``.
"""
from __future__ import annotations

import re
import uuid

import jsonschema_rs
import pytest
from schemathesis.specs.openapi.definitions import OPENAPI_31

from tagcrawl import __version__, create_app
from tagcrawl.web.openapi import build_spec

#: Routes that are not API operations.
UNDOCUMENTED = {"static", "docs.asset", "docs.init_js"}


@pytest.fixture(scope="module")
def docs_app():
    return create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True})


@pytest.fixture(scope="module")
def doc(docs_app):
    response = docs_app.test_client().get("/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.get_json()


def _validator(doc: dict, component: str):
    """A JSON Schema validator for one component, resolving ``$ref``s in ``doc``."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": doc["components"]}
    return jsonschema_rs.Draft202012Validator(schema)


def test_document_is_valid_openapi_3_1(doc):
    assert doc["openapi"] == "3.1.0"
    assert doc["info"]["version"] == "0.1.0" == __version__
    errors = [e.message for e in jsonschema_rs.validator_for(OPENAPI_31).iter_errors(doc)]
    assert errors == []


def test_every_route_is_documented_and_nothing_else(docs_app, doc):
    served = set()
    for rule in docs_app.url_map.iter_rules():
        if rule.endpoint in UNDOCUMENTED:
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD"}:
            if method == "OPTIONS" and rule.provide_automatic_options:
                continue  # Flask's automatic OPTIONS
            served.add((method.lower(), path))
    documented = {(method, path) for path, item in doc["paths"].items() for method in item}
    assert documented == served


def test_every_documented_operation_is_served_and_named_once(docs_app, doc):
    """(Was: every operation of the hand-written table is served; the document is now built from the views.)"""
    ids = [op["operationId"] for item in doc["paths"].values() for m, op in item.items() if m != "parameters"]
    assert len(ids) == len(set(ids))
    served = {re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule) for rule in docs_app.url_map.iter_rules()}
    assert set(doc["paths"]) <= served


def test_security_scheme_and_secured_operations(doc):
    assert doc["components"]["securitySchemes"]["ApiKeyAuth"] == {
        "type": "apiKey", "in": "header", "name": "x-api-key", "description": "API key (`flask keys create NAME`)."}
    secured = {(m, p) for p, item in doc["paths"].items() for m, op in item.items() if op.get("security")}
    assert secured == {("post", "/api/v1"), ("get", "/api/v1/crawls"), ("get", "/api/v1/crawls/{session_id}"),
                       ("get", "/api/v1/crawls/{session_id}/har"), ("get", "/api/v1/vendors"),
                       ("get", "/api/v1/events")}


@pytest.mark.parametrize("method, path, statuses", [
    ("post", "/api/v1", {"200", "401", "413", "422", "429", "503", "504"}),  # 503/504: issue 26, service failures
    ("post", "/stream/api/v1", {"204", "400", "401", "403", "413", "415", "429", "503"}),
    ("options", "/stream/api/v1", {"204", "403", "503"}),
])
def test_error_responses_are_documented(doc, method, path, statuses):
    assert set(doc["paths"][path][method]["responses"]) == statuses


def test_429_is_documented_exactly_on_the_rate_limited_operations(docs_app, doc):
    from tagcrawl.web.ratelimits import OWN_LIMIT_BLUEPRINTS

    limited = {endpoint for endpoint, view in docs_app.view_functions.items() if getattr(view, "rate_limit", None)}
    limited.add("stream.ingest")  # its own per-token limit (ratelimits.check_stream_limit)
    assert {e.split(".")[0] for e in limited} - {"crawl"} <= OWN_LIMIT_BLUEPRINTS
    documented = {(m.upper(), p) for p, item in doc["paths"].items() for m, op in item.items()
                  if m != "parameters" and "429" in op["responses"]}
    rules = {(m, re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", r.rule)) for r in docs_app.url_map.iter_rules()
             if r.endpoint in limited for m in r.methods - {"HEAD", "OPTIONS"}}
    assert documented == rules


def test_retry_after_is_documented_on_429_and_503(doc):
    for name in ("RateLimited", "Unavailable", "CrawlUnavailable"):
        assert "Retry-After" in doc["components"]["responses"][name]["headers"]


def test_request_components_follow_the_schemas(doc):
    schemas = doc["components"]["schemas"]
    crawl = schemas["CrawlRequest"]
    assert set(crawl["required"]) == {"url", "session_id"}
    assert crawl["properties"]["session_id"]["type"] == ["string", "null"]
    assert crawl["properties"]["url"]["maxLength"] == 2048
    rule = schemas["ValidationRule"]
    assert set(rule["required"]) == {"rule_id", "vendor", "key", "value"}
    # (Was: an inline enum with null; a nullable enum is now its component, referenced with null.)
    assert rule["properties"]["condition"]["oneOf"] == [{"$ref": "#/components/schemas/RuleCondition"},
                                                        {"type": "null"}]
    assert set(schemas["RuleCondition"]["enum"]) == {"OR", "AND"}
    stream = schemas["StreamEventRequest"]
    assert set(stream["required"]) == {"t", "vn", "e"}
    assert stream["additionalProperties"] is True
    assert stream["properties"]["tm"] == {"type": "number", "minimum": 0, "maximum": 253402300799999}
    assert stream["properties"]["rl"]["type"] == ["string", "integer"]


def test_validation_error_component_is_the_detail_list(doc):
    validator = _validator(doc, "HTTPValidationError")
    assert validator.is_valid({"detail": [{"loc": ["body", "options", 0], "msg": "x", "type": "missing"}]})
    assert not validator.is_valid({"detail": [{"loc": [1.5], "msg": "x", "type": "missing"}]})


@pytest.mark.slow
def test_real_answers_validate_against_their_components(docs_app, doc):
    """Bodies the service builds validate against the documented schemas."""
    from tagcrawl.crawl.report import CrawlReport
    from tagcrawl.core.schemas import CrawlResponseSchema
    from tagcrawl.stream.events import FIELDS
    from tagcrawl.engine.vendors import catalog_listing

    crawl = CrawlResponseSchema().dump(CrawlReport(session_id=str(uuid.uuid4()), url="https://shop.example/"))
    crawl.update(timeTaken=12, error={"error": True, "message": "x"}, message="x",
                 screenShotUrls={"screenShotBefore": "/screenshots/a.png", "screenShotAfter": "/screenshots/b.png"},
                 validationResults=[{"rule_id": str(uuid.uuid4()), "success": False}],
                 marketingPixels=[{"vendor": "Meta Pixel", "account_id": "1", "page": "https://shop.example/"}])
    assert _validator(doc, "CrawlResponse").is_valid(crawl)
    assert all(_validator(doc, "Vendor").is_valid(v) for v in catalog_listing())
    assert set(doc["components"]["schemas"]["StoredEvent"]["properties"]) == set(FIELDS)
    client = docs_app.test_client()
    health = client.get("/").get_json()
    assert _validator(doc, "HealthCheckResponse").is_valid(health)
    unauthorized = client.get("/api/v1/vendors").get_json()
    assert _validator(doc, "ErrorMessage").is_valid(unauthorized)


def test_document_is_built_once_per_app(docs_app):
    from tagcrawl.web.openapi import document

    assert document(docs_app) is document(docs_app)
    assert build_spec(docs_app) == document(docs_app)


def test_docs_page_uses_only_local_assets(docs_app):
    client = docs_app.test_client()
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html and "//" not in html.replace("<!--", "")
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    assert "<script>" not in html  # no inline script: the CSP allows none
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/docs/") for s in sources)
    for source in sources:
        asset = client.get(source)
        assert asset.status_code == 200, source
    init = client.get("/docs/tagcrawl-init.js").get_data(as_text=True)
    assert '"/openapi.json"' in init and "validatorUrl: null" in init
    assert client.get("/docs/swagger-ui.js.map").status_code == 404
    assert client.get("/docs/..%2Fsettings.py").status_code == 404


#: Every operation's id: generated clients name their functions after them (no group prefix).
OPERATION_IDS = {
    ("get", "/"): "health", ("get", "/health/ready"): "ready", ("post", "/api/v1"): "crawl",
    ("get", "/api/v1/crawls/{session_id}"): "get_crawl", ("get", "/api/v1/crawls"): "list_crawls",
    ("get", "/api/v1/crawls/{session_id}/har"): "get_crawl_har", ("get", "/api/v1/vendors"): "list_vendors",
    ("get", "/screenshots/{name}"): "get_screenshot", ("post", "/stream/api/v1"): "ingest_event",
    ("options", "/stream/api/v1"): "preflight_event", ("get", "/api/v1/events"): "list_events",
    ("get", "/stream/tag.js"): "get_tag_js", ("get", "/openapi.json"): "get_openapi", ("get", "/docs"): "get_docs",
}


def test_operation_ids_are_clean(doc):
    assert {(m, p): op["operationId"] for p, item in doc["paths"].items() for m, op in item.items()} == OPERATION_IDS


def test_every_group_has_operations_and_every_operation_one_group(doc):
    """Swagger UI shows one section per tag: none may be empty (blueprints are not groups)."""
    used = [op["tags"] for item in doc["paths"].values() for op in item.values()]
    assert all(len(tags) == 1 for tags in used)
    assert [t["name"] for t in doc["tags"]] == ["crawl", "stream", "meta"]
    assert {t[0] for t in used} == {t["name"] for t in doc["tags"]}
    assert all(t["description"] for t in doc["tags"])


def _properties(node):
    """Every schema object under ``node`` (recursively)."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _properties(value)
    elif isinstance(node, list):
        for value in node:
            yield from _properties(value)


def test_string_enums_are_components_referenced_where_used(doc):
    """One class per enum in a generated client: no inline string enum, a nullable one is ``oneOf [$ref, null]``."""
    schemas = doc["components"]["schemas"]
    enums = {name for name, s in schemas.items() if "enum" in s}
    inline = [n for name, s in schemas.items() if name not in enums for n in _properties(s)
              if any(isinstance(v, str) for v in n.get("enum", ()))]
    inline += [n for n in _properties(doc["paths"]) if any(isinstance(v, str) for v in n.get("enum", ()))]
    assert inline == []
    assert all(None not in schemas[name]["enum"] for name in enums)
    values = [tuple(sorted(map(str, schemas[name]["enum"]))) for name in enums]
    assert len(values) == len(set(values)), "two enum components with the same values"
    nullable = [n for n in _properties(schemas) if n.get("oneOf", [{}])[0].get("$ref", "").split("/")[-1] in enums]
    assert len(nullable) >= 8  # Options.consentAction, ValidationRule (2), ButtonAttributes, ConsentModeState (4)
    assert all(n["oneOf"][1] == {"type": "null"} and "type" not in n and "enum" not in n for n in nullable)
    consent = schemas["ConsentModeState"]["properties"]
    assert {consent[k]["oneOf"][0]["$ref"] for k in ("ad_storage", "analytics_storage", "ad_user_data",
                                                       "ad_personalization")} == {"#/components/schemas/ConsentStatus"}


def test_har_response_is_typed_and_tagcrawl_har_validates(doc):
    from tagcrawl.engine.har.write import build_har
    from tagcrawl.engine.vendors.types import Request

    har = doc["paths"]["/api/v1/crawls/{session_id}/har"]["get"]["responses"]["200"]["content"]["application/json"]
    assert har["schema"] == {"$ref": "#/components/schemas/Har"}
    log = doc["components"]["schemas"]["HarLog"]
    assert {"version", "creator", "entries"} <= set(log["required"]) and "pages" in log["properties"]
    assert {"startedDateTime", "request", "response", "timings"} <= set(doc["components"]["schemas"]["HarEntry"]["required"])
    requests = [Request(url="https://www.facebook.com/tr?id=1&ev=PageView", method="GET", headers={"Cookie": "a=b"},
                        timestamp=1_700_000_000_000, resource_type="image", frame_url="https://shop.example/"),
                Request(url="https://api.segment.io/v1/t", method="POST", post_data=b"\x1f\x8b\x00binary",
                        headers={"content-type": "application/json"}, timestamp=1_700_000_000_100)]
    document_ = build_har(requests, "https://shop.example/", version=__version__)
    errors = [e.message for e in _validator(doc, "Har").iter_errors(document_)]
    assert errors == []
    assert not _validator(doc, "Har").is_valid({"log": {"version": "1.2", "entries": []}})  # creator is required


def test_cli_prints_the_served_document(docs_app, doc):
    """``flask openapi print`` and ``write`` give the document ``/openapi.json`` serves (one function)."""
    import json

    runner = docs_app.test_cli_runner()
    printed = runner.invoke(args=["openapi", "print"])
    assert printed.exit_code == 0, printed.output
    assert json.loads(printed.output) == doc
    written = runner.invoke(args=["openapi", "write", "-"])
    assert written.exit_code == 0 and json.loads(written.output) == doc


def test_service_failures_and_the_page_outcome_are_documented(doc):
    """Issue 26: 503/504 of the crawl carry ``ErrorMessage.code`` (the ``ServiceErrorCode`` enum);
    the CrawlResponse documents ``pageStatus``, ``finalUrl`` and ``redirects``."""
    from tagcrawl.core.types import SERVICE_ERROR_CODES

    schemas, responses = doc["components"]["schemas"], doc["paths"]["/api/v1"]["post"]["responses"]
    assert schemas["ServiceErrorCode"]["enum"] == list(SERVICE_ERROR_CODES)
    assert schemas["ErrorMessage"]["properties"]["code"]["$ref"] == "#/components/schemas/ServiceErrorCode"
    assert responses["503"] == {"$ref": "#/components/responses/CrawlUnavailable"}
    assert responses["504"] == {"$ref": "#/components/responses/CrawlDeadline"}
    assert "Retry-After" in doc["components"]["responses"]["CrawlUnavailable"]["headers"]
    error = _validator(doc, "ErrorMessage")
    assert error.is_valid({"error": True, "message": "all browsers are busy", "code": "pool_busy"})
    assert not error.is_valid({"error": True, "message": "x", "code": "something_else"})
    crawl = schemas["CrawlResponse"]["properties"]
    assert {"pageStatus", "finalUrl", "redirects"} <= set(crawl)
    assert crawl["redirects"]["maxItems"] == 20
    assert set(schemas["Redirect"]["required"]) == {"url", "status"}
    assert _validator(doc, "CrawlResponse").is_valid({"success": False, "pageStatus": 404, "finalUrl": "https://a/",
                                                      "redirects": [{"url": "https://b/", "status": 301}]})
