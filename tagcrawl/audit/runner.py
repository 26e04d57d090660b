"""Running an audit on the queue (docs/audits.md, "The queue").

``start_audit`` queues the discovery job; discovery admits the seed URLs
(``add_pages``) and queues one page job per new (URL, scenario); a page job
claims its row, crawls it once through ``tagcrawl.crawl.service.run_crawl``
with the audit's options and the scenario's consent action, stores the crawl,
admits the page's ``links`` (when the crawl response has them), queues the new
pages, records the page, and finishes the audit when no page is left queued
or running (``finish.maybe_finish``).

Failures: a service failure (``ServiceFailed``: browser, Grid, pool, egress,
deadline before any report) or a database error raises and the queue retries
the job with backoff (``queue.RETRY``); on the last attempt the page is
recorded ``failed``.  A page failure (4xx/5xx, navigation error, blocked,
refused URL) is the page's result, never retried.

Politeness: a page job carries the procrastinate ``lock`` ``host:<host>:<slot>``
with ``AUDIT_HOST_CONCURRENCY`` slots per host, so at most that many pages of
a host run at once in all workers; ``AUDIT_HOST_DELAY_MS`` keeps the slot
after each page (an interruptible wait, not a sleep).
"""
from __future__ import annotations

import logging
import os
import threading
import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Flask, current_app

from tagcrawl.audit import discovering, finish
from tagcrawl.audit.pages import add_pages, claim_page, exclude_queued, queued_ids, record_page
from tagcrawl.audit.queue import (MAX_ATTEMPTS, RETRY, SCHEDULES_CRON, TASK_DISCOVER, TASK_PAGE, TASK_SCHEDULES,
                                  TASK_WEBHOOK, ServiceRetry)
from tagcrawl.core.queue import QUEUE, JobQueue, QueueWorker, job_queue
from tagcrawl.crawl import queued as crawl_jobs
from tagcrawl.core.audit_models import Audit, AuditPage
from tagcrawl.core.extensions import db
from tagcrawl.core.models import utcnow
from tagcrawl.core.settings import settings_of
from tagcrawl.crawl.outcome import FailureKind
from tagcrawl.crawl.records import store_crawl
from tagcrawl.crawl.service import COLLECT_LINKS, run_crawl
from tagcrawl.engine.chrome.pool import pool_size
from tagcrawl.webhooks import queued as webhook_jobs

log = logging.getLogger(__name__)

_workers: dict[int, QueueWorker] = {}
_workers_lock = threading.Lock()
_stopping = threading.Event()  # set while this process stops: ends the politeness waits
#: Notified after every page this process records (``flask audit run`` redraws its progress on it).
progress = threading.Condition()
#: Links of one page looked at (the engine caps them too).
LINKS_MAX = 1000


@dataclass(frozen=True)
class Seed:
    """A URL to audit (the shape of discovery's ``Found``)."""

    url: str
    depth: int = 0
    source: str = "start"


def cfg(audit: Audit, name: str, default=None):
    """``audit.config[name]`` (camelCase, as the API body), or its snake_case twin, or ``default``."""
    config = audit.config or {}
    snake = "".join("_" + c.lower() if c.isupper() else c for c in name)
    value = config.get(name, config.get(snake))
    return default if value is None else value


def scenarios_of(audit: Audit) -> tuple[str, ...]:
    return tuple(cfg(audit, "consentActions", ("accept",)))[:3] or ("accept",)


def audit_queue(flask_app: Flask | None = None) -> JobQueue:
    """The job queue of ``flask_app`` (default: the current app), made once per app and process
    (``core.queue.job_queue``), with every task registered."""
    return job_queue(flask_app or current_app._get_current_object(), register)


def register(app) -> None:
    """Add the tasks to the procrastinate ``app`` (``queue.JobQueue``): the audit's, the webhook
    crawls' (crawl/queued.py) and the webhook deliveries' (webhooks/queued.py)."""
    crawl_jobs.register(app)
    webhook_jobs.register(app)
    app.task(name=TASK_DISCOVER, queue=QUEUE, pass_context=True, retry=RETRY)(discover_task)
    app.task(name=TASK_PAGE, queue=QUEUE, pass_context=True, retry=RETRY)(page_task)
    app.task(name=TASK_WEBHOOK, queue=QUEUE, pass_context=True, retry=finish.WEBHOOK_RETRY)(finish.webhook_task)
    app.periodic(cron=SCHEDULES_CRON, periodic_id="schedules")(
        app.task(name=TASK_SCHEDULES, queue=QUEUE, pass_context=True, queueing_lock="schedules")(schedules_task))


