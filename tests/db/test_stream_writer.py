"""Group commit: one transaction per batch, each request its own outcome."""
from __future__ import annotations

import os
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from tagcrawl.core.models import utcnow
from tagcrawl.stream.store import open_store
from tagcrawl.stream.writer import GroupWriter, StoreUnavailable, get_writer

from tests.support.stream_support import count_rows, issued, minimal, post_event, stored, stream_app

FIXTURES = (issued, stream_app)  # imported for pytest

pytestmark = pytest.mark.postgres


def _row(customer_id, name="e"):
    now = utcnow()
    return {"event_id": str(uuid.uuid4()), "customer_id": customer_id, "received_at": now, "event_timestamp": now,
            "vendor": "unknown", "vendor_name": "v", "event_name": name}


def _customer_id(app):
    from tagcrawl.stream.tenants import get_or_create_customer
    from tagcrawl.core.extensions import db

    with app.app_context():
        cid = get_or_create_customer("writer-test").id
        db.session.commit()
    return cid


def _store(app):
    """The store ``get_writer`` gives the app's writer (COPY on the test PostgreSQL)."""
    from tagcrawl.core.extensions import db

    with app.app_context():
        return open_store(db.engine)


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


def _busy(writer, cid):
    """As right after a batch of several rows was taken: the next batch waits for company."""
    writer._last_taken, writer._last_size = time.monotonic(), 2
    return writer.batches


def test_rows_of_concurrent_requests_share_one_transaction(app):
    writer = GroupWriter(_store(app), batch_size=100, wait_s=30.0, threads=20)
    cid = _customer_id(app)
    before = _busy(writer, cid)
    started = time.monotonic()
    outcomes = _submit_together(writer, [_row(cid, f"e{i}") for i in range(20)])
    assert outcomes == [None] * 20
    assert writer.batches == before + 1  # one transaction for the 20 rows
    assert time.monotonic() - started < 15  # went when every thread waited, not at the 30 s deadline
    assert count_rows(app) == 20


def test_batch_size_caps_a_transaction(app):
    writer = GroupWriter(_store(app), batch_size=3, wait_s=1.0, threads=7)
    cid = _customer_id(app)
    before = _busy(writer, cid)
    assert _submit_together(writer, [_row(cid) for _ in range(7)]) == [None] * 7
    assert writer.batches == before + 3  # 3 + 3, then the last row alone after wait_s
    assert count_rows(app) == 7


def test_a_row_of_busy_traffic_waits_at_most_the_batch_wait(app):
    writer = GroupWriter(_store(app), batch_size=100, wait_s=0.3, threads=4)
    cid = _customer_id(app)
    _busy(writer, cid)
    started = time.monotonic()
    writer.submit(_row(cid), 10.0)
    assert 0.25 <= time.monotonic() - started < 5
    assert count_rows(app) == 1


def test_a_batch_with_company_makes_the_next_one_wait(app):
    writer = GroupWriter(_store(app), batch_size=100, wait_s=30.0, threads=2)
    cid = _customer_id(app)
    committing, release = threading.Event(), threading.Event()
    original = writer._commit

    def slow_commit(insert, batch):  # the first batch is in the database while two rows meet in the queue
        committing.set()
        release.wait(10)
        original(insert, batch)

    writer._commit = slow_commit
    first = threading.Thread(target=writer.submit, args=(_row(cid), 60.0))
    first.start()
    assert committing.wait(10)  # the lone first row was taken at once
    rest = [threading.Thread(target=writer.submit, args=(_row(cid), 60.0)) for _ in range(2)]
    with writer._cond:
        for thread in rest:
            thread.start()
        assert writer._cond.wait_for(lambda: len(writer._queue) == 2, 10)  # submit notifies at 2 (= threads)
    release.set()
    for thread in [first, *rest]:
        thread.join(20)
    assert (writer.batches, writer._last_size) == (2, 2)  # 1 row, then the 2 that met
    started = time.monotonic()
    with pytest.raises(StoreUnavailable):
        writer.submit(_row(cid), 0.3)  # a batch with company just went: this row waits for more (30 s)
    assert time.monotonic() - started < 15
    assert count_rows(app) == 3


def test_rows_of_light_traffic_go_at_once(app):
    writer = GroupWriter(_store(app), batch_size=100, wait_s=30.0, threads=4)
    cid = _customer_id(app)
    started = time.monotonic()
    for _ in range(3):  # one client, one event after the other: no company to wait for
        writer.submit(_row(cid), 60.0)
    assert time.monotonic() - started < 15  # none held for the 30 s batch wait
    assert writer.batches == 3 and count_rows(app) == 3


