"""The diff between two reports (tagcrawl/audit/diff.py) names exactly what changed."""
from __future__ import annotations

from tagcrawl.audit.diff import build_diff
from tagcrawl.audit.report import build_report
from tests.support.audit_pages import META, audit, site

U = "https://shop.example"


def _pair(**changes):
    old = build_report(audit("old", actions=("accept", "reject")), site())
    new = build_report(audit("new", actions=("accept", "reject")), site(**changes))
    return build_diff(old, new)


def test_the_same_site_twice_has_no_change():
    diff = _pair()
    assert diff["changed"] is False
    assert (diff["against"], diff["auditId"]) == ("old", "new")


def test_lost_pixel_pages_new_cookie_new_violation_and_broken_page_are_named():
    diff = _pair(meta_pages=("/", "/shop", "/about"), extra_cookie="_track", refusal_ignored=("/blog", "/about"),
                 broken=("/old", "/shop"))
    assert diff["vendorsGained"] == [] and diff["vendorsLost"] == []
    meta = next(c for c in diff["coverageChanges"] if (c["vendor"], c["accountId"]) == META)
    # Meta stops on /blog and /contact; /shop is broken now, so Meta is gone from it too
    assert meta["pagesLost"] == [U + "/blog", U + "/contact", U + "/shop"] and meta["pagesGained"] == []
    assert [(v["kind"], v["url"]) for v in diff["newViolations"]] == [("violationsAfterRefusal", U + "/about")]
    assert diff["newCookies"] == []  # /_track was planted on /shop, which is broken now
    assert [(b["url"], b["scenario"]) for b in diff["pagesBroken"]] == [(U + "/shop", "accept"),
                                                                        (U + "/shop", "reject")]
    assert diff["pagesGone"] == [] and diff["pagesNew"] == []


def test_vendor_lost_and_cookie_gained():
    diff = _pair(meta_pages=(), meta_before=(), extra_cookie="_track")
    assert [(v["vendor"], v["accountId"]) for v in diff["vendorsLost"]] == [META]
    assert diff["vendorsLost"][0]["pages"][0] == U + "/"
    assert [(c["name"], c["domain"]) for c in diff["newCookies"]] == [("_track", ".tracker.example")]
    assert diff["changed"] is True


def test_pages_gone_and_new():
    old = build_report(audit("old"), site(actions=("accept",)))
    new_rows = [r for r in site(actions=("accept",)) if not r.url.endswith("/about")]
    new = build_report(audit("new"), new_rows)
    diff = build_diff(old, new)
    assert diff["pagesGone"] == [U + "/about"] and diff["pagesNew"] == []
    assert build_diff(new, old)["pagesNew"] == [U + "/about"]


def test_the_webhook_diff_is_cut_with_counts():
    from tagcrawl.audit.schedules import short_diff

    diff = {"auditId": "a", "changed": True, "pagesGone": [f"u{i}" for i in range(150)],
            "vendorsLost": [{"vendor": "v", "accountId": None, "pages": [f"p{i}" for i in range(50)]}]}
    short = short_diff(diff)
    assert (len(short["pagesGone"]), short["pagesGoneCount"]) == (100, 150)
    assert len(short["vendorsLost"][0]["pages"]) == 20 and short["vendorsLostCount"] == 1
    assert short["changed"] is True and short["auditId"] == "a"
