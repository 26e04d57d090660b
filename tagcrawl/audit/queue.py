"""The site audits' tasks on the job queue (tagcrawl/core/queue.py; docs/audits.md, "The queue").

The queue itself (``JobQueue``, ``QueueWorker``) lives in core, shared with the webhook
crawls (crawl/queued.py) and the webhook deliveries (webhooks/queued.py); this module keeps
the audit's task names and retry policy.
"""
from __future__ import annotations

from procrastinate import RetryStrategy
from sqlalchemy.exc import SQLAlchemyError

TASK_DISCOVER, TASK_PAGE, TASK_WEBHOOK = "audit.discover", "audit.page", "audit.webhook"
#: The schedules' check (``schedules.run_due_schedules``): a procrastinate periodic task, deferred once per
#: tick for all workers (procrastinate's periodic deferrer), every 15 s (6th cron column: seconds).
TASK_SCHEDULES, SCHEDULES_CRON = "audit.schedules", "* * * * * */15"
#: Attempts of a job that fails with a service failure or a database error (then the page is recorded failed).
MAX_ATTEMPTS = 5


class ServiceRetry(Exception):
    """A service failure (browser unavailable, Grid unreachable, pool busy, egress proxy,
    deadline before any report): the job is retried with backoff, the page not recorded."""


#: Backoff: 2, 4, 8, 16 s after attempts 1..4 (procrastinate: ``exponential_wait ** (attempts + 1)``).
RETRY = RetryStrategy(max_attempts=MAX_ATTEMPTS, exponential_wait=2,
                      retry_exceptions={ServiceRetry, SQLAlchemyError, OSError})
