"""The caps on rules (pattern length, rule count, dataLayer path depth) answer
422 through the crawl API.  Linear-time matching itself: tests/unit/test_redos.py."""
from __future__ import annotations

import pytest

from tagcrawl.crawl.rules import PATH_SEGMENTS_MAX, PATTERN_MAX, RULES_MAX
from tests.unit.test_redos import rule


@pytest.mark.parametrize("mutate, loc_tail", [
    (lambda b: b["validationRules"][0].update(value="*" * (PATTERN_MAX + 1)), [0, "value"]),
    (lambda b: b["validationRules"][0].update(key="k" * (PATTERN_MAX + 1)), [0, "key"]),
    (lambda b: b["validationRules"][0].update(rule_type="DataLayer", key=".".join("a" * (PATH_SEGMENTS_MAX + 1))),
     [0, "key"]),
    (lambda b: b.update(validationRules=b["validationRules"] * (RULES_MAX + 1)), []),
])
def test_caps_answer_422(client, api_key, mutate, loc_tail):
    body = {"url": "https://shop.example/", "session_id": None, "validationRules": [rule("Cookie", "c", "x")]}
    mutate(body)
    response = client.post("/api/v1", json=body, headers={"x-api-key": api_key})
    assert response.status_code == 422
    detail = response.get_json()["detail"]
    assert detail[0]["loc"] == ["body", "validationRules"] + loc_tail
    assert detail[0]["type"] in {"too_long", "too_deep"}
