"""What the egress proxy says to a chained upstream proxy (``TAGCRAWL_PROXY_URL``).

Resolve once, connect to what was checked (``policy.py``) holds through the
chain too: the upstream proxy never gets a name to resolve again.

- Every request, https or plain http, is a ``CONNECT <checked address>:<port>``
  (RFC 9110, section 9.3.6).  A tunnel carries Chrome's own bytes: for https
  its TLS ClientHello, whose SNI is the name the page asked for, untouched.
- Plain http goes through such a tunnel too, in origin form with Chrome's
  ``Host`` header, after the upstream answered 2xx.  An absolute-form request
  with an IP (``GET http://192.0.2.7/``) would not do: a proxy builds the
  ``Host`` it forwards from that URI (RFC 9112, section 3.2.2; Squid does), so
  the server would see the IP instead of the name.  The upstream must
  therefore allow CONNECT to port 80 (and to any port pages use; Squid's
  default ``http_access deny CONNECT !SSL_ports`` does not).
- The CONNECT carries ``Host`` (the same authority), ``Proxy-Connection:
  keep-alive`` and Chrome's ``User-Agent`` as Chrome's own CONNECT does, and
  ``Proxy-Authorization: Basic`` when the upstream URL has credentials.
"""
from __future__ import annotations

import base64
import re

from proxy.http import Url

#: The upstream's answer head (status line and headers) may be this long.
MAX_REPLY_HEAD = 16 * 1024
_STATUS = re.compile(rb"HTTP/1\.[01] (\d{3})(?: ([^\r\n]*))?\r\n")
_CONTROL = re.compile(rb"[\x00-\x1f\x7f]")


def authority(address: str, port: int) -> str:
    """``address:port``, an IPv6 literal in brackets."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def connect_request(address: str, port: int, upstream: Url, user_agent: bytes | None) -> memoryview:
    """The CONNECT for ``address:port`` (an IP literal) through ``upstream``.

    Args:
        user_agent: Chrome's ``User-Agent``; dropped if it holds a control character.
    Returns:
        the request bytes (under 1 KiB plus the user agent and credentials).
    """
    target = authority(address, port).encode()
    lines = [b"CONNECT " + target + b" HTTP/1.1", b"Host: " + target, b"Proxy-Connection: keep-alive"]
    if user_agent and not _CONTROL.search(user_agent):
        lines.append(b"User-Agent: " + user_agent)
    if upstream.has_credentials:
        token = base64.b64encode((upstream.username or b"") + b":" + (upstream.password or b""))
        lines.append(b"Proxy-Authorization: Basic " + token)
    return memoryview(b"\r\n".join(lines) + b"\r\n\r\n")


class ReplyError(Exception):
    """The upstream refused the CONNECT or did not answer like an HTTP proxy; ``str`` says how."""


class ConnectReply:
    """Reads the upstream's answer to a CONNECT, at most ``MAX_REPLY_HEAD`` bytes of head."""

    def __init__(self) -> None:
        self._head = b""

    def feed(self, raw: bytes) -> bytes | None:
        """Take bytes from the upstream.

        Returns:
            None while the head is incomplete; once it is, with a 2xx status, the
            bytes after it (tunnel data, usually empty).
        Raises:
            ReplyError: a status other than 2xx, a malformed or an oversized head.
        """
        self._head += raw
        end = self._head.find(b"\r\n\r\n")
        if end < 0:
            if len(self._head) > MAX_REPLY_HEAD:
                raise ReplyError(f"upstream proxy answer head over {MAX_REPLY_HEAD} bytes")
            return None
        match = _STATUS.match(self._head)
        if match is None:
            raise ReplyError("upstream proxy did not answer CONNECT with an HTTP status line")
        if not match.group(1).startswith(b"2"):
            reason = (match.group(2) or b"").decode("latin-1")[:100]
            raise ReplyError(f"upstream proxy answered CONNECT with {match.group(1).decode()} {reason}".rstrip())
        return self._head[end + 4:]
