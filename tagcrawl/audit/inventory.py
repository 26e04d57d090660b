"""Site-wide inventories of an audit's report: vendors and accounts, cookies, third parties.

Pure functions over crawled ``AuditPage`` rows (``page_view`` reads each result).
Bounds: at most ``ENTRIES_MAX`` entries per inventory (the most seen first) and
``URLS_MAX`` page URLs per entry (with the full ``pageCount``); the inputs are
bounded by the audit's page cap and ``page_view.ITEMS_MAX`` per page.
"""
from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache

from tagcrawl.audit import page_view
from tagcrawl.audit.expectations import same_vendor

ENTRIES_MAX = 5000
URLS_MAX = 1000


def _urls(urls: set[str]) -> list[str]:
    return sorted(urls)[:URLS_MAX]


def vendors(pages, expectations: list[dict]) -> list[dict]:
    """Per vendor and account: the pages where it fired and the pages an expectation missed it on.

    Returns:
        ``[{vendor, accountId, organisation, recognised, pageCount, pages, scenarios, phases,
        missingPageCount, missingOn}]``, most pages first, at most ``ENTRIES_MAX``.
    """
    table: dict[tuple, dict] = {}
    for page in map(page_view.of, pages):
        for pixel in page.pixels:
            entry = table.setdefault((pixel["vendor"], pixel["accountId"]), {
                "vendor": pixel["vendor"], "accountId": pixel["accountId"], "organisation": pixel["organisation"],
                "recognised": pixel["recognised"], "urls": set(), "scenarios": set(), "phases": set(),
                "missing": set()})
            entry["urls"].add(page.url)
            entry["scenarios"].add(page.scenario)
            if pixel["phase"]:
                entry["phases"].add(pixel["phase"])
    for exp in expectations:
        if exp.get("type") == "vendorOnEveryPage" and exp.get("urls"):
            key = next((k for k in table if k[1] == exp.get("accountId") and same_vendor(exp["vendor"], k[0])),
                       (exp["vendor"], exp.get("accountId")))  # the fired vendor's entry, however it is named
            entry = table.setdefault(key, {"vendor": key[0], "accountId": key[1], "organisation": None,
                                           "recognised": None, "urls": set(), "scenarios": set(), "phases": set(),
                                           "missing": set()})
            entry["missing"].update(exp["urls"])
    rows = [{"vendor": e["vendor"], "accountId": e["accountId"], "organisation": e["organisation"],
             "recognised": e["recognised"], "pageCount": len(e["urls"]), "pages": _urls(e["urls"]),
             "scenarios": sorted(e["scenarios"]), "phases": sorted(e["phases"]),
             "missingPageCount": len(e["missing"]), "missingOn": _urls(e["missing"])} for e in table.values()]
    rows.sort(key=lambda r: (-r["pageCount"], str(r["vendor"]), str(r["accountId"])))
    return rows[:ENTRIES_MAX]


def expiry_epoch(value) -> float | None:
    return _epoch_of_text(value) if isinstance(value, str) else _epoch(value)


def _epoch(value) -> float | None:
    """A cookie's ``expires`` (epoch seconds, or an ISO 8601 string) as epoch seconds; None: session/unknown."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


@lru_cache(maxsize=4096)
def _epoch_of_text(value: str) -> float | None:
    """An ISO 8601 expiry as epoch seconds (cached: a site's cookies share few expiries)."""
    if value:
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).timestamp()
    return None


def _organisation(cookie: dict, parties: list[dict]) -> str | None:
    if cookie.get("organisation"):
        return str(cookie["organisation"])
    domain = str(cookie.get("domain") or "").lstrip(".")
    for party in parties:
        for known in party.get("domains") or ():
            known = str(known)
            if domain == known or domain.endswith("." + known) or known.endswith("." + domain):
                return party.get("organisation") or party.get("entity")
    return None


def cookies(pages) -> list[dict]:
    """The site-wide cookie inventory, one entry per (name, domain).

    Returns:
        ``[{name, domain, organisation, party, vendor, expires (ISO 8601 UTC, the longest seen; null: session),
        pageCount, pages, phases, scenarios}]``, most pages first, at most ``ENTRIES_MAX``.
    """
    table: dict[tuple, dict] = {}
    for page in map(page_view.of, pages):
        parties = page.third_parties
        for cookie in page.cookies:
            key = (str(cookie.get("name")), str(cookie.get("domain")))
            entry = table.setdefault(key, {"name": key[0], "domain": key[1], "organisation": None,
                                           "party": cookie.get("party"), "vendor": cookie.get("vendor"),
                                           "expiry": None, "urls": set(), "phases": set(), "scenarios": set()})
            entry["organisation"] = entry["organisation"] or _organisation(cookie, parties)
            entry["vendor"] = entry["vendor"] or cookie.get("vendor")
            epoch = expiry_epoch(cookie.get("expires"))
            if epoch is not None and (entry["expiry"] is None or epoch > entry["expiry"]):
                entry["expiry"] = epoch
            entry["urls"].add(page.url)
            entry["scenarios"].add(page.scenario)
            if cookie.get("phase"):
                entry["phases"].add(str(cookie["phase"]))
    rows = [{"name": e["name"], "domain": e["domain"], "organisation": e["organisation"], "party": e["party"],
             "vendor": e["vendor"], "expires": _iso(e["expiry"]), "pageCount": len(e["urls"]),
             "pages": _urls(e["urls"]), "phases": sorted(e["phases"]), "scenarios": sorted(e["scenarios"])}
            for e in table.values()]
    rows.sort(key=lambda r: (-r["pageCount"], r["domain"], r["name"]))
    return rows[:ENTRIES_MAX]


def _iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    try:
        return datetime.fromtimestamp(epoch, timezone.utc).isoformat().replace("+00:00", "Z")
    except (OverflowError, OSError, ValueError):
        return None


def third_parties(pages) -> list[dict]:
    """Third parties by organisation: ``[{organisation, category, domains, pageCount, pages, requests}]``,
    most pages first, at most ``ENTRIES_MAX`` (``domains``: at most 50 each)."""
    table: dict[str, dict] = {}
    for page in map(page_view.of, pages):
        for party in page.third_parties:
            name = str(party.get("organisation") or party.get("entity") or "unknown")
            entry = table.setdefault(name, {"organisation": name, "category": party.get("category"),
                                            "domains": set(), "urls": set(), "requests": 0})
            entry["domains"].update(str(d) for d in (party.get("domains") or ())[:50])
            entry["urls"].add(page.url)
            requests = party.get("requests")
            entry["requests"] += requests if isinstance(requests, int) and not isinstance(requests, bool) else 0
    rows = [{"organisation": e["organisation"], "category": e["category"], "domains": sorted(e["domains"])[:50],
             "pageCount": len(e["urls"]), "pages": _urls(e["urls"]), "requests": e["requests"]}
            for e in table.values()]
    rows.sort(key=lambda r: (-r["pageCount"], r["organisation"]))
    return rows[:ENTRIES_MAX]
