"""tagcrawl's job queue: procrastinate (docs/audits.md, "The queue"; docs/architecture.md).

Three queues on one procrastinate app: ``audits`` (site audits, audit/runner.py),
``crawls`` (webhook crawls, crawl/queued.py) and ``webhooks`` (webhook deliveries,
webhooks/queued.py).  The services register their tasks on the app a worker runs
(``register``, given by audit/runner.py, the one module that sees all three); jobs are
deferred by task name, so any layer above core may queue one.

- **PostgreSQL** (``DATABASE_URL``): durable.  procrastinate's schema is applied
  by the Alembic migration ``0009_procrastinate``; jobs are deferred through a
  ``SyncPsycopgConnector`` (any thread: web requests, the CLI, running jobs)
  and run by a worker on a ``PsycopgConnector`` (asyncio, LISTEN/NOTIFY) built
  from the same database URL.  Workers beat every ``JOB_POLL_S``; the jobs of
  a worker silent for ``STALLED_FACTOR`` x ``JOB_POLL_S`` (killed with SIGKILL,
  its host gone) are retried by the sweep of any other worker.
- **SQLite** (the embedded default, no broker): procrastinate's
  ``InMemoryConnector``; the worker runs in the process that queued the job.
  Not durable: an audit under way when that process stops stays ``running``
  (start it again); webhook crawls and deliveries are queued again from their
  rows by the next worker start (``requeue_orphans``).

Jobs run as sync procrastinate tasks (one thread each), each in an app context of the
Flask app given in the worker's ``additional_context``.  A process runs two procrastinate
workers on one event loop: one fetches ``audits`` and ``crawls``, at most ``pool_size``
jobs at once (its browsers); the other ``webhooks``, at most ``WEBHOOK_CONCURRENCY``
(no browser: a hanging receiver never holds a crawl's slot).
"""
from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from datetime import datetime

from procrastinate import App, PsycopgConnector, SyncPsycopgConnector
from procrastinate.testing import InMemoryConnector
from procrastinate.exceptions import AlreadyEnqueued
from sqlalchemy.engine import make_url

from tagcrawl.core.settings import Settings

log = logging.getLogger(__name__)

QUEUE, CRAWLS, WEBHOOKS = "audits", "crawls", "webhooks"
#: A worker whose heartbeat is older than STALLED_FACTOR x JOB_POLL_S seconds is stalled (30 s by default).
STALLED_FACTOR = 6
#: Live jobs read by one ``live_args`` call (the sweeps that queue rows left without a job).
LIVE_MAX = 10_000
_EXT = "tagcrawl.queue"


