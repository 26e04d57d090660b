"""The proxy.py plugin that enforces the egress policy on every request.

proxy.py (``HttpProxyPlugin``) parses what Chrome sends (``CONNECT host:port``
for https and WebSocket, absolute-URI requests for plain http) and calls this
plugin before it opens any upstream connection:

- direct route: ``before_upstream_connection`` asks the policy, refuses with
  403 (a CONNECT refusal is ``ERR_TUNNEL_CONNECTION_FAILED`` in Chrome), or
  sets the checked port; ``resolve_dns`` then hands proxy.py the checked
  address, so the connection goes to that address and nowhere else;
- chained route (a country proxy from ``TAGCRAWL_PROXY_URL``): the
  destination is checked the same way, then the request goes to the upstream
  proxy (an operator choice, mapped by the rules but never refused), like
  proxy.py's own ``ProxyPoolPlugin``.

A keep-alive connection may carry a second plain-http request for another
host; proxy.py would send it to the first host's server, so such a request
closes the connection instead and Chrome retries it on a new one.
"""
from __future__ import annotations

import base64
import logging
from typing import Any

from proxy.common.utils import text_
from proxy.core.base import TcpUpstreamConnectionHandler
from proxy.http.exception import HttpProtocolException, HttpRequestRejected
from proxy.http.parser import HttpParser, httpParserTypes
from proxy.http.proxy import HttpProxyBasePlugin

from .policy import EgressRefused, Target

log = logging.getLogger(__name__)


def _refusal(reason: str) -> HttpRequestRejected:
    return HttpRequestRejected(status_code=403, reason=b"Forbidden",
                               headers={b"Content-Type": b"text/plain", b"Connection": b"close"},
                               body=f"refused by tagcrawl egress policy: {reason}\n".encode())


class EgressPlugin(TcpUpstreamConnectionHandler, HttpProxyBasePlugin):
    """Per client connection; the route (``flags.egress_route``, a ``server.Route``)
    holds the policy and the optional upstream proxy."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.route = self.flags.egress_route
        self._first: tuple[str, int] | None = None
        self._first_request: HttpParser | None = None
        self._target: Target | None = None
        self._tunnel = False
        self._next: HttpParser | None = None

    def _check(self, request: HttpParser) -> tuple[str, int]:
        if not request.host or not request.port:
            raise _refusal("no destination (absolute URI or CONNECT expected)")
        host, port = text_(request.host), int(request.port)
        try:
            self._target = self.route.policy.decide(host, port)
        except EgressRefused as exc:
            log.info("egress refused %s:%s: %s", host, port, exc)
            raise _refusal(str(exc)) from None
        return host, port

    def before_upstream_connection(self, request: HttpParser) -> HttpParser | None:
        self._first = self._check(request)
        self._first_request = request
        self._tunnel = request.is_https_tunnel
        if self.route.upstream is None:
            request.port = self._target.port  # an operator mapping may change the port
            return request
        upstream = self.route.upstream
        try:
            hop = self.route.policy.trusted(text_(upstream.hostname), upstream.port)
            self.initialize_upstream(hop.address, hop.port)
            self.upstream.connect()
        except (OSError, EgressRefused) as exc:
            self.upstream = None
            raise HttpProtocolException(f"upstream proxy unreachable: {exc}") from exc
        return None

    def resolve_dns(self, host: str, port: int):
        """The checked address (never a fresh lookup), no source address."""
        return (self._target.address if self._target else None), None

    def handle_client_request(self, request: HttpParser) -> HttpParser | None:
        if request is not self._first_request:  # a later request on a kept-alive connection
            self._same_destination(request)
        if self.upstream is None:
            return request
        if self.route.upstream.has_credentials:
            token = base64.b64encode(self.route.upstream.username + b":" + self.route.upstream.password)
            request.add_header(b"Proxy-Authorization", b"Basic " + token)
        self.upstream.queue(memoryview(request.build(for_proxy=True)))
        return request

    def _same_destination(self, request: HttpParser) -> None:
        if (text_(request.host or b""), request.port) != self._first:
            raise HttpRequestRejected()  # close; Chrome retries on a fresh connection

    def handle_client_data(self, raw: memoryview) -> memoryview | None:
        """Chained route only (proxy.py owns the direct route's upstream)."""
        if self.upstream is None:
            return raw
        if not self._tunnel:  # plain http: every new request on the connection is checked
            if self._next is None:
                self._next = HttpParser(httpParserTypes.REQUEST_PARSER)
            self._next.parse(raw)
            if self._next.host is None:
                raise HttpRequestRejected()
            self._same_destination(self._next)
            if self._next.is_complete:
                self._next = None
        self.upstream.queue(raw)
        return raw

    def handle_upstream_data(self, raw: memoryview) -> None:
        self.client.queue(raw)

    def handle_upstream_chunk(self, chunk: memoryview) -> memoryview:
        return chunk

    def on_upstream_connection_close(self) -> None:
        if self.upstream and not self.upstream.closed:
            self.upstream.close()
        self.upstream = None

    def on_access_log(self, context: dict) -> None:
        log.debug("egress %s %s:%s -> %s", context.get("request_method"), context.get("server_host"),
                  context.get("server_port"), self._target)
        return None
