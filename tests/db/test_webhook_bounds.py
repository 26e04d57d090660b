"""Webhook delivery that one receiver cannot hold (PostgreSQL, local receivers):
the address that was checked is the one connected to, a name that does not
resolve is refused, an attempt has a total deadline, keys are sent
concurrently with a bound per key, and no transaction is open during a POST.
The sending alone, without a database: tests/unit/test_webhook_transport.py."""
from __future__ import annotations

import time
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import text

from tagcrawl.accounts.apikeys import create_key
from tagcrawl.audit.runner import ensure_worker
from tagcrawl.core.extensions import db
from tagcrawl.core.models import Crawl, WebhookAttempt, WebhookDelivery, utcnow
from tagcrawl.webhooks.delivery import attempt, claim_one, record
from tagcrawl.webhooks.queued import redeliver
from tagcrawl.webhooks.transport import Outcome
from tests.support.config import reconfigure, settings
from tests.support.webhook_receiver import Receiver, hang, table_resolver, trickle

pytestmark = pytest.mark.postgres

#: Other sessions in a transaction that is idle or holds a lock on the deliveries: (pid, xact_start).
OPEN_TRANSACTIONS = text("""
SELECT a.pid, a.xact_start FROM pg_stat_activity a
 WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.backend_type = 'client backend'
   AND a.xact_start IS NOT NULL
   AND (a.state LIKE 'idle in transaction%' OR EXISTS (
        SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.relation = 'webhook_deliveries'::regclass))""")


@pytest.fixture
def receivers():
    made = []

    def make(**kwargs):
        made.append(Receiver(**kwargs))
        return made[-1]
    yield make
    for receiver in made:
        receiver.stop()


def _queue(key_name: str, url: str, count: int = 1) -> list[str]:
    """A key with webhook ``url`` and ``count`` deliveries due now, oldest first (committed); their ids."""
    row, _key, _secret = create_key(key_name, webhook_url=url)
    ids = []
    for n in range(count):
        crawl = Crawl(session_id=str(uuid.uuid4()), api_key_id=row.id, url="https://x.example/", status="done",
                      request={}, response={"success": True}, webhook=True)
        db.session.add(crawl)
        db.session.flush()
        delivery = WebhookDelivery(crawl_id=crawl.id, api_key_id=row.id, url=url, payload='{"success":true}',
                                   next_attempt_at=utcnow() - timedelta(seconds=60 - n))
        db.session.add(delivery)
        db.session.flush()
        ids.append(delivery.id)
    db.session.commit()
    return ids


def test_a_name_that_answers_public_then_loopback_never_gets_the_report_on_loopback(app, receivers):
    """DNS rebinding: checked once (public), connected to that address; the
    loopback answer is never asked for, the receiver on loopback gets nothing."""
    receiver = receivers()
    resolve = table_resolver({"rebind.test": [["1.1.1.1"], ["127.0.0.1"]]})
    config = settings(dict(app.config, ALLOW_PRIVATE_TARGETS=False, WEBHOOK_TIMEOUT_S=3))
    with app.app_context():
        [delivery_id] = _queue("rebind", f"http://rebind.test:{receiver.port}/hook")
        row = attempt(db.session.get(WebhookDelivery, delivery_id), config, resolve=resolve)
        assert row.status_code is None and f"1.1.1.1:{receiver.port}" in row.error
        delivery = db.session.get(WebhookDelivery, delivery_id)
        assert delivery.status == "pending" and delivery.attempts == 1  # retried later, resolved again then
    assert resolve.calls == {"rebind.test": 1}
    assert receiver.received == []


def test_a_webhook_name_that_does_not_resolve_is_refused(app, runner, receivers):
    """Refused when a key is given the URL, and at delivery (nothing sent,
    retried with backoff in case DNS comes back)."""
    result = runner.invoke(args=["keys", "create", "nowhere", "--webhook-url", "http://nowhere.invalid/hook"])
    assert result.exit_code != 0 and "host nowhere.invalid does not resolve" in result.output
    with app.app_context():
        [delivery_id] = _queue("gone", "http://gone.test/hook")
        row = attempt(db.session.get(WebhookDelivery, delivery_id), settings(app.config), resolve=table_resolver({}))
        assert row.status_code is None and row.error == "refused target: host gone.test does not resolve"
        delivery = db.session.get(WebhookDelivery, delivery_id)
        assert delivery.status == "pending" and delivery.next_attempt_at > utcnow()


