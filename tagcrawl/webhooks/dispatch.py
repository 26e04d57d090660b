"""Concurrent webhook sending with a bound per API key.

``Dispatcher.dispatch()`` claims the due deliveries that may be sent now and
hands each to a sender thread:

- at most ``WEBHOOK_CONCURRENCY`` POSTs in flight per process (the sender
  threads, default 8);
- at most ``WEBHOOK_PER_KEY`` of them for one API key (default 2): a key
  whose receiver hangs holds its own slots, each for at most
  ``WEBHOOK_TIMEOUT_S``, never another key's.  Rows of a key at its bound
  are skipped, not waited for, so the next key's delivery is claimed at once.

Each sender runs ``delivery.send`` (no database) and then ``delivery.record``
in its own app context (a new short transaction), and calls ``on_free`` so
the loop can claim again.
"""
from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from flask import Flask

from tagcrawl.core.extensions import db
from tagcrawl.core.settings import Settings
from tagcrawl.webhooks.delivery import Claim, claim_due, next_due_in_s, record, send
from tagcrawl.webhooks.transport import Resolver, system_resolve

log = logging.getLogger(__name__)


class Dispatcher:
    """Sends the webhook deliveries of one app, concurrently, bounded per key.

    Args:
        app: the Flask app (database access in its app context).
        settings: ``webhook_concurrency``, ``webhook_per_key``, ``webhook_timeout_s``...
        on_free: called (from a sender thread) each time a sender finishes.
        resolve: the resolver of ``transport.post`` (tests give a table).
    """

    def __init__(self, app: Flask, settings: Settings, on_free: Callable[[], None] = lambda: None,
                 resolve: Resolver = system_resolve):
        self.app, self.settings, self.on_free, self.resolve = app, settings, on_free, resolve
        self.total = max(1, settings.webhook_concurrency)
        self.pool = ThreadPoolExecutor(max_workers=self.total, thread_name_prefix="webhook-send")
        self._lock = threading.Lock()
        self._in_flight: Counter[int] = Counter()

    def dispatch(self) -> float | None:
        """Claim what may be sent now (committed), start sending it, and say when to look again.

        Must run in an app context.  Returns seconds until a delivery this
        process could send comes due: None when none, or when every sender is
        busy or every due key is at its bound (a finished sender calls
        ``on_free``).  No transaction is left open.
        """
        with self._lock:  # only this loop adds to the counts; senders only take away meanwhile
            busy = dict(self._in_flight)
        claims = claim_due(self.settings, self.total - sum(busy.values()), busy)
        with self._lock:
            for claim in claims:
                self._in_flight[claim.api_key_id] += 1
            free = self.total - sum(self._in_flight.values())
            full = [key_id for key_id, n in self._in_flight.items() if n >= self.settings.webhook_per_key]
        for claim in claims:
            self.pool.submit(self._send, claim)
        return next_due_in_s(full) if free > 0 else None

    def _send(self, claim: Claim) -> None:
        try:
            outcome = send(claim, self.settings, self.resolve)
            with self.app.app_context():
                try:
                    record(claim, outcome, self.settings)
                except Exception:
                    db.session.rollback()
                    raise
        except Exception:  # the lease runs out and the delivery is claimed again
            log.exception("webhook delivery %s: attempt %d not recorded", claim.delivery_id, claim.attempt)
        finally:
            with self._lock:
                self._in_flight[claim.api_key_id] -= 1
            self.on_free()

    def stop(self) -> None:
        """Send nothing new; attempts on the wire end by their deadline."""
        self.pool.shutdown(wait=False, cancel_futures=True)
