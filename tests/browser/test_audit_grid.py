"""A 40-page site audit through a Selenium Grid with 2 nodes (a hub and two node processes of the
Selenium 4 server jar, as in test_remote_grid.py, on loopback): every page exactly once, crawled on
both nodes, no Grid session left."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import urllib.request

import pytest

from tagcrawl import create_app
from tagcrawl.accounts.apikeys import create_key
from tagcrawl.core.audit_models import Audit, AuditPage
from tagcrawl.core.extensions import db
from tests.browser.test_audit_queue import wait_for
from tests.browser.test_remote_grid import _missing, find_jar
from tests.support import audit_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TwoNodeGrid:
    """A Selenium hub and two nodes (``sessions`` each, default 2), every port free-picked
    (other tests may run a Grid)."""

    def __init__(self, jar, sessions: int = 2):
        self.port, pub, sub = _port(), _port(), _port()
        self.url = f"http://127.0.0.1:{self.port}"
        bus = ["--publish-events", f"tcp://127.0.0.1:{pub}", "--subscribe-events", f"tcp://127.0.0.1:{sub}"]
        env = dict(os.environ, SE_OFFLINE="true")
        self.procs = [subprocess.Popen(["java", "-jar", str(jar), "hub", "--host", "127.0.0.1", "--port", str(self.port),
                                        *bus],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                       env=env)]
        for _ in range(2):
            self.procs.append(subprocess.Popen(
                ["java", "-jar", str(jar), "node", "--host", "127.0.0.1", "--port", str(_port()),
                 "--selenium-manager", "false", *bus, "--max-sessions", str(sessions),
                 "--override-max-sessions", "true", "--hub", self.url],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env))

    def status(self) -> dict:
        try:
            with urllib.request.urlopen(self.url + "/status", timeout=5) as resp:
                value = json.load(resp)["value"]
            return {"ready": bool(value.get("ready")), "nodes": value.get("nodes") or []}  # no nodes while starting
        except (OSError, ValueError, KeyError):
            return {"ready": False, "nodes": []}

    def sessions(self) -> int:
        return sum(1 for node in self.status()["nodes"] for slot in node["slots"] if slot.get("session"))

    def stop(self) -> None:
        for proc in self.procs:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()


@pytest.fixture
def two_node_grid():
    jar = find_jar()
    if jar is None or not jar.is_file():
        _missing("the Selenium server jar")
    if not shutil.which("java") or not shutil.which("chromedriver"):
        _missing("Java and ChromeDriver")
    grid = TwoNodeGrid(jar)
    try:
        assert wait_for(lambda: len([n for n in grid.status()["nodes"] if n.get("availability") == "UP"]) == 2, 120), \
            "the Grid's two nodes did not register"
        yield grid
    finally:
        grid.stop()


# Two Grid nodes, their Chromes and 40 pages: the heaviest test of the suite; next to the other
# xdist worker's crawls it overran pytest-timeout's 300 s on a loaded 2-core machine (docs/testing.md).
@pytest.mark.alone
def test_forty_page_audit_through_a_two_node_grid(two_node_grid, fixture_web, tmp_path):
    from flask_migrate import upgrade

    from tagcrawl.audit.runner import start_audit, stop_worker
    from tagcrawl.engine.chrome.pool import get_pool
    from tests.support.config import settings

    previous = audit_site.install(fixture_web)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'grid.db'}", "TESTING": True,
                      "WEBDRIVER_URL": two_node_grid.url, "CHROME_ARGS": fixture_web.chrome_args(),
                      "ALLOW_PRIVATE_TARGETS": True, "QUIET_MS": 400, "POOL_SIZE": 4, "CRAWL_TIMEOUT_S": 60,
                      "JOB_POLL_S": 0.5, "AUDIT_HOST_CONCURRENCY": 4})
    # 35 start URLs, and the 5 PAGES (without ?n=) every page links to, found by discovery: 40 pages
    urls = [f"{u}?n={n}" for n in range(7) for u in audit_site.URLS[:5]]
    expected = sorted(set(urls) | set(audit_site.URLS[:len(audit_site.PAGES)]))
    try:
        with app.app_context():
            upgrade()
            key, _k, _s = create_key("audit-grid")
            audit_id = audit_site.new_audit(key.id, {"startUrls": urls, "maxPages": 100}).id
            start_audit(audit_id)

        busy_nodes: set[str] = set()

        def finished():
            busy_nodes.update(n["id"] for n in two_node_grid.status()["nodes"]
                              if any(slot.get("session") for slot in n["slots"]))
            with app.app_context():
                status = db.session.get(Audit, audit_id).status
                db.session.remove()
                return status in ("done", "failed", "cancelled")

        assert wait_for(finished, 600)
        with app.app_context():
            audit = db.session.get(Audit, audit_id)
            pages = db.session.scalars(db.select(AuditPage).where(AuditPage.audit_id == audit_id)).all()
            rows = [(p.url, p.status, (p.result or {}).get("pageStatus")) for p in pages]
            took = (audit.finished_at - audit.started_at).total_seconds()
        assert audit.status == "done"
        assert len(expected) == 40 and sorted(r[0] for r in rows) == expected, rows
        assert all(r[1:] == ("done", 200) for r in rows), rows
        assert len(busy_nodes) == 2, "both nodes crawled"
        print(f"40 pages through a 2-node Grid in {took:.1f} s ({40 * 3600 / took:.0f} pages/h)")
    finally:
        stop_worker(timeout_s=60)
        get_pool(settings(app.config)).shutdown()
        fixture_web.extra_route = previous
    assert wait_for(lambda: two_node_grid.sessions() == 0, 30)
