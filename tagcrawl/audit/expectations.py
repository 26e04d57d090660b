"""Site-level expectations of an audit, evaluated on its pages at report time (docs/audits.md).

- ``vendorOnEveryPage``: ``vendor`` (and ``accountId`` when given) fired on every
  crawled page whose URL matches ``pages``, in the audit's main scenario
  (``accept`` when audited, else the first consent action).  Pages that could
  not be crawled (failed) are not counted: they are listed as broken.
- ``noPixelBeforeConsent``: no page matching ``pages`` (any scenario) sent a
  pixel before the visitor's choice.

Globs are the rule globs (``crawl/globs.py``: linear time).  Bounds: the config
holds at most ``EXPECTATIONS_MAX`` expectations (schema); each lists at most
``URLS_MAX`` offending URLs plus their count.
"""
from __future__ import annotations

from tagcrawl.audit import page_view
from tagcrawl.crawl.globs import pattern_matches
from tagcrawl.engine.vendors import find_vendor

URLS_MAX = 1000


def main_scenario(consent_actions) -> str:
    """The scenario coverage is judged on: ``accept`` when audited, else the first action."""
    actions = tuple(consent_actions or ("accept",))
    return "accept" if "accept" in actions else actions[0]


def same_vendor(wanted: str, reported: str | None) -> bool:
    """Whether a pixel's ``vendor`` (the crawl's display name, "Google Analytics 4") is the expectation's
    ``vendor``, written as that name or as the catalog's key or alias ("ga4", "google_analytics_4"):
    ``engine.vendors.find_vendor``, case-insensitive.  A vendor outside the catalog (a heuristic pixel's
    host) matches its exact name only."""
    if reported is None:
        return False
    if wanted == reported:
        return True
    entry = find_vendor(wanted)
    return entry is not None and entry is find_vendor(reported)


def _fired(page, vendor: str, account: str | None) -> bool:
    return any(same_vendor(vendor, p["vendor"]) and (account is None or p["accountId"] == account)
               for p in page.pixels)


def _failed(expectation: dict, urls: list[str], checked: int) -> dict:
    return {**expectation, "passed": not urls, "checked": checked, "failures": len(urls), "urls": urls[:URLS_MAX]}


def evaluate_one(expectation: dict, pages, scenario: str) -> dict:
    """One expectation over ``pages`` (``AuditPage`` rows or objects with url, scenario, status, result).

    Returns:
        the expectation plus ``passed`` (bool), ``checked`` (pages looked at), ``failures`` (count) and
        ``urls`` (the offending page URLs, sorted, at most ``URLS_MAX``).
    """
    glob = expectation.get("pages") or "*"
    crawled = [page_view.of(p) for p in pages if p.status == "done" and pattern_matches(glob, p.url)]
    if expectation["type"] == "vendorOnEveryPage":
        mine = [p for p in crawled if p.scenario == scenario]
        urls = sorted({p.url for p in mine if not _fired(p, expectation["vendor"], expectation.get("accountId"))})
        return _failed(expectation, urls, len(mine))
    if expectation["type"] == "noPixelBeforeConsent":
        urls = sorted({p.url for p in crawled if p.before_consent})
        return _failed(expectation, urls, len(crawled))
    return {**expectation, "passed": False, "checked": 0, "failures": 0, "urls": [],
            "error": "unknown expectation type"}


def evaluate_expectations(config, pages) -> list[dict]:
    """Every expectation of ``config`` (an ``AuditConfig``) over ``pages``, in order (``evaluate_one``).

    The failing ones have ``passed`` false; ``flask audit run`` exits 1 when any fails.
    """
    scenario = main_scenario(config.consent_actions)
    return [evaluate_one(e, pages, scenario) for e in config.expectations]
