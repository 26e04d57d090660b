"""STUB: replaced by the queue branch (b29-queue owns this module).

Only the two functions the web views call, so the report branch runs.
"""
from __future__ import annotations


def start_audit(audit_id: str) -> None:
    """STUB: replaced by the queue branch.  Starts audit ``audit_id`` (here: does nothing; it stays queued)."""


def cancel_audit(audit_id: str) -> None:
    """STUB: replaced by the queue branch.  Cancels audit ``audit_id``: marks it cancelled (the view does
    that here) and drops its queued jobs (nothing to drop in the stub)."""
