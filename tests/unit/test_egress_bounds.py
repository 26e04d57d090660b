"""The egress proxy's bounds without Chrome (docs/security.md, "Egress proxy:
bounded buffers"): backpressure both ways, the stall timeout, the per-instance
budget, the request cap; and what a chained upstream proxy is sent
(``CONNECT ip:port``, SNI intact), and the port of a ``MAP`` rule without one.

The memory tests run the proxy as ``python -m tagcrawl.engine.egress`` and read its
``/proc/<pid>/status``: the issue this answers saw a client that reads nothing
take that process from 54 MB to 8.4 GB in 20 s.
"""
from __future__ import annotations

import socket
import ssl
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tagcrawl.engine.egress.flow import Limits
from tagcrawl.engine.egress.policy import EgressPolicy
from tagcrawl.engine.egress.rules import parse_rules
from tagcrawl.engine.egress.server import EgressServer
from tests.support import memory
from tests.support.egress_peers import EndlessOrigin, Push, SinkOrigin
from tests.support.web.proxy import RecordingProxy
from tests.unit.test_egress import _exchange, origin, resolver  # noqa: F401 - fixture

MB = memory.MB
FIXTURE_WEB_DIR = Path(__file__).parents[1] / "support" / "web"


def _read_head(sock: socket.socket) -> bytes:
    """Bytes up to the end of an HTTP head (or the connection)."""
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return head


@pytest.fixture
def endless():
    origin = EndlessOrigin()
    yield origin
    for push in origin.pushes:
        push.stop()
    origin.stop()


@pytest.fixture
def proxy_process():
    """Start ``python -m tagcrawl.engine.egress`` with a 3 s stall timeout; yields ``start(rules) -> (pid, port)``."""
    procs = []

    def start(rules: str) -> tuple[int, int]:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        proc = subprocess.Popen([sys.executable, "-m", "tagcrawl.engine.egress", "--listen", f"127.0.0.1:{port}",
                                 "--host-resolver-rules", rules, "--stall-timeout", "3"],
                                stdout=subprocess.PIPE, text=True)
        procs.append(proc)
        assert proc.stdout.readline().startswith("tagcrawl egress proxy on")
        return proc.pid, port

    yield start
    for proc in procs:
        proc.terminate()
        proc.wait(timeout=10)


def _warm(port: int) -> None:
    """One ordinary request, so the baseline includes the modules and threads a request needs."""
    assert _exchange(port, b"GET http://warm.example/ HTTP/1.1\r\nHost: warm.example\r\nConnection: close\r\n\r\n"
                     ).startswith(b"HTTP/1.1 200")


@pytest.mark.slow
def test_a_client_that_reads_nothing_stops_the_upstream_and_the_proxy_stays_small(proxy_process, endless, origin):
    pid, port = proxy_process(f"MAP warm.example 127.0.0.1:{origin}, MAP *.example 127.0.0.1:{endless.port}")
    _warm(port)
    base = memory.rss(pid)
    memory.reset_peak(pid)
    client = socket.create_connection(("127.0.0.1", port))
    client.sendall(b"GET http://endless.example/ HTTP/1.1\r\nHost: endless.example\r\n\r\n")  # and never read
    [push] = endless.wait_pushes(1)
    assert push.stuck.wait(30), f"the upstream pushed {push.sent // MB} MiB and was never held back"
    growth = memory.peak(pid) - base
    print(f"proxy {base // MB} MB, peak +{growth / MB:.1f} MB; upstream sent {push.sent / MB:.1f} MiB until held")
    assert growth < 200 * MB
    # 1 MiB in the proxy, the rest in the kernel's socket buffers (a few MiB each on loopback).
    assert push.sent < 64 * MB
    # Nothing moves either way: the stall timeout (3 s here) closes both sides.
    assert push.closed.wait(30), "the stalled connection was never closed"
    client.close()


@pytest.mark.slow
def test_an_upstream_that_reads_nothing_stops_the_client(proxy_process):
    sink = SinkOrigin()
    try:
        pid, port = proxy_process(f"MAP *.example 127.0.0.1:{sink.port}")
        client = socket.create_connection(("127.0.0.1", port))
        client.sendall(b"CONNECT upload.example:443 HTTP/1.1\r\nHost: upload.example:443\r\n\r\n")
        assert _read_head(client).startswith(b"HTTP/1.1 200")
        base = memory.rss(pid)
        memory.reset_peak(pid)
        push = Push(client).start()
        assert push.stuck.wait(30), f"the client pushed {push.sent // MB} MiB and was never held back"
        growth = memory.peak(pid) - base
        print(f"proxy peak +{growth / MB:.1f} MB; client sent {push.sent / MB:.1f} MiB until held")
        assert growth < 200 * MB and push.sent < 64 * MB
        assert push.closed.wait(30), "the stalled tunnel was never closed"
    finally:
        sink.stop()


