"""Fixture pages for the vendor browser tests (``tests/browser/test_vendor_pages.py``),
rendered by ``tests/support/web/snippet_pages.py``.

- ``SNIPPETS``: one page per vendor at ``https://snippets.example/<key>``
  installing the tag with the vendor's own published snippet (the ``[snippet]``
  table of ``tagcrawl/engine/vendors/catalog/<key>.toml``); the fixture web
  serves an emulated library (``tests/support/web/vendor_libs/``) that sends hits in
  the real library's shape.
- ``BEACONS`` x ``TRANSPORTS``: ``https://snippets.example/transport/<name>``
  sends one hit per major vendor (its file's ``[beacon]``) over one transport
  (image, fetch, XHR, sendBeacon, JSON POST, iframe, delayed).
- ``LOOKALIKES``: ``https://snippets.example/lookalikes``, requests that look
  like pixels but must not be reported.
- ``FIRST_PARTY``: ``https://myshop.example/<name>``, tags collected on the
  site's own hosts (server-side GTM, Adobe CNAME, self-hosted Matomo).
- ``SCRIPT_IDS``: ``https://snippets.example/script-ids``, tag libraries loaded
  bare (no call that would fire a hit): their URLs carry the account ids (the
  files' ``[[script_id]]``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from tagcrawl.engine.vendors.catalog import entries

SNIPPETS_HOST = "snippets.example"
FIRST_PARTY_HOST = "myshop.example"


@dataclass(frozen=True)
class Snippet:
    """A vendor's install snippet.

    Attributes:
        vendor: catalog key.
        account: account id the crawl must report (normalised form).
        html: the snippet, with ``{ID}`` where the account id goes.
        event: event name of the beacon hit the library sends (None: the
            library sends no event name, e.g. a page view ping).
        transport: CDP resource type of that beacon ("script": the only hit
            is the library load).
        raw_id: the id as written in the snippet, when it differs from
            ``account`` (Google Ads conversion ids are reported ``AW-<n>``).
    """

    vendor: str
    account: str
    html: str
    event: str | None
    transport: str
    raw_id: str | None = None

    @property
    def url(self) -> str:
        return f"https://{SNIPPETS_HOST}/{self.vendor}"

    def render(self) -> str:
        return self.html.replace("{ID}", self.raw_id or self.account)


#: One per vendor file with a ``[snippet]`` table (catalog order).
SNIPPETS: tuple[Snippet, ...] = tuple(
    Snippet(e.vendor.key, t["account"], t["html"], t.get("event"), t["transport"], t.get("raw_id"))
    for e in entries() if (t := e.cases.get("snippet")))

SNIPPETS_BY_VENDOR = {s.vendor: s for s in SNIPPETS}


# -- transports ------------------------------------------------------------------

FORM = "application/x-www-form-urlencoded"
JSON_TYPE = "application/json"


@dataclass(frozen=True)
class Beacon:
    """One hit of a major vendor in the real library's shape.

    Attributes:
        vendor, account, event: what the crawl must report.
        get: GET URL (query carries id and event), or None when the vendor
            only POSTs.
        post: ``(url, body, content type)`` when the library POSTs a body.
    """

    vendor: str
    account: str
    event: str
    get: str | None = None
    post: tuple[str, str, str] | None = None


#: One per vendor file with a ``[beacon]`` table (catalog order).
BEACONS: tuple[Beacon, ...] = tuple(
    Beacon(e.vendor.key, t["account"], t["event"], t.get("get"),
           (t["post"]["url"], t["post"]["body"], t["post"]["type"]) if "post" in t else None)
    for e in entries() if (t := e.cases.get("beacon")))

BEACONS_BY_VENDOR = {b.vendor: b for b in BEACONS}

#: transport -> (resource type of a GET hit, of a POST hit) the crawl must record;
#: None: the transport does not carry that kind of request.
TRANSPORTS: dict[str, tuple[str | None, str | None]] = {
    "image": ("image", None),        # new Image().src
    "fetch": ("fetch", None),        # fetch(url)
    "xhr": ("xhr", "xhr"),           # XMLHttpRequest (GET, or POST with the body)
    "beacon": ("ping", "ping"),      # navigator.sendBeacon(url[, body])
    "json": (None, "fetch"),         # fetch POST, Content-Type: application/json
    "iframe": ("document", None),    # <iframe src=url>
    "delayed": ("image", "fetch"),   # setTimeout(..., 1200), then image or fetch POST
}


def request_for(beacon: Beacon, transport: str) -> tuple[str, str, str | None, str | None]:
    """``(method, url, body, content type)`` of ``beacon`` over ``transport``:
    the GET shape where the vendor has one, else its POST body; sendBeacon
    always POSTs (a form/text body when the vendor has one, else the bare
    GET URL); ``json`` POSTs the vendor's JSON body."""
    if transport == "json" or (transport == "beacon" and beacon.post is not None
                               and (beacon.post[2] != JSON_TYPE or beacon.get is None)):
        return ("POST", *beacon.post)
    if beacon.get is not None:
        return ("POST" if transport == "beacon" else "GET", beacon.get, None, None)
    return ("POST", *beacon.post)


