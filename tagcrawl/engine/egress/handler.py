"""proxy.py's per-connection handler, with the client side of the bounds (``flow.py``).

proxy.py's ``HttpProtocolHandler`` (one per client connection, in its own
thread) always watches the client socket for reads, reads
``--client-recvbuf-size`` at a time, parses a plain-http request whole before
any plugin sees it, and at shutdown flushes what is queued for the client
with no time limit.  ``EgressHandler`` (proxy.py's ``--work-klass``) keeps all of
it and adds:

- a client read only with a grant from the connection's ``Ledger``: while the
  queue towards the upstream is full (or the instance's budget is), the
  client socket is not watched for reads, so the client's sends block;
- a first request larger than ``Limits.conn_bytes`` (a plain-http request is
  held whole until parsed) gets ``413`` instead of growing the parser;
- a connection that stalls (bytes pending, none moved for ``Limits.stall_s``)
  or that the budget evicts is closed, its queues dropped, not flushed.

The upstream side is in ``plugin.EgressPlugin``.
"""
from __future__ import annotations

import logging
import selectors
from typing import Any

from proxy.common.constants import DEFAULT_SELECTOR_SELECT_TIMEOUT
from proxy.common.types import Readables, SelectableEvents
from proxy.http.handler import HttpProtocolHandler

from tagcrawl.engine.egress.flow import CountedClient, Ledger
from tagcrawl.engine.egress.status import answer

log = logging.getLogger(__name__)


class EgressHandler(HttpProtocolHandler):
    """One client connection of a route (``flags.egress_route``, whose ``budget`` it charges)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ledger = Ledger(self.flags.egress_route.budget)
        self.work.ledger = self.ledger
        self.ledger.client = self.work
        self._cut = False

    @staticmethod
    def create(*args: Any) -> CountedClient:
        return CountedClient(*args)

    async def get_events(self) -> SelectableEvents:
        events = await super().get_events()
        fd = self.work.connection.fileno()
        if fd in events and not self.ledger.may_read(self.ledger.upstream):
            events[fd] &= ~selectors.EVENT_READ
            if not events[fd]:
                del events[fd]
        return events

    async def handle_readables(self, readables: Readables) -> bool:
        if self.work.connection.fileno() not in readables:
            return False
        granted = self.ledger.grant(self.ledger.upstream, self.flags.client_recvbuf_size)
        if not granted:  # the budget filled up since get_events
            return False
        self.work.allowance = granted
        try:
            return await super().handle_readables(readables)
        finally:
            self.work.allowance = 0
            self.ledger.release(granted)

    def handle_data(self, data: memoryview) -> bool | None:
        """proxy.py's, with the first request's size capped at ``Limits.conn_bytes``:
        reads are sized to the room left, so a request still incomplete at the
        cap gets 413 (and the connection closes)."""
        try:
            done = super().handle_data(data)
        finally:
            self.ledger.hold("request", 0 if self.request.is_complete else self.request.total_size)
        limit = self.ledger.limits.conn_bytes
        if not done and not self.request.is_complete and self.request.total_size >= limit:
            details = (f"request larger than {limit} bytes (a plain-http request is held whole; "
                       "TAGCRAWL_EGRESS_CONN_BUFFER_BYTES)")
            self.work.queue(answer(413, b"Content Too Large", "http_request_error", details).response(self.request))
            return True
        return done

    def is_inactive(self) -> bool:
        if self.ledger.evicted or self.ledger.stalled():
            log.info("egress connection from %s closed: %s with %d bytes pending", self.work.address,
                     "evicted, the proxy's buffers are full" if self.ledger.evicted else "stalled",
                     self.ledger.pending())
            self._cut = True
            return True
        return super().is_inactive()

    def _flush(self) -> None:
        """What is queued for the client, before closing: not for a cut
        connection, and only while the client takes bytes (proxy.py's own
        loop waits for a client that never reads forever)."""
        if self._cut:
            self.work.discard()
            return
        assert self.selector
        self.selector.register(self.work.connection, selectors.EVENT_WRITE)
        try:
            while self.work.has_buffer() and not self.ledger.stalled():
                if self.selector.select(timeout=DEFAULT_SELECTOR_SELECT_TIMEOUT):
                    self.work.flush(self.flags.max_sendbuf_size)
        except OSError:
            pass
        finally:
            self.selector.unregister(self.work.connection)

    def shutdown(self) -> None:
        try:
            super().shutdown()
        finally:
            self.ledger.close()
