"""Tests of the vendor catalog (tagcrawl.engine.vendors)."""
from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tagcrawl.engine.vendors import (
    CATALOG, CATEGORIES, Request, browser_patterns, catalog_listing, find_vendor, match_request,
    match_requests, normalise_id, pixels_from_hits, syncs_from_hits, vendor_key_for,
)
from tagcrawl.engine.vendors import decode, ids
from tagcrawl.engine.vendors.types import Hit

from tests.support.vendor_cases import ANY, HEX32, MALFORMED, META_ID, NEGATIVE, POSITIVE, UUID

KEYS = {v.key for v in CATALOG}


def req(case) -> Request:
    return Request(url=case.url, method=case.http_method, post_data=case.body, headers=dict(case.headers),
                   resource_type="xhr", frame_url="https://shop.example/", timestamp=1.0)


# -- recorded cases --------------------------------------------------------------

@pytest.mark.parametrize("case", POSITIVE, ids=str)
def test_positive_case(case):
    hits = match_request(req(case))
    assert hits, f"no hit for {case.url}"
    assert {h.vendor_key for h in hits} == {case.vendor}, [(h.vendor_key, h.account_id) for h in hits]
    assert tuple(h.account_id for h in hits) == case.ids
    if case.event is not ANY:
        assert hits[0].event == case.event
    assert {h.kind for h in hits} == {case.kind}
    if case.partner is not ANY:
        assert {h.partner for h in hits} == {case.partner}
    for h in hits:
        assert h.vendor_name == find_vendor(case.vendor).name
        assert h.transport == "xhr" and h.frame_url == "https://shop.example/" and h.url == case.url
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in h.params.items())


@pytest.mark.slow
@pytest.mark.parametrize("case", NEGATIVE, ids=str)
def test_negative_case(case):
    hits = match_request(req(case))
    assert case.vendor not in {h.vendor_key for h in hits}, [(h.vendor_key, h.account_id) for h in hits]


@pytest.mark.parametrize("case", MALFORMED, ids=str)
def test_malformed_id_is_reported_as_sent_and_flagged(case):
    """Issue 19: these were negatives (ids dropped for their format); an
    audit must show them, so they are reported exactly as sent, flagged."""
    hits = [h for h in match_request(req(case)) if h.vendor_key == case.vendor]
    assert tuple(h.account_id for h in hits) == case.ids
    assert all(h.warnings for h in hits), [(h.account_id, h.warnings) for h in hits]
    [pixel] = pixels_from_hits(hits[:1]) or syncs_from_hits(hits[:1])  # a sync is reported apart, flagged alike
    assert pixel["account_id"] == case.ids[0] and pixel["warnings"] == list(hits[0].warnings)


def test_cases_cover_every_vendor():
    assert {c.vendor for c in POSITIVE} == KEYS
    assert {c.vendor for c in NEGATIVE} == KEYS
    assert {c.vendor for c in POSITIVE + NEGATIVE + MALFORMED} <= KEYS


# -- first-party setups ------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://sgtm.shop.example/g/collect?v=2&tid=G-ABC123XYZ9&en=page_view",
    "https://shop.example/metrics/g/collect?v=2&tid=G-ABC123XYZ9&en=page_view",
    "https://analytics.google.com/g/collect?v=2&tid=G-ABC123XYZ9&en=page_view",
])
def test_ga4_first_party_and_sgtm(url):
    [hit] = match_request(Request(url=url))
    assert (hit.vendor_key, hit.account_id, hit.event) == ("google_analytics", "G-ABC123XYZ9", "page_view")


@pytest.mark.parametrize("url", [
    "https://sgtm.shop.example/g/collect?tid=G-ABC123XYZ9&en=page_view",  # no v=2
    "https://sgtm.shop.example/g/collect?v=2&en=page_view",  # no tid
    "https://sgtm.shop.example/g/collect?v=2&tid=X-ABC123XYZ9",
    "https://sgtm.shop.example/g/collector?v=2&tid=G-ABC123XYZ9",
])
def test_ga4_lookalikes(url):
    assert not match_request(Request(url=url))


def test_adobe_cname_and_matomo_self_hosted():
    [a] = match_request(Request(url="https://smetrics.shop.example/b/ss/shopprod/1/JS-2.22.0/s1?pageName=x"))
    assert (a.vendor_key, a.account_id) == ("adobe_analytics", "shopprod")
    [m] = match_request(Request(url="https://shop.example/stats/matomo.php?idsite=7&rec=1&action_name=Home"))
    assert (m.vendor_key, m.account_id) == ("matomo", "7")
    [p] = match_request(Request(url="https://shop.example/piwik.php?idsite=12&rec=1"))
    assert (p.vendor_key, p.account_id) == ("matomo", "12")
    assert not match_request(Request(url="https://shop.example/matomo.php?rec=1"))