def applicable(beacon: Beacon, transport: str) -> bool:
    """Whether the vendor's real request shape can go over ``transport``."""
    if transport == "json":
        return beacon.post is not None and beacon.post[2] == JSON_TYPE
    if beacon.get is not None:
        return True
    return TRANSPORTS[transport][1] is not None  # POST-only vendor: no image / iframe / plain GET fetch


def expected_type(beacon: Beacon, transport: str) -> str:
    """CDP resource type the crawl must record for ``beacon`` over ``transport``."""
    get_type, post_type = TRANSPORTS[transport]
    if transport == "beacon":
        return "ping"
    return get_type if request_for(beacon, transport)[0] == "GET" else post_type


MATRIX: tuple[tuple[str, str], ...] = tuple(
    (b.vendor, t) for t in TRANSPORTS for b in BEACONS if applicable(b, t))


def transport_url(transport: str) -> str:
    return f"https://{SNIPPETS_HOST}/transport/{transport}"


# -- look-alikes ------------------------------------------------------------------------

@dataclass(frozen=True)
class Lookalike:
    """A request shaped like a pixel that must not be reported as ``vendor``;
    or, with ``sent``, a real pixel request whose id is malformed: since
    issue 19 it is reported with the id as ``sent``, flagged (it used to be
    dropped).

    ``send``: "image", "script" (a tag library load) or "fetch" (a POST of
    ``body``).  ``marker`` is unique in the request URL (to find the request
    in the fixture web's log)."""

    name: str
    vendor: str
    send: str
    url: str
    body: str | None = None
    content_type: str | None = None
    sent: str | None = None

    @property
    def marker(self) -> str:
        return f"lookalike={self.name}"


LOOKALIKES_URL = f"https://{SNIPPETS_HOST}/lookalikes"

LOOKALIKES: tuple[Lookalike, ...] = (
    Lookalike("meta_first_party_tr", "facebook", "image",
              f"https://{SNIPPETS_HOST}/tr?id=123456789012345&ev=PageView&lookalike=meta_first_party_tr"),
    Lookalike("meta_malformed_id", "facebook", "image",
              "https://www.facebook.com/tr/?id=12345abc&ev=PageView&lookalike=meta_malformed_id", sent="12345abc"),
    Lookalike("meta_lookalike_host", "facebook", "image",
              "https://www.facebook.com.cdn-tracker.example/tr/?id=123456789012345&ev=PageView"
              "&lookalike=meta_lookalike_host"),
    Lookalike("gtag_not_g_or_aw", "google_analytics", "script",
              "https://www.googletagmanager.com/gtag/js?id=X-ABC123XYZ9&lookalike=gtag_not_g_or_aw"),
    Lookalike("ga4_tid_not_g", "google_analytics", "fetch",
              "https://region1.google-analytics.com/g/collect?v=2&tid=X-ABC123XYZ9&cid=1.2&en=page_view"
              "&lookalike=ga4_tid_not_g"),
    Lookalike("ga4_first_party_no_v2", "google_analytics", "fetch",
              f"https://{SNIPPETS_HOST}/g/collect?tid=G-ABC123XYZ9&cid=1.2&en=page_view"
              "&lookalike=ga4_first_party_no_v2"),
    Lookalike("ads_malformed_id", "google_ads", "image",
              "https://www.googleadservices.com/pagead/conversion/12345/?label=abc&lookalike=ads_malformed_id",
              sent="12345"),
    Lookalike("tiktok_malformed_code", "tiktok", "fetch",
              "https://analytics.tiktok.com/api/v2/pixel?lookalike=tiktok_malformed_code",
              json.dumps({"event": "Pageview", "context": {"pixel": {"code": "not-a-pixel-code"}}}), JSON_TYPE,
              sent="not-a-pixel-code"),
    Lookalike("pinterest_first_party", "pinterest", "image",
              f"https://{SNIPPETS_HOST}/v3/?event=pagevisit&tid=2612345678901&lookalike=pinterest_first_party"),
    Lookalike("linkedin_malformed_pid", "linkedin", "image",
              "https://px.ads.linkedin.com/collect?v=2&fmt=js&pid=li-abc&lookalike=linkedin_malformed_pid",
              sent="li-abc"),
)