def schedules_task(context, timestamp: int) -> None:
    """The periodic job (``queue.SCHEDULES_CRON``): start an audit for each due schedule
    (``schedules.run_due_schedules``, at most its ``DUE_BATCH`` per tick; a schedule is claimed once)."""
    from tagcrawl.audit.schedules import run_due_schedules

    with context.additional_context["flask_app"].app_context():
        started = run_due_schedules(utcnow(), start=start_audit)
        if started:
            log.info("schedules: audits %s started (tick %s)", started, timestamp)


def ensure_worker(flask_app: Flask) -> QueueWorker:
    """This process's queue worker for ``flask_app``, started on first call (web threads, ``flask worker``,
    ``flask audit run``, and any process that queues work on the in-memory queue).  A new worker first
    queues the webhook crawls and deliveries left without a job (``requeue_orphans``)."""
    with _workers_lock:
        worker = _workers.get(os.getpid())
        if worker is None or worker.flask_app is not flask_app or not worker.thread.is_alive():
            if worker is not None:
                worker.stop(timeout_s=0)
            _stopping.clear()
            settings = settings_of(flask_app)
            worker = QueueWorker(flask_app, audit_queue(flask_app), settings, pool_size(settings)).start()
            _workers[os.getpid()] = worker
            for sweep in (crawl_jobs.requeue_orphans, webhook_jobs.requeue_orphans):
                try:
                    sweep(flask_app)
                except Exception:  # noqa: BLE001 - the next worker start sweeps again
                    log.exception("job queue: startup sweep failed")
        return worker


def stop_worker(timeout_s: float | None = None) -> bool:
    """Stop this process's queue worker (running pages finish); True when it ended in time."""
    with _workers_lock:
        worker = _workers.pop(os.getpid(), None)
    _stopping.set()
    return worker.stop(timeout_s) if worker is not None else True


def start_audit(audit_id: str) -> None:
    """Mark the audit ``running`` and queue its discovery job (commits).  On the in-memory queue this
    process's worker is started too (the jobs live here)."""
    audit = db.session.get(Audit, audit_id)
    if audit is None:
        raise LookupError(f"no audit {audit_id}")
    if audit.status != "queued":
        return
    audit.status, audit.started_at = "running", utcnow()
    db.session.commit()
    queue = audit_queue()
    if not queue.durable:
        ensure_worker(current_app._get_current_object())
    queue.defer(TASK_DISCOVER, queueing_lock=f"discover:{audit_id}", audit_id=audit_id)


def cancel_audit(audit_id: str) -> bool:
    """Cancel a queued or running audit (commits): its queued pages become ``excluded`` (reason
    ``cancelled``), their jobs then do nothing; a running page finishes and queues nothing new.
    Returns False when the audit had already ended."""
    audit = db.session.get(Audit, audit_id, with_for_update=db.engine.dialect.name == "postgresql")
    if audit is None or audit.status not in ("queued", "running"):
        db.session.rollback()
        return False
    audit.status, audit.finished_at = "cancelled", utcnow()
    exclude_queued(audit_id, "cancelled")
    db.session.commit()
    return True


def _seed(audit: Audit, settings) -> list:
    """``Discovery.seed()`` of the audit (start URLs, then its sitemaps): ``Found`` / ``Excluded``; the
    discovery problems are kept in the audit's summary (``discovering.keep_problems``; not committed)."""
    def work(discovery):
        items = discovery.seed()
        discovering.keep_problems(audit, discovery)
        return items
    return discovering.use(audit, settings, work)


