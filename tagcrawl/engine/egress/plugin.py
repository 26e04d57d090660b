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
  proxy (an operator choice, mapped by the rules but never refused), which is
  asked for a tunnel to the checked address, ``CONNECT ip:port``, for https
  and plain http alike (``chain.py`` says why); Chrome gets our own "200
  Connection established" or a 502 naming the upstream's answer.

Relaying is bounded (``flow.py``): the upstream socket is read only while the
queue towards the client has room, in reads sized to that room, and only
with a grant from the proxy instance's budget; ``handler.EgressHandler`` does
the same for the client side.

Answers of the proxy's own carry ``Proxy-Status`` (``status.py``).  A kept-alive
plain-http connection may carry a second request for another host; that
closes the connection instead (Chrome retries on a new one, checked again).
"""
from __future__ import annotations

import logging
import socket
from typing import Any

from proxy.common.types import Readables
from proxy.common.utils import text_
from proxy.core.base import TcpUpstreamConnectionHandler
from proxy.http.exception import HttpRequestRejected
from proxy.http.parser import HttpParser, httpParserTypes
from proxy.http.proxy import HttpProxyBasePlugin
from proxy.http.responses import PROXY_TUNNEL_ESTABLISHED_RESPONSE_PKT

from tagcrawl.engine.egress.chain import ConnectReply, ReplyError, authority, connect_request
from tagcrawl.engine.egress.counted import CountedServer
from tagcrawl.engine.egress.flow import Ledger
from tagcrawl.engine.egress.policy import EgressRefused, Target, Unresolvable
from tagcrawl.engine.egress.status import answer, error_type

log = logging.getLogger(__name__)


class EgressPlugin(TcpUpstreamConnectionHandler, HttpProxyBasePlugin):
    """Per client connection; the route (``flags.egress_route``, a ``server.Route``)
    holds the policy and the optional upstream proxy, the client connection
    (``handler.EgressHandler``'s) its ``Ledger``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.route = self.flags.egress_route
        self.ledger: Ledger = self.client.ledger
        self._first: tuple[str, int] | None = None
        self._tunnel = False
        self._next: HttpParser | None = None
        self.target: Target | None = None
        self._reply: ConnectReply | None = None  # the upstream proxy's answer to our CONNECT, until read
        self._held = b""  # a plain-http request waiting for that answer
        self._eof = False

    def before_upstream_connection(self, request: HttpParser) -> None:
        """Check the destination and connect to the checked address (or the
        upstream proxy).  Returns None, so proxy.py opens no connection of its own.

        Raises:
            HttpRequestRejected: 403 refused, 502 unreachable, 400 no destination;
                each with ``Proxy-Status`` (``status.py``).
        """
        if not request.host or not request.port:
            raise answer(400, b"Bad Request", "http_request_error", "absolute URI or CONNECT expected")
        host, port = text_(request.host), int(request.port)
        try:
            self.target = self.route.policy.decide(host, port, tunnel=request.is_https_tunnel)
            upstream = self.route.upstream
            hop = self.target if upstream is None else \
                self.route.policy.trusted(text_(upstream.hostname), upstream.port)
        except Unresolvable as exc:
            raise answer(502, b"Bad Gateway", "destination_not_found", str(exc)) from None
        except EgressRefused as exc:
            log.info("egress refused %s:%s: %s", host, port, exc)
            raise answer(403, b"Forbidden", "destination_ip_prohibited", f"refused: {exc}") from None
        self._first, self._tunnel = (host, port), request.is_https_tunnel
        try:
            self.initialize_upstream(hop.address, hop.port)
            self.upstream.connect()
            self.upstream.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as server.py's
        except OSError as exc:
            self.upstream = None
            where = "upstream proxy" if self.route.upstream else f"{host}:{port}"
            raise answer(502, b"Bad Gateway", error_type(exc),
                         f"{where} unreachable at {authority(hop.address, hop.port)}: {exc}") from None
        log.debug("egress %s:%s -> %s:%s", host, port, hop.address, hop.port)

    def initialize_upstream(self, addr: str, port: int) -> None:
        self.upstream = CountedServer(addr, port, self.ledger)

    def handle_client_request(self, request: HttpParser) -> HttpParser | None:
        """The first request of the connection, once complete: send it on."""
        upstream_proxy = self.route.upstream
        if upstream_proxy is not None:
            ua = request.header(b"user-agent") if request.has_header(b"user-agent") else None
            self.upstream.queue(connect_request(self.target.address, self.target.port, upstream_proxy, ua))
            self._reply = ConnectReply()
            if not self._tunnel:  # sent through the tunnel once the upstream has answered
                self._held = _origin_form(request)
                self.ledger.hold("tunnel", len(self._held))
        elif self._tunnel:
            self.client.queue(PROXY_TUNNEL_ESTABLISHED_RESPONSE_PKT)
        else:
            self.upstream.queue(memoryview(_origin_form(request)))
        request.body = None  # queued or held; the parser need not keep its copy
        self.ledger.hold("request", 0)
        return request

    def handle_client_data(self, raw: memoryview) -> memoryview | None:
        """Bytes after the first request: tunnel data, or later plain-http
        requests on a kept-alive connection (each checked for its destination,
        each held whole while parsed, up to ``Limits.conn_bytes``)."""
        if self.upstream is None:
            return None
        if self._tunnel:
            self.upstream.queue(raw)
            return raw
        if self._reply is not None:  # a second request before the tunnel for the first: no pipelining
            raise HttpRequestRejected()
        if self._next is None:
            self._next = HttpParser(httpParserTypes.REQUEST_PARSER)
        limit = self.ledger.limits.conn_bytes
        if self._next.total_size + len(raw) > limit:
            raise answer(413, b"Content Too Large", "http_request_error", f"request larger than {limit} bytes")
        self._next.parse(raw)
        self.ledger.hold("next", self._next.total_size)
        if self._next.host is None or (text_(self._next.host), self._next.port) != self._first:
            raise HttpRequestRejected()  # close; Chrome retries on a fresh connection
        if self._next.is_complete:
            request, self._next = self._next, None
            self.upstream.queue(memoryview(_origin_form(request)))  # to the server, or through the tunnel
            self.ledger.hold("next", 0)
        return raw

    async def get_descriptors(self) -> tuple[list[int], list[int]]:
        """The upstream socket: read while the client's queue has room (and
        the upstream has not closed), write while ours to it is not empty."""
        if not self.upstream or self.upstream.closed:
            return [], []
        fd = self.upstream.connection.fileno()
        read = [fd] if not self._eof and self.ledger.may_read(self.client) else []
        return read, [fd] if self.upstream.has_buffer() else []

    async def read_from_descriptors(self, r: Readables) -> bool:
        """Read what the client's queue and the budget have room for; True to tear down."""
        if not self.upstream or self.upstream.closed or self._eof or self.upstream.connection.fileno() not in r:
            return False
        granted = self.ledger.grant(self.client, self.server_recvbuf_size)
        if not granted:
            return False
        try:
            try:
                raw = self.upstream.recv(granted)
            except (TimeoutError, ConnectionResetError):
                return True
            if raw is None:
                self._eof = True  # the handler closes once the client's queue is flushed
                return True
            self.total_size += len(raw)
            try:
                self.handle_upstream_data(raw)  # queued under the grant
            except HttpRequestRejected as exc:
                self.client.queue(exc.response(None))
                return True
            return False
        finally:
            self.ledger.release(granted)

    def handle_upstream_data(self, raw: memoryview) -> None:
        """Bytes from the upstream: the chained proxy's answer to our CONNECT
        first (raises HttpRequestRejected, a 502, when it refused), then relayed."""
        if self._reply is not None:
            try:
                rest = self._reply.feed(raw.tobytes())
            except ReplyError as exc:
                log.info("egress via upstream proxy to %s: %s", self._first, exc)
                raise answer(502, b"Bad Gateway", "http_request_denied", str(exc)) from None
            if rest is None:
                return
            self._reply = None
            if self._tunnel:
                self.client.queue(PROXY_TUNNEL_ESTABLISHED_RESPONSE_PKT)
            else:
                self.upstream.queue(memoryview(self._held))
                self._held = b""
                self.ledger.hold("tunnel", 0)
            if not rest:
                return
            raw = memoryview(rest)
        self.client.queue(raw)

    def on_upstream_connection_close(self) -> None:
        if self.upstream and not self.upstream.closed:
            self.upstream.close()
        self.upstream = None

    def on_access_log(self, context: dict) -> None:
        return None  # refusals are logged above; proxy.py's access log would repeat every request


def _origin_form(request: HttpParser) -> bytes:
    """``request`` as a server (or a tunnel to it) takes it: origin form, no ``Proxy-*`` headers."""
    request.del_headers([b"proxy-authorization", b"proxy-connection"])
    return request.build()
