"""Shareable links to an audit's HTML report (docs/audits.md, "Sharing the HTML report").

``GET /audits/<id>?expires=<epoch>&token=<hex>`` is readable without an API key
when ``token`` is HMAC-SHA256, keyed with the owning key's stored digest
(``ApiKey.key_hash``: never sent out, and a revoked or deleted key ends its
links), of ``"audit-share\\x1f<id>\\x1f<expires>"``; ``expires`` is epoch seconds.
A link opens one audit only, until it expires.
"""
from __future__ import annotations

import hashlib
import hmac
import time


def share_token(key_hash: str, audit_id: str, expires: int) -> str:
    """The hex HMAC-SHA256 token of ``audit_id`` until ``expires`` (epoch seconds)."""
    message = f"audit-share\x1f{audit_id}\x1f{int(expires)}".encode()
    return hmac.new(key_hash.encode(), message, hashlib.sha256).hexdigest()


def share_query(key_hash: str, audit_id: str, ttl_s: int, now: float | None = None) -> tuple[str, int]:
    """``("expires=..&token=..", expires)`` for a link valid ``ttl_s`` seconds from ``now``."""
    expires = int((time.time() if now is None else now) + ttl_s)
    return f"expires={expires}&token={share_token(key_hash, audit_id, expires)}", expires


def token_valid(key_hash: str, audit_id: str, expires: str | None, token: str | None,
                now: float | None = None) -> bool:
    """True when ``token`` opens ``audit_id`` and ``expires`` (a decimal string, at most 12 digits) is not past."""
    if not token or not expires or len(expires) > 12 or not expires.isdigit() or len(token) != 64:
        return False
    if int(expires) < (time.time() if now is None else now):
        return False
    return hmac.compare_digest(share_token(key_hash, audit_id, int(expires)), token)
