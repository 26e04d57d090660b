"""Database models.

JSON columns are JSONB on PostgreSQL and JSON on SQLite.  Times are stored as
timezone-aware UTC.  Secrets (API keys) are stored only as SHA-256 digests.
"""
from __future__ import annotations

import uuid
from datetime import datetime, timezone

from sqlalchemy.dialects.postgresql import JSONB

from tagcrawl.core.extensions import db

JSONType = db.JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    """Current time, timezone-aware UTC."""
    return datetime.now(timezone.utc)


def new_uuid() -> str:
    """A new random uuid4 as its canonical 36-character string."""
    return str(uuid.uuid4())


class ApiKey(db.Model):
    """A caller of the crawl API.  ``key_hash`` is sha256(key) hex; the key is
    shown once at creation.  ``key_prefix`` (first 16 chars) finds the row, the
    digest is then compared in constant time."""

    __tablename__ = "api_keys"
    id = db.Column(db.Integer, primary_key=True)
    name = db.Column(db.String(120), nullable=False, unique=True)
    key_prefix = db.Column(db.String(16), nullable=False, index=True)
    key_hash = db.Column(db.String(64), nullable=False)
    webhook_url = db.Column(db.String(2048))
    webhook_secret = db.Column(db.String(128))
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    revoked_at = db.Column(db.DateTime(timezone=True))
    # Tenancy (grants.py): a key reads the events of the customers it is granted
    # (ApiKeyGrant rows), or of every customer when all_customers is set.
    all_customers = db.Column(db.Boolean, nullable=False, default=False, server_default=db.false())
    # opt-in: the HAR stored with this key's crawls keeps cookie/authorization headers (`flask pixels har-secrets`)
    har_secrets = db.Column(db.Boolean, nullable=False, default=False, server_default=db.false())


class ApiKeyGrant(db.Model):
    """API key ``api_key_id`` may read the events of customer ``customer_id``."""

    __tablename__ = "api_key_grants"
    api_key_id = db.Column(db.Integer, db.ForeignKey("api_keys.id", ondelete="CASCADE"), primary_key=True)
    customer_id = db.Column(db.Integer, db.ForeignKey("customers.id", ondelete="CASCADE"), primary_key=True,
                            index=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class Crawl(db.Model):
    """One crawl: request, status (queued, running, done, failed) and the
    CrawlResponse JSON once finished."""

    __tablename__ = "crawls"
    id = db.Column(db.Integer, primary_key=True)
    session_id = db.Column(db.String(36), nullable=False, index=True)
    api_key_id = db.Column(db.Integer, db.ForeignKey("api_keys.id"), index=True)
    url = db.Column(db.String(2048), nullable=False)
    status = db.Column(db.String(16), nullable=False, default="done", index=True)
    success = db.Column(db.Boolean)
    request = db.Column(JSONType)
    response = db.Column(JSONType)
    time_taken_ms = db.Column(db.Integer)
    attempts = db.Column(db.Integer, nullable=False, default=0)
    webhook = db.Column(db.Boolean, nullable=False, default=False)
    lease_expires_at = db.Column(db.DateTime(timezone=True))  # a running crawl past this is reclaimed
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, index=True)
    finished_at = db.Column(db.DateTime(timezone=True))


