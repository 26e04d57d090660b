"""flask CLI command ``worker``: run the job queue (tagcrawl/core/queue.py: site audits, webhook
crawls, webhook deliveries) in the foreground.

The Procfile's ``worker:`` process (``flask --app wsgi worker``), for
``TAGCRAWL_BACKGROUND=process``: web processes then run no job.  SIGTERM or
SIGINT stops it cleanly: no new job is fetched, the crawls under way may finish
within their deadline (``CRAWL_TIMEOUT_S`` + 5 s), the browsers are quit, exit
status 0 (1 when something was still running at the end of the wait).  A second
signal exits at once with status 1.
"""
from __future__ import annotations

import signal
import threading

import click
from flask import current_app

from tagcrawl.core.settings import current_settings


@click.command("worker")
def worker_command() -> None:
    """Run queued crawls, webhook deliveries and site audit jobs until SIGTERM or SIGINT."""
    from tagcrawl.audit.runner import ensure_worker, stop_worker
    from tagcrawl.engine.chrome.pool import pool_size, shutdown_pools

    settings = current_settings()
    app = current_app._get_current_object()
    if settings.background != "process":
        click.echo("note: TAGCRAWL_BACKGROUND is not `process`: web processes also run queued jobs",
                   err=True)
    stop = threading.Event()

    def on_signal(signum, _frame) -> None:
        if stop.is_set():
            raise SystemExit(1)
        click.echo(f"worker: {signal.Signals(signum).name}, stopping", err=True)
        stop.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    click.echo(f"worker: {pool_size(settings)} audit/crawl job(s), {max(1, settings.webhook_concurrency)} "
               f"webhook job(s) at once; polling every {settings.job_poll_s:g} s", err=True)
    ensure_worker(app)  # procrastinate, in a thread of this process
    try:
        stop.wait()
    finally:
        finished = stop_worker()
        shutdown_pools()
    click.echo("worker: stopped" if finished else "worker: stopped with work still running", err=True)
    if not finished:
        raise SystemExit(1)
