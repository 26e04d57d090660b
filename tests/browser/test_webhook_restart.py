"""Queued crawls survive restarts: a crawl queued by a worker that stopped
before running it, one queued by a process that died before queuing its job,
and one interrupted while running (its worker killed: no heartbeat), are
finished by the next worker (real gunicorn, PostgreSQL, Chrome, the procrastinate queue)."""
from __future__ import annotations

import json
import uuid

import pytest
from sqlalchemy import text

from tagcrawl import create_app
from tagcrawl.accounts.apikeys import create_key
from tagcrawl.crawl.queued import enqueue_crawl
from tagcrawl.core.extensions import db
from tagcrawl.core.models import Crawl
from tagcrawl.webhooks import verify_signature

from tests.support.gunicorn_server import Gunicorn
from tests.support.webhook_receiver import Receiver

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def test_queued_and_interrupted_crawls_finish_after_a_restart(pg, fixture_web, tmp_path):
    url = pg.create_database("tagcrawl_restart")
    receiver = Receiver()
    env = {"DATABASE_URL": url, "TAGCRAWL_ALLOW_PRIVATE_TARGETS": "true", "TAGCRAWL_RUNTIME_DIR": str(tmp_path),
           "TAGCRAWL_CHROME_ARGS": " ".join(f"'{a}'" for a in fixture_web.chrome_args()),
           "TAGCRAWL_JOB_POLL_S": "0.5"}
    server = Gunicorn(env, workers=1, threads=2)
    server.flask("db", "upgrade")
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    queued_id, interrupted_id, jobless_id = str(uuid.uuid4()), str(uuid.uuid4()), str(uuid.uuid4())
    with app.app_context():
        key_row, _key, secret = create_key("restart", webhook_url=receiver.url)
        # Accepted by a worker that stopped before running it (its job waits in the queue):
        enqueue_crawl({"url": "https://shop.example/", "session_id": queued_id, "options": {"webhook": True}},
                      key_row.id)
        # Committed by a process that died before queuing its job (or queued before the job queue existed):
        db.session.add(Crawl(session_id=jobless_id, api_key_id=key_row.id, url="https://shop.example/",
                             status="queued", webhook=True,
                             request={"url": "https://shop.example/", "options": {"webhook": True}}))
        # Taken by a worker killed mid-crawl: its job is `doing` and that worker beats no more.
        interrupted = enqueue_crawl({"url": "https://plain.example/", "session_id": interrupted_id,
                                     "options": {"webhook": True}}, key_row.id)
        interrupted.status, interrupted.attempts = "running", 1
        db.session.execute(text(
            "WITH dead AS (INSERT INTO procrastinate_workers (last_heartbeat) VALUES (now() - interval '1 hour')"
            " RETURNING id) UPDATE procrastinate_jobs SET status = 'doing', worker_id = (SELECT id FROM dead)"
            " WHERE task_name = 'crawl.run' AND args->>'crawl_id' = :crawl_id"), {"crawl_id": str(interrupted.id)})
        db.session.commit()
    server.start()
    try:
        deliveries = receiver.wait_for(3)
    finally:
        server.stop()
        receiver.stop()
    payloads = {json.loads(d["body"])["sessionId"]: d for d in deliveries}
    assert set(payloads) == {queued_id, interrupted_id, jobless_id}
    for d in deliveries:
        assert verify_signature(secret, d["headers"], d["body"])
        assert json.loads(d["body"])["success"] is True
    with app.app_context():
        rows = {c.session_id: c for c in db.session.scalars(db.select(Crawl))}
        assert rows[queued_id].status == "done" and rows[queued_id].attempts == 1
        assert rows[jobless_id].status == "done" and rows[jobless_id].attempts == 1
        assert rows[interrupted_id].status == "done" and rows[interrupted_id].attempts == 2
        db.engine.dispose()
    app.extensions["tagcrawl.queue"].close()