@pytest.mark.slow
def test_the_budget_of_a_proxy_instance_bounds_all_its_connections_and_evicts_the_largest(endless, origin):
    limits = Limits(conn_bytes=256 * 1024, total_bytes=1024 * 1024, stall_s=60)
    server = EgressServer(EgressPolicy(parse_rules(f"MAP ok.example 127.0.0.1:{origin}, "
                                                   f"MAP *.example 127.0.0.1:{endless.port}")), limits=limits)
    clients = []
    try:
        port = server.port_for(None)
        for n in range(8):  # 8 x 256 KiB would be twice the budget
            client = socket.create_connection(("127.0.0.1", port))
            client.sendall(f"GET http://e{n}.example/ HTTP/1.1\r\nHost: e{n}.example\r\n\r\n".encode())
            clients.append(client)
        pushes = endless.wait_pushes(8)
        for push in pushes:  # each is held back, or closed to make room
            assert push.settled.wait(30), f"a push went on: {push.sent // MB} MiB"
        assert server.budget.evictions >= 1
        # Another crawl's request still gets through: the largest holder makes room for it.
        answer = _exchange(port, b"GET http://ok.example/fine HTTP/1.1\r\nHost: ok.example\r\nConnection: close\r\n\r\n")
        assert answer.endswith(b"ok.example /fine")
        assert server.budget.peak <= limits.total_bytes + 4096  # + the proxy's own answers
        for client in clients:
            client.close()
        assert server.budget.wait_idle(10) and server.budget.total == 0  # every byte given back
    finally:
        for client in clients:
            client.close()
        server.stop()


def test_a_plain_http_request_larger_than_the_connection_cap_gets_413(origin):
    """proxy.py parses a plain-http request whole before any plugin sees it;
    the proxy reads no more than the cap of it and answers 413."""
    cap = 64 * 1024
    server = EgressServer(EgressPolicy(parse_rules(f"MAP *.example 127.0.0.1:{origin}")),
                          limits=Limits(conn_bytes=cap, total_bytes=MB, stall_s=60))
    try:
        head = b"POST http://a.example/ HTTP/1.1\r\nHost: a.example\r\nContent-Length: 200000\r\n\r\n"
        with socket.create_connection(("127.0.0.1", server.port_for(None)), timeout=10) as sock:
            sock.sendall(head + b"x" * (cap - len(head)))  # the cap, and the rest still to come
            answer = _read_head(sock)
        assert answer.startswith(b"HTTP/1.1 413")
        assert b"Proxy-Status: tagcrawl-egress; error=http_request_error" in answer
        assert server.budget.wait_idle(10) and server.budget.total == 0  # the connection is gone, with what it held
    finally:
        server.stop()


# --- chained upstream proxy ---------------------------------------------------

class _TlsOrigin:
    """A TLS server (the fixture web's certificate) that records the SNI of each handshake."""

    def __init__(self):
        self.names: list[str | None] = []
        self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.tls.load_cert_chain(FIXTURE_WEB_DIR / "fixture.crt", FIXTURE_WEB_DIR / "fixture.key")
        self.tls.sni_callback = lambda sock, name, ctx: self.names.append(name)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            try:
                with self.tls.wrap_socket(conn, server_side=True) as tls:
                    request = _read_head(tls)
                    tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
                    tls.recv(1) if request else None
            except (OSError, ssl.SSLError):
                conn.close()


@pytest.fixture
def chained(origin):
    """An egress proxy chained to a recording upstream proxy; ``shop.example`` resolves to a public address."""
    tls_origin = _TlsOrigin()
    plain = RecordingProxy(origin, labels=("plain",)).start()
    tls = RecordingProxy(tls_origin.port, labels=("tls",)).start()
    refusing = RecordingProxy(_closed_port(), labels=("down",)).start()
    server = EgressServer(EgressPolicy(resolve=resolver({"shop.example": [["93.184.216.34"]],
                                                         "v6.example": [["2606:2800:220:1::1"]]})))
    yield server, plain, tls, refusing, tls_origin
    server.stop()
    for proxy in (plain, tls, refusing):
        proxy.stop()
    tls_origin.listener.close()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_chained_upstream_gets_connect_to_the_checked_address_and_the_sni_is_intact(chained):
    server, _, tls, _, tls_origin = chained
    port = server.port_for(f"http://127.0.0.1:{tls.ports['tls']}")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"CONNECT shop.example:443 HTTP/1.1\r\nHost: shop.example:443\r\nUser-Agent: UA/1\r\n\r\n")
        assert _read_head(sock).startswith(b"HTTP/1.1 200")
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        with context.wrap_socket(sock, server_hostname="shop.example") as wrapped:
            wrapped.sendall(b"GET / HTTP/1.1\r\nHost: shop.example\r\n\r\n")
            assert _read_head(wrapped).startswith(b"HTTP/1.1 200")
    [entry] = tls.entries("tls")
    assert (entry["method"], entry["target"]) == ("CONNECT", "93.184.216.34:443")  # never the name
    assert entry["sni"] == "shop.example"  # as the upstream saw the tunnel open
    assert tls_origin.names == ["shop.example"]  # as the server saw it
    assert entry["headers"]["Host"] == "93.184.216.34:443" and entry["headers"]["User-Agent"] == "UA/1"