class CrawlHar(db.Model):
    """The captured traffic of one crawl as a HAR 1.2 document (JSON text,
    capped at ``HAR_MAX_BYTES``; sensitive headers redacted unless the key
    opted in when the crawl ran).  Served by ``GET /api/v1/crawls/<id>/har``."""

    __tablename__ = "crawl_hars"
    crawl_id = db.Column(db.Integer, db.ForeignKey("crawls.id", ondelete="CASCADE"), primary_key=True)
    har = db.Column(db.Text, nullable=False)
    entries = db.Column(db.Integer, nullable=False, default=0)
    omitted = db.Column(db.Integer, nullable=False, default=0)
    secrets_kept = db.Column(db.Boolean, nullable=False, default=False)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class WebhookDelivery(db.Model):
    """One webhook message (a finished crawl's CrawlResponse) and its retry state.

    ``status``: pending, delivered or failed (attempts exhausted).  The
    payload is the exact body that is signed and sent on every attempt."""

    __tablename__ = "webhook_deliveries"
    id = db.Column(db.String(36), primary_key=True, default=new_uuid)
    crawl_id = db.Column(db.Integer, db.ForeignKey("crawls.id"), nullable=False, index=True)
    api_key_id = db.Column(db.Integer, db.ForeignKey("api_keys.id"), nullable=False, index=True)
    url = db.Column(db.String(2048), nullable=False)
    payload = db.Column(db.Text, nullable=False)
    status = db.Column(db.String(16), nullable=False, default="pending", index=True)
    attempts = db.Column(db.Integer, nullable=False, default=0)
    next_attempt_at = db.Column(db.DateTime(timezone=True), index=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    attempt_log = db.relationship("WebhookAttempt", backref="delivery", cascade="all, delete-orphan",
                                  order_by="WebhookAttempt.id")


class WebhookAttempt(db.Model):
    """One POST of a delivery: when, the HTTP status (None on a network error),
    how long it took (ms) and the error text."""

    __tablename__ = "webhook_attempts"
    id = db.Column(db.Integer, primary_key=True)
    delivery_id = db.Column(db.String(36), db.ForeignKey("webhook_deliveries.id"), nullable=False, index=True)
    attempted_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    status_code = db.Column(db.Integer)
    duration_ms = db.Column(db.Integer, nullable=False)
    error = db.Column(db.String(500))


class Customer(db.Model):
    """A customer whose pages run the browser tag."""

    __tablename__ = "customers"
    id = db.Column(db.Integer, primary_key=True)
    name = db.Column(db.String(120), nullable=False, unique=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    domains = db.relationship("AllowedDomain", backref="customer", cascade="all, delete-orphan")
    tokens = db.relationship("IngestToken", backref="customer", cascade="all, delete-orphan")


class AllowedDomain(db.Model):
    """A whitelisted origin host: ``example.com`` (exact) or ``*.example.com``
    (any subdomain)."""

    __tablename__ = "allowed_domains"
    __table_args__ = (db.UniqueConstraint("customer_id", "pattern"),)
    id = db.Column(db.Integer, primary_key=True)
    customer_id = db.Column(db.Integer, db.ForeignKey("customers.id"), nullable=False, index=True)
    pattern = db.Column(db.String(255), nullable=False)


class IngestToken(db.Model):
    """An ingestion token (uuid4) for the stream endpoint."""

    __tablename__ = "ingest_tokens"
    id = db.Column(db.Integer, primary_key=True)
    token = db.Column(db.String(36), nullable=False, unique=True, default=new_uuid)
    customer_id = db.Column(db.Integer, db.ForeignKey("customers.id"), nullable=False, index=True)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    expires_at = db.Column(db.DateTime(timezone=True))
    revoked_at = db.Column(db.DateTime(timezone=True))


class StreamEvent(db.Model):
    """One normalised event from the browser tag (docs/stream.md, "The stored record").

    The one list of the stream's columns: the request fields name theirs
    (``StreamEventRequestSchema``, field metadata ``column``), the listed event
    is made of them (``StoredEventSchema``), and the stores write them
    (``stream/store/``).  Columns are in the order an event is listed and
    exported; ``np`` is never stored."""

    __tablename__ = "stream_events"
    # Readers scan in (event_timestamp, id) order, optionally per customer, and apply the
    # vendor/event/domain filters to that scan: two indexes serve them (the first is also
    # the FK's).  No single-column index on the filtered columns: each would cost every
    # insert one more b-tree insertion (migration 0004_stream_indexes dropped them).
    __table_args__ = (db.Index("ix_stream_events_customer_time", "customer_id", "event_timestamp", "id"),
                      db.Index("ix_stream_events_time", "event_timestamp", "id"))
    id = db.Column(db.BigInteger().with_variant(db.Integer, "sqlite"), primary_key=True)
    event_id = db.Column(db.String(36), nullable=False, unique=True, default=new_uuid)
    customer_id = db.Column(db.Integer, db.ForeignKey("customers.id"))
    received_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    event_timestamp = db.Column(db.DateTime(timezone=True), nullable=False)
    client_timestamp = db.Column(db.BigInteger)  # epoch ms, from `tm`
    clock_skew_ms = db.Column(db.BigInteger)
    vendor = db.Column(db.String(64), nullable=False)
    vendor_name = db.Column(db.String(255), nullable=False)
    event_name = db.Column(db.String(255), nullable=False)
    domain = db.Column(db.String(255))
    host = db.Column(db.String(255))
    page_url = db.Column(db.String(2048))
    page_path = db.Column(db.String(2048))
    vendor_url = db.Column(db.String(2048))
    http_method = db.Column(db.String(16))
    deployment_method = db.Column(db.String(64))
    tag_version = db.Column(db.String(64))
    deployment_version = db.Column(db.String(64))
    release = db.Column(db.String(64))
    environment = db.Column(db.String(64))
    container = db.Column(db.String(255))
    execution_ms = db.Column(db.BigInteger)
    vendor_event_id = db.Column(db.String(255))
    consent_state = db.Column(db.Text)  # cn, up to STREAM_CN_MAX characters (a TC string)
    session_id = db.Column(db.String(64))
    customer_ref = db.Column(db.String(255))
    system = db.Column(db.String(255))
    details = db.Column(JSONType)
    extra = db.Column(JSONType)
    browser_family = db.Column(db.String(64))
    browser_version = db.Column(db.String(32))
    os_family = db.Column(db.String(64))
    os_version = db.Column(db.String(32))
    device_family = db.Column(db.String(64))
    is_bot = db.Column(db.Boolean)
    ip_prefix = db.Column(db.String(64))
    user_agent = db.Column(db.String(512))


def by_name(model, name: str, error: type[Exception] | None = None, noun: str = ""):
    """The row of ``model`` (``ApiKey``, ``Customer``: a unique ``name``
    column) called ``name``.

    Returns None when there is none, unless ``error`` is given: then raises
    ``error(f"no {noun} named {name!r}")`` (e.g. ``GrantError``, ``ValueError``,
    ``click.ClickException``)."""
    row = db.session.scalar(db.select(model).filter_by(name=name))
    if row is None and error is not None:
        raise error(f"no {noun} named {name!r}")
    return row
