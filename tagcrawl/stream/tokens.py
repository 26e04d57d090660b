"""Ingestion tokens: issue, revoke, list, and the cached lookup of the endpoint.

A token is a uuid4 string owned by a customer, with an optional expiry
(``expires_at``) and a revocation time.  The endpoint looks tokens up through
a per-process cache (``TOKEN_CACHE_S``, at most 60 s) that holds the token's
customer and that customer's whitelist, so a hot token costs no query.  A
revocation or a whitelist change is seen at once by the process that made it
and within the cache TTL by the others; expiry is checked on every request.
"""
from __future__ import annotations

import threading
import time
import uuid
from collections import namedtuple
from datetime import datetime, timedelta, timezone

from flask import current_app

from ..extensions import db
from ..models import AllowedDomain, Customer, IngestToken, utcnow
from .domains import add_domains, get_or_create_customer

DEFAULT_TTL_DAYS = 365
CACHE_TTL_MAX_S = 60.0
CACHE_MAX_ENTRIES = 10_000

#: What the endpoint needs to know about a token.  ``patterns`` is a tuple of
#: the customer's whitelist patterns; times are aware UTC datetimes or None.
TokenInfo = namedtuple("TokenInfo", "token customer_id customer_name patterns expires_at revoked_at")

_ALL_PATTERNS = "*all-patterns*"


class TtlCache:
    """A small thread-safe cache whose entries live ``ttl_s`` seconds (monotonic)."""

    def __init__(self, max_entries: int = CACHE_MAX_ENTRIES):
        self._lock = threading.Lock()
        self._entries: dict = {}
        self.max_entries = max_entries

    def get(self, key, ttl_s: float, load):
        """The cached value for ``key``, or ``load()`` (cached for ``ttl_s`` seconds).

        ``load`` runs outside the lock; an exception from it is not cached.
        """
        if ttl_s > 0:
            with self._lock:
                hit = self._entries.get(key)
            if hit is not None and hit[0] > time.monotonic():
                return hit[1]
        value = load()
        if ttl_s > 0:
            with self._lock:
                self._entries.pop(key, None)
                self._entries[key] = (time.monotonic() + ttl_s, value)
                while len(self._entries) > self.max_entries:
                    self._entries.pop(next(iter(self._entries)))
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def _cache() -> TtlCache:
    cache = current_app.extensions.get("tagcrawl.stream.tokens")
    if cache is None:
        cache = current_app.extensions.setdefault("tagcrawl.stream.tokens", TtlCache())
    return cache


def _ttl() -> float:
    return max(0.0, min(float(current_app.config.get("TOKEN_CACHE_S", CACHE_TTL_MAX_S)), CACHE_TTL_MAX_S))


def clear_cache() -> None:
    """Forget every cached token and whitelist of this process (current app)."""
    _cache().clear()


def _load_token(token: str) -> TokenInfo | None:
    query = (db.select(IngestToken.customer_id, Customer.name, IngestToken.expires_at,
                       IngestToken.revoked_at, AllowedDomain.pattern)
             .join(Customer, Customer.id == IngestToken.customer_id)
             .outerjoin(AllowedDomain, AllowedDomain.customer_id == Customer.id)
             .where(IngestToken.token == token))
    with db.engine.connect() as conn:
        rows = conn.execute(query).all()
    if not rows:
        return None
    first = rows[0]
    patterns = tuple(sorted({row.pattern for row in rows if row.pattern}))
    return TokenInfo(token, first.customer_id, first.name, patterns, first.expires_at, first.revoked_at)


def lookup_token(token: uuid.UUID | str) -> TokenInfo | None:
    """The token's TokenInfo (cached), or None when no such token exists.

    Raises SQLAlchemy errors when the database cannot answer (not cached).
    """
    key = str(token).lower()
    return _cache().get(key, _ttl(), lambda: _load_token(key))


def token_problem(info: TokenInfo | None, now: datetime) -> str | None:
    """Why ``info`` cannot be used at ``now`` (the 401 message), or None."""
    if info is None:
        return "Unknown ingestion token."
    if info.revoked_at is not None:
        return "Ingestion token has been revoked."
    if info.expires_at is not None and _aware(info.expires_at) <= now:
        return f"Ingestion token expired at {_aware(info.expires_at).isoformat()}."
    return None


def all_patterns() -> tuple[str, ...]:
    """Every customer's whitelist patterns (cached), for the CORS preflight."""

    def load():
        with db.engine.connect() as conn:
            return tuple(sorted(set(conn.scalars(db.select(AllowedDomain.pattern)))))

    return _cache().get(_ALL_PATTERNS, _ttl(), load)


def _aware(value: datetime) -> datetime:
    """SQLite hands back naive datetimes; they are UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)


# --- services (CLI and tests) ------------------------------------------------

def issue_token(customer_name: str, domains=(), ttl_days: int | None = DEFAULT_TTL_DAYS,
                now: datetime | None = None) -> IngestToken:
    """Issue a token for a customer (created if needed) and whitelist ``domains``.

    Args:
        customer_name: the customer's name.
        domains: patterns to add to the customer's whitelist (may be empty
            when the customer has some already).
        ttl_days: lifetime in days; 0 or None for a token that never expires.
        now: issue time (default: current UTC time).
    Returns:
        the committed IngestToken (``.token`` is the uuid4 string).
    Raises:
        ValueError: a bad pattern, a negative TTL, or a customer left without
            any whitelisted domain.
    """
    if ttl_days is not None and ttl_days < 0:
        raise ValueError("--ttl-days must be 0 (never expires) or more")
    if domains:
        add_domains(customer_name, domains)
    customer = get_or_create_customer(customer_name)
    if not customer.domains:
        db.session.rollback()
        raise ValueError(f"customer {customer_name!r} has no whitelisted domain: pass --domain")
    now = now or utcnow()
    row = IngestToken(token=str(uuid.uuid4()), customer=customer, created_at=now,
                      expires_at=now + timedelta(days=ttl_days) if ttl_days else None)
    db.session.add(row)
    db.session.commit()
    return row


def revoke_token(token: str, now: datetime | None = None) -> IngestToken:
    """Revoke ``token`` (idempotent: the first revocation time is kept); commits.

    Raises ValueError when the token is not a uuid or does not exist.
    """
    try:
        key = str(uuid.UUID(str(token).strip()))
    except ValueError:
        raise ValueError(f"{token!r} is not a token (uuid)") from None
    row = db.session.scalar(db.select(IngestToken).filter_by(token=key))
    if row is None:
        raise ValueError(f"no such token: {key}")
    if row.revoked_at is None:
        row.revoked_at = now or utcnow()
        db.session.commit()
    clear_cache()
    return row


def list_tokens(customer_name: str | None = None, now: datetime | None = None) -> list[dict]:
    """Tokens, oldest first: ``[{token, customer, created_at, expires_at, state}]``.

    ``state`` is ``active``, ``expired`` or ``revoked``.
    """
    now = now or utcnow()
    query = (db.select(IngestToken, Customer.name)
             .join(Customer, Customer.id == IngestToken.customer_id).order_by(IngestToken.id))
    if customer_name:
        query = query.where(Customer.name == customer_name)
    out = []
    for row, name in db.session.execute(query):
        info = TokenInfo(row.token, row.customer_id, name, (), row.expires_at, row.revoked_at)
        problem = token_problem(info, now)
        state = "active" if problem is None else ("revoked" if row.revoked_at else "expired")
        out.append({"token": row.token, "customer": name, "created_at": row.created_at,
                    "expires_at": row.expires_at, "state": state})
    return out