def test_a_bad_row_fails_alone(app):
    writer = GroupWriter(_store(app), batch_size=100, wait_s=30.0, threads=3)
    cid = _customer_id(app)
    before = _busy(writer, cid)
    rows = [_row(cid, "ok1"), _row(999_999, "bad"), _row(cid, "ok2")]  # no customer 999999: FK violation
    outcomes = _submit_together(writer, rows)
    assert writer.batches == before  # the batch failed, its rows went one by one
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StoreUnavailable)
    assert sorted(r.event_name for r in stored(app)) == ["ok1", "ok2"]


def test_a_row_not_taken_in_time_is_withdrawn(app):
    writer = GroupWriter(_store(app), batch_size=100, wait_s=30.0, threads=4)
    cid = _customer_id(app)
    _busy(writer, cid)
    with pytest.raises(StoreUnavailable):
        writer.submit(_row(cid), 0.2)  # busy traffic: the writer holds it back for 30 s
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


def test_readiness_reports_the_writers_group_commits(app, issued):
    client = app.test_client()
    assert client.get("/health/ready").get_json()["stream"] == {"batches": 0}  # no writer yet: none created
    assert post_event(client, minimal(issued, e="one")).status_code == 204
    assert client.get("/health/ready").get_json()["stream"] == {"batches": get_writer(app).batches} == {"batches": 1}


# --- CopyStore: COPY text format round trip ------------------------------------------------

#: Strings that COPY's text format must escape or could confuse (all <= 16 characters).
HOSTILE = [
    "back\\slash", "tab\there", "new\nline", "cr\rhere", "crlf\r\nend", "\\N", "\\\\N", "\\.", "\\",
    "ends with \\", "a\\tb\\nc", "'single' \"dbl\"", "emoji 😀🎉👍🏽", "中文字符 日本語", "", " ", "\t", "\n",
    "ctl \x01\x1f\x7f\u2028", "mix \\\n\t\r\\N\"'",
]

#: JSON values with escapes, quotes, unicode, nesting, extreme numbers.
DOCUMENTS = [
    [{"value": 42.5, "currency": "EUR", "content_ids": ["sku-1", "sku-2"]}],
    {"a\\b": "c\"d", "tab\tkey": "new\nline\r", "emoji": "😀 中文", "\\N": None,
     "list": [1, -2, 3.25, 1e-7, 2 ** 70, -(2 ** 63), True, False, None, "", "\\", "\\N", "\t\n\r"],
     "nested": {"deep": [{"x": "中文"}, [], {}], "quote": "'\"", "ctl": "\x01\x1f\x7f\u2028"}},
    [], {}, "just a \\ string \"quoted\"", 0, -1.5, True, [None],
]


def _string_columns():
    from tagcrawl.core.models import StreamEvent

    return [c for c in StreamEvent.__table__.columns
            if c.name not in ("event_id",) and getattr(c.type, "length", None)]


def _hostile_row(customer_id, text, document):
    """A row with ``text`` in every string column that can hold it, ``document`` in the JSON ones."""
    row = _row(customer_id)
    for column in _string_columns():
        if len(text) <= column.type.length:
            row[column.name] = text
    row.update(details=document, extra={"k": document, "t": text}, is_bot=bool(len(text) % 2),
               client_timestamp=2 ** 63 - 1, clock_skew_ms=-(2 ** 63), execution_ms=0)
    return row


def _read_back(app, event_ids):
    from tagcrawl.core.models import StreamEvent

    table = StreamEvent.__table__
    with app.app_context():
        from tagcrawl.core.extensions import db

        result = db.session.execute(db.select(table).where(table.c.event_id.in_(event_ids))).mappings()
        found = {row["event_id"]: dict(row) for row in result}
        db.session.remove()
    return found


def _insert_and_compare(app, rows):
    """Insert ``rows`` with the PostgreSQL store and check every column read back."""
    from tagcrawl.core.models import StreamEvent
    from tagcrawl.stream.store import CopyStore

    inserter = _store(app)
    assert isinstance(inserter, CopyStore)
    try:
        inserter.insert_batch(rows)
    finally:
        inserter.close()
    found = _read_back(app, [row["event_id"] for row in rows])
    assert len(found) == len(rows)
    columns = [c.name for c in StreamEvent.__table__.columns if c.name != "id"]
    for row in rows:
        stored_row = found[row["event_id"]]
        for column in columns:
            sent = row.get(column)
            assert stored_row[column] == sent, (column, sent, stored_row[column])
            assert type(stored_row[column]) is type(sent) or sent is None, (column, sent, stored_row[column])


