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
  or that the budget evicts is closed, its queues dropped, not flushed;
- no polling: proxy.py's threaded loop wakes every 25 ms
  (``DEFAULT_SELECTOR_SELECT_TIMEOUT``) to look at timeouts, which was most of
  the proxy's CPU in a crawl (docs/benchmarks.md, issue 28).  Here ``select``
  waits until a socket is ready, the connection's next deadline (its stall or
  inactivity timeout), or its ``Waker`` (the budget's room or eviction, another
  thread).

The upstream side is in ``plugin.EgressPlugin``.
"""
from __future__ import annotations

import logging
import selectors
import socket
from typing import Any

from proxy.common.constants import DEFAULT_SELECTOR_SELECT_TIMEOUT
from proxy.common.types import Readables, SelectableEvents, Writables
from proxy.http.handler import HttpProtocolHandler

from tagcrawl.engine.egress.counted import CountedClient
from tagcrawl.engine.egress.flow import Ledger
from tagcrawl.engine.egress.status import answer

log = logging.getLogger(__name__)

#: Past a deadline before waking for it, so that the check after the wake sees it passed (s).
DEADLINE_SLACK_S = 0.005


class Waker:
    """A descriptor another thread makes readable to end a ``select`` early
    (a socket pair: one byte pending is enough, more are dropped)."""

    def __init__(self) -> None:
        self._r, self._w = socket.socketpair()
        self._r.setblocking(False)
        self._w.setblocking(False)

    def fileno(self) -> int:
        return self._r.fileno()

    def set(self) -> None:
        """Wake the owner; any thread, never blocks."""
        try:
            self._w.send(b"\0")
        except OSError:  # a byte already pending (buffer full), or closed
            pass

    def clear(self) -> None:
        try:
            while self._r.recv(256):
                pass
        except OSError:  # nothing left
            pass

    def close(self) -> None:
        self._r.close()
        self._w.close()


class EgressHandler(HttpProtocolHandler):
    """One client connection of a route (``flags.egress_route``, whose ``budget`` it charges)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ledger = Ledger(self.flags.egress_route.budget)
        self.work.ledger = self.ledger
        self.ledger.client = self.work
        self._cut = False
        self.waker = Waker()
        self.ledger.waker = self.waker.set

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

    def _wait_s(self) -> float:
        """Seconds ``select`` may sleep: until the stall deadline (bytes
        pending) or proxy.py's inactivity timeout (``--timeout``, nothing queued
        for the client), whichever comes first; sockets and the waker end it sooner."""
        stall = self.ledger.stall_in()
        waits = [] if stall is None else [stall]
        if not waits or not self.work.has_buffer():
            waits.append(self.flags.timeout - self._connection_inactive_for())
        return max(0.0, min(waits)) + DEADLINE_SLACK_S

    async def _selected_events(self) -> tuple[SelectableEvents, Readables, Writables]:
        """proxy.py's (``HttpProtocolHandler._selected_events``, threaded mode),
        with the waker watched and ``_wait_s`` as the timeout instead of 25 ms."""
        assert self.selector
        events = await self.get_events()
        events[self.waker.fileno()] = selectors.EVENT_READ
        for fd in events:
            self.selector.register(fd, events[fd])
        readables, writables = [], []
        for key, mask in self.selector.select(timeout=self._wait_s()):
            if key.fd == self.waker.fileno():
                self.waker.clear()
                continue
            if mask & selectors.EVENT_READ:
                readables.append(key.fd)
            if mask & selectors.EVENT_WRITE:
                writables.append(key.fd)
        return events, readables, writables

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
            self.ledger.waker = None
            self.ledger.close()
            self.waker.close()
