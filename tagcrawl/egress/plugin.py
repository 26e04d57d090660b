"""The proxy.py plugin that enforces the egress policy on every request.

proxy.py (``HttpProxyPlugin``) parses what Chrome sends (``CONNECT host:port``
for https and WebSocket, absolute-URI requests for plain http) and calls
``before_upstream_connection`` before any upstream socket exists.  There the
plugin asks the policy, refuses with 403, or opens the connection itself, to
the checked address (Smokescreen's "connect to what you checked"; the name is
never looked up again), and then relays bytes, as proxy.py's own
``ProxyPoolPlugin`` does:

- direct route: to the destination; a CONNECT is answered "200 Connection
  established", a plain-http request is sent on in origin form;
- chained route (a country proxy of ``TAGCRAWL_PROXY_URL``): to the upstream
  proxy (an operator choice, mapped by the rules but never refused), which
  gets the request as Chrome sent it, plus ``Proxy-Authorization`` when its
  URL has credentials.

Answers of the proxy's own carry ``Proxy-Status`` (``status.py``).  A kept-alive
plain-http connection may carry a second request for another host; that
closes the connection instead (Chrome retries on a new one, checked again).
"""
from __future__ import annotations

import base64
import logging
from typing import Any

from proxy.common.utils import text_
from proxy.core.base import TcpUpstreamConnectionHandler
from proxy.http.exception import HttpRequestRejected
from proxy.http.parser import HttpParser, httpParserTypes
from proxy.http.proxy import HttpProxyBasePlugin
from proxy.http.responses import PROXY_TUNNEL_ESTABLISHED_RESPONSE_PKT

from .policy import EgressRefused, Unresolvable
from .status import error_type, proxy_status

log = logging.getLogger(__name__)


def _answer(status: int, reason: bytes, error: str, details: str) -> HttpRequestRejected:
    return HttpRequestRejected(status_code=status, reason=reason, body=f"tagcrawl egress proxy: {details}\n".encode(),
                               headers={b"Content-Type": b"text/plain", b"Connection": b"close",
                                        b"Proxy-Status": proxy_status(error, details)})


class EgressPlugin(TcpUpstreamConnectionHandler, HttpProxyBasePlugin):
    """Per client connection; the route (``flags.egress_route``, a ``server.Route``)
    holds the policy and the optional upstream proxy."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.route = self.flags.egress_route
        self._first: tuple[str, int] | None = None
        self._tunnel = False
        self._next: HttpParser | None = None

    def before_upstream_connection(self, request: HttpParser) -> None:
        """Check the destination and connect to the checked address (or the
        upstream proxy).  Returns None, so proxy.py opens no connection of its own.

        Raises:
            HttpRequestRejected: 403 refused, 502 unreachable, 400 no destination;
                each with ``Proxy-Status`` (``status.py``).
        """
        if not request.host or not request.port:
            raise _answer(400, b"Bad Request", "http_request_error", "absolute URI or CONNECT expected")
        host, port = text_(request.host), int(request.port)
        try:
            target = self.route.policy.decide(host, port)
            upstream = self.route.upstream
            hop = target if upstream is None else self.route.policy.trusted(text_(upstream.hostname), upstream.port)
        except Unresolvable as exc:
            raise _answer(502, b"Bad Gateway", "destination_not_found", str(exc)) from None
        except EgressRefused as exc:
            log.info("egress refused %s:%s: %s", host, port, exc)
            raise _answer(403, b"Forbidden", "destination_ip_prohibited", f"refused: {exc}") from None
        self._first, self._tunnel = (host, port), request.is_https_tunnel
        try:
            self.initialize_upstream(hop.address, hop.port)
            self.upstream.connect()
        except OSError as exc:
            self.upstream = None
            where = "upstream proxy" if self.route.upstream else f"{host}:{port}"
            raise _answer(502, b"Bad Gateway", error_type(exc), f"{where} unreachable: {exc}") from None
        log.debug("egress %s:%s -> %s:%s", host, port, hop.address, hop.port)

    def handle_client_request(self, request: HttpParser) -> HttpParser | None:
        """The first request of the connection, once complete: send it on."""
        upstream_proxy = self.route.upstream
        if upstream_proxy is not None:
            if upstream_proxy.has_credentials:
                token = base64.b64encode(upstream_proxy.username + b":" + upstream_proxy.password)
                request.add_header(b"Proxy-Authorization", b"Basic " + token)
            self.upstream.queue(memoryview(request.build(for_proxy=True)))
        elif self._tunnel:
            self.client.queue(PROXY_TUNNEL_ESTABLISHED_RESPONSE_PKT)
        else:
            request.del_headers([b"proxy-authorization", b"proxy-connection"])
            self.upstream.queue(memoryview(request.build()))
        return request

    def handle_client_data(self, raw: memoryview) -> memoryview | None:
        """Bytes after the first request: tunnel data, or later plain-http
        requests on a kept-alive connection (each checked for its destination)."""
        if self.upstream is None:
            return None
        if not self._tunnel:
            if self._next is None:
                self._next = HttpParser(httpParserTypes.REQUEST_PARSER)
            self._next.parse(raw)
            if self._next.host is None or (text_(self._next.host), self._next.port) != self._first:
                raise HttpRequestRejected()  # close; Chrome retries on a fresh connection
            if self._next.is_complete:
                request, self._next = self._next, None
                if self.route.upstream is None:  # origin form for the server
                    request.del_headers([b"proxy-authorization", b"proxy-connection"])
                    self.upstream.queue(memoryview(request.build()))
                    return raw
                self.upstream.queue(memoryview(request.build(for_proxy=True)))
            return raw
        self.upstream.queue(raw)
        return raw

    def handle_upstream_data(self, raw: memoryview) -> None:
        self.client.queue(raw)

    def on_upstream_connection_close(self) -> None:
        if self.upstream and not self.upstream.closed:
            self.upstream.close()
        self.upstream = None

    def on_access_log(self, context: dict) -> None:
        return None  # refusals are logged above; proxy.py's access log would repeat every request