def test_copy_round_trips_hostile_strings_and_json(app):
    cid = _customer_id(app)
    rows = [_hostile_row(cid, text, DOCUMENTS[i % len(DOCUMENTS)]) for i, text in enumerate(HOSTILE)]
    _insert_and_compare(app, rows)


def test_copy_round_trips_each_row_alone(app):
    """Batches of one row: the fast (nothing to escape) and the escaping path alike."""
    cid = _customer_id(app)
    for i, text in enumerate(["plain", "back\\slash", "\\N", "", "😀"]):
        _insert_and_compare(app, [_hostile_row(cid, text, DOCUMENTS[i])])
    for text in ("new\nline", "cr\rhere", "tab\there", "\\"):  # the only special character of its row
        row = _row(cid)
        row["page_path"] = text
        _insert_and_compare(app, [row])


def test_copy_tells_empty_strings_from_null(app):
    cid = _customer_id(app)
    empty, null, missing = _row(cid), _row(cid), _row(cid)
    nullable = [c.name for c in _string_columns() if c.nullable]
    empty.update({name: "" for name in nullable}, details="", extra={"": ""}, vendor="", event_name="")
    null.update({name: None for name in nullable}, details=None, extra=None, is_bot=None,
                client_timestamp=None, clock_skew_ms=None, execution_ms=None, customer_id=None)
    missing = {key: missing[key] for key in ("event_id", "received_at", "event_timestamp", "vendor",
                                             "vendor_name", "event_name")}  # absent keys are NULL
    _insert_and_compare(app, [empty, null, missing])
    found = _read_back(app, [missing["event_id"]])[missing["event_id"]]
    assert all(found[name] is None for name in nullable + ["details", "extra", "customer_id", "is_bot"])
    with app.app_context():  # SQL NULL, not JSON null (which reads back as None too)
        from tagcrawl.core.extensions import db

        nulls = db.session.execute(db.text(
            "SELECT event_id, details IS NULL AND extra IS NULL FROM stream_events")).all()
        db.session.remove()
    assert dict(nulls) == {empty["event_id"]: False, null["event_id"]: True, missing["event_id"]: True}


def test_copy_round_trips_booleans_and_big_ints(app):
    cid = _customer_id(app)
    rows = []
    for is_bot, big in ((True, 2 ** 63 - 1), (False, -(2 ** 63)), (None, 0), (True, -1)):
        row = _row(cid)
        row.update(is_bot=is_bot, client_timestamp=big, clock_skew_ms=big, execution_ms=big)
        rows.append(row)
    _insert_and_compare(app, rows)


def test_copy_batch_is_all_or_nothing(app):
    cid = _customer_id(app)
    good, bad = _row(cid, "good"), _row(999_999, "bad")  # no customer 999999: FK violation
    with app.app_context():
        inserter = _store(app)
        with pytest.raises(Exception) as caught:
            inserter.insert_batch([good, _hostile_row(cid, "x\\y", DOCUMENTS[1]), bad])
        assert "foreign key" in str(caught.value)
        assert count_rows(app) == 0
        with pytest.raises(UnicodeEncodeError):  # refused upstream; fails before the connection
            inserter.insert_batch([_row(cid, "lone \ud800 surrogate")])
        inserter.insert_batch([good])  # the kept connection is still fine
        inserter.close()
    assert [r.event_name for r in stored(app)] == ["good"]


def test_copy_text_format():
    from datetime import datetime, timezone

    from tagcrawl.stream.store.copy import copy_escape, copy_line

    assert copy_escape("a\\b\tc\nd\re") == "a\\\\b\\tc\\nd\\re"
    assert copy_escape("plain ünïcode") == "plain ünïcode"
    stamp = datetime(2024, 5, 1, 12, 0, 0, 123456, tzinfo=timezone.utc)
    line = copy_line(["x", "", None, "\\N", 7, True, False, stamp], [{"a": "é\\"}, None])
    assert line.split("\t") == ["x", "", "\\N", "\\\\N", "7", "t", "f", "2024-05-01T12:00:00.123456+00:00",
                                '{"a":"é\\\\\\\\"}', "\\N"]
    assert copy_line(["a", None, 1], [[1]]) == "a\t\\N\t1\t[1]"  # nothing to escape
    for raw, escaped in (("a\nb", "a\\nb"), ("a\rb", "a\\rb"), ("a\tb", "a\\tb"), ("a\\b", "a\\\\b")):
        assert copy_line([raw, None], []) == escaped + "\t\\N"
