"""Internal "victim" listeners for the containment tests.

``Victim()`` listens on one port number, TCP and UDP, on both ``127.0.0.1``
and ``::1``, and records every TCP connection (at accept, before any byte)
and every UDP datagram in ``log`` as ``{"proto": "tcp"|"udp", "family": 4|6,
"peer": (host, port), "data": first bytes}``.  A TCP peer that sends an HTTP
request gets a small HTML page back, so an attack that did get through
would also "succeed" from the page's point of view.
"""
from __future__ import annotations

import selectors
import socket
import threading

PAGE = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nAccess-Control-Allow-Origin: *\r\n"
        b"Content-Length: 8\r\nConnection: close\r\n\r\ninternal")


def _bind_all(port: int) -> list[tuple[socket.socket, str, int]]:
    bound = []
    try:
        for family, host, tag in ((socket.AF_INET, "127.0.0.1", 4), (socket.AF_INET6, "::1", 6)):
            for kind, proto in ((socket.SOCK_STREAM, "tcp"), (socket.SOCK_DGRAM, "udp")):
                sock = socket.socket(family, kind)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind((host, port))
                if kind == socket.SOCK_STREAM:
                    sock.listen(64)
                bound.append((sock, proto, tag))
                port = sock.getsockname()[1]
    except OSError:
        for sock, _, _ in bound:
            sock.close()
        raise
    return bound


class Victim:
    """TCP+UDP listeners on 127.0.0.1 and [::1], same port; see the module docstring.

    Attributes:
        port: the port number (all four sockets).
        log: what reached the listeners.
    """

    def __init__(self):
        for _attempt in range(20):  # the v4 port may be taken on v6 or for UDP: try another
            try:
                self._socks = _bind_all(0)
                break
            except OSError:
                continue
        else:
            raise RuntimeError("no port free on 127.0.0.1 and ::1 for both TCP and UDP")
        self.port = self._socks[0][0].getsockname()[1]
        self.log: list[dict] = []
        self.lock = threading.Condition()
        self._wake_r, self._wake_w = socket.socketpair()
        self._thread = threading.Thread(target=self._run, daemon=True, name="victim")

    def start(self) -> Victim:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._wake_w.send(b"x")
        self._thread.join(timeout=5)
        for sock, _, _ in self._socks:
            sock.close()
        self._wake_r.close()
        self._wake_w.close()

    def _record(self, proto: str, family: int, peer, data: bytes) -> None:
        with self.lock:
            self.log.append({"proto": proto, "family": family, "peer": peer[:2], "data": data[:4096]})
            self.lock.notify_all()

    def _run(self) -> None:
        with selectors.DefaultSelector() as sel:
            sel.register(self._wake_r, selectors.EVENT_READ, None)
            for sock, proto, family in self._socks:
                sel.register(sock, selectors.EVENT_READ, (proto, family))
            while True:
                for key, _ in sel.select():
                    if key.data is None:
                        return
                    proto, family = key.data
                    if proto == "udp":
                        data, peer = key.fileobj.recvfrom(65536)
                        self._record("udp", family, peer, data)
                        continue
                    conn, peer = key.fileobj.accept()
                    self._record("tcp", family, peer, b"")
                    threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            try:
                data = conn.recv(4096)
                if data:
                    with self.lock:
                        self.log.append({"proto": "tcp-data", "family": 0, "peer": None, "data": data[:4096]})
                    if data[:4] in (b"GET ", b"POST", b"HEAD", b"OPTI"):
                        conn.sendall(PAGE)
            except OSError:
                pass

    def wait_for(self, predicate, timeout_s: float) -> bool:
        """Block until ``predicate(log)`` is true (woken by each record); False on timeout."""
        with self.lock:
            return self.lock.wait_for(lambda: predicate(self.log), timeout=timeout_s)

    def hits(self) -> list[dict]:
        with self.lock:
            return list(self.log)