#: a valid pixel on the look-alike page: proves the page's requests were captured.
LOOKALIKE_CONTROL = Beacon("reddit", "t2_control1", "PageVisit",
                           get="https://alb.reddit.com/rp.gif?id=t2_control1&event=PageVisit&ts=1700000000000")


# -- first-party setups --------------------------------------------------------------------

@dataclass(frozen=True)
class FirstParty:
    name: str
    vendor: str
    account: str
    event: str | None
    collect_host: str
    collect_path: str
    html: str

    @property
    def url(self) -> str:
        return f"https://{FIRST_PARTY_HOST}/{self.name}"


FIRST_PARTY: tuple[FirstParty, ...] = (
    FirstParty("sgtm", "google_analytics", "G-SGTM12345", "page_view", f"sgtm.{FIRST_PARTY_HOST}", "/g/collect",
               f"""<!-- Google tag (gtag.js), served by the server-side GTM container -->
<script async src="https://sgtm.{FIRST_PARTY_HOST}/gtag/js?id=G-SGTM12345"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){{dataLayer.push(arguments);}}
  gtag('js', new Date());

  gtag('config', 'G-SGTM12345', {{ server_container_url: 'https://sgtm.{FIRST_PARTY_HOST}' }});
</script>
"""),
    FirstParty("adobe", "adobe_analytics", "myshopprod", "pageview", f"metrics.{FIRST_PARTY_HOST}",
               "/b/ss/myshopprod/1/", f"""<script src="/js/AppMeasurement.js"></script>
<script>
  var s = s_gi("myshopprod");
  s.trackingServer = "metrics.{FIRST_PARTY_HOST}";
  s.trackingServerSecure = "metrics.{FIRST_PARTY_HOST}";
  s.pageName = "home";
  s.channel = "shop";
  s.t();
</script>
"""),
    FirstParty("matomo", "matomo", "3", None, FIRST_PARTY_HOST, "/analytics/matomo.php",
               f"""<!-- Matomo -->
<script>
  var _paq = window._paq = window._paq || [];
  /* tracker methods like "setCustomDimension" should be called before "trackPageView" */
  _paq.push(['trackPageView']);
  _paq.push(['enableLinkTracking']);
  (function() {{
    var u="//{FIRST_PARTY_HOST}/analytics/";
    _paq.push(['setTrackerUrl', u+'matomo.php']);
    _paq.push(['setSiteId', '3']);
    var d=document, g=d.createElement('script'), s=d.getElementsByTagName('script')[0];
    g.async=true; g.src=u+'matomo.js'; s.parentNode.insertBefore(g,s);
  }})();
</script>
<!-- End Matomo Code -->
"""),
)

#: first-party libraries, served on the site's own hosts: (host suffix, path) -> vendor_libs file.
FIRST_PARTY_LIBS = {
    (f"sgtm.{FIRST_PARTY_HOST}", "/gtag/js"): "gtag_sgtm.js",
    (FIRST_PARTY_HOST, "/js/AppMeasurement.js"): "appmeasurement.js",
    (FIRST_PARTY_HOST, "/analytics/matomo.js"): "matomo.js",
}


# -- script-URL ids ----------------------------------------------------------------------------

SCRIPT_IDS_URL = f"https://{SNIPPETS_HOST}/script-ids"

#: (vendor, account id, script URL): loaded bare, nothing else on the page.
SCRIPT_IDS: tuple[tuple[str, str, str], ...] = tuple(
    (e.vendor.key, t["account"], t["url"]) for e in entries() for t in e.cases.get("script_id", ()))


def all_urls() -> list[str]:
    """Every page the browser tests crawl, once each."""
    return ([s.url for s in SNIPPETS] + [transport_url(t) for t in TRANSPORTS] + [LOOKALIKES_URL]
            + [f.url for f in FIRST_PARTY] + [SCRIPT_IDS_URL])
