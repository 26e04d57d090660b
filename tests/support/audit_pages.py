"""Audit test fixtures: compact page results made from CrawlResponse-shaped dicts, and
synthetic sites of pages for the report, diff, CSV and expectation tests.

``page_result(crawl_response)`` is the report branch's stand-in for the runner's own
(``tagcrawl.audit.pages.page_result``, owned by the queue branch): it keeps the crawl
response's real key names (``marketingPixels`` items with ``account_id`` and
``consent``, ``cookies`` with ``expires`` as ISO 8601, ``consent.before_consent``).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

T0 = datetime(2026, 11, 20, 8, 0, tzinfo=timezone.utc)


def page_result(crawl_response: dict) -> dict:
    """The compact result (AUDIT_SEAMS.md) of one CrawlResponse dict."""
    consent = crawl_response.get("consent") or {}
    return {"url": crawl_response.get("url"), "finalUrl": crawl_response.get("finalUrl"),
            "pageStatus": crawl_response.get("pageStatus"), "success": crawl_response.get("success"),
            "error": (crawl_response.get("error") or {}).get("message"),
            "blocked": (crawl_response.get("button") or {}).get("error_message"),
            "pixels": crawl_response.get("marketingPixels") or [],
            "consent": {k: consent.get(k) for k in ("banner", "cmp", "action", "verified")},
            "beforeConsent": consent.get("before_consent") or [], "violations": consent.get("violations") or [],
            "rules": crawl_response.get("validationResults") or [], "cookies": crawl_response.get("cookies") or [],
            "thirdParties": crawl_response.get("thirdParties") or [], "sessionId": crawl_response.get("sessionId"),
            "screenShotUrls": crawl_response.get("screenShotUrls")}


def pixel(vendor: str, account: str | None, phase: str = "after_accept") -> dict:
    return {"vendor": vendor, "account_id": account, "page": None, "warnings": [], "consent": phase,
            "recognised": "catalog", "organisation": {"ga4": "Google", "meta": "Facebook"}.get(vendor)}


def cookie(name: str, domain: str, expires: str | None, phase: str = "after_accept", party: str = "first") -> dict:
    return {"name": name, "domain": domain, "party": party, "session": expires is None, "expires": expires,
            "phase": phase, "vendor": None}


def crawl_response(url: str, *, status: int = 200, pixels=(), cookies=(), before=(), violations=(),
                   action: str = "accept", blocked: str | None = None, session_id: str = "s") -> dict:
    """A CrawlResponse-shaped dict (docs/api.md field names)."""
    failed = status >= 400 or blocked is not None
    return {"sessionId": session_id, "url": url, "success": not failed, "finalUrl": url, "pageStatus": status,
            "marketingPixels": list(pixels), "cookies": list(cookies),
            "error": {"error": True, "message": f"the page answered HTTP {status}"} if status >= 400 else None,
            "button": {"button_text": None, "consent_banner": True, "error_message": blocked},
            "consent": {"cmp": "onetrust", "action": action, "verified": True, "banner": True,
                        "before_consent": list(before), "violations": list(violations)},
            "validationResults": [],
            "thirdParties": [{"organisation": "Google", "entity": "Google", "category": "analytics",
                              "domains": ["google-analytics.com"], "requests": 2, "cookies": 1,
                              "phase": "after_accept", "identifier": True}] if pixels else [],
            "screenShotUrls": {"screenShotBefore": f"/screenshots/{session_id}-before.png",
                               "screenShotAfter": f"/screenshots/{session_id}-after.png"}}


@dataclass
class Row:
    """An AuditPage-like row for the pure functions (same attribute names)."""

    url: str
    scenario: str = "accept"
    status: str = "done"
    result: dict | None = None
    depth: int = 0
    source: str = "start"
    reason: str | None = None
    error: str | None = None
    crawl_id: int | None = None
    started_at: datetime | None = T0
    finished_at: datetime | None = T0 + timedelta(seconds=2)


def audit(audit_id: str = "a1", expectations=(), actions=("accept",), status: str = "done"):
    """An Audit-like object whose ``config`` is a canonical body."""
    from tagcrawl.audit.config import canonical_body

    body = canonical_body({"startUrls": ["https://shop.example/"], "consentActions": list(actions),
                           "expectations": list(expectations)})
    return SimpleNamespace(id=audit_id, status=status, config=body, created_at=T0, started_at=T0,
                           finished_at=T0 + timedelta(minutes=1), api_key_id=1, summary=None, schedule_id=None)


GA = ("ga4", "G-SHOP1")
META = ("meta", "111222333")
YEAR = "2027-11-20T08:00:00Z"


def site(*, ga_missing=("/contact",), meta_before=("/promo",), refusal_ignored=("/blog",), broken=("/old",),
         blocked=("/captcha",), extra_cookie: str | None = None, meta_pages=None,
         actions=("accept", "reject")) -> list:
    """A synthetic 8-page site with planted defects, one Row per (page, scenario), plus one excluded URL."""
    paths = ["/", "/shop", "/contact", "/promo", "/blog", "/about", "/old", "/captcha"]
    meta_pages = set(paths if meta_pages is None else meta_pages)
    rows = []
    for path in paths:
        url = "https://shop.example" + path
        for action in actions:
            if path in broken:
                rows.append(Row(url, action, "done", page_result(crawl_response(url, status=404, action=action))))
                continue
            if path in blocked:
                rows.append(Row(url, action, "done", page_result(crawl_response(url, blocked="recaptcha",
                                                                                action=action))))
                continue
            pixels, before, violations = [], [], []
            phase = "after_accept" if action == "accept" else "after_reject"
            if path not in ga_missing and action == "accept":
                pixels.append(pixel(*GA, phase))
            if path in meta_pages and action == "accept":
                pixels.append(pixel(*META, phase))
            if path in meta_before:
                pixels.append(pixel(*META, "before_consent"))
                before.append({"type": "pixel", "vendor": "meta", "account_id": META[1]})
            if path in refusal_ignored and action == "reject":
                pixels.append(pixel(*GA, "after_reject"))
                violations.append({"type": "pixel", "vendor": "ga4", "account_id": GA[1]})
            cookies = [cookie("_ga", ".shop.example", YEAR)] if action == "accept" else []
            if extra_cookie and path == "/shop":
                cookies.append(cookie(extra_cookie, ".tracker.example", None, party="third"))
            rows.append(Row(url, action, "done", page_result(crawl_response(
                url, pixels=pixels, cookies=cookies, before=before, violations=violations, action=action,
                session_id=f"sess{len(rows)}"))))
    rows.append(Row("https://shop.example/admin", "accept", "excluded", None, reason="exclude"))
    return rows


__all__ = ["GA", "META", "Row", "audit", "crawl_response", "page_result", "site"]


def audit_config(start_urls=("https://shop.example/",), **fields):
    """An ``AuditConfig`` as a stored body with the schema's defaults gives it (``config_of``), with
    ``start_urls`` and any of its fields (``include``, ``max_pages``, ``respect_robots``...) replaced."""
    from dataclasses import replace

    from tagcrawl.audit.config import config_of

    return replace(config_of({"startUrls": list(start_urls)}), start_urls=tuple(start_urls), **fields)
