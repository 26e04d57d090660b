"""Webhook signatures: Standard Webhooks (https://www.standardwebhooks.com/), with its library.

Every delivery carries three headers:

- ``webhook-id``: the delivery's id (a uuid); the same on every retry and on
  redelivery, so a receiver can de-duplicate;
- ``webhook-timestamp``: unix seconds when this attempt was signed;
- ``webhook-signature``: ``v1,<base64 HMAC-SHA256>`` over
  ``"<webhook-id>.<webhook-timestamp>.<body>"``, keyed with the bytes of the
  API key's secret ``whsec_<base64>`` (space-separated when several).

A receiver verifies with any Standard Webhooks library, e.g. in Python
``standardwebhooks.Webhook(secret).verify(body, headers)``, or with
``verify_signature`` here.  Secrets made before tagcrawl used standard
base64 (``whsec_`` + url-safe base64) are read with the url-safe alphabet,
which is the same key.
"""
from __future__ import annotations

import base64
import hmac
import secrets
import time
from collections.abc import Mapping
from datetime import datetime, timezone

from standardwebhooks import Webhook

ID_HEADER = "webhook-id"
TIMESTAMP_HEADER = "webhook-timestamp"
SIGNATURE_HEADER = "webhook-signature"
SECRET_PREFIX = "whsec_"
_URL_SAFE_TO_STANDARD = str.maketrans("-_", "+/")
#: Largest age (or lead) of ``webhook-timestamp`` that ``verify_signature`` accepts, seconds (the library's 5 minutes).
TOLERANCE_S = 300


def new_secret() -> str:
    """A new signing secret: ``whsec_`` and 24 random bytes in standard base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode("ascii")


def _webhook(secret: str) -> Webhook:
    """The library's signer for ``secret`` (url-safe base64 of older secrets mapped to the standard alphabet)."""
    encoded = secret.removeprefix(SECRET_PREFIX).translate(_URL_SAFE_TO_STANDARD)
    return Webhook(SECRET_PREFIX + encoded)


def sign(secret: str, body: bytes, msg_id: str, timestamp: int | None = None) -> dict[str, str]:
    """The Standard Webhooks headers of one delivery attempt.

    Args:
        secret: the API key's ``whsec_...`` secret.
        body: the request body, bytes (UTF-8 JSON).
        msg_id: the delivery id (``webhook-id``).
        timestamp: unix seconds (default: now).
    Returns:
        ``{"webhook-id", "webhook-timestamp", "webhook-signature"}``.
    """
    t = int(time.time()) if timestamp is None else int(timestamp)
    signature = _webhook(secret).sign(msg_id, datetime.fromtimestamp(t, tz=timezone.utc), body.decode("utf-8"))
    return {ID_HEADER: msg_id, TIMESTAMP_HEADER: str(t), SIGNATURE_HEADER: signature}


def verify_signature(secret: str, headers: Mapping[str, str] | None, body: bytes, tolerance_s: int = TOLERANCE_S,
                     now: float | None = None) -> bool:
    """Check a delivery as a receiver would (``standardwebhooks.Webhook.verify``, with a settable clock).

    Args:
        secret: the API key's webhook signing secret (``whsec_...``).
        headers: the request headers (any case).
        body: the raw request body, bytes, exactly as received.
        tolerance_s: largest distance of ``webhook-timestamp`` from now, seconds (replay window).
        now: current unix time (default: the clock), for tests.
    Returns:
        True when some ``v1`` signature matches (constant-time comparison) and
        the timestamp is within ``tolerance_s`` of now; False otherwise.  Never raises.
    """
    if not headers or not isinstance(body, (bytes, bytearray)):
        return False
    lowered = {str(k).lower(): v for k, v in headers.items()}
    msg_id, stamp, signatures = (lowered.get(ID_HEADER), lowered.get(TIMESTAMP_HEADER),
                                 lowered.get(SIGNATURE_HEADER))
    try:
        timestamp = int(stamp)
        current = time.time() if now is None else now
        if not msg_id or not signatures or abs(current - timestamp) > tolerance_s:
            return False
        expected = sign(secret, bytes(body), msg_id, timestamp)[SIGNATURE_HEADER].split(",", 1)[1]
    except (TypeError, ValueError):  # no or bad timestamp, body not UTF-8, secret not base64
        return False
    return any(hmac.compare_digest(expected, candidate.partition(",")[2])
               for candidate in signatures.split() if candidate.startswith("v1,"))
