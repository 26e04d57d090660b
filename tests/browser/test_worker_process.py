"""The Procfile's ``worker:`` process (``TAGCRAWL_BACKGROUND=process``): gunicorn's
web workers start no background thread, and ``flask --app wsgi worker`` runs the
queued webhook crawl and delivers it; SIGTERM stops it cleanly (real gunicorn,
PostgreSQL, Chrome)."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import uuid

import psutil
import pytest

from tagcrawl import create_app
from tagcrawl.accounts.apikeys import create_key
from tagcrawl.core.extensions import db
from tagcrawl.core.models import Crawl
from tagcrawl.webhooks import verify_signature

from tests.support.gunicorn_server import ROOT, Gunicorn
from tests.support.webhook_receiver import Receiver

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.slow]


def _status(app, session_id: str) -> tuple[str, int]:
    with app.app_context():
        row = db.session.scalars(db.select(Crawl).filter_by(session_id=session_id)).one()
        status = (row.status, row.attempts)
        db.session.remove()
        return status


def test_worker_process_runs_queued_crawls_and_web_workers_do_not(pg, fixture_web, tmp_path):
    url = pg.create_database("tagcrawl_worker_process")
    receiver = Receiver()
    env = {"DATABASE_URL": url, "TAGCRAWL_ALLOW_PRIVATE_TARGETS": "true", "TAGCRAWL_RUNTIME_DIR": str(tmp_path),
           "TAGCRAWL_CHROME_ARGS": " ".join(f"'{a}'" for a in fixture_web.chrome_args()),
           "TAGCRAWL_JOB_POLL_S": "0.5", "TAGCRAWL_BACKGROUND": "process", "TAGCRAWL_POOL_SIZE": "1"}
    server = Gunicorn(env, workers=1, threads=2)
    server.flask("db", "upgrade")
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        _row, key, secret = create_key("worker", webhook_url=receiver.url)
    queued_id = str(uuid.uuid4())
    worker = None
    server.start()
    try:
        answer = server.post("/api/v1", {"url": "https://shop.example/", "session_id": queued_id,
                                         "options": {"webhook": True}}, key)
        assert answer["message"] == "queued"
        # A synchronous crawl in real Chrome takes seconds: web workers running background
        # threads (JOB_POLL_S 0.5 s, and the view's own wake-up) would have claimed it by its end.
        report = server.post("/api/v1", {"url": "https://plain.example/", "session_id": None}, key)
        assert report["url"] == "https://plain.example/" and report["timeTaken"] > 0, report
        assert _status(app, queued_id) == ("queued", 0)

        worker = subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "worker"], env=server.env,
                                  cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        log: list[str] = []
        reader = threading.Thread(target=lambda: log.extend(worker.stderr), daemon=True)
        reader.start()
        deliveries = receiver.wait_for(1)
        assert len(deliveries) == 1, "".join(log)
        body = json.loads(deliveries[0]["body"])
        assert body["sessionId"] == queued_id and body["success"] is True
        assert verify_signature(secret, deliveries[0]["headers"], deliveries[0]["body"])
        assert _status(app, queued_id) == ("done", 1)

        browsers = [p for p in psutil.Process(worker.pid).children(recursive=True)]
        assert browsers, "the worker crawled in its own Chrome"
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=60) == 0
        reader.join(timeout=10)
        assert "worker: SIGTERM, stopping" in "".join(log) and "worker: stopped\n" in "".join(log)
        _gone, alive = psutil.wait_procs(browsers, timeout=10)
        assert alive == [], "the worker quits its browsers"
    finally:
        if worker is not None and worker.poll() is None:
            worker.kill()
            worker.wait(timeout=30)
        server.stop()
        receiver.stop()
        with app.app_context():
            db.engine.dispose()
