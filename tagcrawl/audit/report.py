"""An audit's report and summary (docs/audits.md, "The report").

``build_report(audit, pages)`` is a pure function over the ``Audit`` row and its
``AuditPage`` rows (the caller loads at most ``store.PAGES_MAX`` of them): the
pages grouped by URL with one entry per consent scenario, vendors and accounts
(``inventory.vendors``), the consent findings, the cookie inventory, third
parties by organisation, broken/blocked/excluded pages, the expectations'
results and timing.  ``build_summary(report)`` is the small part stored in
``Audit.summary`` and sent to the webhook.  Every list is bounded (``LIST_MAX``
entries, or the inventory's caps).
"""
from __future__ import annotations

from tagcrawl.audit import inventory, page_view
from tagcrawl.audit.config import config_of
from tagcrawl.audit.expectations import evaluate_expectations

LIST_MAX = 5000  # pages, broken, blocked, excluded and consent findings, each


def _iso(moment) -> str | None:
    return moment.isoformat() if moment is not None else None


def scenario_entry(page) -> dict:
    """One (URL, scenario) of the report: what the crawl of that scenario saw."""
    page = page_view.of(page)
    result = page.result or {}
    return {"status": page.status, "finalUrl": result.get("finalUrl"), "pageStatus": result.get("pageStatus"),
            "success": result.get("success"), "error": page_view.error_text(result, page.error),
            "blocked": page_view.blocked(result), "pixels": page.pixels,
            "consent": page_view.consent(result), "beforeConsent": page.before_consent,
            "violations": page.violations, "rules": page_view.rules(result),
            "cookieCount": len(page.cookies), "crawlId": page.crawl_id,
            "sessionId": result.get("sessionId"), "screenShotUrls": result.get("screenShotUrls")}


def _pages(rows) -> list[dict]:
    by_url: dict[str, dict] = {}
    for page in rows:
        entry = by_url.setdefault(page.url, {"url": page.url, "depth": page.depth, "source": page.source,
                                             "scenarios": {}})
        entry["depth"] = min(entry["depth"], page.depth)
        entry["scenarios"][page.scenario] = scenario_entry(page)
    return sorted(by_url.values(), key=lambda e: (e["depth"], e["url"]))[:LIST_MAX]


def _consent(crawled) -> dict:
    before = [{"url": p.url, "scenario": p.scenario, "items": p.before_consent[:50]}
              for p in crawled if p.before_consent]
    refused = [{"url": p.url, "items": p.violations[:50]} for p in crawled if p.scenario == "reject" and p.violations]
    return {"trackersBeforeChoice": sorted(before, key=lambda f: (f["url"], f["scenario"]))[:LIST_MAX],
            "trackersBeforeChoiceCount": len({f["url"] for f in before}),
            "violationsAfterRefusal": sorted(refused, key=lambda f: f["url"])[:LIST_MAX],
            "violationsAfterRefusalCount": len(refused)}


def _broken(rows) -> list[dict]:
    out = []
    for page in rows:
        status = (page.result or {}).get("pageStatus")
        if page.status == "failed" or (isinstance(status, int) and status >= 400):
            out.append({"url": page.url, "scenario": page.scenario, "pageStatus": status,
                        "finalUrl": (page.result or {}).get("finalUrl"),
                        "error": page_view.error_text(page.result, page.error)})
    return sorted(out, key=lambda b: (b["url"], b["scenario"]))[:LIST_MAX]


def _timing(audit, rows) -> dict:
    done = [p for p in rows if p.status in ("done", "failed")]
    durations = [(p.finished_at - p.started_at).total_seconds() * 1000 for p in done
                 if p.started_at is not None and p.finished_at is not None]
    seconds = ((audit.finished_at - audit.started_at).total_seconds()
               if audit.started_at is not None and audit.finished_at is not None else None)
    return {"createdAt": _iso(audit.created_at), "startedAt": _iso(audit.started_at),
            "finishedAt": _iso(audit.finished_at), "durationS": seconds,
            "pagesPerMinute": round(len(done) * 60 / seconds, 2) if seconds else None,
            "averagePageMs": round(sum(durations) / len(durations)) if durations else None}


def build_report(audit, pages) -> dict:
    """The report of ``audit`` (an ``Audit``) over ``pages`` (its ``AuditPage`` rows, any order).

    Returns:
        ``{auditId, status, startUrls, consentActions, counts, pages, vendors, consent, cookies,
        thirdParties, broken, blocked, excluded, expectations, timing, problems, summary}`` (docs/audits.md);
        ``problems``: robots.txt / sitemaps discovery could not read (``[{"url", "error"}]``, from
        ``Audit.summary``, kept there by the runner while the audit runs).
    """
    config = config_of(audit.config)
    pages = [page_view.of(p) for p in pages]  # each result read once
    rows = [p for p in pages if p.status != "excluded"]
    crawled = [p for p in rows if p.status == "done"]
    expectations = evaluate_expectations(config, rows)
    counts = {s: 0 for s in ("queued", "running", "done", "failed", "excluded")}
    for page in pages:
        counts[page.status] = counts.get(page.status, 0) + 1
    report = {
        "auditId": audit.id, "status": audit.status, "startUrls": list(config.start_urls),
        "consentActions": list(config.consent_actions), "counts": {"discovered": len(pages), **counts},
        "pages": _pages(rows), "vendors": inventory.vendors(crawled, expectations), "consent": _consent(crawled),
        "cookies": inventory.cookies(crawled), "thirdParties": inventory.third_parties(crawled),
        "broken": _broken(rows),
        "blocked": sorted(({"url": p.url, "scenario": p.scenario, "reason": page_view.blocked(p.result)}
                           for p in rows if page_view.blocked(p.result)),
                          key=lambda b: (b["url"], b["scenario"]))[:LIST_MAX],
        "excluded": sorted(({"url": p.url, "reason": p.reason} for p in pages if p.status == "excluded"),
                           key=lambda e: e["url"])[:LIST_MAX],
        "expectations": expectations, "timing": _timing(audit, pages),
        "problems": list((audit.summary or {}).get("problems") or [])[:LIST_MAX]}
    report["summary"] = build_summary(report)
    return report


def build_summary(report: dict) -> dict:
    """The small summary of ``report``: counts, vendors/accounts with their page counts (at most 100),
    consent finding counts, cookies, broken/blocked counts and the failing expectations (at most 50,
    each with at most 20 URLs).  Stored in ``Audit.summary``; the webhook's payload."""
    failing = [{k: v for k, v in e.items() if k != "urls"} | {"urls": e.get("urls", [])[:20]}
               for e in report["expectations"] if not e.get("passed")]
    return {"auditId": report["auditId"], "status": report["status"], "pages": report["counts"],
            "vendors": [{"vendor": v["vendor"], "accountId": v["accountId"], "pageCount": v["pageCount"],
                         "missingPageCount": v["missingPageCount"]} for v in report["vendors"][:100]],
            "trackersBeforeChoice": report["consent"]["trackersBeforeChoiceCount"],
            "violationsAfterRefusal": report["consent"]["violationsAfterRefusalCount"],
            "cookies": len(report["cookies"]), "thirdParties": len(report["thirdParties"]),
            "broken": len(report["broken"]), "blocked": len(report["blocked"]),
            "expectationsFailed": len(failing), "failingExpectations": failing[:50],
            "problems": report.get("problems", [])[:100]}