def test_adobe_post_body():
    [a] = match_request(Request(url="https://metrics.shop.example/b/ss/shopprod/10/JS-2.22.0/s1", method="POST",
                                post_data="AQB=1&ndh=1&pageName=Home&events=purchase&AQE=1"))
    assert a.account_id == "shopprod" and a.params["pageName"] == "Home"


# -- batches and multi-id --------------------------------------------------------------

def test_ga4_batch_split():
    body = "en=page_view&_et=1&ep.page_type=home\nen=scroll&epn.percent_scrolled=90\nen=purchase&ep.currency=EUR"
    hits = match_request(Request(url="https://www.google-analytics.com/g/collect?v=2&tid=G-ABC123XYZ9&cid=1.2&dl="
                                     + quote("https://shop.example/"), method="POST", post_data=body))
    assert [h.event for h in hits] == ["page_view", "scroll", "purchase"]
    assert {h.account_id for h in hits} == {"G-ABC123XYZ9"}
    assert hits[1].params["epn.percent_scrolled"] == "90"
    assert hits[2].params["ep.currency"] == "EUR" and "ep.currency" not in hits[0].params
    assert all(h.params["cid"] == "1.2" for h in hits)  # shared params from the query


def test_outbrain_comma_split():
    a, b = "00f0ccd36f7a89d3c1b7f96ad1c12f9c53", "00a0ccd36f7a89d3c1b7f96ad1c12f9c5b"
    hits = match_request(Request(url=f"https://tr.outbrain.com/unifiedPixel?marketerId={a},{b},bogus&name=PAGE_VIEW"))
    assert [h.account_id for h in hits] == [a, b, "bogus"]  # a malformed member is reported, flagged
    assert pixels_from_hits(hits) == [
        {"vendor": "Outbrain Pixel", "account_id": a, "page": None, "warnings": []},
        {"vendor": "Outbrain Pixel", "account_id": b, "page": None, "warnings": []},
        {"vendor": "Outbrain Pixel", "account_id": "bogus", "page": None,
         "warnings": ["account id has 5 characters; Outbrain Pixel ids have 20 to 40"]}]


def test_tiktok_batch_body():
    body = {"batch": [{"event": "Pageview", "context": {"pixel": {"code": "C1A2B3C4D5E6F7G8H9I0"}}},
                      {"event": "ClickButton", "context": {"pixel": {"code": "D1A2B3C4D5E6F7G8H9I0"}}}]}
    hits = match_request(Request(url="https://analytics.tiktok.com/api/v2/pixel/batch", method="POST",
                                 post_data=json.dumps(body)))
    assert [(h.account_id, h.event) for h in hits] == [("C1A2B3C4D5E6F7G8H9I0", "Pageview"),
                                                       ("D1A2B3C4D5E6F7G8H9I0", "ClickButton")]
    assert hits[0].params["event"] == "Pageview"


def test_match_requests_order():
    reqs = [Request(url=f"https://www.facebook.com/tr?id={META_ID}&ev=PageView"),
            Request(url="https://example.com/"),
            Request(url="https://www.googletagmanager.com/gtag/js?id=AW-123456789"),
            Request(url=f"https://www.facebook.com/tr?id={META_ID}&ev=Lead")]
    assert [(h.vendor_key, h.event) for h in match_requests(iter(reqs))] == [
        ("facebook", "PageView"), ("google_ads", None), ("facebook", "Lead")]


# -- ids ---------------------------------------------------------------------------

@pytest.mark.parametrize("vendor,raw,expected", [
    ("google_ads", "123456789", "AW-123456789"),
    ("google_ads", "aw-123456789", "AW-123456789"),
    ("google_ads", "AW-12ab", None),
    ("floodlight", "1234567", "DC-1234567"),
    ("floodlight", "DC-1234567", "DC-1234567"),
    ("google_analytics", "g-abc123xyz9", "G-ABC123XYZ9"),
    ("google_analytics", "ABC123XYZ9", None),
    ("google_analytics", "G-ABC", None),
    ("google_analytics", "G-ABC123XYZ9TOOLONG", None),
    ("universal_analytics", "ua-12345-1", "UA-12345-1"),
    ("universal_analytics", "UA-12345", None),
    ("google_tag_manager", " gtm-ab12cd3 ", "GTM-AB12CD3"),
    ("google_tag_manager", "GTM-AB", None),
    ("facebook", "123456789012345", "123456789012345"),
    ("facebook", "1234567890123456", "1234567890123456"),
    ("facebook", "abc", None),
    ("facebook", "12345678901234567", None),
    ("tiktok", "C1A2B3C4D5E6F7G8H9I0", "C1A2B3C4D5E6F7G8H9I0"),
    ("tiktok", "c1a2b3c4d5e6f7g8h9i0", None),
    ("tiktok", "C1A2B3", None),
    ("linkedin", "1234567", "1234567"),
    ("linkedin", "12a", None),
    ("snapchat", UUID.upper(), UUID),
    ("Meta", "abc", None),
    ("nope", "123", None),
    ("facebook", None, None),
    ("facebook", 123456789012345, "123456789012345"),
    ("crazy_egg", "0012/3456", "00123456"),
])
def test_normalise_id(vendor, raw, expected):
    assert normalise_id(vendor, raw) == expected


