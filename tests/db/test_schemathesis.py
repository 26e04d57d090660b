"""Property-based API fuzzing: Schemathesis against the live app.

The app runs in a real HTTP server (werkzeug, threaded) on the test
PostgreSQL; Schemathesis loads ``/openapi.json`` from it and generates
requests for every documented operation, valid and invalid.  Each response
must not be a 5xx and must match the document: status code, content type,
headers and body schema, and every other check Schemathesis has (``CHECKS``:
all registered checks, e.g. negative data rejected, positive data accepted,
missing required header, Allow header).

- Crawls point at the offline fixture web: a hook rewrites each generated
  ``url`` to one of a few quick fixture pages, so every valid body is a real
  crawl in Chrome (``test_crawl_operation`` in
  ``tests/browser/test_schemathesis_browser.py``, fewer examples).
- Ingestion gets the issued token and a whitelisted Origin in some cases
  (hooks), so 204 answers and stored rows are exercised, not only 401/403.
- The list endpoints see a stored crawl and stored events.

Bounded: ``MAX_EXAMPLES`` per operation (``CRAWL_EXAMPLES`` for crawls).
"""
from __future__ import annotations

import json
import os
import re
import threading
import uuid

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import CHECKS as REGISTRY
from schemathesis.checks import load_all_checks
from schemathesis.generation.modes import GenerationMode
from werkzeug.serving import make_server

from tagcrawl import create_app
from tagcrawl.web.openapi import build_spec
from tagcrawl.core.schemas.audit import CRON_PATTERN
from tagcrawl.core.schemas.queries import CURSOR_RE
from tests.support.app_fixtures import empty_database

MAX_EXAMPLES = int(os.environ.get("TAGCRAWL_FUZZ_EXAMPLES", 30))
CRAWL_EXAMPLES = int(os.environ.get("TAGCRAWL_FUZZ_CRAWL_EXAMPLES", 15))
load_all_checks()
#: Every check Schemathesis registers (no selection): conformance and data acceptance/rejection.
CHECKS = REGISTRY.get_all()
ORIGIN = "https://shop.example.com"
UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z")
FIXTURE_PAGES = ["https://plain.example/", "https://shop.example/", "https://faults.example/",
                 "https://plain.example/__fixture/status/404", "https://faults.example/__fixture/redirect-loop"]


class Live:
    """The app served over HTTP, its API key and an ingestion token."""

    def __init__(self, app, base: str, key: str, token: str, session_id: str):
        self.app, self.base, self.key, self.token, self.session_id = app, base, key, token, session_id
        self.cursor: str | None = None  # a cursor the events API issued


@pytest.fixture(scope="module")
def live(_migrated, fixture_web, tmp_path_factory):
    """The app on the test PostgreSQL behind a threaded werkzeug server;
    tables emptied at the end (like the ``app`` fixture does)."""
    from tagcrawl.accounts.apikeys import create_key
    from tagcrawl.audit.runner import stop_worker
    from tagcrawl.crawl.records import store_crawl
    from tagcrawl.stream.tenants import issue_token

    shots = tmp_path_factory.mktemp("schemathesis-shots")
    app = create_app({"SQLALCHEMY_DATABASE_URI": _migrated, "TESTING": True, "ALLOW_PRIVATE_TARGETS": True,
                      "CHROME_ARGS": fixture_web.chrome_args(), "QUIET_MS": 300, "QUIET_CAP_MS": 3000,
                      "CONSENT_WAIT_MS": 1500, "CRAWL_TIMEOUT_S": 20, "PAGE_LOAD_TIMEOUT_S": 10,
                      "SCREENSHOT_DIR": str(shots), "POOL_SIZE": 1,
                      "RATELIMIT_CRAWL": "", "RATELIMIT_STREAM": ""})
    with app.app_context():
        # A webhook URL (never answering) so that webhook crawls are valid requests too.
        row, key, _secret = create_key("schemathesis", webhook_url="http://127.0.0.1:9/hook", all_customers=True)
        token = issue_token("fuzz", ["shop.example.com"]).token
        request_json = {"url": "https://plain.example/", "session_id": str(uuid.uuid4())}
        store_crawl(request_json, {"sessionId": request_json["session_id"], "url": request_json["url"],
                                   "success": True, "timeTaken": 5}, row.id)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True, name="schemathesis-app")
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    for name in ("PageView", "Purchase"):
        answer = requests.post(base + "/stream/api/v1", timeout=30, headers={"Origin": ORIGIN},
                               data=json.dumps({"t": token, "vn": "Meta Pixel", "e": name, "dt": [{"value": 1}],
                                                "u": "https://shop.example.com/p", "zz": "extra"}))
        assert answer.status_code == 204, answer.text
    live = Live(app, base, key, token, request_json["session_id"])
    live.cursor = requests.get(base + "/api/v1/events", params={"limit": 1}, headers={"x-api-key": key},
                               timeout=30).json()["next_cursor"]
    assert live.cursor
    yield live
    server.shutdown()
    stop_worker(timeout_s=15)
    empty_database(app)