def _admit_links(audit: Audit, page: AuditPage, response: dict, settings) -> list:
    """``Discovery.links`` of a crawled page: its ``links`` (at most ``LINKS_MAX``) resolved against its
    final URL, one click deeper than the page, and its ``canonical`` honoured."""
    links = [str(link) for link in list(response.get("links") or [])[:LINKS_MAX]]
    base = response.get("finalUrl") or response.get("final_url") or page.url
    return discovering.use(audit, settings,
                           lambda d: d.links(base, page.depth, links, response.get("canonical")))


def enqueue_pages(page_ids: list[int], audit_id: str | None = None) -> None:
    """Queue one page job per id, with its host's politeness lock (``queueing_lock``: never two waiting
    jobs for one page)."""
    settings, queue = settings_of(current_app), audit_queue()
    slots = max(1, settings.audit_host_concurrency)
    for page in db.session.scalars(db.select(AuditPage).where(AuditPage.id.in_(page_ids))):
        host = (urlsplit(page.url).hostname or "").lower()
        queue.defer(TASK_PAGE, lock=f"host:{host}:{page.id % slots}", queueing_lock=f"page:{page.id}",
                    page_id=page.id)
    db.session.rollback()


def _requeue_waiting(audit: Audit) -> None:
    """A retried job re-queues the audit's queued pages (a worker may have died between storing new
    pages and queuing their jobs); waiting jobs are not doubled (``queueing_lock``)."""
    limit = int(cfg(audit, "maxPages", 500)) * len(scenarios_of(audit))
    enqueue_pages(queued_ids(audit.id, limit))


def discover_task(context, audit_id: str) -> None:
    """The discovery job: admit the seed URLs and queue their pages (then finish an empty audit)."""
    with context.additional_context["flask_app"].app_context():
        audit = db.session.get(Audit, audit_id)
        if audit is None or audit.status != "running":
            return
        items = _seed(audit, settings_of(context.additional_context["flask_app"]))
        db.session.commit()  # the problems kept in the summary
        ids = add_pages(audit_id, items, scenarios_of(audit))
        audit = db.session.get(Audit, audit_id)
        if context.job.attempts:
            _requeue_waiting(audit)
        enqueue_pages(ids)
        _after_page(audit_id)


def page_task(context, page_id: int) -> None:
    """The page job: crawl one (URL, scenario) once and record it (see the module docstring)."""
    flask_app = context.additional_context["flask_app"]
    with flask_app.app_context():
        settings = settings_of(flask_app)
        claimed = claim_page(page_id, retry=bool(context.job.attempts))
        if claimed is None:
            return
        page, attempt = claimed
        audit = db.session.get(Audit, page.audit_id)
        if context.job.attempts:
            _requeue_waiting(audit)
        request = {"url": page.url, "session_id": str(uuid.uuid4()),
                   "options": {**(cfg(audit, "options", {}) or {}), "consentAction": page.scenario},
                   "validationRules": cfg(audit, "validationRules", None), COLLECT_LINKS: True}
        audit_id, key_id, scenario = audit.id, audit.api_key_id, page.scenario
        db.session.rollback()  # no transaction open during the crawl
        outcome = run_crawl(settings, request)
        if outcome.report.failure is FailureKind.SERVICE and context.job.attempts + 1 < MAX_ATTEMPTS:
            raise ServiceRetry(outcome.response.get("message") or "service failure")
        crawl = store_crawl(request, outcome.response, key_id, outcome.requests, settings)
        links = outcome.response.get("links")
        audit = db.session.get(Audit, audit_id)
        if links and audit.status == "running" and scenario == scenarios_of(audit)[0]:
            page = db.session.get(AuditPage, page_id)
            enqueue_pages(add_pages(audit_id, _admit_links(audit, page, outcome.response, settings),
                                    scenarios_of(audit)))
        if not record_page(page_id, outcome.response, crawl.id, attempt):
            log.info("audit page %s: recorded by another job already", page_id)
        delay_s = settings.audit_host_delay_ms / 1000
        _after_page(audit_id)
        if delay_s > 0:
            _stopping.wait(delay_s)  # the host's slot (this job's lock) stays taken meanwhile


def _after_page(audit_id: str) -> None:
    if finish.maybe_finish(audit_id):
        discovering.forget(audit_id)
        audit_queue().defer(TASK_WEBHOOK, queueing_lock=f"webhook:{audit_id}", audit_id=audit_id)
    with progress:
        progress.notify_all()