def test_id_formats_accept_their_examples():
    for v in CATALOG:
        if v.id_format is not None:
            assert v.id_format.example, v.key
            assert v.id_format.normalise(v.id_format.example) == v.id_format.example, v.key


def test_malformed_id_is_flagged_and_library_load_gives_none():
    # issue 19 reversed the old policy ("a malformed id gives no hit"): the id is reported as sent, flagged
    [bad] = match_request(Request(url="https://www.facebook.com/tr?id=abc&ev=PageView"))
    assert (bad.vendor_key, bad.account_id) == ("facebook", "abc")
    assert bad.warnings == ("account id has 3 characters; Meta pixel ids have 15 to 16",)
    [h] = match_request(Request(url="https://connect.facebook.net/en_US/fbevents.js"))
    assert h.vendor_key == "facebook" and h.account_id is None and h.warnings == ()


# -- pixels_from_hits ----------------------------------------------------------------

def _hit(key, name, acc, frame):
    return Hit(vendor_key=key, vendor_name=name, account_id=acc, frame_url=frame)


def test_pixels_from_hits_dedup_and_order():
    hits = [
        _hit("facebook", "Meta Pixel", None, "https://a/"),
        _hit("google_ads", "Google Ads", "AW-1", "https://a/"),
        _hit("facebook", "Meta Pixel", "123456789012345", "https://frame/"),
        _hit("google_ads", "Google Ads", "AW-1", "https://b/"),
        _hit("hotjar", "Hotjar", None, "https://c/"),
        _hit("hotjar", "Hotjar", None, "https://d/"),
        _hit("google_ads", "Google Ads", "AW-2", "https://e/"),
    ]
    assert pixels_from_hits(hits) == [
        {"vendor": "Google Ads", "account_id": "AW-1", "page": "https://a/", "warnings": []},
        {"vendor": "Meta Pixel", "account_id": "123456789012345", "page": "https://frame/", "warnings": []},
        {"vendor": "Hotjar", "account_id": None, "page": "https://c/", "warnings": []},
        {"vendor": "Google Ads", "account_id": "AW-2", "page": "https://e/", "warnings": []},
    ]
    assert pixels_from_hits([]) == []


def test_pixels_from_real_requests():
    reqs = [Request(url="https://connect.facebook.net/en_US/fbevents.js", frame_url="https://shop.example/"),
            Request(url=f"https://connect.facebook.net/signals/config/{META_ID}", frame_url="https://shop.example/"),
            Request(url=f"https://www.facebook.com/tr?id={META_ID}&ev=PageView", frame_url="https://shop.example/x"),
            Request(url="https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ9", frame_url="https://if.example/")]
    assert pixels_from_hits(match_requests(reqs)) == [
        {"vendor": "Meta Pixel", "account_id": META_ID, "page": "https://shop.example/", "warnings": []},
        {"vendor": "Google Analytics 4", "account_id": "G-ABC123XYZ9", "page": "https://if.example/", "warnings": []},
    ]


# -- lookup ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,key", [
    ("facebook", "facebook"), ("Meta", "facebook"), ("  META pixel ", "facebook"), ("Facebook Pixel", "facebook"),
    ("X", "twitter"), ("twitter", "twitter"), ("X (Twitter) Pixel", "twitter"),
    ("Microsoft Advertising", "bing"), ("bing", "bing"), ("Microsoft", "bing"), ("UET", "bing"),
    ("GA4", "google_analytics"), ("google analytics 4", "google_analytics"), ("Google-Ads", "google_ads"),
    ("DoubleClick", "floodlight"), ("Campaign Manager 360", "floodlight"), ("universal analytics", "universal_analytics"),
    ("GTM", "google_tag_manager"), ("Piwik", "matomo"), ("Omniture", "adobe_analytics"), ("Sendinblue", "brevo"),
])
def test_find_vendor(name, key):
    v = find_vendor(name)
    assert v is not None and v.key == key


