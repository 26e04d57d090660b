"""``GET /api/v1/vendors``: the vendor catalog, behind an API key.  The vendor
pages crawled in Chrome: tests/browser/test_vendor_pages.py."""
from __future__ import annotations

import pytest

from tagcrawl.engine.vendors import CATEGORIES

from tests.support.vendor_pages import SNIPPETS


@pytest.mark.postgres
def test_vendors_endpoint_lists_the_catalog(client, api_key):
    response = client.get("/api/v1/vendors", headers={"x-api-key": api_key})
    assert response.status_code == 200
    vendors = response.get_json()
    assert len(vendors) >= 80
    assert all(set(v) == {"key", "name", "aliases", "category"} for v in vendors)
    assert all(isinstance(v["aliases"], list) and all(isinstance(a, str) for a in v["aliases"]) for v in vendors)
    assert {v["category"] for v in vendors} <= set(CATEGORIES)
    keys = [v["key"] for v in vendors]
    assert keys == sorted(set(keys))
    assert {s.vendor for s in SNIPPETS} <= set(keys)
    meta = next(v for v in vendors if v["key"] == "facebook")
    assert meta["name"] == "Meta Pixel" and "Meta" in meta["aliases"]


@pytest.mark.postgres
@pytest.mark.parametrize("key", [None, "tc_wrong_key_that_does_not_exist"])
def test_vendors_endpoint_needs_an_api_key(client, api_key, key):
    response = client.get("/api/v1/vendors", headers={"x-api-key": key} if key else {})
    assert response.status_code == 401
    assert response.get_json()["error"] is True
