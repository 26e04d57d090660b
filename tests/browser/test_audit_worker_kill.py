"""Site audits on PostgreSQL with separate ``flask worker`` processes (the Procfile's ``worker:``):
a worker killed with SIGKILL mid-audit loses nothing and doubles nothing (procrastinate heartbeats:
another worker's sweep retries the dead worker's jobs), and the audit's webhook is signed."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading

import psutil
import pytest
from sqlalchemy import text

from tagcrawl import create_app
from tagcrawl.accounts.apikeys import create_key
from tagcrawl.core.audit_models import Audit, AuditPage
from tagcrawl.core.extensions import db
from tagcrawl.webhooks import verify_signature
from tests.browser.test_audit_queue import wait_for
from tests.support import audit_site
from tests.support.gunicorn_server import ROOT, Gunicorn
from tests.support.webhook_receiver import Receiver

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.slow]


class Worker:
    def __init__(self, env: dict):
        self.proc = subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "worker"], env=env, cwd=ROOT,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.log: list[str] = []
        self.reader = threading.Thread(target=lambda: self.log.extend(self.proc.stderr), daemon=True)
        self.reader.start()

    def kill(self) -> None:
        children = psutil.Process(self.proc.pid).children(recursive=True)
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)
        for child in children:  # its Chrome: a SIGKILLed worker cleans nothing up
            try:
                child.kill()
            except psutil.NoSuchProcess:
                pass

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=90)


def _snapshot(app, audit_id):
    with app.app_context():
        status = db.session.get(Audit, audit_id).status
        pages = [(p.url, p.scenario, p.status, p.attempts, (p.result or {}).get("pageStatus"))
                 for p in db.session.scalars(db.select(AuditPage).where(AuditPage.audit_id == audit_id))]
        db.session.remove()
        return status, pages


def test_sigkill_of_a_worker_mid_audit_loses_and_doubles_nothing(pg, fixture_web):
    from tagcrawl.audit.runner import audit_queue, start_audit

    url = pg.create_database("tagcrawl_audit_sigkill")
    receiver = Receiver()
    previous = audit_site.install(fixture_web)
    env = {"DATABASE_URL": url, "TAGCRAWL_ALLOW_PRIVATE_TARGETS": "true",
           "TAGCRAWL_CHROME_ARGS": " ".join(f"'{a}'" for a in fixture_web.chrome_args()),
           "TAGCRAWL_JOB_POLL_S": "0.5", "TAGCRAWL_BACKGROUND": "process", "TAGCRAWL_POOL_SIZE": "2",
           "TAGCRAWL_QUIET_MS": "400", "TAGCRAWL_CRAWL_TIMEOUT_S": "60", "TAGCRAWL_PAGE_LOAD_TIMEOUT_S": "45"}
    # (generous deadlines: on a loaded 2-core machine a page load may pass 15 s, a page failure here)
    server = Gunicorn(env)  # for its environment and `flask` runner only
    server.flask("db", "upgrade")
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    urls = [f"{u}?n={n}" for n in range(2) for u in audit_site.URLS[:5]]  # 10 pages x 1 scenario
    with app.app_context():
        key, _k, secret = create_key("audit-kill", webhook_url=receiver.url)
        audit_id = audit_site.new_audit(key.id, {"startUrls": urls, "maxPages": 50, "webhook": True}).id
        start_audit(audit_id)  # PostgreSQL: queued for the workers, none runs in this process
        audit_queue(app).close()
    first = Worker(server.env)
    second = None
    try:
        def mid_audit():
            _status, pages = _snapshot(app, audit_id)
            states = [p[2] for p in pages]
            return states.count("done") >= 2 and "running" in states

        assert wait_for(mid_audit, 120), "".join(first.log)
        first.kill()
        second = Worker(server.env)
        assert wait_for(lambda: _snapshot(app, audit_id)[0] == "done", 180), "".join(second.log)
        status, pages = _snapshot(app, audit_id)
        # every page exactly once: the start URLs and the 5 PAGES (without ?n=) that each page links to
        # (discovery follows links, tagcrawl/audit/discovering.py)
        expected = sorted(set(urls) | set(audit_site.URLS[:len(audit_site.PAGES)]))
        assert sorted(p[0] for p in pages) == expected, pages
        with app.app_context():
            bad = [(p.url, p.status, p.attempts, p.error) for p in db.session.scalars(
                db.select(AuditPage).where(AuditPage.audit_id == audit_id)) if p.status != "done"]
        assert all(p[2] == "done" and p[4] == 200 for p in pages), bad
        assert max(p[3] for p in pages) <= 2, pages  # at most the killed attempt and its retry
        with app.app_context():
            crawls = db.session.execute(text("SELECT count(*) FROM audit_pages WHERE audit_id = :a AND crawl_id IS NOT NULL"),
                                        {"a": audit_id}).scalar()
        assert crawls == len(expected)
        deliveries = receiver.wait_for(1)
        assert len(deliveries) == 1
        body = json.loads(deliveries[0]["body"])
        assert body["auditId"] == audit_id and body["status"] == "done"
        assert body["summary"]["pages"]["done"] == len(expected)
        assert verify_signature(secret, deliveries[0]["headers"], deliveries[0]["body"])

        def no_job_left():
            with app.app_context():
                left = db.session.execute(text("SELECT count(*) FROM procrastinate_jobs "
                                               "WHERE status IN ('todo', 'doing')")).scalar()
                db.session.remove()
                return left == 0

        assert wait_for(no_job_left, 30)
        assert second.stop() == 0, "".join(second.log)
        second = None
    finally:
        fixture_web.extra_route = previous
        for worker in (first, second):
            if worker is not None and worker.proc.poll() is None:
                worker.kill()
