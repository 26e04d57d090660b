"""The ReDoS rule through the crawl API: a page in Chrome sets a 4,000-character
cookie and the ``*a*a*ab`` rule on it is answered.  Linear-time matching
itself: tests/unit/test_redos.py."""
from __future__ import annotations

import pytest

from tests.unit.test_redos import EVIL, LONG_A, finishes, rule


@pytest.mark.browser
@pytest.mark.postgres
def test_the_redos_rule_through_the_crawl_api(app, api_key, browser, fixture_web):
    """A page sets a 4,000-character cookie; the ``*a*a*ab`` rule on it is answered."""
    page = (f"<!doctype html><title>long cookie</title><script>document.cookie = 'c={LONG_A}; path=/';"
            "</script><p>long cookie</p>")

    def route(host, path, query, method, body, headers, web):
        return (200, {"Content-Type": "text/html"}, page) if path == "/long-cookie" else None

    previous, fixture_web.extra_route = fixture_web.extra_route, route
    body = {"url": "https://shop.example/long-cookie", "session_id": None,
            "validationRules": [rule("Cookie", "c", EVIL), rule("Cookie", "c", "a*a")]}
    try:
        response = finishes(lambda: app.test_client().post("/api/v1", json=body, headers={"x-api-key": api_key}))
    finally:
        fixture_web.extra_route = previous
    report = response.get_json()
    assert response.status_code == 200 and report["success"] is True, report
    assert [r["success"] for r in report["validationResults"]] == [False, True], (report["cookiesAfter"], report["message"])
