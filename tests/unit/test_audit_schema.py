"""The audit request body (tagcrawl/core/schemas/audit.py, audit/config.py): defaults, errors, caps, hash."""
from __future__ import annotations

import pytest
from marshmallow import ValidationError

from tagcrawl.audit.config import config_hash, canonical_body, parse_config
from tagcrawl.audit.limits import AuditLimits
from tagcrawl.audit.schedules import validate_cron
from tagcrawl.core.errors import flatten_errors

LIMITS = AuditLimits(audit_max_pages=1000)


def _errors(body) -> list[tuple]:
    with pytest.raises(ValidationError) as caught:
        parse_config(body, LIMITS)
    return [(tuple(d["loc"][1:]), d["type"]) for d in flatten_errors(caught.value.messages)]


def test_defaults():
    config = parse_config({"startUrls": ["https://shop.example/"]}, LIMITS)
    assert (config.max_pages, config.max_depth, config.consent_actions, config.respect_robots) == (
        500, 3, ("accept",), True)
    assert config.sitemaps is None and config.include == () and config.expectations == []


@pytest.mark.parametrize("body, errors", [
    ({}, [(("startUrls",), "missing")]),
    ({"startUrls": []}, [(("startUrls",), "too_short")]),
    ({"startUrls": ["ftp://x.example/"]}, [(("startUrls", 0), "url_parsing")]),
    ({"startUrls": ["https://a.example/"] * 51}, [(("startUrls",), "too_long")]),
    ({"startUrls": ["https://a.example/"], "maxPages": 0}, [(("maxPages",), "value_error")]),
    ({"startUrls": ["https://a.example/"], "consentActions": ["maybe"]}, [(("consentActions", 0), "value_error")]),
    ({"startUrls": ["https://a.example/"], "consentActions": ["accept", "accept"]},
     [(("consentActions",), "value_error")]),
    ({"startUrls": ["https://a.example/"], "include": ["x" * 513]}, [(("include", 0), "too_long")]),
    ({"startUrls": ["https://a.example/"], "expectations": [{"type": "vendorOnEveryPage"}]},
     [(("expectations", 0, "vendor"), "missing")]),
    ({"startUrls": ["https://a.example/"], "expectations": [{"type": "x", "evil": 1}]},
     [(("expectations", 0, "type"), "value_error"), (("expectations", 0, "evil"), "extra_forbidden")]),
    ({"startUrls": ["https://a.example/"], "respectRobots": "yes"}, [(("respectRobots",), "bool_type")]),
    ({"startUrls": ["https://a.example/"], "maxPages": 1001}, [(("maxPages",), "quota_exceeded")]),
])
def test_errors_name_the_field_and_type(body, errors):
    assert sorted(_errors(body)) == sorted(errors)


def test_the_config_hash_ignores_the_webhook_and_defaults():
    a = canonical_body({"startUrls": ["https://a.example/"]})
    b = canonical_body({"startUrls": ["https://a.example/"], "maxPages": 500, "webhook": True})
    c = canonical_body({"startUrls": ["https://a.example/"], "maxPages": 50})
    assert config_hash(a) == config_hash(b) != config_hash(c)


@pytest.mark.parametrize("cron, ok", [("0 * * * *", True), ("@daily", True), ("*/5 * * * *", False),
                                      ("0 * * * * *", False), ("not cron", False), ("0 0 31 2 *", False)])
def test_cron_expressions(cron, ok):
    if ok:
        validate_cron(cron, 3600)
    else:
        with pytest.raises((ValidationError,)):
            validate_cron(cron, 3600)
