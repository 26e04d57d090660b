"""The browser tag (issue #8) end to end in real Chrome (``GET /stream/tag.js`` as served:
tests/db/test_tag_js_db.py; without a browser: tests/unit/test_tag_js_unit.py).

End to end, Chrome loads fixture pages (``tests/support/web/sites/tagjs-*.example/``)
that install the tag with the snippet of ``docs/tag.md`` and vendors' own
snippets.  ``https://stream.tagcrawl.example`` (the tag's ``src``, so also its
stream endpoint) is routed by the fixture web to a live tagcrawl server
(werkzeug, on the test database), and every answer of the stream endpoint is
recorded (:class:`Stream`).  Waits are on those answers, never on time: the
endpoint answers 204 only once the row is committed.  To prove that nothing
more is sent (no duplicate), a last "Sentinel" pixel is fired after the
expected events: its event is sent after theirs, and the counts are taken
once it has arrived.
"""
from __future__ import annotations

import http.client
import json
import threading
import uuid
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from werkzeug.serving import make_server

from tagcrawl.core.extensions import db
from tagcrawl.core.models import StreamEvent
from tagcrawl.stream.tag.build import rendered
from tagcrawl.engine.vendors import Request, find_vendor, match_request

from .conftest import browser_config
from tests.support.vendor_cases import POSITIVE
from tests.support.vendor_pages import SNIPPETS_BY_VENDOR
from tests.support.config import settings

STREAM_HOST = "stream.tagcrawl.example"
SHOP, OTHER = "tagjs-shop.example", "tagjs-other.example"
TAG_SRC = f"https://{STREAM_HOST}/stream/tag.js"
SITES = Path(__file__).parents[1] / "support" / "web" / "sites"
META = SNIPPETS_BY_VENDOR["facebook"].account
GA4 = SNIPPETS_BY_VENDOR["google_analytics"].account
TIKTOK = SNIPPETS_BY_VENDOR["tiktok"].account
MIXPANEL = SNIPPETS_BY_VENDOR["mixpanel"].account
SENTINEL = f"https://www.facebook.com/tr/?id={META}&ev=Sentinel"

#: The hits of tagjs-shop.example/index.html: (vendor key, event name, method).
SHOP_HITS = sorted([
    ("facebook", "PageView", "GET"), ("facebook", "Lead", "GET"),
    ("google_analytics", "page_view", "POST"), ("google_analytics", "purchase", "POST"),
    ("tiktok", "Pageview", "POST"), ("mixpanel", "$mp_web_page_view", "POST"),
])


# --- the served script ------------------------------------------------------------------


# --- end to end: the live service behind the fixture web ---------------------------------

