"""API keys for the crawl API: creation, hashed storage, constant-time check.

A key looks like ``tc_<12 chars>_<32 chars>``.  Only ``sha256(key)`` is
stored; the first 16 characters (``key_prefix``) find the row and the digests
are compared with ``hmac.compare_digest``.  The ``x-api-key`` header is
required on every crawl call.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import secrets

from flask import g, request

from tagcrawl.core.errors import ApiError
from tagcrawl.core.extensions import db
from tagcrawl.core.models import ApiKey, by_name
from tagcrawl.webhooks.signing import new_secret

PREFIX_LEN = 16


def hash_key(key: str) -> str:
    """SHA-256 hex digest of ``key`` (keys are 256-bit random, so a fast hash suffices)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def create_key(name: str, webhook_url: str | None = None, all_customers: bool = False) -> tuple[ApiKey, str, str]:
    """Create and commit an API key named ``name``; ``all_customers`` makes it
    an admin key that reads every customer's events (``grants.py``).

    Returns ``(row, key, webhook_secret)``; the key and the secret are shown
    once and never stored in clear (the secret is needed in clear to sign).
    Raises ``ValueError`` when the name is taken.
    """
    if by_name(ApiKey, name) is not None:
        raise ValueError(f"an API key named {name!r} exists already")
    key = f"tc_{secrets.token_urlsafe(9)}_{secrets.token_urlsafe(24)}"
    secret = new_secret()
    row = ApiKey(name=name, key_prefix=key[:PREFIX_LEN], key_hash=hash_key(key),
                 webhook_url=webhook_url, webhook_secret=secret, all_customers=all_customers)
    db.session.add(row)
    db.session.commit()
    return row, key, secret


def find_key(key: str | None) -> ApiKey | None:
    """The active ApiKey for ``key``, or None.  Digest compared in constant time."""
    if not key or len(key) > 200:
        return None
    digest = hash_key(key)
    rows = db.session.scalars(db.select(ApiKey).filter_by(key_prefix=key[:PREFIX_LEN], revoked_at=None)).all()
    match = None
    for row in rows:
        if hmac.compare_digest(row.key_hash, digest):
            match = row
    return match


def require_api_key(view):
    """Decorator: 401 ErrorMessage unless ``x-api-key`` is a known key;
    the key's row is put in ``g.api_key``."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        provided = request.headers.get("x-api-key")
        if not provided:
            raise ApiError(401, "Missing API key: send it in the x-api-key header.")
        row = find_key(provided)
        if row is None:
            raise ApiError(401, "Invalid API key.")
        g.api_key = row
        return view(*args, **kwargs)

    return wrapper
