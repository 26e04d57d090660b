"""The per-process background worker: runs queued crawls and delivers webhooks.

Where it runs is ``BACKGROUND`` (``TAGCRAWL_BACKGROUND``): ``threads`` (the
default) starts it once in each web process (gunicorn ``post_worker_init``, or
lazily when a webhook crawl is queued); ``process`` leaves it to a separate
``flask --app wsgi worker`` process (the Procfile's ``worker:``), which runs
``serve`` in the foreground, and web processes start no thread.
Daemon threads, each in an app context:
- crawl runners (``BACKGROUND_CRAWLERS``, default 1) claim queued crawls;
- one delivery loop claims due webhooks and hands them to the sender threads
  of ``webhooks.dispatch.Dispatcher`` (``WEBHOOK_CONCURRENCY`` in all,
  ``WEBHOOK_PER_KEY`` per API key), so one receiver cannot hold another's.
Crawl runners sleep on a Condition that ``wake()`` notifies when work is
queued here; the delivery loop on an Event that ``wake()`` and every finished
sender set.  The timeout (``JOB_POLL_S``, or the next retry's due time) picks
up work queued by other instances and retries that come due.
"""
from __future__ import annotations

import logging
import os
import threading
import time

from flask import Flask

from tagcrawl.core.extensions import db
from tagcrawl.core.settings import settings_of
from tagcrawl.webhooks.dispatch import Dispatcher
from tagcrawl.crawl.jobs import claim_next, run_claimed

log = logging.getLogger(__name__)

_state: dict[int, "BackgroundWorker"] = {}
_lock = threading.Lock()


class BackgroundWorker:
    """Threads that drain the crawl queue and the webhook queue of one app."""

    def __init__(self, app: Flask):
        self.app = app
        self.settings = settings_of(app)
        self.cond = threading.Condition()
        self.deliveries = threading.Event()
        self.dispatcher = Dispatcher(app, self.settings, on_free=self.deliveries.set)
        self.stopping = False
        self.threads: list[threading.Thread] = []

    def start(self) -> None:
        for n in range(max(1, self.settings.background_crawlers)):
            self._spawn(self._crawl_loop, f"crawl-runner-{n}")
        self._spawn(self._delivery_loop, "webhook-delivery")

    def _spawn(self, target, name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self.threads.append(thread)

    def wake(self) -> None:
        """New work was queued in this process."""
        with self.cond:
            self.cond.notify_all()
        self.deliveries.set()

    def stop(self) -> None:
        with self.cond:
            self.stopping = True
            self.cond.notify_all()
        self.deliveries.set()
        self.dispatcher.stop()

    def join(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` seconds (in all) for the loops to end after ``stop``;
        True when every one ended (the crawl or dispatch each was in finished)."""
        deadline = time.monotonic() + timeout_s
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in self.threads)

    def _idle(self, timeout_s: float) -> None:
        with self.cond:
            if not self.stopping:
                self.cond.wait(timeout=timeout_s)

    def _crawl_loop(self) -> None:
        lease_s = self.settings.crawl_timeout_s + 30
        while not self.stopping:
            crawl_id = None
            try:
                with self.app.app_context():
                    crawl_id = claim_next(lease_s)
                    if crawl_id is not None:
                        run_claimed(crawl_id, self.settings)
                        self.wake()  # a webhook is due now
            except Exception:
                log.exception("background crawl %s failed", crawl_id)
                with self.app.app_context():
                    db.session.rollback()
            if crawl_id is None:
                self._idle(self.settings.job_poll_s)

    def _delivery_loop(self) -> None:
        poll = self.settings.job_poll_s
        while not self.stopping:
            wait = poll
            self.deliveries.clear()  # a wake-up from now on is not lost
            try:
                with self.app.app_context():
                    due = self.dispatcher.dispatch()  # claims (committed) and starts the POSTs
                    wait = poll if due is None else min(poll, due)
            except Exception:
                log.exception("webhook delivery loop failed")
                with self.app.app_context():
                    db.session.rollback()
            if not self.stopping:
                self.deliveries.wait(timeout=max(wait, 0.05))


def ensure_started(app: Flask) -> BackgroundWorker:
    """The background worker of this process for ``app``, started on first call."""
    key = os.getpid()
    with _lock:
        worker = _state.get(key)
        if worker is None or worker.app is not app:
            if worker is not None:
                worker.stop()
            worker = _state[key] = BackgroundWorker(app)
            worker.start()
        return worker


def stop_background() -> None:
    """Stop this process's background threads (tests, worker exit)."""
    with _lock:
        worker = _state.pop(os.getpid(), None)
    if worker is not None:
        worker.stop()


def in_web_process(app: Flask) -> bool:
    """True when ``app``'s web processes run the background threads (``BACKGROUND=threads``)."""
    return settings_of(app).background == "threads"


def serve(app: Flask, stop: threading.Event, before_shutdown=None) -> bool:
    """Run the background worker of ``app`` in this process until ``stop`` is set
    (``flask worker``: the caller sets it on SIGTERM/SIGINT), then stop claiming
    work, wait for the crawls and dispatch under way, and quit this process's browsers.

    Waits at most ``CRAWL_TIMEOUT_S`` + 5 seconds after ``stop`` (a crawl's own
    deadline); a crawl still running then is claimed again by a worker when its
    lease expires (``jobs.claim_next``).  Webhook attempts on the wire end by
    their deadline (``WEBHOOK_TIMEOUT_S``) before the interpreter exits.

    ``before_shutdown``: optional ``() -> bool`` run after the wait, before the browsers are
    quit (``flask worker`` stops the audit queue's worker with it); its False counts as unfinished.

    Returns:
        True when everything under way finished within the wait.
    """
    from tagcrawl.engine.chrome.pool import shutdown_pools

    worker = ensure_started(app)
    try:
        stop.wait()
    finally:
        with _lock:
            _state.pop(os.getpid(), None)
        worker.stop()
        finished = worker.join(worker.settings.crawl_timeout_s + 5)
        if before_shutdown is not None:
            finished = before_shutdown() and finished
        shutdown_pools()
    return finished
