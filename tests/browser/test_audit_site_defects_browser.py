"""The generated audit site's planted defects are what a crawl sees (the truth
that the audit report tests rely on): GA4 and Meta on a clean page after
accepting, no GA4 where planted, Meta before any choice where planted, Meta
after a refusal where planted; the blocked page, the redirect loop and a 404."""
from __future__ import annotations

import pytest

from tests.support.web.audit_site import GA4, META, truth

HOST = "site-18.example"


def _vendors(report):
    return {(p["vendor"], p["account_id"]) for p in report["marketingPixels"]}


def _before(report):
    return {(i.get("vendor"), i.get("account_id")) for i in report["consent"]["before_consent"] if i["type"] == "pixel"}


def _violations(report):
    return {(i.get("vendor"), i.get("account_id")) for i in report["consent"]["violations"] if i["type"] == "pixel"}


GA4_PIXEL, META_PIXEL = ("Google Analytics 4", GA4), ("Meta Pixel", META)


@pytest.mark.parametrize("kind", ["clean", "noGa4", "before", "ignores"])
def test_planted_defects(crawler, kind):
    t = truth(HOST)
    plan = t["plan"]
    path = {"clean": "/p/0", "noGa4": plan["noGa4"][0], "before": plan["before"][0], "ignores": plan["ignores"][0]}[kind]
    action = "reject" if kind == "ignores" else "accept"
    report = crawler(f"http://{HOST}{path}", consentAction=action).response
    assert report["success"] is True, report["error"]
    assert (report["consent"]["cmp"], report["consent"]["action"], report["consent"]["verified"]) == \
        ("OneTrust", action, True)
    expected = {"clean": {GA4_PIXEL, META_PIXEL}, "noGa4": {META_PIXEL}, "before": {GA4_PIXEL, META_PIXEL},
                "ignores": {META_PIXEL}}[kind]
    assert _vendors(report) == expected
    assert _before(report) == ({META_PIXEL} if kind == "before" else set())
    assert _violations(report) == ({META_PIXEL} if kind == "ignores" else set())


@pytest.mark.parametrize("path, status, message", [
    ("/blocked", 403, "blocked by Cloudflare: block page (HTTP 403)"),
    ("/loop-a", None, "navigation failed: net::ERR_TOO_MANY_REDIRECTS"),
    ("/gone-1", 404, "the page answered HTTP 404"),
])
def test_broken_and_blocked_pages(crawler, path, status, message):
    t = truth(HOST)
    url = f"http://{HOST}{path}"
    assert url in t["defects"]["blocked"] + t["defects"]["redirectLoop"] + t["defects"]["notFound"]
    report = crawler(url).response
    assert (report["success"], report["pageStatus"], report["error"]["message"]) == (False, status, message)
