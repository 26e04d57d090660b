"""The delivery job's retry decision (webhooks/queued.py), without a database: a pending delivery
is retried at its ``next_attempt_at`` with priority ``-attempts``; another error after a minute,
a bounded number of times."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from procrastinate.jobs import Job

from tagcrawl.webhooks.queued import ERROR_RETRIES, ERROR_RETRY_S, DeliveryRetry, DeliveryRetryStrategy


def _job(attempts: int) -> Job:
    return Job(id=1, queue="webhooks", lock="whkey:1:0", queueing_lock="whdelivery:x",
               task_name="webhook.deliver", attempts=attempts, task_kwargs={"delivery_id": "x"})


def test_a_pending_delivery_is_retried_at_its_due_time_with_a_lower_priority():
    due = datetime(2030, 1, 1, tzinfo=timezone.utc)
    decision = DeliveryRetryStrategy().get_retry_decision(exception=DeliveryRetry(due, 3), job=_job(2))
    assert decision.retry_at == due and decision.priority == -3


def test_another_error_is_retried_after_a_minute_a_bounded_number_of_times():
    before = datetime.now(timezone.utc)
    decision = DeliveryRetryStrategy().get_retry_decision(exception=RuntimeError("db down"), job=_job(0))
    assert decision.retry_at >= before + timedelta(seconds=ERROR_RETRY_S)
    assert DeliveryRetryStrategy().get_retry_decision(exception=RuntimeError("x"), job=_job(ERROR_RETRIES)) is None
