"""The stream's tenants: customers, their whitelisted domains, their ingestion tokens.

- Admin services (the CLI and the tests call them; each commits):
  ``get_or_create_customer``, ``find_customer``, ``add_domains``,
  ``remove_domain``, ``list_domains``, ``issue_token``, ``revoke_token``,
  ``list_tokens``.
- The endpoint's lookups: ``lookup_token`` (the token's customer and that
  customer's whitelist) and ``all_patterns`` (every pattern, for the CORS
  preflight), through a per-process ``cachetools.TTLCache`` of
  ``TOKEN_CACHE_S`` seconds (at most 60 s; 0 turns it off), so a hot token
  costs no query.  A change made here clears this process's cache at once;
  other processes see it within the TTL.  Expiry is checked on every request.

A token is a uuid4 string owned by a customer, with an optional expiry
(``expires_at``) and a revocation time (``revoked_at``).
"""
from __future__ import annotations

import threading
import uuid
from collections import namedtuple
from datetime import datetime, timedelta, timezone

from cachetools import TTLCache
from flask import current_app

from tagcrawl.core.extensions import db
from tagcrawl.core.settings import current_settings
from tagcrawl.core.models import AllowedDomain, Customer, IngestToken, by_name, utcnow
from tagcrawl.stream.origins import normalize_pattern

DEFAULT_TTL_DAYS = 365
CACHE_TTL_MAX_S = 60.0
CACHE_MAX_ENTRIES = 10_000
_EXTENSION = "tagcrawl.stream.tenants"
_ALL_PATTERNS = "*all-patterns*"

#: What the endpoint needs to know about a token.  ``patterns`` is a tuple of
#: the customer's whitelist patterns; times are aware UTC datetimes or None.
TokenInfo = namedtuple("TokenInfo", "token customer_id customer_name patterns expires_at revoked_at")


class LookupCache:
    """A thread-safe ``TTLCache`` (``ttl_s`` seconds, ``CACHE_MAX_ENTRIES`` entries); ``ttl_s`` 0: no caching."""

    def __init__(self, ttl_s: float):
        self.cache = TTLCache(maxsize=CACHE_MAX_ENTRIES, ttl=ttl_s) if ttl_s > 0 else None
        self.lock = threading.Lock()

    def get(self, key, load):
        """The cached value of ``key``, else ``load()`` (run outside the lock; an exception is not cached)."""
        if self.cache is None:
            return load()
        with self.lock:
            value = self.cache.get(key, _ALL_PATTERNS)  # a sentinel no loader returns
        if value is _ALL_PATTERNS:
            value = load()
            with self.lock:
                self.cache[key] = value
        return value

    def clear(self) -> None:
        if self.cache is not None:
            with self.lock:
                self.cache.clear()


def _cache() -> LookupCache:
    cache = current_app.extensions.get(_EXTENSION)
    if cache is None:
        ttl = max(0.0, min(current_settings().token_cache_s, CACHE_TTL_MAX_S))
        cache = current_app.extensions.setdefault(_EXTENSION, LookupCache(ttl))
    return cache


def clear_cache() -> None:
    """Forget every cached token and whitelist of this process (current app)."""
    _cache().clear()


# --- customers and domains --------------------------------------------------

def get_or_create_customer(name: str) -> Customer:
    """The customer called ``name``, created (and flushed) when missing.  ValueError for an empty name."""
    name = (name or "").strip()
    if not name:
        raise ValueError("a customer needs a name")
    customer = by_name(Customer, name)
    if customer is None:
        customer = Customer(name=name)
        db.session.add(customer)
        db.session.flush()
    return customer


def find_customer(name: str) -> Customer:
    """The customer called ``name``; ValueError when there is none."""
    return by_name(Customer, name, ValueError, "customer")


def add_domains(customer_name: str, patterns) -> list[str]:
    """Whitelist ``patterns`` for the customer (created if needed); commits.

    Returns:
        the normalized patterns that were added (already present ones are skipped).
    Raises:
        ValueError: a bad pattern (``origins.normalize_pattern``).
    """
    normalized = [normalize_pattern(p) for p in patterns]
    customer = get_or_create_customer(customer_name)
    existing = {d.pattern for d in customer.domains}
    added = []
    for pattern in normalized:
        if pattern not in existing:
            customer.domains.append(AllowedDomain(pattern=pattern))
            existing.add(pattern)
            added.append(pattern)
    db.session.commit()
    clear_cache()
    return added


def remove_domain(customer_name: str, pattern: str) -> None:
    """Remove one whitelisted pattern of a customer; commits.  ValueError if absent."""
    customer = find_customer(customer_name)
    normalized = normalize_pattern(pattern)
    row = next((d for d in customer.domains if d.pattern == normalized), None)
    if row is None:
        raise ValueError(f"{normalized!r} is not whitelisted for {customer_name!r}")
    customer.domains.remove(row)
    db.session.commit()
    clear_cache()


def list_domains(customer_name: str | None = None) -> list[tuple[str, str]]:
    """``[(customer name, pattern), ...]`` sorted, for one customer or all."""
    query = (db.select(Customer.name, AllowedDomain.pattern)
             .join(AllowedDomain, AllowedDomain.customer_id == Customer.id))
    if customer_name:
        query = query.where(Customer.name == customer_name)
    return [tuple(row) for row in db.session.execute(query.order_by(Customer.name, AllowedDomain.pattern))]


# --- tokens: the endpoint's lookups -----------------------------------------

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
    return _cache().get(key, lambda: _load_token(key))


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

    return _cache().get(_ALL_PATTERNS, load)


def _aware(value: datetime) -> datetime:
    """SQLite hands back naive datetimes; they are UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)


# --- tokens: admin services --------------------------------------------------

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
