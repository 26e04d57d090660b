"""Signed webhooks for asynchronous crawls.

Receivers verify a delivery with ``verify_signature``::

    from tagcrawl.webhooks import verify_signature

    ok = verify_signature(secret, request.headers["X-Tagcrawl-Signature"], request.get_data())
"""
from .signing import SIGNATURE_HEADER, DELIVERY_HEADER, sign, verify_signature

__all__ = ["SIGNATURE_HEADER", "DELIVERY_HEADER", "sign", "verify_signature"]
