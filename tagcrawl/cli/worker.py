"""flask CLI command ``worker``: run queued crawls, webhook deliveries and the site audits' queue
(tagcrawl/audit/queue.py) in the foreground.

The Procfile's ``worker:`` process (``flask --app wsgi worker``), for
``TAGCRAWL_BACKGROUND=process``: web processes then start no background
thread (``crawl/background.py``).  SIGTERM or SIGINT stops it cleanly: no new
work is claimed, the crawl under way may finish within its deadline, the
browsers are quit, exit status 0 (1 when something was still running at the
end of the wait).  A second signal exits at once with status 1.
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
    from tagcrawl.crawl.background import serve

    settings = current_settings()
    app = current_app._get_current_object()
    if settings.background != "process":
        click.echo("note: TAGCRAWL_BACKGROUND is not `process`: web processes also run background threads",
                   err=True)
    stop = threading.Event()

    def on_signal(signum, _frame) -> None:
        if stop.is_set():
            raise SystemExit(1)
        click.echo(f"worker: {signal.Signals(signum).name}, stopping", err=True)
        stop.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    click.echo(f"worker: {max(1, settings.background_crawlers)} crawl runner(s), webhook delivery; "
               f"polling every {settings.job_poll_s:g} s", err=True)
    ensure_worker(app)  # audit jobs: procrastinate, in a thread of this process
    finished = serve(app, stop, before_shutdown=stop_worker)
    click.echo("worker: stopped" if finished else "worker: stopped with work still running", err=True)
    if not finished:
        raise SystemExit(1)
