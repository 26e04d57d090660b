"""Group commit: one transaction per batch, each request its own outcome."""
from __future__ import annotations

import os
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from tagcrawl.models import utcnow
from tagcrawl.stream.writer import GroupWriter, StoreUnavailable, get_writer

from .test_stream_support import count_rows, issued, minimal, post_event, stored, stream_app

FIXTURES = (issued, stream_app)  # imported for pytest

pytestmark = pytest.mark.postgres


def _row(customer_id, name="e"):
    now = utcnow()
    return {"event_id": str(uuid.uuid4()), "customer_id": customer_id, "received_at": now, "event_timestamp": now,
            "vendor": "unknown", "vendor_name": "v", "event_name": name}


def _customer_id(app):
    from tagcrawl.stream.domains import get_or_create_customer
    from tagcrawl.extensions import db

    with app.app_context():
        cid = get_or_create_customer("writer-test").id
        db.session.commit()
    return cid


def _submit_together(writer, rows, timeout=10.0):
    """Submit ``rows`` from one thread each, all at once.  Returns each row's
    outcome (None = committed, else the StoreUnavailable)."""
    ready = threading.Barrier(len(rows))

    def one(row):
        ready.wait()
        try:
            writer.submit(row, timeout)
            return None
        except StoreUnavailable as exc:
            return exc

    with ThreadPoolExecutor(len(rows)) as pool:
        return list(pool.map(one, rows))


def test_rows_of_concurrent_requests_share_one_transaction(app):
    writer = GroupWriter(app, batch_size=100, wait_s=30.0, threads=20)
    cid = _customer_id(app)
    started = time.monotonic()
    outcomes = _submit_together(writer, [_row(cid, f"e{i}") for i in range(20)])
    assert outcomes == [None] * 20
    assert writer.batches == 1  # one transaction for the 20 rows
    assert time.monotonic() - started < 15  # went when every thread waited, not at the 30 s deadline
    assert count_rows(app) == 20


def test_batch_size_caps_a_transaction(app):
    writer = GroupWriter(app, batch_size=3, wait_s=1.0, threads=7)
    cid = _customer_id(app)
    assert _submit_together(writer, [_row(cid) for _ in range(7)]) == [None] * 7
    assert writer.batches == 3  # 3 + 3, then the last row alone after wait_s
    assert count_rows(app) == 7


def test_a_lone_row_waits_at_most_the_batch_wait(app):
    writer = GroupWriter(app, batch_size=100, wait_s=0.3, threads=4)
    cid = _customer_id(app)
    started = time.monotonic()
    writer.submit(_row(cid), 10.0)
    assert 0.25 <= time.monotonic() - started < 5
    assert count_rows(app) == 1


def test_a_bad_row_fails_alone(app):
    writer = GroupWriter(app, batch_size=100, wait_s=30.0, threads=3)
    cid = _customer_id(app)
    rows = [_row(cid, "ok1"), _row(999_999, "bad"), _row(cid, "ok2")]  # no customer 999999: FK violation
    outcomes = _submit_together(writer, rows)
    assert writer.batches == 0  # the batch failed, its rows went one by one
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StoreUnavailable)
    assert sorted(r.event_name for r in stored(app)) == ["ok1", "ok2"]


def test_a_row_not_taken_in_time_is_withdrawn(app):
    writer = GroupWriter(app, batch_size=100, wait_s=30.0, threads=4)
    cid = _customer_id(app)
    with pytest.raises(StoreUnavailable):
        writer.submit(_row(cid), 0.2)  # the writer holds it back for 30 s
    assert count_rows(app) == 0


def test_writer_settings_come_from_the_config(stream_app):
    app = stream_app(STREAM_BATCH_SIZE=7, STREAM_BATCH_WAIT_MS=25, GUNICORN_THREADS=3)
    writer = get_writer(app)
    assert (writer.batch_size, writer.wait_s, writer.enough) == (7, 0.025, 3)


def test_one_writer_per_process_keyed_by_pid(app):
    writer = get_writer(app)
    assert get_writer(app) is writer
    writers = app.extensions["tagcrawl.stream.writers"]
    assert list(writers) == [os.getpid()]
    # what a forked child sees: its parent's entry only -> it makes its own
    writers.clear()
    writers[os.getpid() + 100_000] = writer
    child = get_writer(app)
    assert child is not writer and list(writers) == [os.getpid()]


def test_concurrent_http_requests(app, issued):
    def send(i):
        return post_event(app.test_client(), minimal(issued, e=f"e{i}")).status_code

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(send, range(80)))
    assert statuses == [204] * 80
    assert count_rows(app) == 80
    assert get_writer(app).batches <= 80