def test_plain_http_goes_to_the_chained_upstream_through_a_tunnel_to_the_checked_address(chained):
    server, plain, _, _, _ = chained
    port = server.port_for(f"http://u:p@127.0.0.1:{plain.ports['plain']}")
    answer = _exchange(port, b"GET http://shop.example/x?y HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n"
                             b"Proxy-Connection: keep-alive\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"shop.example /x?y")  # Host kept
    [entry] = plain.entries("plain")
    assert (entry["method"], entry["target"]) == ("CONNECT", "93.184.216.34:80")
    assert entry["proxy_headers"]["Proxy-Authorization"] == "Basic dTpw"
    assert entry["tunnelled"] == {"method": "GET", "path": "/x?y", "host": "shop.example"}  # origin form
    ipv6 = _exchange(port, b"GET http://v6.example/ HTTP/1.1\r\nHost: v6.example\r\nConnection: close\r\n\r\n")
    assert ipv6.startswith(b"HTTP/1.1 200")
    assert plain.entries("plain")[1]["target"] == "[2606:2800:220:1::1]:80"


@pytest.mark.parametrize("request_head", [b"CONNECT shop.example:443 HTTP/1.1\r\nHost: shop.example:443\r\n\r\n",
                                          b"GET http://shop.example/ HTTP/1.1\r\nHost: shop.example\r\n\r\n"])
def test_an_upstream_refusal_is_a_502_naming_it(chained, request_head):
    server, _, _, refusing, _ = chained
    answer = _exchange(server.port_for(f"http://127.0.0.1:{refusing.ports['down']}"), request_head)
    assert answer.startswith(b"HTTP/1.1 502")
    assert b'error=http_request_denied; details="upstream proxy answered CONNECT with 502' in answer


# --- MAP without a port -------------------------------------------------------

def test_a_map_without_a_port_keeps_the_default_ports_never_the_pages():
    policy = EgressPolicy(parse_rules("MAP api.corp:8080 10.1.2.4:9000, MAP *.corp 10.1.2.3"), resolve=resolver({}))
    assert (policy.decide("a.corp", 443).address, policy.decide("a.corp", 443).port) == ("10.1.2.3", 443)
    assert policy.decide("a.corp", 80, tunnel=True).port == 80  # ws:// is a CONNECT to port 80
    assert policy.decide("a.corp", 80, tunnel=False).port == 80
    assert policy.decide("a.corp", 6379, tunnel=False).port == 80  # not the page's 6379
    assert policy.decide("a.corp", 8443, tunnel=True).port == 443
    assert policy.decide("api.corp", 8080, tunnel=False).port == 9000  # the rule's own port
    # Chrome's own reading, where the page keeps its port, is what rewrite gives without a default port.
    assert parse_rules("MAP *.corp 10.1.2.3").rewrite("a.corp", 6379) == ("10.1.2.3", 6379)


@pytest.mark.slow
def test_a_portless_map_cannot_be_steered_to_another_port_of_the_mapped_host(origin):
    """The origin listens on a port that is neither 80 nor 443; a page naming that
    port through a portless mapping does not reach it (it gets port 80 or 443)."""
    server = EgressServer(EgressPolicy(parse_rules("MAP *.corp 127.0.0.1")))
    try:
        port = server.port_for(None)
        answer = _exchange(port, f"GET http://a.corp:{origin}/x HTTP/1.1\r\nHost: a.corp\r\n\r\n".encode())
        assert not answer.endswith(b"a.corp /x")
        assert b"unreachable at 127.0.0.1:80" in answer or not answer.startswith(b"HTTP/1.1 502")
        tunnel = _exchange(port, f"CONNECT a.corp:{origin} HTTP/1.1\r\nHost: a.corp\r\n\r\n".encode())
        assert b"unreachable at 127.0.0.1:443" in tunnel or not tunnel.startswith(b"HTTP/1.1 502")
        mapped = EgressServer(EgressPolicy(parse_rules(f"MAP *.corp 127.0.0.1:{origin}")))
        try:  # a rule that names the port reaches it
            ok = _exchange(mapped.port_for(None), b"GET http://a.corp/x HTTP/1.1\r\nHost: a.corp\r\n"
                                                  b"Connection: close\r\n\r\n")
            assert ok.endswith(b"a.corp /x")
        finally:
            mapped.stop()
    finally:
        server.stop()
