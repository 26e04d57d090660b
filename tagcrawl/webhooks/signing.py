"""Webhook signatures, in the scheme Stripe made familiar.

Header ``X-Tagcrawl-Signature: t=<unix seconds>,v1=<hex>`` where ``<hex>`` is
HMAC-SHA256 with the API key's webhook secret over ``"<t>.<body>"`` (the raw
request body bytes).  ``X-Tagcrawl-Delivery: <uuid>`` names the delivery; a
redelivery keeps its id, so receivers can de-duplicate.
"""
from __future__ import annotations

import hashlib
import hmac
import time

SIGNATURE_HEADER = "X-Tagcrawl-Signature"
DELIVERY_HEADER = "X-Tagcrawl-Delivery"


def _digest(secret: str, timestamp: int, body: bytes) -> str:
    message = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def sign(secret: str, body: bytes, timestamp: int | None = None) -> str:
    """The ``X-Tagcrawl-Signature`` value for ``body`` (bytes) at ``timestamp``
    (unix seconds, default now)."""
    t = int(time.time()) if timestamp is None else int(timestamp)
    return f"t={t},v1={_digest(secret, t, body)}"


def verify_signature(secret: str, header: str | None, body: bytes, tolerance_s: int = 300,
                     now: float | None = None) -> bool:
    """Check a webhook delivery.

    Args:
        secret: the API key's webhook signing secret (``whsec_...``).
        header: the ``X-Tagcrawl-Signature`` header value.
        body: the raw request body, bytes, exactly as received.
        tolerance_s: maximum age of the signature timestamp, seconds (replay window).
        now: current unix time (default: the clock), for tests.
    Returns:
        True when some ``v1`` signature matches (constant-time comparison) and
        ``t`` is within ``tolerance_s`` of now; False otherwise.  Never raises.
    """
    if not header or not isinstance(body, (bytes, bytearray)):
        return False
    try:
        parts = [item.split("=", 1) for item in header.split(",")]
        timestamp = int(next(v for k, v in parts if k.strip() == "t"))
        candidates = [v.strip() for k, v in parts if k.strip() == "v1"]
    except (ValueError, StopIteration):
        return False
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance_s:
        return False
    expected = _digest(secret, timestamp, bytes(body))
    return any(hmac.compare_digest(expected, candidate) for candidate in candidates)
