"""Peers of the egress proxy for its buffer tests: something that pushes bytes
as fast as it can, an origin whose answer never ends, an origin that never reads.

A push is *stuck* when its socket has taken no byte for ``STUCK_S``: the send
buffer is full and the other side does not read.  Through a proxy that
buffers without limit a fast push is never stuck; through one with
backpressure it is, once the proxy's queue and the kernel buffers are full.
"""
from __future__ import annotations

import selectors
import socket
import threading

#: Seconds without progress after which a push counts as stuck.
STUCK_S = 1.0
RESPONSE_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n"


class Push:
    """Sends on ``sock`` as fast as it takes bytes, in a thread (``start``).

    Attributes:
        sent: bytes sent so far.
        stuck: set once no byte went for ``STUCK_S``.
        closed: set when the other side closed (a send failed); the push ends.
        settled: set with either.
    """

    def __init__(self, sock: socket.socket, head: bytes = b""):
        self.sock, self.head = sock, head
        self.sent = 0
        self.stuck = threading.Event()
        self.closed = threading.Event()
        self.settled = threading.Event()
        self._stop = threading.Event()

    def start(self) -> Push:
        threading.Thread(target=self._run, daemon=True, name="push").start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        block = memoryview(self.head + b"x" * (256 * 1024 - len(self.head)))
        self.sock.setblocking(False)
        with selectors.DefaultSelector() as sel:
            sel.register(self.sock, selectors.EVENT_WRITE)
            while not self._stop.is_set():
                try:
                    self.sent += self.sock.send(block)
                    block = memoryview(b"x" * (256 * 1024))
                except BlockingIOError:
                    if not sel.select(timeout=STUCK_S):
                        self.stuck.set()
                        self.settled.set()
                except OSError:
                    break
        self.closed.set()
        self.settled.set()
        self.sock.close()


class _Server:
    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Condition()
        threading.Thread(target=self._accept, daemon=True, name=type(self).__name__).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def serve(self, conn: socket.socket) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        self.listener.close()


class EndlessOrigin(_Server):
    """Reads a request head (up to 64 KiB), then answers with a body that never
    ends, pushed as fast as the connection takes it.  ``pushes``: one ``Push`` per request."""

    def __init__(self):
        self.pushes: list[Push] = []
        super().__init__()

    def serve(self, conn: socket.socket) -> None:
        head = b""
        conn.settimeout(10)
        try:
            while b"\r\n\r\n" not in head and len(head) < 65536:
                chunk = conn.recv(4096)
                if not chunk:
                    return conn.close()
                head += chunk
        except OSError:
            return conn.close()
        push = Push(conn, RESPONSE_HEAD)
        with self.lock:
            self.pushes.append(push)
            self.lock.notify_all()
        push.start()

    def wait_pushes(self, count: int, timeout_s: float = 30) -> list[Push]:
        """The first ``count`` pushes, once they have started (AssertionError on timeout)."""
        with self.lock:
            assert self.lock.wait_for(lambda: len(self.pushes) >= count, timeout=timeout_s), \
                f"{len(self.pushes)} of {count} requests reached the origin"
            return self.pushes[:count]


class SinkOrigin(_Server):
    """Accepts connections and never reads from them (they stay open until ``stop``)."""

    def __init__(self):
        self.conns: list[socket.socket] = []
        super().__init__()

    def serve(self, conn: socket.socket) -> None:
        with self.lock:
            self.conns.append(conn)
            self.lock.notify_all()

    def stop(self) -> None:
        super().stop()
        for conn in self.conns:
            conn.close()