class Stream:
    """A live tagcrawl server for ``app``, reached by Chrome as https://stream.tagcrawl.example.

    Also serves the tagjs-* fixture pages with their placeholders filled in.
    ``answers`` records each ``POST /stream/api/v1``: ``{"status", "event", "origin"}``.
    """

    def __init__(self, app, web):
        self.app, self.web, self.token = app, web, None
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True, name="tagjs-stream")
        self.answers: list[dict] = []
        self.changed = threading.Condition()

    def __enter__(self) -> "Stream":
        self.thread.start()
        self.previous, self.web.extra_route = self.web.extra_route, self.route
        return self

    def __exit__(self, *exc) -> None:
        self.web.extra_route = self.previous
        self.server.shutdown()
        self.server.server_close()

    def tag(self, src: str = TAG_SRC) -> str:
        return f'<script async src="{src}" data-token="{self.token}"></script>'

    def route(self, host, path, query, method, body, headers, web):
        if host == STREAM_HOST:
            return self._proxy(method, path, query, body, headers)
        if host not in (SHOP, OTHER):
            return None
        page = SITES / host / (path.strip("/") or "index.html")
        if not page.is_file():
            return 404, {"Content-Type": "text/plain"}, b"not found"
        html = page.read_text()
        for vendor, snippet in SNIPPETS_BY_VENDOR.items():
            html = html.replace(f"{{{{SNIPPET:{vendor}}}}}", snippet.render())
        versioned = self.tag(f"{TAG_SRC}?v={rendered().digest}")
        for mark, value in (("{{TAG}}", self.tag()), ("{{TAG_VERSIONED}}", versioned), ("{{TAG_SRC}}", TAG_SRC),
                            ("{{TOKEN}}", str(self.token))):
            html = html.replace(mark, value)
        return 200, {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"}, html

    def _proxy(self, method, path, query, body, headers):
        target = path + (f"?{urlencode(query)}" if query else "")
        forward = {k: v for k, v in headers.items() if k.lower() not in ("connection", "keep-alive", "accept-encoding")}
        conn = http.client.HTTPConnection("127.0.0.1", self.server.server_port, timeout=30)
        try:
            conn.request(method, target, body=body or None, headers=forward)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        if method == "POST" and path == "/stream/api/v1":
            with self.changed:
                self.answers.append({"status": response.status, "event": json.loads(body),
                                     "origin": headers.get("Origin"), "mode": headers.get("Sec-Fetch-Mode"),
                                     "type": headers.get("Content-Type")})
                self.changed.notify_all()
        kept = {}
        for key, value in response.getheaders():
            if key.lower() not in ("content-length", "transfer-encoding", "connection", "date", "server"):
                kept.setdefault(key, []).append(value)
        return response.status, kept, data

    def wait(self, predicate, count: int, timeout_s: float = 30) -> list[dict]:
        """Block until ``count`` recorded answers satisfy ``predicate``; return them all."""
        with self.changed:
            done = self.changed.wait_for(lambda: len([a for a in self.answers if predicate(a)]) >= count, timeout_s)
            found = [a for a in self.answers if predicate(a)]
        assert done, f"{len(found)} of {count} events arrived: {[a['event'].get('e') for a in self.answers]}"
        return found

    def sentinel(self, driver, status: int = 204) -> None:
        """Fire one more Meta pixel and wait for its event: everything sent before it has arrived."""
        driver.execute_script("new Image().src = arguments[0];", SENTINEL)
        self.wait(lambda a: a["event"]["e"] == "Sentinel" and a["status"] == status, 1)

    def rows(self) -> list[StreamEvent]:
        with self.app.app_context():
            rows = db.session.scalars(db.select(StreamEvent).order_by(StreamEvent.id)).all()
            db.session.expunge_all()
            return rows


@pytest.fixture(scope="module")
def chrome(fixture_web, tmp_path_factory):
    """One headless Chrome for the module, joined to the fixture web."""
    from tagcrawl.engine.chrome.driver_factory import build_browser, kill_browser

    handle = build_browser(settings(browser_config(fixture_web, tmp_path_factory.mktemp("tagjs"))))
    handle.driver.set_page_load_timeout(30)
    yield handle.driver
    kill_browser(handle)


@pytest.fixture
def stream(app, fixture_web, runner):
    """The live service; its token (``tokens issue``) whitelists tagjs-shop.example only."""
    with Stream(app, fixture_web) as live:
        result = runner.invoke(args=["tokens", "issue", "--customer", "tagjs-shop", "--domain", SHOP])
        assert result.exit_code == 0, result.output
        live.token = uuid.UUID(result.output.strip().splitlines()[-1])
        yield live


def _hits(rows) -> list[tuple]:
    return sorted((r.vendor, r.event_name, r.http_method) for r in rows if r.event_name != "Sentinel")


@pytest.mark.browser
@pytest.mark.postgres
def test_one_row_per_vendor_hit_with_vendor_event_page_and_details(chrome, stream):
    page = f"https://{SHOP}/?utm_source=news&email=jane.doe%40example.com"
    chrome.get(page)
    stream.wait(lambda a: a["status"] == 204, len(SHOP_HITS))
    stream.sentinel(chrome)
    rows = stream.rows()
    assert _hits(rows) == SHOP_HITS
    assert {a["status"] for a in stream.answers} == {204}
    assert {a["origin"] for a in stream.answers} == {f"https://{SHOP}"}
    # sent with navigator.sendBeacon and a text body: no CORS preflight
    assert {(a["mode"], a["type"]) for a in stream.answers} == {("no-cors", "text/plain;charset=UTF-8")}
    by_event = {r.event_name: r for r in rows}
    clean_page = f"https://{SHOP}/?utm_source=news"  # the e-mail parameter is dropped
    tag_version = rendered().version
    session = by_event["PageView"].session_id
    assert uuid.UUID(session)
    for row in rows:
        assert row.page_url == clean_page and row.page_path == "/" and row.domain == SHOP
        assert row.deployment_method == "tag" and row.tag_version == tag_version
        assert row.session_id == session and row.execution_ms is not None and row.execution_ms >= 0
        assert row.client_timestamp and row.vendor_name == find_vendor(row.vendor).name
        assert row.vendor_url.startswith("https://") and "@" not in row.vendor_url
    meta = by_event["PageView"]
    assert meta.vendor_url.startswith("https://www.facebook.com/tr/?id=")
    assert meta.details[0]["id"] == META and meta.details[0]["ev"] == "PageView"
    assert meta.details[0]["dl"] == clean_page  # URLs inside parameters are cleaned too
    ga4 = by_event["purchase"]
    assert ga4.details[0]["tid"] == GA4 and ga4.details[0]["ep.currency"] == "EUR"
    assert ga4.details[0]["epn.value"] == "42" and ga4.details[0]["ep.transaction_id"] == "T-1001"
    tiktok = by_event["Pageview"]
    assert tiktok.vendor_url == "https://analytics.tiktok.com/api/v2/pixel"
    assert tiktok.details[1]["context"]["pixel"]["code"] == TIKTOK  # the JSON body, as an object
    mixpanel = by_event["$mp_web_page_view"]
    assert mixpanel.vendor_url.startswith("https://api-js.mixpanel.com/track/")
    assert mixpanel.details[1]["properties"]["token"] == MIXPANEL  # base64 JSON `data`, decoded
    assert "data" not in mixpanel.details[0]


@pytest.mark.browser
@pytest.mark.postgres
def test_email_and_phone_parameters_are_not_sent(chrome, stream):
    chrome.get(f"https://{SHOP}/")
    stream.wait(lambda a: a["status"] == 204, len(SHOP_HITS))
    lead = next(a["event"] for a in stream.answers if a["event"]["e"] == "Lead")
    sent = json.dumps(lead)
    assert "jane.doe" not in sent and "example.com" not in sent.replace(SHOP, "") and "010-0199" not in sent
    assert lead["dt"][0]["cd[content_name]"] == "newsletter"
    assert "cd[email]" not in lead["dt"][0] and "cd[phone]" not in lead["dt"][0]
    assert "cd%5Bemail%5D" not in lead["vu"] and "cd%5Bcontent_name%5D=newsletter" in lead["vu"]
    assert lead["np"] == [{"tr": "image", "pii": 4}]  # 2 parameters, each in dt and in vu
    stored = next(r for r in stream.rows() if r.event_name == "Lead")
    assert "jane.doe" not in json.dumps(stored.details) and stored.extra is None  # np is not stored


@pytest.mark.browser
@pytest.mark.postgres
def test_domain_not_whitelisted_gets_403_and_no_rows(chrome, stream):
    chrome.get(f"https://{OTHER}/")
    refused = stream.wait(lambda a: a["status"] == 403, 2)
    stream.sentinel(chrome, status=403)
    assert sorted(a["event"]["e"] for a in refused) == ["PageView", "page_view"]
    assert {a["status"] for a in stream.answers} == {403}
    assert {a["origin"] for a in stream.answers} == {f"https://{OTHER}"}
    assert stream.rows() == []


@pytest.mark.browser
@pytest.mark.postgres
def test_tag_loaded_twice_reports_each_hit_once(chrome, stream):
    chrome.get(f"https://{SHOP}/twice.html")
    stream.wait(lambda a: a["status"] == 204, len(SHOP_HITS))
    stream.sentinel(chrome)
    assert _hits(stream.rows()) == SHOP_HITS
    assert len(stream.answers) == len(SHOP_HITS) + 1
    scripts = chrome.execute_script("return [...document.scripts].filter(s => s.src.includes('/stream/tag.js')).length")
    assert scripts == 2


@pytest.mark.browser
@pytest.mark.postgres
def test_falls_back_to_fetch_keepalive_when_send_beacon_refuses(chrome, stream):
    chrome.get(f"https://{SHOP}/nobeacon.html")
    stream.sentinel(chrome)
    (answer,) = stream.answers
    assert (answer["status"], answer["mode"], answer["type"]) == (204, "cors", "text/plain;charset=UTF-8")
    assert [(r.vendor, r.event_name) for r in stream.rows()] == [("facebook", "Sentinel")]


@pytest.mark.browser
@pytest.mark.postgres
def test_pixel_sent_before_the_tag_ran_is_reported(chrome, stream):
    chrome.get(f"https://{SHOP}/early.html")
    early = stream.wait(lambda a: a["status"] == 204, 1)[0]["event"]
    stream.sentinel(chrome)
    assert _hits(stream.rows()) == [("facebook", "PageView", "GET")]
    assert early["np"] == [{"tr": "image-timing"}] and early["dt"][0]["id"] == "987654321098765"


@pytest.mark.browser
@pytest.mark.postgres
def test_tag_never_breaks_the_page_nor_observes_itself(chrome, stream):
    chrome.get(f"https://{SHOP}/bare.html")
    result = chrome.execute_async_script("""
        const done = arguments[arguments.length - 1], out = {};
        out.version = window.__tagcrawl.v;
        out.own = window.__tagcrawl.match(arguments[0], "POST", "{}").length;
        out.badUrl = (() => { try { navigator.sendBeacon("http://[bad"); return "no throw"; }
                              catch (e) { return e.name; } })();
        const img = new Image(); img.src = "/nothing.gif"; out.src = img.getAttribute("src");
        const x = new XMLHttpRequest(); x.open("GET", "/"); x.onload = () => { out.xhr = x.status;
          fetch(new Request("https://analytics.tiktok.com/api/v2/pixel", {method: "POST",
                body: JSON.stringify({event: "FromRequest", context: {pixel: {code: "C0000000000000000001"}}})}))
            .then(r => { out.fetch = r.status; done(out); }); };
        x.send(null);
    """, f"https://{STREAM_HOST}/stream/api/v1")
    assert result == {"version": rendered().version, "own": 0, "badUrl": "TypeError", "src": "/nothing.gif",
                      "xhr": 200, "fetch": 200}
    event = stream.wait(lambda a: a["status"] == 204, 1)[0]["event"]
    assert (event["vn"], event["e"], event["m"]) == ("TikTok Pixel", "FromRequest", "POST")


def _python_hits(case) -> list[tuple[str, str | None]]:
    """(vendor key, event) of the crawler's pixel hits, without repeats (the tag sends one event per
    batch item; the crawler also one hit per account id of a comma list).  ID syncs (``kind = "sync"``,
    issue 27) are no pixel events: the tag must send nothing for them."""
    hits = match_request(Request(url=case.url, method=case.http_method, post_data=case.body, headers=case.headers))
    return list(dict.fromkeys((h.vendor_key, h.event) for h in hits if h.kind != "sync"))


def _config_fetch(case) -> bool:
    """True when the crawler recognises ``case`` by a configuration-fetch pattern."""
    from tagcrawl.engine.vendors import _COMPILED
    from tagcrawl.engine.vendors.matcher import _match_one
    from tagcrawl.engine.vendors.request_context import RequestContext

    ctx = RequestContext(Request(url=case.url, method=case.http_method, post_data=case.body, headers=case.headers))
    return next((c.pattern.config for c in _COMPILED if _match_one(c, ctx)), False)


@pytest.mark.browser
@pytest.mark.postgres
def test_tag_matches_requests_like_the_crawler(chrome, stream):
    """The tag's matcher against the crawler's, on the recorded requests (the catalog files' positive cases).

    Library loads (``.js``) and configuration fetches (``Pattern.config``) are
    not events.  Every other request must give the same vendor(s) and, where
    the crawler decodes one, the same event name(s); the tag falls back to the
    URL path.  (Account ids are not validated by the tag; the crawler reports
    malformed ones too, flagged: see docs/tag.md, docs/vendors.md.)
    """
    chrome.get(f"https://{SHOP}/bare.html")
    cases = [c for c in POSITIVE if not c.url.split("?")[0].endswith(".js") and not _config_fetch(c)]
    assert len(cases) > 100
    got = chrome.execute_script(
        "return arguments[0].map(c => window.__tagcrawl.match(c[0], c[1], c[2]).map(e => [e.vn, e.e]));",
        [[c.url, c.http_method, c.body] for c in cases])
    differences = []
    for case, events in zip(cases, got):
        crawler = _python_hits(case)
        tag = list(dict.fromkeys((find_vendor(name).key, event) for name, event in events))
        expected = [(vendor, event or urlsplit(case.url).path) for vendor, event in crawler]
        if tag != expected:
            differences.append((str(case), crawler, tag))
    assert differences == []
