"""The stream's one column list: ``models.StreamEvent``, and what is derived from it.

The request schema names each field's column (``stored_as``), the listed
event (``StoredEventSchema``, ``events.FIELDS``), the normalizer
(``normalize.COPIED``, ``normalize``) and the stores (``stream/store/``) all
agree with the model's table.  The seam: both stores are ``EventStore``s,
and the group-commit writer runs on the portable one (SQLite, no PostgreSQL).
"""
from __future__ import annotations

import re
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest

from tagcrawl.core.models import StreamEvent
from tagcrawl.core.schemas import StoredEventSchema, StreamEventRequestSchema
from tagcrawl.stream import normalize
from tagcrawl.stream.events import FIELDS
from tagcrawl.stream.store import CopyStore, EventStore, ExecutemanyStore, open_store
from tagcrawl.stream.writer import GroupWriter

COLUMNS = [column.name for column in StreamEvent.__table__.columns if column.name != "id"]
REQUEST = StreamEventRequestSchema().fields
DOC = Path(__file__).resolve().parents[2] / "docs" / "stream.md"


def _event(**extra) -> dict:
    """A loaded event with every declared field (and ``extra``), as the view hands it on."""
    body = {"t": str(uuid.uuid4()), "vn": "Facebook Pixel", "e": "Purchase", "dm": "gtm", "mv": "1.4.2",
            "sv": "2024.05.01", "tm": 1_714_564_800_000.5, "m": "get",
            "vu": "https://www.facebook.com/tr/?id=1234567890123456&ev=Purchase",
            "u": "https://www.shop.example.com/checkout/done?order=9", "p": "/checkout/done",
            "dt": [{"value": 42.5}], "np": [{"debug": "x"}], "s": "gtm-template", "rl": 20240501,
            "env": "production", "do": "GTM-ABC123", "et": 37, "vid": "evt-123", "cn": "C0001:1",
            "sid": str(uuid.uuid4()), "cid": "customer-77", **extra}
    return StreamEventRequestSchema().load(body)


def _normalize(event: dict) -> dict:
    return normalize.normalize(event, customer_id=1, origin_host="shop.example.com",
                               environ={"HTTP_USER_AGENT": "Mozilla/5.0", "REMOTE_ADDR": "198.51.100.7"},
                               received_at=datetime(2024, 5, 1, 12, tzinfo=timezone.utc))


def test_the_listed_event_is_the_table_but_id_with_the_customer_by_name():
    expected = ["customer" if name == "customer_id" else name for name in COLUMNS]
    assert FIELDS == expected
    assert list(StoredEventSchema().fields) == expected


def test_the_listed_event_is_typed_after_its_columns():
    fields = StoredEventSchema().fields
    for name, column in zip(FIELDS, COLUMNS):
        assert fields[name].required, name
        assert fields[name].allow_none == StreamEvent.__table__.columns[column].nullable, name


def test_every_request_field_names_an_existing_column_once():
    named = [field.metadata["column"] for field in REQUEST.values() if field.metadata["column"] is not None]
    assert set(named) <= set(COLUMNS)
    assert len(named) == len(set(named))
    assert {name for name, field in REQUEST.items() if field.metadata["column"] is None} == {"t", "np"}
    assert all(isinstance(field.metadata["copied"], bool) for field in REQUEST.values())


def test_copied_columns_come_from_the_schema():
    assert normalize.COPIED == {field.metadata["column"]: name for name, field in REQUEST.items()
                                if field.metadata["column"] and field.metadata["copied"]}
    assert normalize.COPIED["vendor_name"] == "vn" and "http_method" not in normalize.COPIED


@pytest.mark.parametrize("event", [_event(), _event(campaign={"utm": "spring"}),
                                   StreamEventRequestSchema().load({"t": str(uuid.uuid4()), "vn": "v", "e": "e"})])
def test_normalize_fills_every_column_but_id(event):
    assert sorted(_normalize(event)) == sorted(COLUMNS)


def test_a_field_stored_as_loaded_reaches_its_column_unchanged():
    event = _event()
    row = _normalize(event)
    for column, name in normalize.COPIED.items():
        assert row[column] == event[name], column


def test_the_docs_field_table_names_each_fields_column():
    rows = dict(re.findall(r"^\| `(\w+)` \|[^|]*\|[^|]*\| (.*) \|$", DOC.read_text(encoding="utf-8"), re.M))
    assert set(REQUEST) <= set(rows)
    for name, field in REQUEST.items():
        if field.metadata["column"] is not None:
            assert rows[name].startswith(f"`{field.metadata['column']}`"), (name, rows[name])


def test_the_copy_store_writes_every_column_but_id():
    store = CopyStore(engine=None)  # opens nothing until its first batch
    assert sorted(store.plain + store.documents) == sorted(COLUMNS)
    assert store.statement.startswith("COPY stream_events (")


def test_both_stores_are_event_stores(tmp_path):
    from sqlalchemy import create_engine

    engine = create_engine(f"sqlite:///{tmp_path / 'events.db'}")
    try:
        assert isinstance(open_store(engine), ExecutemanyStore)
        assert isinstance(open_store(engine), EventStore)
        assert isinstance(CopyStore(engine=None), EventStore)
    finally:
        engine.dispose()


def test_the_writer_runs_on_the_portable_store(tmp_path):
    from sqlalchemy import create_engine, func, select

    engine = create_engine(f"sqlite:///{tmp_path / 'events.db'}")
    try:
        StreamEvent.__table__.create(engine)
        writer = GroupWriter(ExecutemanyStore(engine), batch_size=10, wait_s=0.0, threads=1)
        row = _normalize(_event())
        row["customer_id"] = None  # no customers table here
        writer.submit(row, timeout=10.0)
        assert writer.batches == 1
        with engine.connect() as conn:
            assert conn.scalar(select(func.count()).select_from(StreamEvent.__table__)) == 1
    finally:
        engine.dispose()
