"""Validation rules end to end: one crawl of the demo shop with mixed rules."""
from __future__ import annotations

import uuid

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def rule(rule_type, vendor, key, value, condition="OR"):
    return {"rule_id": str(uuid.uuid4()), "rule_type": rule_type, "vendor": vendor, "key": key,
            "value": value, "condition": condition}


MIXED = [
    (rule("Pixel", "Meta", "account_id", "1234567890123456"), True),          # alias of the catalog key
    (rule("Pixel", "facebook", "event", "PageView|Purchase", "AND"), True),    # alternatives, every hit
    (rule("Pixel", "Meta Pixel", "event", "Purchase"), False),                 # no such event
    (rule("Pixel", "Google Analytics 4", "en", "page_*"), True),              # decoded parameter, glob
    (rule("Pixel", "Google Ads", "account_id", "AW-98765432?"), True),         # ? wildcard
    (rule("Pixel", "TikTok", "account_id", "*"), False),                       # vendor absent
    (rule("Cookie", "Meta", "_fbp", "fb.1.*"), True),
    (rule("Cookie", "OneTrust", "Optanon*", "*", "AND"), True),
    (rule("Cookie", "any", "_ga", "GA9.*"), False),
    (rule("DataLayer", "GA4", "ecommerce.currency", "EUR"), True),
    (rule("DataLayer", "GA4", "ecommerce.items.0.price", "9.99"), True),
    (rule("DataLayer", "GA4", "event", "purchase"), False),
    (rule(None, "Meta", "account_id", "1234567890123456", None), True),        # null type/condition: defaults
]


def test_mixed_rules_on_the_demo_shop(client, api_key, browser):
    rules = [r for r, _ in MIXED]
    body = {"url": "https://shop.example/", "session_id": str(uuid.uuid4()), "validationRules": rules}
    report = client.post("/api/v1", json=body, headers={"x-api-key": api_key}).get_json()
    assert report["success"] is True
    assert [r["rule_id"] for r in report["validationResults"]] == [r["rule_id"] for r in rules]
    assert [r["success"] for r in report["validationResults"]] == [expected for _, expected in MIXED]


def test_failed_crawl_still_returns_one_false_result_per_rule(client, api_key, browser):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    rules = [r for r, _ in MIXED[:3]]
    body = {"url": f"http://localhost:{port}/", "session_id": None, "validationRules": rules}
    report = client.post("/api/v1", json=body, headers={"x-api-key": api_key}).get_json()
    assert report["success"] is False
    assert report["validationResults"] == [{"rule_id": r["rule_id"], "success": False} for r in rules]


@pytest.mark.parametrize("field, value", [("rule_type", "Tag"), ("condition", "XOR"), ("condition", "or")])
def test_unknown_rule_type_or_condition_gets_422(client, api_key, field, value):
    bad = dict(MIXED[0][0], **{field: value})
    body = {"url": "https://shop.example/", "session_id": None, "validationRules": [bad]}
    response = client.post("/api/v1", json=body, headers={"x-api-key": api_key})
    assert response.status_code == 422
    assert response.get_json()["detail"] == [{"loc": ["body", "validationRules", 0, field],
                                             "msg": response.get_json()["detail"][0]["msg"], "type": "enum"}]