def conninfo(database_uri: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (``postgresql+psycopg2://`` ->
    ``postgresql://``), for psycopg 3."""
    return make_url(database_uri).set(drivername="postgresql").render_as_string(hide_password=False)


def job_queue(flask_app, register: Callable[[App], None] | None = None) -> "JobQueue":
    """The ``JobQueue`` of ``flask_app``, made once per app and process; ``register`` (optional)
    adds the tasks to its app now (needed where the jobs also run: the in-memory queue)."""
    queue = flask_app.extensions.get(_EXT)
    if queue is None or queue.pid != os.getpid():
        queue = JobQueue(flask_app.config["SQLALCHEMY_DATABASE_URI"])
        queue.pid = os.getpid()
        flask_app.extensions[_EXT] = queue
    if register is not None:
        queue.ensure_registered(register)
    return queue


class JobQueue:
    """The procrastinate apps of one database (audits, crawls, webhooks).

    Args:
        database_uri: the SQLAlchemy URL; PostgreSQL: durable queue, else the in-memory one.
    The tasks are added by ``ensure_registered`` (``job_queue``'s ``register``); jobs are
    deferred by name, so deferring needs none.
    """

    def __init__(self, database_uri: str):
        self.durable = make_url(database_uri).get_backend_name() == "postgresql"
        self.register = None
        self._conninfo = conninfo(database_uri) if self.durable else None
        self._lock = threading.Lock()
        self._opened = False
        if self.durable:
            self.app = App(connector=SyncPsycopgConnector(conninfo=self._conninfo, min_size=1, max_size=4))
        else:
            self.app = App(connector=InMemoryConnector())

    def ensure_registered(self, register: Callable[[App], None]) -> None:
        """Add the tasks to this queue's app once (``register(app)``)."""
        with self._lock:
            if self.register is None:
                self.register = register
                register(self.app)

    def _open(self) -> None:
        with self._lock:
            if self.durable and not self._opened:  # lazily: not before a gunicorn fork
                self.app.open()
                self._opened = True

    def defer(self, task: str, *, lock: str | None = None, queueing_lock: str | None = None,
              queue: str = QUEUE, schedule_at: datetime | None = None, priority: int = 0,
              **kwargs) -> int | None:
        """Queue one job of ``task`` on ``queue`` with JSON ``kwargs`` (due at ``schedule_at``, None:
        now); returns its id, or None when a job with ``queueing_lock`` is already waiting
        (procrastinate ``AlreadyEnqueued``)."""
        self._open()
        try:
            return self.app.configure_task(task, queue=queue, lock=lock, queueing_lock=queueing_lock,
                                           schedule_at=schedule_at, priority=priority,
                                           allow_unknown=True).defer(**kwargs)
        except AlreadyEnqueued:
            return None

    def live_args(self, task: str, arg: str) -> set[str]:
        """The ``arg`` values (as text) of ``task``'s jobs waiting or running, at most ``LIVE_MAX``."""
        if not self.durable:
            return {str(job["args"].get(arg)) for job in list(self.app.connector.jobs.values())
                    if job["task_name"] == task and job["status"] in ("todo", "doing")}
        self._open()
        rows = self.app.connector.execute_query_all(
            "SELECT args->>%(arg)s AS v FROM procrastinate_jobs WHERE task_name = %(task)s "
            "AND status IN ('todo', 'doing') LIMIT %(n)s", arg=arg, task=task, n=LIVE_MAX)
        return {row["v"] for row in rows}

    def worker_app(self) -> App:
        """The app a worker runs on: PostgreSQL: a new ``App`` on an async ``PsycopgConnector``
        (its pool lives on the worker's event loop); in memory: the same app (the jobs live in it)."""
        if not self.durable:
            return self.app
        app = App(connector=PsycopgConnector(conninfo=self._conninfo, min_size=1, max_size=4))
        self.register(app)
        return app

    def close(self) -> None:
        with self._lock:
            if self._opened:
                self.app.close()
                self._opened = False


class QueueWorker:
    """A procrastinate worker on its own event loop in a daemon thread of this process.

    Args:
        flask_app: the app whose context each job runs in.
        queue: the ``JobQueue``.
        settings: ``pool_size`` (jobs at once), ``JOB_POLL_S`` (poll, heartbeat), ``CRAWL_TIMEOUT_S``.
        concurrency: audit and crawl jobs at once (the browser pool's size); webhook jobs:
            ``WEBHOOK_CONCURRENCY``.
    """

    def __init__(self, flask_app, queue: JobQueue, settings: Settings, concurrency: int):
        self.flask_app, self.queue, self.settings = flask_app, queue, settings
        self.concurrency = max(1, concurrency)
        self.webhook_concurrency = max(1, settings.webhook_concurrency)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self.thread = threading.Thread(target=self._main, name="job-queue", daemon=True)

    def start(self) -> "QueueWorker":
        self.thread.start()
        self._ready.wait(timeout=30)
        return self

    def stop(self, timeout_s: float | None = None) -> bool:
        """Stop fetching jobs, let the running ones end (at most ``CRAWL_TIMEOUT_S`` + 5 s), and wait
        up to ``timeout_s`` seconds (None: that bound + 5 s) for the thread; True when it ended."""
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self.thread.join(self.settings.crawl_timeout_s + 10 if timeout_s is None else timeout_s)
        return not self.thread.is_alive()

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except Exception:  # noqa: BLE001 - a dead queue thread must leave a trace
            log.exception("job queue worker failed")
        finally:
            self._ready.set()

    async def _serve(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        poll = max(0.1, self.settings.job_poll_s)
        app = self.queue.worker_app()
        async with app.open_async():
            def run(queues: list[str], concurrency: int, name: str, graceful_s: float):
                return asyncio.create_task(app.run_worker_async(
                    queues=queues, wait=True, concurrency=concurrency, install_signal_handlers=False,
                    fetch_job_polling_interval=poll, abort_job_polling_interval=poll,
                    update_heartbeat_interval=poll, stalled_worker_timeout=STALLED_FACTOR * poll,
                    listen_notify=self.queue.durable, delete_jobs="successful",
                    shutdown_graceful_timeout=graceful_s,
                    additional_context={"flask_app": self.flask_app}, name=f"{name}-{threading.get_native_id()}"))
            workers = [run([QUEUE, CRAWLS], self.concurrency, "jobs", self.settings.crawl_timeout_s + 5),
                       run([WEBHOOKS], self.webhook_concurrency, "webhooks", self.settings.webhook_timeout_s + 5)]
            sweeper = asyncio.create_task(self._sweep(app, poll)) if self.queue.durable else None
            self._ready.set()
            stopped = asyncio.create_task(self._stop.wait())
            await asyncio.wait({*workers, stopped}, return_when=asyncio.FIRST_COMPLETED)
            for task in (*workers, sweeper):
                if task is not None and not task.done():
                    task.cancel()
            for task in (*workers, sweeper, stopped):
                if task is not None:
                    try:
                        await task
                    except asyncio.CancelledError:
                        pass

    async def _sweep(self, app: App, poll: float) -> None:
        """Every ``poll`` seconds, retry the jobs of stalled workers (no heartbeat for
        ``STALLED_FACTOR`` x ``poll`` s).  The page job then takes its ``running`` page again."""
        while not self._stop.is_set():
            try:
                stalled = await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=STALLED_FACTOR * poll)
                for job in list(stalled)[:1000]:
                    log.warning("job queue: job %s (%s) of a stalled worker is retried", job.id, job.task_name)
                    await app.job_manager.retry_job(job)
            except Exception:  # noqa: BLE001 - the next sweep tries again
                log.exception("job queue: stalled-jobs sweep failed")
            try:
                await asyncio.wait_for(self._stop.wait(), timeout=poll)
            except asyncio.TimeoutError:
                pass
