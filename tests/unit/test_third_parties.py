"""thirdParties without Chrome (issue 27 item 1; tagcrawl/engine/parties): third-party-web's
entities read from the pinned npm package, matched by host, the attribution of requests and
cookies, the missing-dataset path, the setting, the answer's caps.  Through real Chrome:
tests/browser/test_long_tail.py."""
from __future__ import annotations

import json
import logging

from tagcrawl.core.settings import Settings
from tagcrawl.core.truncation import THIRD_PARTIES_MAX, THIRD_PARTY_DOMAINS_MAX
from tagcrawl.crawl.report_caps import cap_response
from tagcrawl.engine.parties import attribution, entities
from tagcrawl.engine.parties.attribution import attribute
from tagcrawl.engine.vendors import Hit, Request

PAGE = "https://shop.example/"


def req(url, ts=1.0, frame=PAGE):
    return Request(url=url, resource_type="script", frame_url=frame, timestamp=ts)


def test_the_pinned_dataset_is_read_from_npm_and_matches_hosts_as_its_js_api_does():
    index = entities.load()
    package = json.loads((entities.DEFAULT_NPM_DIR.parent.parent / "npm" / "package.json").read_text())
    assert index.loaded and index.version == package["dependencies"]["third-party-web"]
    ga = index.lookup("www.google-analytics.com")
    assert (ga.name, ga.organisation, ga.category) == ("Google Analytics", "Google", "analytics")
    assert index.lookup("google-analytics.com") == ga  # "*.x" matches x itself
    assert index.lookup("analytics.google.com") == ga  # exact host
    assert index.lookup("static.hotjar.com").organisation == "Hotjar"  # no company: the name
    assert index.lookup("shop.example") is None and index.lookup("") is None
    assert index.lookup("a." * 200 + "google-analytics.com") == ga  # a long host is looked up by its tail
    assert entities.load() is index  # once per process


def test_a_missing_dataset_is_a_warning_and_an_empty_list(tmp_path, caplog):
    logger = logging.getLogger(entities.__name__)
    logger.addHandler(caplog.handler)  # the app's logging setup may stop propagation or disable the logger
    disabled, logger.disabled = logger.disabled, False
    try:
        with caplog.at_level(logging.WARNING, logger=entities.__name__):
            index = entities.load(tmp_path)
    finally:
        logger.removeHandler(caplog.handler)
        logger.disabled = disabled
    assert not index.loaded and index.lookup("www.google-analytics.com") is None
    assert "third-party-web dataset not available" in caplog.text
    result = attribute([req("https://www.google-analytics.com/analytics.js")], [], [], PAGE, index,
                       lambda ms: "no_banner")
    assert [(p.organisation, p.domains) for p in result.parties] == [(None, ["google-analytics.com"])]


def test_a_malformed_or_huge_dataset_is_refused(tmp_path, monkeypatch):
    target = tmp_path / "third-party-web" / "dist"
    target.mkdir(parents=True)
    (target / "entities.json").write_text("[{not json")
    assert not entities.read(tmp_path).loaded
    (target / "entities.json").write_text(json.dumps([{"name": "X", "domains": ["*.x.example"], "category": "ad"}] * 3))
    monkeypatch.setattr(entities, "FILE_MAX_BYTES", 10)
    assert not entities.read(tmp_path).loaded
    monkeypatch.setattr(entities, "FILE_MAX_BYTES", 10 ** 6)
    monkeypatch.setattr(entities, "DOMAINS_MAX", 1)
    exact, wildcard, dropped = entities.parse([{"name": "A", "domains": ["a.example", "*.b.example"]}, "junk", {}])
    assert exact == {"a.example": entities.Entity("A", "A", "other")} and wildcard == {} and dropped == 1


def test_the_npm_dir_and_the_detector_are_settings():
    settings = Settings.from_env({"TAGCRAWL_NPM_DIR": "/opt/npm/node_modules", "TAGCRAWL_GENERIC_BEACONS": "0"})
    assert settings.npm_dir == "/opt/npm/node_modules" and settings.generic_beacons is False
    assert Settings.from_env({}).generic_beacons is True and Settings.from_env({}).npm_dir is None


def test_requests_and_cookies_are_attributed_with_phase_and_identifier():
    index = entities.load()
    reqs = [req("https://shop.example/app.js", 1), req("https://cdn.shop.example/x.js", 2),
            req("https://fonts.googleapis.com/css2?family=Roboto", 3),
            req("https://www.googletagmanager.com/gtag/js?id=G-X", 4),
            req("https://region1.google-analytics.com/g/collect?tid=G-X", 50),
            req("https://www.google-analytics.com/g/collect?tid=G-X", 20),
            req("https://collect.unknown-cdp.example/e", 60),
            req("https://update.googleapis.com/service/update2", 5, frame=None)]
    hits = [Hit("google_analytics", "Google Analytics 4", "G-X", url=reqs[4].url)]
    cookies = [{"name": "_ga", "domain": ".shop.example"}, {"name": "IDE", "domain": ".google-analytics.com"},
               {"name": "uid", "domain": "unknown-cdp.example"}, {"name": "z", "domain": ".cookie-only.example"}]
    result = attribute(reqs, cookies, hits, PAGE, index, lambda ms: "before_consent" if ms < 30 else "after_reject")
    got = {p.entity or p.domains[0]: p for p in result.parties}
    assert list(got) == ["Google Fonts", "Google Tag Manager", "Google Analytics", "unknown-cdp.example",
                         "cookie-only.example"]
    ga = got["Google Analytics"]
    assert (ga.organisation, ga.category, ga.domains, ga.requests, ga.cookies, ga.phase, ga.identifier) == (
        "Google", "analytics", ["google-analytics.com"], 2, 1, "before_consent", True)
    unknown = got["unknown-cdp.example"]
    assert (unknown.organisation, unknown.requests, unknown.cookies, unknown.phase, unknown.identifier) == (
        None, 1, 1, "after_reject", False)
    assert got["cookie-only.example"].phase is None and got["Google Fonts"].category == "cdn"


def test_the_list_and_its_strings_are_bounded(monkeypatch):
    monkeypatch.setattr(attribution, "PARTIES_MAX", 3)
    reqs = [req(f"https://t{i}.example/x") for i in range(5)]
    result = attribute(reqs, [], [], PAGE, entities.EntityIndex(), lambda ms: "no_banner")
    assert len(result.parties) == 3 and result.dropped == 2 and result.notes() == ["thirdParties: kept 3 of 5"]
    party = {"organisation": "O" * 5000, "entity": "E", "category": "ad", "domains": ["d.example"] * 50,
             "requests": 1, "cookies": 0, "phase": "no_banner", "identifier": False}
    doc = cap_response({"message": None, "thirdParties": [party] * (THIRD_PARTIES_MAX + 1)}, 2 * 1024 * 1024)
    assert len(doc["thirdParties"]) == THIRD_PARTIES_MAX
    assert len(doc["thirdParties"][0]["domains"]) == THIRD_PARTY_DOMAINS_MAX
    assert doc["thirdParties"][0]["organisation"].endswith("chars]") and "thirdParties" in doc["message"]
