"""The site audits' job queue: procrastinate (docs/audits.md, "The queue").

- **PostgreSQL** (``DATABASE_URL``): durable.  procrastinate's schema is applied
  by the Alembic migration ``0009_procrastinate``; jobs are deferred through a
  ``SyncPsycopgConnector`` (any thread: web requests, the CLI, running jobs)
  and run by a worker on a ``PsycopgConnector`` (asyncio, LISTEN/NOTIFY) built
  from the same database URL.  Workers beat every ``JOB_POLL_S``; the jobs of
  a worker silent for ``STALLED_FACTOR`` x ``JOB_POLL_S`` (killed with SIGKILL,
  its host gone) are retried by the sweep of any other worker.
- **SQLite** (the embedded default, no broker): procrastinate's
  ``InMemoryConnector``; the worker runs in the process that started the
  audit.  Not durable: an audit under way when that process stops stays
  ``running`` (start it again).

Jobs run as sync procrastinate tasks (one thread each), at most
``pool_size`` at once per worker process (its browsers), each in an app
context of the Flask app given in the worker's ``additional_context``.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from procrastinate import App, PsycopgConnector, RetryStrategy, SyncPsycopgConnector
from procrastinate.testing import InMemoryConnector
from procrastinate.exceptions import AlreadyEnqueued
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from tagcrawl.core.settings import Settings

log = logging.getLogger(__name__)

QUEUE = "audits"
TASK_DISCOVER, TASK_PAGE, TASK_WEBHOOK = "audit.discover", "audit.page", "audit.webhook"
#: The schedules' check (``schedules.run_due_schedules``): a procrastinate periodic task, deferred once per
#: tick for all workers (procrastinate's periodic deferrer), every 15 s (6th cron column: seconds).
TASK_SCHEDULES, SCHEDULES_CRON = "audit.schedules", "* * * * * */15"
#: Attempts of a job that fails with a service failure or a database error (then the page is recorded failed).
MAX_ATTEMPTS = 5
#: A worker whose heartbeat is older than STALLED_FACTOR x JOB_POLL_S seconds is stalled (30 s by default).
STALLED_FACTOR = 6


class ServiceRetry(Exception):
    """A service failure (browser unavailable, Grid unreachable, pool busy, egress proxy,
    deadline before any report): the job is retried with backoff, the page not recorded."""


#: Backoff: 2, 4, 8, 16 s after attempts 1..4 (procrastinate: ``exponential_wait ** (attempts + 1)``).
RETRY = RetryStrategy(max_attempts=MAX_ATTEMPTS, exponential_wait=2,
                      retry_exceptions={ServiceRetry, SQLAlchemyError, OSError})


def conninfo(database_uri: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (``postgresql+psycopg2://`` ->
    ``postgresql://``), for psycopg 3."""
    return make_url(database_uri).set(drivername="postgresql").render_as_string(hide_password=False)


class AuditQueue:
    """The procrastinate apps of one database.

    Args:
        database_uri: the SQLAlchemy URL; PostgreSQL: durable queue, else the in-memory one.
        register: ``register(app)`` adds the audit tasks to a procrastinate ``App`` (runner.py).
    """

    def __init__(self, database_uri: str, register: Callable[[App], None]):
        self.durable = make_url(database_uri).get_backend_name() == "postgresql"
        self.register = register
        self._conninfo = conninfo(database_uri) if self.durable else None
        self._lock = threading.Lock()
        self._opened = False
        if self.durable:
            self.app = App(connector=SyncPsycopgConnector(conninfo=self._conninfo, min_size=1, max_size=4))
        else:
            self.app = App(connector=InMemoryConnector())
        register(self.app)

    def defer(self, task: str, *, lock: str | None = None, queueing_lock: str | None = None,
              **kwargs) -> int | None:
        """Queue one job of ``task`` with JSON ``kwargs``; returns its id, or None when a job with
        ``queueing_lock`` is already waiting (procrastinate ``AlreadyEnqueued``)."""
        with self._lock:
            if self.durable and not self._opened:  # lazily: not before a gunicorn fork
                self.app.open()
                self._opened = True
        try:
            return self.app.configure_task(task, queue=QUEUE, lock=lock, queueing_lock=queueing_lock,
                                           allow_unknown=False).defer(**kwargs)
        except AlreadyEnqueued:
            return None

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
        queue: the ``AuditQueue``.
        settings: ``pool_size`` (jobs at once), ``JOB_POLL_S`` (poll, heartbeat), ``CRAWL_TIMEOUT_S``.
        concurrency: jobs at once (default: the browser pool's size).
    """

    def __init__(self, flask_app, queue: AuditQueue, settings: Settings, concurrency: int):
        self.flask_app, self.queue, self.settings = flask_app, queue, settings
        self.concurrency = max(1, concurrency)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self.thread = threading.Thread(target=self._main, name="audit-queue", daemon=True)

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
            log.exception("audit queue worker failed")
        finally:
            self._ready.set()

    async def _serve(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        poll = max(0.1, self.settings.job_poll_s)
        app = self.queue.worker_app()
        async with app.open_async():
            worker = asyncio.create_task(app.run_worker_async(
                queues=[QUEUE], wait=True, concurrency=self.concurrency, install_signal_handlers=False,
                fetch_job_polling_interval=poll, abort_job_polling_interval=poll,
                update_heartbeat_interval=poll, stalled_worker_timeout=STALLED_FACTOR * poll,
                listen_notify=self.queue.durable, delete_jobs="successful",
                shutdown_graceful_timeout=self.settings.crawl_timeout_s + 5,
                additional_context={"flask_app": self.flask_app}, name=f"audit-{threading.get_native_id()}"))
            sweeper = asyncio.create_task(self._sweep(app, poll)) if self.queue.durable else None
            self._ready.set()
            stopped = asyncio.create_task(self._stop.wait())
            await asyncio.wait({worker, stopped}, return_when=asyncio.FIRST_COMPLETED)
            for task in (worker, sweeper):
                if task is not None and not task.done():
                    task.cancel()
            for task in (worker, sweeper, stopped):
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
                    log.warning("audit queue: job %s (%s) of a stalled worker is retried", job.id, job.task_name)
                    await app.job_manager.retry_job(job)
            except Exception:  # noqa: BLE001 - the next sweep tries again
                log.exception("audit queue: stalled-jobs sweep failed")
            try:
                await asyncio.wait_for(self._stop.wait(), timeout=poll)
            except asyncio.TimeoutError:
                pass
