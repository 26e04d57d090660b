"""Bounded buffers of the egress proxy: per connection, per proxy instance, in time.

proxy.py relays by queueing what it reads from one socket on the other
connection's buffer (``TcpConnection.queue``), and by default it always reads:
a receiver that reads slowly never slows the sender, and the buffer grows
without limit.  Here each read is granted first (``Ledger.grant``), and
``handler.EgressHandler`` / ``plugin.EgressPlugin`` stop watching a socket for
reads while no grant is possible, so TCP's own flow control slows the sender:

- **per connection and direction**: the queue towards the client (or the
  upstream) holds at most ``Limits.conn_bytes``; a read is sized to the room
  left, so the queue never passes the cap;
- **per proxy instance** (``Budget``, one per ``EgressServer``: every route and
  every crawl of the process): queued bytes plus requests held while being
  parsed stay within ``Limits.total_bytes``.  When a read finds no room, the
  connection holding the most is closed ("evicted"), so one page's stalled
  connections cannot stop the others.  The proxy cannot tell crawls apart on
  the shared direct route, so the per-instance cap is what bounds a crawl;
- **in time**: a connection with bytes pending that moves none, in either
  direction, for ``Limits.stall_s`` is closed (``Ledger.stalled``).

Nothing here is polled.  A connection's thread sleeps in ``select`` until one
of its sockets is ready, its next deadline (``handler.EgressHandler._wait_s``: the
stall, ``Ledger.stall_in``, or the inactivity timeout), or its ``Ledger.wake``: the budget wakes the connections
it refused a read when room comes back, and the connection it chose to evict.

Bytes the proxy makes itself (an error answer, a request re-built from a
parsed one, a CONNECT to a chained proxy) are charged without a grant: at
most one request's size (itself under ``conn_bytes``) per connection, until
it drains.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from tagcrawl.core.settings import Settings


class Queued(Protocol):
    """A counted connection (``counted.py``'s ``CountedClient``, ``CountedServer``)."""

    pending: int  # bytes queued on it, not yet sent

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    """The bounds; defaults and meaning in ``Settings`` (``egress_conn_buffer_bytes``,
    ``egress_total_buffer_bytes``, ``egress_stall_timeout_s``).

    Attributes:
        conn_bytes: bytes queued per connection and direction, and the size of
            a plain-http request the proxy holds whole while parsing it.
        total_bytes: bytes queued or held by one proxy instance.
        stall_s: seconds a connection with bytes pending may go without moving one.
    """

    conn_bytes: int
    total_bytes: int
    stall_s: float

    @classmethod
    def of(cls, settings: Settings | None = None) -> Limits:
        """The limits of ``settings`` (the defaults when None)."""
        settings = settings or Settings()
        return cls(settings.egress_conn_buffer_bytes, settings.egress_total_buffer_bytes,
                   settings.egress_stall_timeout_s)


class Budget:
    """Bytes held by one proxy instance's connections, and who holds them.

    Thread-safe; each connection's thread charges its own ``Ledger``.
    Attributes:
        total: bytes charged now; ``peak``: the most ever charged.
        evictions: connections closed because the budget was full.

    Connections refused a read for want of room wait (``_waiting``, at most one
    entry per open connection) until the total drops below the cap; then each
    is woken (``Ledger.wake``) and asks again.
    """

    def __init__(self, limits: Limits):
        self.limits = limits
        self.total = 0
        self.peak = 0
        self.evictions = 0
        self._ledgers: set[Ledger] = set()
        self._evicting: Ledger | None = None
        self._waiting: set[Ledger] = set()
        self._lock = threading.Lock()
        self._gone = threading.Condition(self._lock)

    def charge(self, delta: int) -> None:
        """Add ``delta`` bytes (negative to release); never refused."""
        with self._lock:
            self.total += delta
            self.peak = max(self.peak, self.total)
            if delta < 0 and self._waiting:
                self._wake_waiting()

    def reserve(self, want: int, waiter: Ledger | None = None) -> int:
        """Reserve up to ``want`` bytes for a read; returns what was reserved
        (0 when the budget is full, after marking the largest holder for eviction;
        ``waiter`` is then woken when room comes back)."""
        with self._lock:
            room = self.limits.total_bytes - self.total
            if room <= 0:
                self._full(waiter)
                return 0
            granted = min(want, room)
            self.total += granted
            self.peak = max(self.peak, self.total)
            return granted

    def has_room(self, waiter: Ledger | None = None) -> bool:
        """True when the budget is not full; else marks the largest holder for
        eviction (and ``waiter`` is woken when room comes back)."""
        if self.total < self.limits.total_bytes:
            return True
        with self._lock:
            if self.total < self.limits.total_bytes:
                return True
            self._full(waiter)
        return False

    def _full(self, waiter: Ledger | None) -> None:
        if waiter is not None and not waiter.closed:
            self._waiting.add(waiter)
        self._evict()

    def _wake_waiting(self, always: bool = False) -> None:
        # ``always``: the evicted connection is gone; the waiting ask again (room, or the next eviction)
        if always or self.total < self.limits.total_bytes:
            for ledger in self._waiting:
                ledger.wake()
            self._waiting.clear()

    def _evict(self) -> None:
        # One at a time: nothing while the chosen connection is on its way out, so
        # the O(connections) search runs once per eviction, not once per waiting read.
        if self._evicting is not None:
            return
        victim = max(self._ledgers, key=lambda ledger: ledger.charged, default=None)
        if victim is not None and victim.charged > 0:
            victim.evicted = True
            victim.wake()
            self._evicting = victim
            self.evictions += 1
            log.warning("egress proxy buffers full (%d bytes): closing the connection holding %d",
                        self.total, victim.charged)

    def register(self, ledger: Ledger) -> None:
        with self._lock:
            self._ledgers.add(ledger)

    def unregister(self, ledger: Ledger) -> None:
        with self._lock:
            self._ledgers.discard(ledger)
            self._waiting.discard(ledger)
            self.total -= ledger.charged
            ledger.charged = 0
            evicted = self._evicting is ledger
            if evicted:
                self._evicting = None
            if self._waiting:
                self._wake_waiting(always=evicted)
            self._gone.notify_all()

    def wait_idle(self, timeout_s: float) -> bool:
        """Wait until no connection is open (then ``total`` is 0); False after ``timeout_s``."""
        with self._gone:
            return self._gone.wait_for(lambda: not self._ledgers, timeout=timeout_s)


class Ledger:
    """What one client connection (and its upstream) holds; used by that
    connection's thread only, except ``evicted`` and ``wake`` (by ``Budget``).

    Attributes:
        client, upstream: the counted connections (``upstream`` None until connected).
        charged: bytes this connection has charged to the budget.
        evicted: the budget chose this connection to close.
        waker: ``fn()`` that ends the connection's ``select`` early (set by
            ``handler.EgressHandler``; None: nothing to wake).
    """

    def __init__(self, budget: Budget):
        self.budget = budget
        self.limits = budget.limits
        self.client: CountedClient | None = None
        self.upstream: CountedServer | None = None
        self.charged = 0
        self.evicted = False
        self.closed = False
        self._granted = 0  # reserved by ``grant``, not yet queued nor released
        self._held: dict[str, int] = {}
        self._moved_at = time.monotonic()
        self.waker: Callable[[], None] | None = None
        budget.register(self)

    def charge(self, delta: int) -> None:
        """``delta`` bytes more (or fewer) held; bytes queued under a grant were
        reserved already, so they are not charged to the budget twice."""
        if self.closed or not delta:
            return
        self.charged += delta
        covered = min(delta, self._granted) if delta > 0 else 0
        self._granted -= covered
        if delta != covered:
            self.budget.charge(delta - covered)

    def moved(self) -> None:
        """Bytes went out of (or into) a buffer: the connection is not stalled."""
        self._moved_at = time.monotonic()

    def hold(self, key: str, size: int) -> None:
        """Bytes held outside the queues under ``key`` (a request being parsed) are now ``size``."""
        self.charge(size - self._held.get(key, 0))
        self._held[key] = size

    def grant(self, towards: Queued | None, want: int) -> int:
        """Bytes a read may take now (reserved in the budget; give them back with
        ``release``): ``want`` at most, the room left in ``towards``' queue
        (the connection the data will be queued on; None before it exists:
        then the held request's room), and what the budget has left.  The
        bytes read are queued under the grant (``charge``) before ``release``,
        so the budget's total never passes its cap between the two."""
        pending = towards.pending if towards is not None else sum(self._held.values())
        room = min(want, self.limits.conn_bytes - pending)
        granted = self.budget.reserve(room, self) if room > 0 and not self.closed else 0
        self._granted += granted
        return granted

    def may_read(self, towards: Queued | None) -> bool:
        """True when a read would get a grant (without reserving one).  While
        the budget is full, the largest holder is evicted to make room."""
        pending = towards.pending if towards is not None else sum(self._held.values())
        return pending < self.limits.conn_bytes and self.budget.has_room(self)

    def release(self, granted: int) -> None:
        """End the read of a ``grant``: what it did not queue goes back to the budget."""
        if granted and self._granted:
            self.budget.charge(-self._granted)
            self._granted = 0

    def pending(self) -> int:
        """Bytes queued both ways plus held."""
        return sum(c.pending for c in (self.client, self.upstream) if c is not None) + sum(self._held.values())

    def stalled(self) -> bool:
        """Bytes pending and none moved for ``stall_s``."""
        return self.pending() > 0 and time.monotonic() - self._moved_at > self.limits.stall_s

    def stall_in(self) -> float | None:
        """Seconds until ``stalled`` turns True if nothing moves (None: nothing pending, no deadline)."""
        if self.pending() == 0:
            return None
        return self.limits.stall_s - (time.monotonic() - self._moved_at)

    def wake(self) -> None:
        """End the connection's current (or next) ``select`` early; any thread."""
        waker = self.waker
        if waker is not None:
            waker()

    def close(self) -> None:
        """Release everything charged (the connection is gone)."""
        if not self.closed:
            self.release(self._granted)
            self.closed = True
            self.budget.unregister(self)
