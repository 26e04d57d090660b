"""Fixtures and helpers shared by the stream tests (this module holds no test).

Imported by the ``test_stream_*`` modules:

- ``stream_app(**config)``: a second app on the test database with extra
  config (``TOKEN_CACHE_S``...; ``STREAM_CLOCK=`` becomes the factory's ``clock``), torn down before
  the ``app`` fixture empties the tables.
- ``issued``: a token for customer ``acme`` whitelisting ``shop.example.com``
  and ``*.acme.test``.
- ``post_event(client, body, ...)``: POST a body (dict -> JSON text) with an Origin.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from tagcrawl import create_app
from tagcrawl.core.extensions import db
from tagcrawl.core.models import StreamEvent

URL = "/stream/api/v1"
ORIGIN = "https://shop.example.com"
CHROME_UA = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
             "Chrome/120.0.6099.109 Safari/537.36")
FIXED_NOW = datetime(2024, 5, 1, 12, 0, 0, tzinfo=timezone.utc)
FIXED_MS = int(FIXED_NOW.timestamp() * 1000)


class FixedClock:
    """A settable clock for ``STREAM_CLOCK``: ``clock()`` returns ``clock.now``."""

    def __init__(self, now: datetime = FIXED_NOW):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def stream_app(app):
    """Factory of apps on the test database with extra config."""
    made = []

    def make(**config):
        base = {"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"], "TESTING": True}
        clock = config.pop("STREAM_CLOCK", None)  # the factory's clock argument, not a setting
        new = create_app({**base, **config}, clock=clock)
        made.append(new)
        return new

    yield make
    for other in made:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def issued(app):
    """Token string of customer ``acme`` (whitelist shop.example.com, *.acme.test)."""
    from tagcrawl.stream.tenants import issue_token

    with app.app_context():
        return issue_token("acme", ["shop.example.com", "*.acme.test"]).token


def post_event(client, body, origin: str | None = ORIGIN, content_type: str | None = "application/json",
               headers: dict | None = None, **kwargs):
    """POST ``body`` (a dict/list is sent as JSON text, bytes/str as they are)."""
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    all_headers = {"User-Agent": CHROME_UA}
    if origin:
        all_headers["Origin"] = origin
    if content_type:
        all_headers["Content-Type"] = content_type
    all_headers.update(headers or {})
    return client.post(URL, data=data, headers=all_headers, **kwargs)


def minimal(token: str, **fields) -> dict:
    """The smallest valid event (t, vn, e) plus ``fields``."""
    return {"t": token, "vn": "Facebook Pixel", "e": "PageView", **fields}


def stored(app) -> list[StreamEvent]:
    """Every stored event, oldest first."""
    with app.app_context():
        rows = db.session.scalars(db.select(StreamEvent).order_by(StreamEvent.id)).all()
        db.session.expunge_all()
        return rows


def count_rows(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(StreamEvent.id)))