def _valid_url(value) -> bool:
    """Whether the crawl schema takes ``value`` as its ``url``."""
    from marshmallow import ValidationError

    from tagcrawl.core.schemas import CrawlRequestSchema

    try:
        CrawlRequestSchema().fields["url"].deserialize(value)
    except ValidationError:
        return False
    return True


def _load(live: Live):
    schema = schemathesis.openapi.from_url(live.base + "/openapi.json")
    schema.config.update(request_timeout=60)
    # NUL (U+0000) cannot be stored in PostgreSQL text or jsonb: the stream answers
    # such a body with a clear 400 (documented), which JSON Schema cannot express.
    # The API key is the run's credential (sent on every call, checked by ``ignored_auth``),
    # not a generated parameter: a negative case must not consist in dropping it.
    schema.config.generation.update(allow_x00=False, with_security_parameters=False)

    @schema.hook
    def map_body(context, body):
        """Crawl targets: a fixture page.  Ingestion: often the issued token."""
        operation = context.operation
        if not isinstance(body, dict):
            return body
        if operation.method.upper() == "POST" and operation.path == "/api/v1" and _valid_url(body.get("url")):
            # Only a valid URL is swapped for a fixture page: a negative case stays negative.
            return dict(body, url=FIXTURE_PAGES[len(body["url"]) % len(FIXTURE_PAGES)])
        if operation.path == "/api/v1/audit-schedules" and isinstance(body.get("cron"), str) and re.match(
                CRON_PATTERN, body["cron"]):
            # Only a well-formed cron is swapped for a valid hourly one (a random one never runs, or runs
            # too often: 400, tests/db/test_audit_api.py): a negative case stays negative.
            return dict(body, cron="0 * * * *")
        if operation.path == "/stream/api/v1" and UUID_RE.match(str(body.get("t"))) and len(json.dumps(body)) % 3:
            # Only a well-formed token is swapped for the issued one: a negative case stays negative.
            body = dict(body, t=live.token)
            if isinstance(body.get("vn"), str) and body["vn"] and len(body["vn"]) % 2:
                # Half of a UTF-16 pair, as JavaScript cuts an emoji (Schemathesis never draws one):
                # same length, still valid, stored as U+FFFD (issue 24).
                body["vn"] = "\ud83d" + body["vn"][1:]
        return body

    @schema.hook
    def map_headers(context, headers):
        """Ingestion: a whitelisted Origin in most cases (a random one gets 403)."""
        if context.operation.path == "/stream/api/v1" and headers is not None and len(str(headers)) % 4:
            return dict(headers, Origin=ORIGIN)
        return headers

    @schema.hook
    def map_query(context, query):
        """``cursor``: every string of the documented pattern is a position the
        API takes (issue 24: any string used to be valid in the document and
        a 400 in fact), so generated cursors are sent as generated; a valid
        one is swapped for an issued cursor in some cases, so real pages
        follow too.  A negative case stays negative."""
        cursor = query.get("cursor") if query else None
        if isinstance(cursor, str) and CURSOR_RE.match(cursor) and len(cursor) % 2:
            return dict(query, cursor=live.cursor)
        return query

    @schema.hook
    def map_path_parameters(context, path_parameters):
        """``/api/v1/crawls/{session_id}``: the stored crawl in some cases."""
        if path_parameters and "session_id" in path_parameters and len(str(path_parameters)) % 2:
            return dict(path_parameters, session_id=live.session_id)
        return path_parameters

    return schema


@pytest.fixture(scope="module")
def live_schema(live):
    return _load(live)


def _run(schema, method: str, path: str, live: Live, max_examples: int) -> None:
    """``max_examples`` valid and as many invalid requests to one operation."""
    operation = schema[path][method]
    strategy = (operation.as_strategy(GenerationMode.POSITIVE, hooks=schema.hooks)
                | operation.as_strategy(GenerationMode.NEGATIVE, hooks=schema.hooks))

    @given(case=strategy)
    @settings(max_examples=max_examples, deadline=None, suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate, Phase.shrink])
    def check(case):
        case.call_and_validate(headers={"x-api-key": live.key}, checks=CHECKS)

    check()


#: Every documented operation (the document generated from the views), the crawl apart.
DOCUMENTED = build_spec(create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True}))["paths"]
OPERATIONS = [(method.upper(), path) for path, item in DOCUMENTED.items() for method in item
              if (method, path) != ("post", "/api/v1")]


@pytest.mark.postgres
@pytest.mark.timeout(300)
@pytest.mark.parametrize("method, path", OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_operation(live_schema, live, method, path):
    """No 5xx, and every response as documented."""
    _run(live_schema, method, path, live, MAX_EXAMPLES)