def test_a_trickling_receiver_cannot_hold_an_attempt_past_its_deadline(app, receivers):
    """One header byte every 0.1 s: the attempt still ends at WEBHOOK_TIMEOUT_S (+2 s at most)."""
    receiver = receivers(answer=trickle)
    with app.app_context():
        [delivery_id] = _queue("trickle", receiver.url)
        started = time.monotonic()
        row = attempt(db.session.get(WebhookDelivery, delivery_id), settings(dict(app.config, WEBHOOK_TIMEOUT_S=2)))
        elapsed = time.monotonic() - started
        assert row.status_code is None and row.error.startswith("deadline: no complete answer")
        assert row.duration_ms < 4000
    assert elapsed < 2 + 2, elapsed
    assert len(receiver.received) == 1


def test_a_hanging_receiver_does_not_delay_another_keys_delivery(app, receivers):
    """Key A's receiver holds every request for 60 s (and the deadline is 90 s);
    key B's delivery, due after A's three, arrives at once.  A has exactly
    WEBHOOK_PER_KEY (2) in flight: its third delivery was skipped, not waited for."""
    hanging, prompt = receivers(answer=hang), receivers()
    reconfigure(app, {"WEBHOOK_TIMEOUT_S": 90, "WEBHOOK_PER_KEY": 2, "JOB_POLL_S": 0.2})
    with app.app_context():
        a_ids = _queue("key-a", hanging.url, count=3)
        [b_id] = _queue("key-b", prompt.url)
    started = time.monotonic()
    ensure_worker(app)  # its start queues the deliveries (webhooks/queued.py requeue_orphans)
    got = prompt.wait_for(1, timeout_s=15)
    waited = time.monotonic() - started
    assert len(got) == 1 and got[0]["headers"]["webhook-id"] == b_id, f"B not delivered while A hangs ({waited:.1f} s)"
    assert len(hanging.wait_for(2, timeout_s=15)) == 2
    with app.app_context():
        attempts = {d.id: d.attempts for d in db.session.scalars(db.select(WebhookDelivery))}
    assert [attempts[i] for i in a_ids] == [1, 1, 0] and attempts[b_id] == 1
    assert waited < 15


def test_no_transaction_is_open_while_a_post_is_on_the_wire(app, receivers):
    """The receiver holds each request for 0.5 s and looks at PostgreSQL at
    its start and its end: no session stays in one transaction across the
    POST (idle in it, or holding a lock on the deliveries), for the
    queue's delivery job and for ``webhooks redeliver`` alike.  (Transactions of
    a few ms, a claim or the queue's own bookkeeping, are not the sender's and do not last.)"""
    held = []
    with app.app_context():
        engine = db.engine

    def look(handler, _body):
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:  # never in a transaction
            before = set(conn.execute(OPEN_TRANSACTIONS).all())
            handler.receiver.release.wait(0.5)  # the receiver takes its time; the sender waits
            held.append(before & set(conn.execute(OPEN_TRANSACTIONS).all()))
        return False

    receiver = receivers(answer=look)
    reconfigure(app, {"JOB_POLL_S": 0.2})
    with app.app_context():
        [delivery_id] = _queue("watched", receiver.url)
    ensure_worker(app)
    assert len(receiver.wait_for(1, timeout_s=15)) == 1
    with app.app_context():
        redeliver(delivery_id, settings(app.config))
    assert held == [set(), set()]


def test_a_claim_is_leased_once_and_a_stale_claim_does_not_overwrite_a_newer_one(app):
    """At least once, never twice at a time: a claimed row is not claimed
    again while its lease runs; once the lease ran out (its worker died) it is
    claimed again, and the dead worker's late record leaves the state alone."""
    config = settings(dict(app.config, WEBHOOK_RETRY_BASE_S=60))
    with app.app_context():
        [delivery_id] = _queue("leased", "http://127.0.0.1:9/hook")
        first, _ = claim_one(delivery_id, config)
        assert first.delivery_id == delivery_id and first.attempt == 1
    with app.app_context():  # another worker's job (a stalled worker's, retried), while the lease runs
        again, lease = claim_one(delivery_id, config)
        assert again is None and lease > utcnow()  # it waits for the lease (DeliveryRetry at that time)
        delivery = db.session.get(WebhookDelivery, delivery_id)
        delivery.next_attempt_at = utcnow() - timedelta(seconds=1)  # the lease ran out
        db.session.commit()
        second, _ = claim_one(delivery_id, config)
        assert second.attempt == 2
        record(first, Outcome(200, None, 5), config)  # the first worker's answer, late
        delivery = db.session.get(WebhookDelivery, delivery_id)
        assert delivery.status == "pending" and delivery.attempts == 2
        record(second, Outcome(503, None, 5), config)
        db.session.expire_all()
        delivery = db.session.get(WebhookDelivery, delivery_id)
        assert delivery.status == "pending" and delivery.next_attempt_at > utcnow() + timedelta(seconds=170)
        assert sorted(a.status_code for a in db.session.scalars(db.select(WebhookAttempt))) == [200, 503]
