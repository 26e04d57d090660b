"""The diff between two reports of a site (docs/audits.md, "The diff").

``build_diff(old, new)`` compares two ``build_report`` dicts: vendors and
accounts gained or lost (with their pages), coverage changes of the ones in
both (pages gained and lost), new consent findings and newly failing
expectations, new and gone cookies, pages gone, new and newly broken.  Pure;
bounded by the reports' own caps (each list here at most ``LIST_MAX``).
Page lists come from the reports, which keep at most 1,000 URLs per vendor.
"""
from __future__ import annotations

LIST_MAX = 5000


def _vendor_key(v: dict) -> tuple:
    return (v.get("vendor"), v.get("accountId"))


def _cap(items) -> list:
    return list(items)[:LIST_MAX]


def _vendors(old: dict, new: dict) -> dict:
    before = {_vendor_key(v): v for v in old.get("vendors", []) if v.get("pageCount")}
    after = {_vendor_key(v): v for v in new.get("vendors", []) if v.get("pageCount")}
    gained = [{"vendor": k[0], "accountId": k[1], "pages": after[k]["pages"]} for k in after if k not in before]
    lost = [{"vendor": k[0], "accountId": k[1], "pages": before[k]["pages"]} for k in before if k not in after]
    coverage = []
    for key in after.keys() & before.keys():
        was, now = set(before[key]["pages"]), set(after[key]["pages"])
        if was != now:
            coverage.append({"vendor": key[0], "accountId": key[1], "pagesGained": sorted(now - was),
                             "pagesLost": sorted(was - now), "pageCountBefore": before[key]["pageCount"],
                             "pageCountAfter": after[key]["pageCount"]})
    order = lambda item: (str(item["vendor"]), str(item["accountId"]))  # noqa: E731
    return {"vendorsGained": _cap(sorted(gained, key=order)), "vendorsLost": _cap(sorted(lost, key=order)),
            "coverageChanges": _cap(sorted(coverage, key=order))}


def _violations(old: dict, new: dict) -> list[dict]:
    found = []
    for kind, key in (("trackersBeforeChoice", lambda f: (f["url"], f.get("scenario"))),
                      ("violationsAfterRefusal", lambda f: (f["url"], "reject"))):
        was = {key(f) for f in (old.get("consent") or {}).get(kind, [])}
        found += [{"kind": kind, "url": f["url"], "scenario": key(f)[1], "items": f.get("items", [])}
                  for f in (new.get("consent") or {}).get(kind, []) if key(f) not in was]
    failing_before = {_expectation_key(e) for e in old.get("expectations", []) if not e.get("passed")}
    found += [{"kind": "expectation", "expectation": {k: v for k, v in e.items() if k != "urls"},
               "urls": e.get("urls", [])} for e in new.get("expectations", [])
              if not e.get("passed") and _expectation_key(e) not in failing_before]
    return _cap(found)


def _expectation_key(e: dict) -> tuple:
    return (e.get("type"), e.get("vendor"), e.get("accountId"), e.get("pages"))


def _cookies(old: dict, new: dict) -> dict:
    key = lambda c: (c["name"], c["domain"])  # noqa: E731
    was = {key(c) for c in old.get("cookies", [])}
    now = {key(c): c for c in new.get("cookies", [])}
    fields = ("name", "domain", "organisation", "party", "pageCount", "pages", "phases")
    return {"newCookies": _cap({f: c.get(f) for f in fields} for k, c in sorted(now.items()) if k not in was),
            "goneCookies": _cap({"name": k[0], "domain": k[1]} for k in sorted(was - now.keys()))}


def _pages(old: dict, new: dict) -> dict:
    was = {p["url"] for p in old.get("pages", [])}
    now = {p["url"] for p in new.get("pages", [])}
    broken_before = {(b["url"], b["scenario"]) for b in old.get("broken", [])}
    return {"pagesGone": _cap(sorted(was - now)), "pagesNew": _cap(sorted(now - was)),
            "pagesBroken": _cap(b for b in new.get("broken", []) if (b["url"], b["scenario"]) not in broken_before)}


def build_diff(old_report: dict, new_report: dict) -> dict:
    """What changed from ``old_report`` to ``new_report`` (both ``build_report`` dicts).

    Returns:
        ``{against, auditId, vendorsGained, vendorsLost, coverageChanges, newViolations, newCookies,
        goneCookies, pagesGone, pagesNew, pagesBroken, changed}``; ``changed`` is false when every list is empty.
    """
    diff = {"against": old_report.get("auditId"), "auditId": new_report.get("auditId"),
            **_vendors(old_report, new_report), "newViolations": _violations(old_report, new_report),
            **_cookies(old_report, new_report), **_pages(old_report, new_report)}
    diff["changed"] = any(isinstance(v, list) and v for v in diff.values())
    return diff
