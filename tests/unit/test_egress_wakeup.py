"""The egress proxy's connections sleep until there is something to do (issue 28):
the budget wakes a connection it refused when room comes back, and the one it
evicts; a read queued under its grant never takes the budget past its cap; an
idle connection's ``select`` waits for its deadline, not proxy.py's 25 ms tick."""
from __future__ import annotations

import socket
import threading
import time

from tagcrawl.engine.egress.flow import Budget, Ledger, Limits
from tagcrawl.engine.egress.handler import EgressHandler
from tagcrawl.engine.egress.policy import EgressPolicy
from tagcrawl.engine.egress.rules import parse_rules
from tagcrawl.engine.egress.server import EgressServer


def _condition(predicate, timeout_s: float = 10) -> bool:
    """Wait for ``predicate()`` (another thread's state), at most ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        threading.Event().wait(0.005)
    return True


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


def test_an_idle_tunnel_sleeps_until_its_inactivity_deadline_not_25_ms(monkeypatch):
    handlers = []
    init = EgressHandler.__init__

    def keep(self, *args, **kwargs):
        init(self, *args, **kwargs)
        handlers.append(self)

    monkeypatch.setattr(EgressHandler, "__init__", keep)
    with socket.create_server(("127.0.0.1", 0)) as origin:
        server = EgressServer(EgressPolicy(parse_rules(f"MAP *.example 127.0.0.1:{origin.getsockname()[1]}")),
                              limits=Limits(conn_bytes=1024, total_bytes=4096, stall_s=7))
        try:
            with socket.create_connection(("127.0.0.1", server.port_for(None)), timeout=10) as client:
                client.sendall(b"CONNECT idle.example:443 HTTP/1.1\r\nHost: idle.example:443\r\n\r\n")
                assert client.recv(4096).startswith(b"HTTP/1.1 200")
                [handler] = handlers
                assert _condition(lambda: handler.ledger.pending() == 0), "the 200 never left the proxy's queue"
                # Nothing pending: proxy.py's --timeout (60 s here) minus the moment since the 200.
                assert 50 < handler._wait_s() <= 60.1
                handler.ledger.hold("probe", 10)  # bytes pending: the stall deadline comes first
                assert 5 < handler._wait_s() <= 7.1
                handler.ledger.hold("probe", 0)
        finally:
            server.stop()
