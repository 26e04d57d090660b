"""Reading one page's compact result (``AuditPage.result``, written by the runner's
``page_result``; shape in docs/audits.md, "The page result").

The readers accept the crawl response's own key names and the seam's spelling
(``account_id`` / ``accountId``, ``consent`` / ``phase`` for a pixel's consent
phase, violations at the top or under ``consent``), so the report does not
depend on which one the runner keeps.  Every list read is cut at ``ITEMS_MAX``.
"""
from __future__ import annotations

from functools import cached_property

ITEMS_MAX = 500  # per page and list: pixels, cookies, violations, third parties, rules
BEFORE = "before_consent"


def _list(value) -> list:
    return list(value[:ITEMS_MAX]) if isinstance(value, list) else []


def _text(value) -> str | None:
    return None if value is None else str(value)


def pixel_key(pixel: dict) -> dict:
    """``{vendor, accountId, phase, recognised, organisation, vendorName}`` of one pixel (strings or None)."""
    return {"vendor": _text(pixel.get("vendor")),
            "accountId": _text(pixel.get("accountId", pixel.get("account_id"))),
            "phase": _text(pixel.get("phase", pixel.get("consent"))),
            "recognised": _text(pixel.get("recognised")),
            "organisation": _text(pixel.get("organisation")),
            "vendorName": _text(pixel.get("vendorName"))}


def pixels(result: dict | None) -> list[dict]:
    """The page's pixels as ``pixel_key`` dicts (at most ``ITEMS_MAX``)."""
    return [pixel_key(p) for p in _list((result or {}).get("pixels", (result or {}).get("marketingPixels")))
            if isinstance(p, dict)]


def consent(result: dict | None) -> dict:
    """``{banner, cmp, action, verified}`` of the page's consent report (None values when absent)."""
    report = (result or {}).get("consent") or {}
    return {k: report.get(k) for k in ("banner", "cmp", "action", "verified")}


def before_consent(result: dict | None) -> list:
    """What was sent before the visitor's choice: the result's ``beforeConsent`` list, else its consent
    report's ``before_consent``; when those are empty, the pixels whose phase is ``before_consent``."""
    result = result or {}
    items = result.get("beforeConsent")
    if items is None:
        items = (result.get("consent") or {}).get("before_consent")
    if not items:
        items = [p for p in pixels(result) if p["phase"] == BEFORE]
    return _list(items)


def violations(result: dict | None) -> list:
    """The consent violations (sent against the choice): top-level ``violations`` else ``consent.violations``."""
    result = result or {}
    items = result.get("violations")
    return _list(items if items is not None else (result.get("consent") or {}).get("violations"))


def cookies(result: dict | None) -> list[dict]:
    return [c for c in _list((result or {}).get("cookies")) if isinstance(c, dict)]


def third_parties(result: dict | None) -> list[dict]:
    return [t for t in _list((result or {}).get("thirdParties")) if isinstance(t, dict)]


def rules(result: dict | None) -> list:
    result = result or {}
    return _list(result.get("rules", result.get("validationResults")))


def error_text(result: dict | None, row_error: str | None = None) -> str | None:
    """The page's error message: the result's ``error`` (a string or ``{message}``), else the row's."""
    error = (result or {}).get("error")
    if isinstance(error, dict):
        error = error.get("message")
    return _text(error) or row_error


def blocked(result: dict | None) -> str | None:
    """Why the page was blocked (``recaptcha``, ``accessDenied``), else None."""
    result = result or {}
    reason = result.get("blocked")
    if reason is None:
        reason = (result.get("button") or {}).get("error_message")
    return _text(reason)


class PageFacts:
    """One ``AuditPage`` row (or any object with its attributes) with its result read once.

    The report reads each page's pixels, consent lists, cookies and third parties several
    times; ``of(row)`` wraps a row once so each is parsed once (``functools.cached_property``).
    """

    __slots__ = ("row", "__dict__")

    def __init__(self, row):
        self.row = row

    def __getattr__(self, name):  # url, scenario, status, result, depth, source, reason, error, crawl_id, ...
        return getattr(self.row, name)

    @cached_property
    def pixels(self) -> list[dict]:
        return pixels(self.row.result)

    @cached_property
    def before_consent(self) -> list:
        result = self.row.result or {}
        items = result.get("beforeConsent")
        if items is None:
            items = (result.get("consent") or {}).get("before_consent")
        return _list(items) if items else [p for p in self.pixels if p["phase"] == BEFORE]

    @cached_property
    def violations(self) -> list:
        return violations(self.row.result)

    @cached_property
    def cookies(self) -> list[dict]:
        return cookies(self.row.result)

    @cached_property
    def third_parties(self) -> list[dict]:
        return third_parties(self.row.result)


def of(row) -> PageFacts:
    """``row`` as ``PageFacts`` (itself when it already is one)."""
    return row if isinstance(row, PageFacts) else PageFacts(row)
