"""The egress proxy's own error answers, and how the crawl reads them.

The proxy marks every answer it makes itself (a refusal, an upstream it could
not reach) with an RFC 9209 ``Proxy-Status`` header naming it
``tagcrawl-egress``.  For a CONNECT (https, WebSocket) Chrome only reports
``net::ERR_TUNNEL_CONNECTION_FAILED``; for plain http it shows the answer as
the page, so the crawl reads the header of the main document and fails the
way a direct connection would have (``net::ERR_CONNECTION_REFUSED``, ...).
"""
from __future__ import annotations

import errno
import socket

from proxy.http.exception import HttpRequestRejected

PROXY_NAME = "tagcrawl-egress"
#: RFC 9209 error type -> the Chrome net error a direct connection gives.
NET_ERRORS = {
    "connection_refused": "net::ERR_CONNECTION_REFUSED",
    "connection_timeout": "net::ERR_CONNECTION_TIMED_OUT",
    "destination_not_found": "net::ERR_NAME_NOT_RESOLVED",
    "destination_unavailable": "net::ERR_ADDRESS_UNREACHABLE",
    "destination_ip_prohibited": "net::ERR_BLOCKED_BY_CLIENT",
    "http_request_denied": "net::ERR_TUNNEL_CONNECTION_FAILED",
    "proxy_internal_error": "net::ERR_FAILED",
}


def error_type(exc: OSError) -> str:
    """RFC 9209 error type for a failed upstream connection."""
    if isinstance(exc, ConnectionRefusedError):
        return "connection_refused"
    if isinstance(exc, (TimeoutError, socket.timeout)):
        return "connection_timeout"
    if isinstance(exc, socket.gaierror):
        return "destination_not_found"
    if exc.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.EADDRNOTAVAIL):
        return "destination_unavailable"
    return "connection_refused"


def proxy_status(error: str, details: str) -> bytes:
    """The ``Proxy-Status`` value for an answer of the proxy's own."""
    quoted = details.replace("\\", "\\\\").replace('"', '\\"')
    return f'{PROXY_NAME}; error={error}; details="{quoted}"'.encode()


def answer(status: int, reason: bytes, error: str, details: str) -> HttpRequestRejected:
    """An answer of the proxy's own (proxy.py's exception; ``.response(request)``
    gives the bytes): ``status reason``, ``Proxy-Status`` with ``error`` (an
    RFC 9209 type) and ``details``, a one-line text body, ``Connection: close``."""
    return HttpRequestRejected(status_code=status, reason=reason, body=f"tagcrawl egress proxy: {details}\n".encode(),
                               headers={b"Content-Type": b"text/plain", b"Connection": b"close",
                                        b"Proxy-Status": proxy_status(error, details)})


def egress_error(headers: dict) -> str | None:
    """The net error (with the proxy's details) named by a response's
    ``Proxy-Status`` when the egress proxy made that response, else None.

    Args:
        headers: response headers as CDP gives them (any case of the name).
    Returns:
        e.g. ``"net::ERR_CONNECTION_REFUSED (egress proxy: ...)"``.
    """
    value = next((v for k, v in headers.items() if k.lower() == "proxy-status"), "")
    if not value.startswith(PROXY_NAME + ";"):
        return None
    params = dict(p.strip().split("=", 1) for p in value.split(";")[1:] if "=" in p)
    details = params.get("details", "").strip('"')
    return f"{NET_ERRORS.get(params.get('error', ''), 'net::ERR_FAILED')} (egress proxy: {details})"
