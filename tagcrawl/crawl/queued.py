"""Webhook crawls on the job queue (tagcrawl/core/queue.py, queue ``crawls``).

``enqueue_crawl`` commits a ``queued`` crawl row, then queues one job
``crawl.run`` with its id (``queueing_lock`` ``crawl:<id>``: never two waiting).  The
job claims the row once with a conditional UPDATE (``queued -> running``, attempts + 1),
runs it (``jobs.run_crawl_row``) and stores the response with its webhook delivery.
A worker killed mid-crawl (SIGKILL) stops beating: procrastinate's stalled-jobs sweep
retries its job, and the retry takes the ``running`` row again (attempts 2).
Rows left without a job (a process died between the commit and the defer, rows
queued before this queue existed) are queued by ``requeue_orphans``, which the
worker runs when it starts (audit/runner.py ``ensure_worker``).
"""
from __future__ import annotations

import logging

from flask import current_app
from procrastinate import RetryStrategy
from sqlalchemy import update
from sqlalchemy.exc import SQLAlchemyError

from tagcrawl.core.extensions import db
from tagcrawl.core.models import Crawl
from tagcrawl.core.queue import CRAWLS, job_queue
from tagcrawl.core.settings import settings_of
from tagcrawl.crawl.jobs import run_crawl_row
from tagcrawl.webhooks.queued import defer_new

log = logging.getLogger(__name__)

TASK = "crawl.run"
#: Rows looked at by one ``requeue_orphans`` call.
ORPHANS_MAX = 1000


#: A crawl's failure is its result, never retried; a database or OS error around it (storing the
#: report) retries the job, which takes the ``running`` row again: 3 retries, after 30, 60 and 90 s.
RETRY = RetryStrategy(max_attempts=3, wait=30, linear_wait=30, retry_exceptions={SQLAlchemyError, OSError})


def register(app) -> None:
    """Add the crawl task to the procrastinate ``app`` (``RETRY``; a killed worker's job is retried
    by the stalled-jobs sweep)."""
    app.task(name=TASK, queue=CRAWLS, pass_context=True, retry=RETRY)(crawl_task)


def enqueue_crawl(request_json: dict, api_key_id: int) -> Crawl:
    """Store a queued crawl, commit, and queue its job (``defer_crawl``; a process that dies in
    between leaves the row to ``requeue_orphans``)."""
    crawl = Crawl(session_id=request_json.get("session_id"), api_key_id=api_key_id, url=request_json["url"],
                  status="queued", request=request_json, webhook=True)
    db.session.add(crawl)
    db.session.commit()
    defer_crawl(crawl.id)
    return crawl


def defer_crawl(crawl_id: int, flask_app=None) -> int | None:
    """Queue the job of a committed ``queued`` crawl; returns the job id (None: one is waiting)."""
    queue = job_queue(flask_app or current_app._get_current_object())
    return queue.defer(TASK, queue=CRAWLS, queueing_lock=f"crawl:{crawl_id}", crawl_id=crawl_id)


def claim(crawl_id: int, retry: bool) -> bool:
    """Take the crawl (commits): ``queued -> running`` and attempts + 1; a retried job (its
    worker died) also takes a ``running`` row.  False when another job has it or it ended."""
    statuses = ("queued", "running") if retry else ("queued",)
    moved = db.session.execute(update(Crawl).where(Crawl.id == crawl_id, Crawl.status.in_(statuses))
                               .values(status="running", attempts=Crawl.attempts + 1)
                               .execution_options(synchronize_session=False)).rowcount
    db.session.commit()
    return moved == 1


def crawl_task(context, crawl_id: int) -> None:
    """The job: claim the crawl, run it and store it with its webhook (``jobs.run_crawl_row``)."""
    flask_app = context.additional_context["flask_app"]
    with flask_app.app_context():
        if not claim(crawl_id, retry=bool(context.job.attempts)):
            log.info("crawl %s: taken by another job or ended", crawl_id)
            return
        run_crawl_row(crawl_id, settings_of(flask_app))
        defer_new(crawl_id, flask_app)  # its delivery, committed with the response


def requeue_orphans(flask_app) -> int:
    """Queue a job for each ``queued`` or ``running`` webhook crawl with none waiting or running
    (at most ``ORPHANS_MAX``, oldest first); returns how many were queued."""
    with flask_app.app_context():
        live = job_queue(flask_app).live_args(TASK, "crawl_id")
        ids = list(db.session.scalars(db.select(Crawl.id).where(Crawl.status.in_(("queued", "running")),
                                                                Crawl.webhook.is_(True))
                                      .order_by(Crawl.id).limit(ORPHANS_MAX)))
        db.session.rollback()
        queued = [i for i in ids if str(i) not in live]
        for crawl_id in queued:
            defer_crawl(crawl_id, flask_app)
    if queued:
        log.info("crawls %s had no job: queued", queued)
    return len(queued)
