"""The crawl API refuses an ``options.country`` that is not ISO 3166-1 alpha-2
(422).  Proxies and locale in Chrome: tests/browser/test_proxy_country.py."""
from __future__ import annotations

import uuid

import pytest


@pytest.mark.postgres
@pytest.mark.parametrize("country", ["Germany", "DEU", "XX", "D", "", 49])
def test_country_must_be_iso_alpha2(client, api_key, country):
    body = {"url": "https://geo.example/", "session_id": str(uuid.uuid4()), "options": {"country": country}}
    response = client.post("/api/v1", json=body, headers={"x-api-key": api_key})
    assert response.status_code == 422
    assert ["body", "options", "country"] in [d["loc"] for d in response.get_json()["detail"]]