@pytest.mark.parametrize("name", ["", "   ", "nonexistent vendor", None, 42])
def test_find_vendor_unknown(name):
    assert find_vendor(name) is None


@pytest.mark.parametrize("vn,vu,key", [
    ("Facebook", None, "facebook"),
    ("Facebook Pixel", "https://unrelated.example/", "facebook"),
    ("TikTok Pixel", None, "tiktok"),
    ("LinkedIn Insight Tag", None, "linkedin"),
    ("Hotjar Tracking", None, "hotjar"),
    (None, f"https://www.facebook.com/tr?id={META_ID}", "facebook"),
    (None, "https://px.ads.linkedin.com/collect?pid=1234567", "linkedin"),
    ("Some Unknown Co", "https://bat.bing.com/bat.js", "bing"),
    (None, "static.hotjar.com", "hotjar"),
    (None, "https://snap.licdn.com/whatever.js", "linkedin"),
    (None, "https://shop.example/", "unknown"),
    (None, None, "unknown"),
    ("", "", "unknown"),
    ("???", "http://[bad", "unknown"),
])
def test_vendor_key_for(vn, vu, key):
    assert vendor_key_for(vn, vu) == key


# -- catalog shape -------------------------------------------------------------------

def test_catalog_listing():
    listing = catalog_listing()
    assert len(listing) >= 80
    keys = [e["key"] for e in listing]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    for e in listing:
        assert set(e) == {"key", "name", "aliases", "category"}
        assert e["category"] in CATEGORIES and isinstance(e["aliases"], list)
    names = [v.name for v in CATALOG]
    assert len(set(names)) == len(names)
    json.dumps(listing)


def test_aliases_are_unambiguous():
    seen = {}
    for v in CATALOG:
        for n in (v.key, v.name, *v.aliases):
            norm = re.sub(r"[\s_\-]+", " ", n.strip().lower())
            assert seen.setdefault(norm, v.key) == v.key, (n, seen[norm], v.key)


_PY_ONLY = re.compile(r"\(\?P|\(\?[aiLmsux]+[):]|\\[AZ]|\(\?>|[*+?}]\+|\(\?#")


def test_browser_patterns_json_and_regexes():
    pats = browser_patterns()
    assert len(pats) >= len(CATALOG)
    assert json.loads(json.dumps(pats)) == pats
    assert {p["vendor"] for p in pats} == KEYS
    for p in pats:
        sources = [p["host"], p["path"], p["id_path"], p["id_regex"], *p["require"].values(),
                   *p["require_body"].values()]
        for src in filter(None, sources):
            re.compile(src)
            assert not _PY_ONLY.search(src), (p["vendor"], src)
        shaped = p["require"] or p["require_body"] or p["id_path"]
        assert p["host"] or shaped, f"{p['vendor']}: host-less pattern without shape"


def test_every_pattern_regex_is_js_compatible():
    for v in CATALOG:
        for p in v.patterns:
            specs = [s for s in (*p.ids, *p.events, *(s for s, _ in p.require))]
            sources = [p.host, p.path, *(rx for _, rx in p.require)]
            sources += [s.partition(":")[2].partition("~")[2] if s.split(":")[0] in "p q json hdr".split()
                        else s.partition(":")[2] for s in specs if s.split(":")[0] in ("path", "host", "url", "p", "q",
                                                                                       "json", "hdr")]
            for src in filter(None, sources):
                re.compile(src)
                assert not _PY_ONLY.search(src), (v.key, src)


def test_docs_table_is_current():
    from pathlib import Path

    from tools.vendor_table import DOC_PATH, markdown_table
    text = markdown_table()
    for v in CATALOG:
        assert f"| `{v.key}` |" in text
    assert Path(DOC_PATH).read_text(encoding="utf-8") == text, "run: python -m tools.vendor_table --write"


# -- decoding -------------------------------------------------------------------------

