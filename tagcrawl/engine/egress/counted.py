"""proxy.py's connections, counted: every byte queued on one is charged to its
connection's ``flow.Ledger`` (and so to the proxy instance's ``flow.Budget``)
until it is sent, and every byte moved tells the ledger the connection is not stalled."""
from __future__ import annotations

from typing import Any

from proxy.core.connection import TcpServerConnection
from proxy.http.connection import HttpClientConnection

from tagcrawl.engine.egress.flow import Ledger


class _Counted:
    """Mixin for proxy.py's ``TcpConnection``: charges queued bytes to a ``Ledger``."""

    ledger: Ledger
    pending: int = 0

    def queue(self, mv: Any) -> None:
        super().queue(mv)  # type: ignore[misc]
        self.pending += len(mv)
        self.ledger.charge(len(mv))

    def flush(self, max_send_size: int | None = None) -> int:
        sent = super().flush(max_send_size)  # type: ignore[misc]
        if sent:
            self.pending -= sent
            self.ledger.charge(-sent)
            self.ledger.moved()
        return sent

    def recv(self, buffer_size: int) -> Any:
        data = super().recv(buffer_size)  # type: ignore[misc]
        if data is not None:
            self.ledger.moved()
        return data

    def discard(self) -> None:
        """Drop what is queued (the peer will not take it)."""
        self.buffer.clear()  # type: ignore[attr-defined]
        self._num_buffer = 0
        self.ledger.charge(-self.pending)
        self.pending = 0


class CountedClient(_Counted, HttpClientConnection):
    """proxy.py's client connection, counted (``ledger`` set by the handler).
    A read takes at most ``allowance`` bytes (the handler's grant) when set."""

    allowance: int = 0

    def recv(self, buffer_size: int) -> Any:
        return super().recv(min(buffer_size, self.allowance) if self.allowance else buffer_size)


class CountedServer(_Counted, TcpServerConnection):
    """proxy.py's server connection, counted in ``ledger``."""

    def __init__(self, host: str, port: int, ledger: Ledger):
        super().__init__(host, port)
        self.ledger = ledger
        ledger.upstream = self
