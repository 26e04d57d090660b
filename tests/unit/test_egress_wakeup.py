"""The egress proxy's connections sleep until there is something to do (issue 28):
the budget wakes a connection it refused when room comes back, and the one it
evicts; a read queued under its grant never takes the budget past its cap."""
from __future__ import annotations

import threading

from tagcrawl.engine.egress.flow import Budget, Ledger, Limits


def _ledger(budget: Budget) -> tuple[Ledger, threading.Event]:
    ledger = Ledger(budget)
    woken = threading.Event()
    ledger.waker = woken.set
    return ledger, woken


def test_a_read_queued_under_its_grant_never_passes_the_cap():
    budget = Budget(Limits(conn_bytes=100, total_bytes=100, stall_s=60))
    ledger = Ledger(budget)
    granted = ledger.grant(None, 100)
    assert granted == 100 and budget.total == 100
    ledger.charge(60)  # the read got 60 bytes and queued them
    assert budget.total == 100 and budget.peak == 100
    ledger.release(granted)  # the 40 not read go back
    assert budget.total == 60 and ledger.charged == 60 and budget.peak == 100
    ledger.close()
    assert budget.total == 0


def test_a_connection_refused_for_room_is_woken_when_room_comes_back():
    budget = Budget(Limits(conn_bytes=100, total_bytes=100, stall_s=60))
    holder, _ = _ledger(budget)
    waiting, woken = _ledger(budget)
    holder.charge(100)
    assert not waiting.may_read(None)
    assert not woken.is_set()
    holder.charge(-10)  # 10 bytes flushed
    assert woken.is_set()
    assert waiting.may_read(None)


def test_the_connection_chosen_for_eviction_is_woken_and_the_others_when_it_is_gone():
    budget = Budget(Limits(conn_bytes=100, total_bytes=100, stall_s=60))
    big, big_woken = _ledger(budget)
    small, small_woken = _ledger(budget)
    big.charge(70)
    small.charge(30)
    asking, asking_woken = _ledger(budget)
    assert asking.grant(None, 10) == 0
    assert big.evicted and big_woken.is_set() and not small_woken.is_set()
    big.close()
    assert asking_woken.is_set()
    assert asking.grant(None, 10) == 10
