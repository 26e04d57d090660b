"""Audit pages exactly once on PostgreSQL (tagcrawl/audit/pages.py): insert-or-ignore, two workers
racing one page, a job re-run after the page is done; the queue's schema (0009_procrastinate)."""
from __future__ import annotations

import threading

from sqlalchemy import text

from tagcrawl.accounts.apikeys import create_key
from tagcrawl.audit.discovery import Excluded
from tagcrawl.audit.pages import add_pages, claim_page, counts, record_page
from tagcrawl.audit.runner import Seed
from tagcrawl.core.audit_models import AuditPage
from tagcrawl.core.extensions import db
from tests.support.audit_site import new_audit

RESPONSE = {"url": "https://a.example/", "finalUrl": "https://a.example/", "pageStatus": 200, "success": True,
            "marketingPixels": [{"vendor": "ga4", "account_id": "G-1", "consent": "after_consent", "page": "x"}],
            "cookies": [{"name": "_ga", "domain": ".a.example", "party": "first", "phase": "after_consent",
                         "session": False, "expires": None}], "sessionId": "s"}


def _audit(app, max_pages=10):
    with app.app_context():
        key, _k, _s = create_key("audit-pages")
        return new_audit(key.id, {"startUrls": ["https://a.example/"], "maxPages": max_pages}).id


def test_add_pages_is_idempotent_per_scenario_and_respects_max_pages(app):
    audit_id = _audit(app, max_pages=2)
    with app.app_context():
        seeds = [Seed("https://a.example/"), Seed("https://a.example/b"), Seed("https://a.example/c")]
        first = add_pages(audit_id, seeds, ("accept", "reject"))
        again = add_pages(audit_id, seeds, ("accept", "reject"))
        assert len(first) == 4 and again == []
        rows = db.session.scalars(db.select(AuditPage).where(AuditPage.audit_id == audit_id)).all()
        assert sorted((r.url, r.scenario, r.status, r.reason) for r in rows) == [
            ("https://a.example/", "accept", "queued", None), ("https://a.example/", "reject", "queued", None),
            ("https://a.example/b", "accept", "queued", None), ("https://a.example/b", "reject", "queued", None),
            ("https://a.example/c", "accept", "excluded", "limit"), ("https://a.example/c", "reject", "excluded", "limit")]
        assert counts(audit_id)["queued"] == 4 and counts(audit_id)["discovered"] == 6


def test_excluded_rows_store_where_they_were_found(app):
    audit_id = _audit(app, max_pages=3)
    with app.app_context():  # 6 items: the first 2 * maxPages are read
        items = [Seed("https://a.example/"), Seed("https://a.example/l", 1, "link"),
                 Seed("https://a.example/m", 0, "sitemap"), Excluded("https://a.example/private", "robots", "start"),
                 Excluded("https://other.example/", "offsite", "sitemap"), Seed("https://a.example/s", 0, "sitemap")]
        add_pages(audit_id, items, ("accept",))
        rows = db.session.scalars(db.select(AuditPage).where(AuditPage.audit_id == audit_id)).all()
        assert sorted((r.url, r.status, r.reason, r.source) for r in rows) == [
            ("https://a.example/", "queued", None, "start"), ("https://a.example/l", "queued", None, "link"),
            ("https://a.example/m", "queued", None, "sitemap"),
            ("https://a.example/private", "excluded", "robots", "start"),
            ("https://a.example/s", "excluded", "limit", "sitemap"),
            ("https://other.example/", "excluded", "offsite", "sitemap")]


def test_two_workers_racing_one_page_claim_it_once(app):
    audit_id = _audit(app)
    with app.app_context():
        (page_id,) = add_pages(audit_id, [Seed("https://a.example/")], ("accept",))
    barrier, wins = threading.Barrier(4), []

    def worker():
        with app.app_context():
            barrier.wait()
            claimed = claim_page(page_id, retry=False)
            wins.append(claimed[1] if claimed else None)
            db.session.remove()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(wins, key=str) == [1, None, None, None]


def test_a_job_run_again_after_done_does_nothing(app):
    audit_id = _audit(app)
    with app.app_context():
        (page_id,) = add_pages(audit_id, [Seed("https://a.example/")], ("accept",))
        _page, attempt = claim_page(page_id, retry=False)
        # a retried job (its worker was thought dead) takes the running page again: a new claim
        _page, retried = claim_page(page_id, retry=True)
        assert retried == attempt + 1
        assert record_page(page_id, RESPONSE, None, attempt) is False  # the old claim's late answer: dropped
        assert record_page(page_id, RESPONSE, None, retried) is True
        assert claim_page(page_id, retry=True) is None and claim_page(page_id, retry=False) is None
        assert record_page(page_id, dict(RESPONSE, success=False), None, retried) is False
        row = db.session.get(AuditPage, page_id)
        assert (row.status, row.attempts) == ("done", 2)
        assert row.result["pixels"] == [{"vendor": "ga4", "account_id": "G-1", "consent": "after_consent",
                                         "recognised": None, "organisation": None}]
        assert row.result["cookies"][0]["name"] == "_ga" and row.result["pageStatus"] == 200


def test_procrastinate_schema_is_migrated_and_jobs_defer(app):
    from tagcrawl.audit.runner import audit_queue

    with app.app_context():
        queue = audit_queue(app)
        assert queue.durable
        job_id = queue.defer("audit.page", lock="host:a.example:0", queueing_lock="page:test-1", page_id=-1)
        assert queue.defer("audit.page", queueing_lock="page:test-1", page_id=-1) is None  # waiting already
        row = db.session.execute(text("SELECT task_name, status, lock, args FROM procrastinate_jobs WHERE id = :id"),
                                 {"id": job_id}).one()
        assert tuple(row) == ("audit.page", "todo", "host:a.example:0", {"page_id": -1})
        db.session.execute(text("DELETE FROM procrastinate_jobs WHERE id = :id"), {"id": job_id})
        db.session.commit()
        queue.close()


def test_page_jobs_carry_per_host_politeness_locks(_migrated):
    from tagcrawl import create_app
    from tagcrawl.audit.runner import audit_queue, enqueue_pages
    from tests.support.app_fixtures import empty_database

    app = create_app({"SQLALCHEMY_DATABASE_URI": _migrated, "TESTING": True, "AUDIT_HOST_CONCURRENCY": 3})
    try:
        audit_id = _audit(app, max_pages=20)
        with app.app_context():
            seeds = [Seed(f"https://a.example/{n}") for n in range(7)] + [Seed("https://B.example/x")]
            ids = add_pages(audit_id, seeds, ("accept",))
            enqueue_pages(ids)
            enqueue_pages(ids)  # waiting already: not doubled (queueing_lock page:<id>)
            rows = db.session.execute(text("SELECT lock, queueing_lock FROM procrastinate_jobs "
                                           "WHERE task_name = 'audit.page' AND status = 'todo'")).all()
            db.session.execute(text("DELETE FROM procrastinate_jobs"))
            db.session.commit()
            audit_queue(app).close()
        assert len(rows) == 8 and {q for _l, q in rows} == {f"page:{i}" for i in ids}
        assert {lock for lock, _q in rows} == {"host:a.example:0", "host:a.example:1", "host:a.example:2",
                                              f"host:b.example:{ids[-1] % 3}"}
    finally:
        empty_database(app)
