"""Signed webhooks for asynchronous crawls (Standard Webhooks, see ``signing.py``).

A receiver verifies a delivery with any Standard Webhooks library::

    from standardwebhooks import Webhook

    report = Webhook(secret).verify(request.get_data(), dict(request.headers))

or with ``tagcrawl.webhooks.verify_signature(secret, request.headers, request.get_data())``.
"""
from tagcrawl.webhooks.signing import ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, new_secret, sign, verify_signature

__all__ = ["ID_HEADER", "SIGNATURE_HEADER", "TIMESTAMP_HEADER", "new_secret", "sign", "verify_signature"]