def test_decode_helpers():
    assert decode.decode_query("a=1&b=x%20y&a=2&c&%zz=%G1") == {"a": "1", "b": "x y", "c": "", "%zz": "%G1"}
    assert decode.decode_matrix("/activity;src=1;type=a;cat=b") == {"src": "1", "type": "a", "cat": "b"}
    assert decode.decode_matrix("/ddm/activity/src=1;cat=b") == {"src": "1", "cat": "b"}
    assert decode.decode_body('{"a": {"b": 1}, "c": [1]}').params == {"a.b": "1", "c": "[1]"}
    assert decode.decode_body("a=1\nb=2").kind == "lines"
    assert decode.decode_body("a=1&b=2").kind == "form"
    assert decode.decode_body('{"a":1}\n{"a":2}').kind == "jsonlines"
    assert decode.decode_body("\x00\x01\x02").kind == "raw"
    assert decode.decode_body("[" * 100000).kind == "raw"  # deep nesting: no RecursionError
    assert decode.decode_embedded_json("eyJhIjogMX0") == {"a": 1}
    assert decode.decode_embedded_json("%%%") is None
    assert decode.basic_auth_user({"authorization": "Basic YWJjOg=="}) == "abc"
    assert decode.basic_auth_user({"Authorization": "Bearer x"}) is None


def test_huge_body_is_capped():
    big = "en=page_view&x=" + "a" * (2 * decode.MAX_BODY)
    hits = match_request(Request(url="https://www.google-analytics.com/g/collect?v=2&tid=G-ABC123XYZ9",
                                 method="POST", post_data=big))
    assert len(hits) == 1 and hits[0].event == "page_view"
    assert len(hits[0].params["x"]) < decode.MAX_BODY
    body = json.dumps({"event": "x", "context": {"pixel": {"code": "C1A2B3C4D5E6F7G8H9I0"}}, "pad": "a" * 300000})
    # truncated JSON is not JSON any more: the TikTok hit is still recognised, without an id
    [h] = match_request(Request(url="https://analytics.tiktok.com/api/v2/pixel", method="POST", post_data=body))
    assert h.vendor_key == "tiktok" and h.account_id is None


# -- robustness -------------------------------------------------------------------------

_GARBAGE_URLS = [
    "", "not a url", "http://", "https://[::1", "http://[bad", "https://www.facebook.com/tr?id=%ZZ%&ev=%",
    "https://www.google-analytics.com/g/collect?v=2&tid=G-%E0%A4%A", "javascript:alert(1)", "data:text/html,<b>",
    "https://analytics.tiktok.com/api/v2/pixel", "https://x/" + "a/" * 5000, "https://a.b/?" + "&" * 10000,
    "https://api-js.mixpanel.com/track/?data=!!!", "https://ad.doubleclick.net/activity;;;=;src=;",
]


@pytest.mark.parametrize("url", _GARBAGE_URLS)
@pytest.mark.parametrize("body", [None, "", "{", "[1,2", "\x00\xff\ufffd", "a=%", "\n\n\n", "{}" * 1000, "null",
                                  '{"batch": 5}', '{"context": {"pixel": {"code": []}}}', '[{"data": null}]'])
def test_garbage_never_raises(url, body):
    hits = match_request(Request(url=url, method="POST", post_data=body))
    assert isinstance(hits, list) and all(isinstance(h, Hit) for h in hits)


_url_chars = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80)
_hosts = st.sampled_from(["www.facebook.com", "analytics.tiktok.com", "www.google-analytics.com", "sgtm.example",
                          "px.ads.linkedin.com", "api.segment.io", "tr.snapchat.com", "x", ""])
_paths = st.sampled_from(["/tr", "/g/collect", "/api/v2/pixel", "/collect", "/v1/t", "/p", "/b/ss/a,b/1/",
                          "/matomo.php", "/activity;src=1", "/i", "/e/", "/"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(host=_hosts, path=_paths, tail=_url_chars, query=_url_chars,
       body=st.one_of(st.none(), _url_chars, st.binary(max_size=64).map(lambda b: b.decode("latin-1")),
                      st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                                   lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c,
                                                                                        max_size=3),
                                   max_leaves=10).map(json.dumps)),
       method=st.sampled_from(["GET", "POST", "post", ""]),
       headers=st.dictionaries(st.sampled_from(["Authorization", "authorization", "X"]), st.text(max_size=30),
                               max_size=2))
@pytest.mark.slow
def test_random_requests_never_raise(host, path, tail, query, body, method, headers):
    url = f"https://{host}{path}{tail}?{query}"
    hits = match_request(Request(url=url, method=method, post_data=body, headers=headers))
    assert isinstance(hits, list)
    for h in hits:
        assert h.vendor_key in KEYS
        v = find_vendor(h.vendor_key)
        if h.account_id is not None and v.id_format is not None and not h.warnings:
            assert v.id_format.normalise(h.account_id) == h.account_id


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_random_text_url_never_raises(text):
    assert isinstance(match_request(Request(url=text, post_data=text, method="POST")), list)
    assert isinstance(vendor_key_for(text, text), str)
    find_vendor(text)


def test_hex_constant_sanity():
    assert ids.HEX32.normalise(HEX32) == HEX32
